/**
 * The playground in a real browser, as a designer uses it: open the default pack, break a rule and
 * see the compiler's message underlined, fix it, play a 3-player game against bots, change the
 * rules mid-game and watch the game replay under them, reload and find everything kept.
 *
 * The editor is driven through the keyboard; Monaco's API is used only to place the cursor and to
 * read what the page shows (markers, model text). The expected messages come from running the
 * real compiler on the same text.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { compile } from '../../compiler/index.ts';
import { instantBots, status, watchErrors } from './harness.ts';
import { usePlayground } from './use-playground.ts';

/** The pack's files as the page has them (not the disk, which may change while the test runs). */
async function packFiles(page: Page): Promise<Array<{ path: string; text: string }>> {
  return page.evaluate(() => {
    const ed = (window as unknown as { playground: { editor: { packFiles: string[]; model(p: string): { getValue(): string } | undefined } } }).playground.editor;
    return ed.packFiles.filter((p) => !p.startsWith('scenarios/')).map((path) => ({ path, text: ed.model(path)!.getValue() }));
  });
}

// What the test reads from the page's window (see playground/src/main.ts).
interface PageHandle {
  playground: {
    editor: {
      open(path: string): void;
      currentFile: string;
      model(path: string): { getValue(): string; getPositionAt(o: number): { lineNumber: number; column: number }; uri: unknown } | undefined;
      editor: { setPosition(p: { lineNumber: number; column: number }): void; setSelection(r: unknown): void; focus(): void; revealLineInCenter(l: number): void };
    };
    monaco: { editor: { getModelMarkers(f: { resource?: unknown }): Array<{ message: string; code?: unknown; startLineNumber: number; startColumn: number; severity: number }> }; Range: new (a: number, b: number, c: number, d: number) => unknown };
    state(): { players: string[]; e: Record<string, Record<string, unknown>>; choices: string[]; log: Array<{ text: string; player?: string; rule?: string }> } | undefined;
  };
}

/** Put the cursor at an offset of a file, through the editor as a click would. */
async function placeCursor(page: Page, path: string, offset: number, endOffset = offset) {
  await page.click(`[data-testid="file-${path}"]`);
  await page.evaluate(
    ({ path, offset, endOffset }) => {
      const ed = (window as unknown as PageHandle).playground.editor;
      ed.open(path);
      const m = ed.model(path)!;
      const s = m.getPositionAt(offset);
      const e = m.getPositionAt(endOffset);
      const M = (window as unknown as PageHandle).playground.monaco;
      ed.editor.setSelection(new M.Range(s.lineNumber, s.column, e.lineNumber, e.column));
      ed.editor.revealLineInCenter(s.lineNumber);
      ed.editor.focus();
    },
    { path, offset, endOffset },
  );
}

async function modelText(page: Page, path: string): Promise<string> {
  return page.evaluate((path) => (window as unknown as PageHandle).playground.editor.model(path)?.getValue() ?? '', path);
}

async function gameState(page: Page) {
  return page.evaluate(() => (window as unknown as PageHandle).playground.state());
}

/** Waits until the human (P1) has enabled choices, the bots having played. */
async function humanTurn(page: Page) {
  await page.waitForSelector('[data-testid=choice]:not([disabled])', { timeout: 60_000 });
}

describe('playground', () => {
  const pg = usePlayground();

  it('edits, plays, replays under new rules and keeps the work across a reload', async () => {
    const context = await pg.browser.newContext({ viewport: { width: 1366, height: 768 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(pg.url);

    // ── The default pack opens and compiles. ──
    await page.waitForSelector('[data-testid="file-pack.yaml"]');
    expect(await page.inputValue('[data-testid=pack-select]')).toBe('content/smallworld-wow');
    expect(await status(page)).toBe('ok');
    expect(await page.textContent('[data-testid=problem-count]')).toBe('0');

    // ── A type error in a rule is underlined with the compiler's own message. ──
    const files = await packFiles(page);
    const target = files.find((f) => f.path === 'rules/conquest.yaml') ?? files.find((f) => /^rules: \|\n/m.test(f.text))!;
    const header = target.text.indexOf('rules: |\n');
    expect(header).toBeGreaterThanOrEqual(0);
    const lineStart = header + 'rules: |\n'.length;
    const indent = /^ */.exec(target.text.slice(lineStart))![0].length;
    const at = lineStart + indent;
    const broken = 'fn brokenOnPurpose(): number = true';
    const edited = `${target.text.slice(0, at)}${broken}\n${' '.repeat(indent)}${target.text.slice(at)}`;
    const expected = compile(files.map((f) => (f.path === target.path ? { ...f, text: edited } : f))).diagnostics.find((d) => d.severity === 'error' && d.file === target.path);
    expect(expected, 'the compiler reports the broken function').toBeDefined();

    await placeCursor(page, target.path, at);
    await page.keyboard.type(broken);
    // The suggestions asked for while typing come from the worker and may open once the word is
    // typed, offering that word (`true`) first: the designer's Enter still makes a new line.
    await page.waitForFunction(() => document.querySelector('.monaco-editor .suggest-widget.visible .monaco-list-row.focused .label-name')?.textContent === 'true');
    await page.keyboard.press('Enter');
    expect(await modelText(page, target.path)).toBe(edited);
    expect(await status(page)).toBe('errors');
    await page.waitForSelector('[data-testid=problem]');
    const problem = await page.textContent('[data-testid=problem]');
    expect(problem).toContain(expected!.message);
    expect(problem).toContain(`${target.path}:${expected!.line}:${expected!.column}`);
    // The underline: a marker at the compiler's span, drawn as a squiggle in the editor.
    const markers = await page.evaluate((path) => {
      const pg = (window as unknown as PageHandle).playground;
      return pg.monaco.editor.getModelMarkers({ resource: pg.editor.model(path)!.uri });
    }, target.path);
    expect(markers.some((m) => m.message.startsWith(expected!.message) && m.startLineNumber === expected!.line && m.startColumn === expected!.column)).toBe(true);
    await page.waitForSelector('.monaco-editor .squiggly-error');

    // ── Fixing it clears the problem. ──
    await placeCursor(page, target.path, at, at + broken.length + 1 + indent);
    await page.keyboard.press('Backspace');
    expect(await modelText(page, target.path)).toBe(target.text);
    expect(await status(page)).toBe('ok');
    await page.waitForFunction(() => document.querySelector('[data-testid=problem-count]')?.textContent === '0');
    expect(await page.$('.monaco-editor .squiggly-error')).toBeNull();

    // ── A 3-player game: P1 human, two bots. ──
    await page.waitForSelector('[data-testid=game-setup]');
    await page.selectOption('[data-testid=player-count]', '3');
    await page.selectOption('[data-testid=seat-0]', 'human');
    await page.selectOption('[data-testid=seat-1]', 'bot');
    await page.selectOption('[data-testid=seat-2]', 'bot');
    await page.fill('[data-testid=seed]', '7');
    await page.click('[data-testid=start-game]');
    await page.waitForSelector('[data-testid=board]');
    expect(await page.$$eval('[data-testid=game] .players .player-card', (els) => els.length)).toBe(3);
    await page.selectOption('[data-testid=bot-speed]', 'instant');

    // P1's first move with a button, then a move made by clicking the board.
    await humanTurn(page);
    let st = (await gameState(page))!;
    const p1 = st.players[0];
    if (!(await page.$('[data-testid=board] .node.pickable'))) {
      await page.click('[data-testid=choice]:not([disabled])');
      await page.waitForFunction((n) => ((window as unknown as PageHandle).playground.state()?.choices.length ?? 0) > n, st.choices.length);
      await humanTurn(page);
    }
    st = (await gameState(page))!;
    const race = String(st.e[p1].race);
    const handBefore = Number(st.e[p1].hand);
    expect(race, 'P1 has taken a race').not.toBe('null');
    const node = await page.waitForSelector('[data-testid=board] .node.pickable', { timeout: 30_000 });
    const entity = await node.getAttribute('data-entity');
    const stepsBefore = st.choices.length;
    // By selector, not by handle: the board may be redrawn between finding the node and clicking it.
    await page.click(`[data-testid=board] .node.pickable[data-entity="${entity}"]`);
    // A node named by several choices (conquer, final conquest…) opens a menu of them.
    const menuItem = await page.$('[data-testid=pick-menu] button');
    if (menuItem) await menuItem.click();
    await page.waitForFunction((n) => ((window as unknown as PageHandle).playground.state()?.choices.length ?? 0) > n, stepsBefore);
    st = (await gameState(page))!;
    expect(st.choices[stepsBefore]).toContain(entity!);
    expect(st.e[entity!].owner).toBe(p1);
    const handAfterMove = Number(st.e[p1].hand);
    expect(handAfterMove).toBeLessThan(handBefore);
    expect(await page.textContent(`[data-testid=field-${p1}-hand]`)).toBe(String(handAfterMove));
    const logTexts = await page.$$eval('[data-testid=log-entry]', (els) => els.map((e) => e.textContent ?? ''));
    expect(logTexts.length).toBeGreaterThan(0);
    // The log names the rule behind each entry; clicking it opens that rule.
    const ruleOf = st.log.filter((e) => e.rule).pop()!.rule!;
    const [ruleFile, ruleLine] = /^(.+?):(\d+)/.exec(ruleOf)!.slice(1);
    await page.locator('[data-testid=log-rule]').last().click();
    await page.waitForFunction(
      ({ file, line }) => {
        const ed = (window as unknown as { playground: { editor: { currentFile: string; editor: { getPosition(): { lineNumber: number } } } } }).playground.editor;
        return ed.currentFile === file && ed.editor.getPosition().lineNumber === line;
      },
      { file: ruleFile, line: Number(ruleLine) },
    );
    const steps = st.choices.length;

    // ── Change P1's race mid-game: the choices replay under the new rules. ──
    const raceFile = files.find((f) => new RegExp(`race: ${race}\\b`).test(f.text))!;
    expect(raceFile, `a file declares race ${race}`).toBeDefined();
    const tokensAt = raceFile.text.search(/^\s+tokens: \d+/m);
    const tokensLine = /^(\s+tokens: )(\d+)/m.exec(raceFile.text)!;
    const numberAt = tokensAt + tokensLine[1].length;
    const oldTokens = Number(tokensLine[2]);
    await placeCursor(page, raceFile.path, numberAt, numberAt + tokensLine[2].length);
    await page.keyboard.type(String(oldTokens + 3));
    expect(await status(page)).toBe('ok');
    await page.waitForFunction(
      ({ p1, hand }) => Number((window as unknown as PageHandle).playground.state()?.e[p1].hand) === hand,
      { p1, hand: handAfterMove + 3 },
      { timeout: 30_000 },
    );
    expect(await page.textContent(`[data-testid=field-${p1}-hand]`)).toBe(String(handAfterMove + 3));
    expect((await gameState(page))!.choices.length).toBe(steps);
    expect(await page.$('[data-testid=replay-stopped]')).toBeNull();

    // ── And its ability: a rule pasted into the race pays its holder 10 coins a conquest. ──
    st = (await gameState(page))!;
    const coinsBefore = Number(st.e[p1].coins);
    const raceText = await modelText(page, raceFile.path);
    const fieldIndent = /^([ \t]*)tokens: \d+/m.exec(raceText)![1];
    const ability = (indent: string) => `${indent}on conquered(r, attacker, loser, lostRace) when attacker == holder {\n${indent}  holder.coins += 10\n${indent}}\n`;
    const ownRules = new RegExp(`^${fieldIndent}rules: \\|[ \\t]*\\n`, 'm').exec(raceText);
    const insertAt = ownRules ? ownRules.index + ownRules[0].length : raceText.indexOf('\n', raceText.search(/^[ \t]*tokens: \d+/m)) + 1;
    const pasted = ownRules ? ability(`${fieldIndent}  `) : `${fieldIndent}rules: |\n${ability(`${fieldIndent}  `)}`;
    await placeCursor(page, raceFile.path, insertAt);
    await page.evaluate((text) => (window as unknown as { playground: { editor: { editor: { trigger(s: string, h: string, p: unknown): void } } } }).playground.editor.editor.trigger('keyboard', 'paste', { text }), pasted);
    expect(await modelText(page, raceFile.path)).toBe(raceText.slice(0, insertAt) + pasted + raceText.slice(insertAt));
    expect(await status(page)).toBe('ok');
    await page.waitForFunction(({ p1, coins }) => Number((window as unknown as PageHandle).playground.state()?.e[p1].coins) === coins, { p1, coins: coinsBefore + 10 }, { timeout: 30_000 });
    expect(await page.textContent(`[data-testid=field-${p1}-coins]`)).toBe(String(coinsBefore + 10));
    expect((await gameState(page))!.choices.length).toBe(steps);

    // ── Reload: the edit and the game are still there. ──
    await page.reload();
    expect(await status(page)).toBe('ok');
    expect(await modelText(page, raceFile.path)).toContain(`tokens: ${oldTokens + 3}`);
    expect(await modelText(page, raceFile.path)).toContain('holder.coins += 10');
    await page.waitForFunction(({ p1, hand }) => Number((window as unknown as PageHandle).playground.state()?.e[p1].hand) === hand, { p1, hand: handAfterMove + 3 });
    expect(Number((await gameState(page))!.e[p1].coins)).toBe(coinsBefore + 10);
    expect((await gameState(page))!.choices.length).toBe(steps);
    await page.click(`[data-testid="file-${raceFile.path}"]`);
    await page.waitForSelector('[data-testid=file-title] .edited');

    expect(errors).toEqual([]);
    await context.close();
  });

  it('offers completion, hover, quick fixes, zip export and import, and share links', async () => {
    const context = await pg.browser.newContext({ viewport: { width: 1366, height: 768 }, acceptDownloads: true });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(pg.url);
    expect(await status(page)).toBe('ok');
    const files = await packFiles(page);

    // ── Colouring: YAML around, the rules language inside `rules: |` blocks at any indentation. ──
    const tokens = await page.evaluate(() => {
      const M = (window as unknown as { playground: { monaco: { editor: { tokenize(t: string, l: string): Array<Array<{ offset: number; type: string }>> } } } }).playground.monaco;
      const text = 'entities:\n  - race: orcs\n    rules: |\n      on conquered(r) when r.owner == me {\n        let n = count(neighbours(r))\n      }\n    text: on the road\nrules: |\n  fn f(): number = 1\n';
      const lines = text.split('\n');
      return M.editor.tokenize(text, 'rulebook-yaml').flatMap((line, i) => line.map((t, j) => [lines[i].slice(t.offset, line[j + 1]?.offset).trim(), t.type.replace(/\.rb$/, '')]).filter(([w]) => w));
    });
    const typeOf = (word: string, nth = 0) => tokens.filter(([w]) => w === word)[nth]?.[1];
    expect(typeOf('rules')).toBe('key.rules');
    expect(typeOf('on')).toBe('keyword');
    expect(typeOf('let')).toBe('keyword');
    expect(typeOf('owner')).toBe('field');
    expect(typeOf('count')).toBe('call');
    expect(typeOf('fn')).toBe('keyword');
    expect(typeOf('number')).toBe('type');
    expect(typeOf('text')).toBe('key');
    expect(typeOf('on the road')).toBe('string.plain');

    // ── Completion in a rules block: the pack's names and the language's keywords. ──
    const rulesFile = files.find((f) => f.path === 'rules/conquest.yaml')!;
    const endOfRules = rulesFile.text.length;
    await placeCursor(page, rulesFile.path, endOfRules);
    await page.keyboard.type('  ');
    await page.keyboard.press('Control+Space');
    await page.waitForSelector('.monaco-editor .suggest-widget.visible .monaco-list-row');
    await page.keyboard.type('conq');
    await page.waitForFunction(() => [...document.querySelectorAll('.suggest-widget .monaco-list-row')].some((r) => r.textContent?.includes('conquestCost')));
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+Space');
    await page.keyboard.press('Escape');
    // Restore the file exactly (select all and retype would go through auto-indent, so undo instead).
    for (let i = 0; i < 5 && (await modelText(page, rulesFile.path)) !== rulesFile.text; i++) await page.keyboard.press('Control+Z');
    expect(await modelText(page, rulesFile.path)).toBe(rulesFile.text);

    // ── Hover on an entity id: its kind and its name and text in each language. ──
    const board = files.find((f) => f.path === 'boards/small1.yaml')!;
    const regionRef = board.text.indexOf('adjacent: [') + 'adjacent: ['.length;
    const regionId = /^[A-Za-z0-9_]+/.exec(board.text.slice(regionRef))![0];
    await placeCursor(page, board.path, regionRef + 1);
    await page.evaluate(() => (window as unknown as { playground: { editor: { editor: { trigger(a: string, b: string, c: unknown): void } } } }).playground.editor.editor.trigger('test', 'editor.action.showHover', {}));
    const hover = await page.waitForSelector('.monaco-hover-content', { state: 'visible' });
    await page.waitForFunction(() => (document.querySelector('.monaco-hover-content')?.textContent ?? '').includes('region'));
    const hoverText = (await hover.textContent()) ?? '';
    expect(hoverText).toContain(regionId);
    expect(hoverText).toMatch(/en:/);
    expect(hoverText).toMatch(/pl:/);
    await page.keyboard.press('Escape');

    // ── Go to definition of that id opens where the region is declared. ──
    await page.keyboard.press('F12');
    const declared = board.text.search(new RegExp(`^[ \\t]*- region: ${regionId}\\b`, 'm'));
    const declaredLine = board.text.slice(0, declared).split('\n').length;
    await page.waitForFunction(
      ({ id, line }) => {
        const ed = (window as unknown as { playground: { editor: { editor: { getModel(): { getWordAtPosition(p: unknown): { word: string } | null }; getPosition(): { lineNumber: number } } } } }).playground.editor.editor;
        const p = ed.getPosition();
        return p.lineNumber === line && ed.getModel().getWordAtPosition(p)?.word === id;
      },
      { id: regionId, line: declaredLine },
    );

    // ── Shift+F12 lists where the id is used, across the pack's files. ──
    await page.keyboard.press('Shift+F12');
    await page.waitForSelector('.reference-zone-widget');
    await page.keyboard.press('Escape');

    // ── A misspelt enum value: the compiler's safe fix is offered and applied. ──
    const terrainAt = board.text.indexOf('terrain: forest') + 'terrain: '.length;
    await placeCursor(page, board.path, terrainAt + 'fores'.length);
    await page.keyboard.type('r');
    expect(await status(page)).toBe('errors');
    const fix = await page.waitForSelector('[data-testid=apply-fix]');
    expect(await fix.textContent()).toContain('forest');
    await fix.click();
    expect(await modelText(page, board.path)).toBe(board.text);
    expect(await status(page)).toBe('ok');

    // ── Export a zip of the edited pack, import it back as a new pack. ──
    await placeCursor(page, 'pack.yaml', 0);
    await page.keyboard.type('# exported copy\n');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-pack]')]);
    const zipPath = await download.path();
    expect(download.suggestedFilename()).toBe('smallworld-wow.zip');
    await page.setInputFiles('[data-testid=import-input]', zipPath!);
    await page.waitForFunction(() => (document.querySelector('[data-testid=pack-select]') as HTMLSelectElement).value.startsWith('local/'));
    expect(await modelText(page, 'pack.yaml')).toContain('# exported copy');
    expect(await status(page)).toBe('ok');

    // ── Malformed imports are refused with a reason. ──
    await page.setInputFiles('[data-testid=import-input]', { name: 'notes.zip', mimeType: 'application/zip', buffer: Buffer.from('this is not a zip') });
    await page.waitForSelector('[data-testid=toast][data-kind=error]');
    expect(await page.textContent('[data-testid=toast]')).toContain('not a readable zip');
    const noManifest = zipSync({ 'mypack/rules.yaml': strToU8('rules: |\n  flow { }\n') });
    await page.setInputFiles('[data-testid=import-input]', { name: 'nomanifest.zip', mimeType: 'application/zip', buffer: Buffer.from(noManifest) });
    await page.waitForFunction(() => document.querySelector('[data-testid=toast]')?.textContent?.includes('no pack.yaml'));
    const escape = zipSync({ 'pack.yaml': strToU8('id: evil\n'), '../outside.yaml': strToU8('x: 1\n') });
    await page.setInputFiles('[data-testid=import-input]', { name: 'evil.zip', mimeType: 'application/zip', buffer: Buffer.from(escape) });
    await page.waitForFunction(() => document.querySelector('[data-testid=toast]')?.textContent?.includes('outside its folder'));

    // ── A share link carries the edits, the seed and the moves to another browser. ──
    await page.selectOption('[data-testid=pack-select]', 'content/smallworld-wow');
    expect(await status(page)).toBe('ok');
    await page.fill('[data-testid=seed]', '11');
    await page.click('[data-testid=start-game]');
    await instantBots(page);
    await humanTurn(page);
    await page.click('[data-testid=choice]:not([disabled])');
    await page.waitForFunction(() => ((window as unknown as PageHandle).playground.state()?.choices.length ?? 0) >= 1);
    await humanTurn(page);
    const shared = (await gameState(page))!;
    await page.click('[data-testid=share]');
    const link = await page.inputValue('[data-testid=share-link]');
    expect(link).toMatch(/#share=/);

    const other = await pg.browser.newContext({ viewport: { width: 1366, height: 768 } });
    const page2 = await other.newPage();
    const errors2 = watchErrors(page2);
    await page2.goto(link);
    expect(await status(page2)).toBe('ok');
    expect(await page2.inputValue('[data-testid=pack-select]')).toMatch(/^local\/smallworld-wow-shared/);
    expect(await modelText(page2, 'pack.yaml')).toContain('# exported copy');
    await page2.waitForFunction((n) => (window as unknown as PageHandle).playground.state()?.choices.length === n, shared.choices.length);
    expect((await gameState(page2))!.choices).toEqual(shared.choices);
    expect((await gameState(page2))!.e).toEqual(shared.e);

    // ── A new pack starts as a small game that compiles and plays. ──
    await page.click('[data-testid=new-pack]');
    await page.fill('[data-testid=dialog-input]', 'my-game');
    await page.click('[data-testid=dialog-ok]');
    await page.waitForFunction(() => (document.querySelector('[data-testid=pack-select]') as HTMLSelectElement).value === 'local/my-game');
    expect(await status(page)).toBe('ok');
    await page.click('[data-testid=start-game]');
    await page.waitForSelector('[data-testid=board] .node.pickable');
    expect(await page.$$eval('[data-testid=board] .node', (els) => els.length)).toBeGreaterThan(1);

    expect(errors).toEqual([]);
    expect(errors2).toEqual([]);
    await other.close();
    await context.close();
  });
});
