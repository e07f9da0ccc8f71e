/**
 * `npx tsx bench/playground.ts`: figures, not assertions. In headless Chromium on the playground:
 * how long from a keystroke in a rules block to the compiler's diagnostics on screen, and from a
 * keystroke that leaves the pack valid to the game in progress (MOVES choices, default 150, played
 * by bots in every seat) replayed under the new rules and drawn. Two such keystrokes: one that
 * mends the rules as they were (the game need not be played again), and one that edits a card in
 * play from the game's first choices (a digit of the Worgen's human form, picked at the first
 * choice of seed 3's game), so that the replay plays nearly every choice again; the page reports
 * how many choices its replay kept (playground/src/replay-line.ts).
 *
 * "On screen" is measured in the page, the same way for any checkout: from the keydown's own time
 * stamp (when the browser took the key) to the first frame painted after the compile status shows
 * the state awaited and the editor's squiggles agree (an error underlined, or none left), or after
 * the game pane changed, for a replay. The figures seen from here, around Playwright's calls, are
 * printed too: they add the DevTools protocol's round trips and the polling of the wait, which no
 * designer waits for.
 *
 * BASE=<folder of another checkout> serves that checkout's playground too and alternates rounds
 * between the two pages, so that both meet the same load. This checkout's pages also report each
 * step of the way (playground/src/trace.ts).
 *
 * The keystrokes alternate: `@` breaks the rules, Backspace mends them, and the card's digit goes
 * from 2 to 3 and back, so the texts compiled alternate between a few; the worker's compile session
 * (compiler/incremental.ts) has them all in memory after the first round.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import * as harness from '../test/e2e/harness.ts';
import type { KeystrokeTrace, ReplayTrace } from '../playground/src/trace.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 20);
const MOVES = Number(process.env.MOVES ?? 150);
/** Before and after each side's round, time for the work a compile leaves for later (symbols, card texts, scenarios) to end. */
const SETTLE_MS = Number(process.env.SETTLE_MS ?? 1500);

interface Handle {
  playground: {
    editor: {
      open(p: string): void;
      model(p: string): { getValue(): string; getPositionAt(o: number): { lineNumber: number; column: number } };
      editor: { setPosition(p: { lineNumber: number; column: number }): void; setSelection(r: { startLineNumber: number; startColumn: number; endLineNumber: number; endColumn: number }): void; focus(): void };
    };
    app: { played?: { version: number }; game: { toggleSeat(i: number): void; replayTrace?: ReplayTrace }; timing: KeystrokeTrace | Record<string, number> };
    state(): { choices: string[] } | undefined;
  };
  probe: Probe;
}

/** What the page notes of one keystroke, whatever checkout it runs (installProbe). */
interface Probe {
  key: number;
  want: string;
  before: number;
  diag: number;
  diagPainted: number;
  replay: number;
  replayPainted: number;
}

function stats(label: string, xs: number[]) {
  if (!xs.length) return;
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  const unit = label.includes('(a count)') ? '' : ' ms';
  const total = unit ? '' : `, total ${s.reduce((a, b) => a + b, 0)}`;
  console.log(`${label}: median ${q(0.5).toFixed(0)}${unit}, p90 ${q(0.9).toFixed(0)}${unit}, max ${s[s.length - 1].toFixed(0)}${unit}${total} (${s.length})`);
}

/** Where the playground keeps its packs and games in the browser (playground/src/workspace.ts). */
const STORAGE_KEY = 'rulebook.playground.v1';

/**
 * A page with a game of MOVES choices in progress and the cursor in a rules block. The game is
 * played by bots on the first page, and resumed from what that page saved on the others.
 */
async function prepare(browser: Browser, url: string, saved?: string): Promise<{ page: Page; moves: number; saved: string }> {
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  // Before the page's code runs: a page that had loaded would save its own workspace over it as it unloads.
  if (saved) await page.addInitScript(([k, v]) => localStorage.setItem(k, v), [STORAGE_KEY, saved]);
  await page.goto(url, { timeout: 180_000 });
  await harness.compileState(page, 'ok', 900_000);
  if (!saved) await playByBots(page);
  const moves = await page.waitForFunction(() => (window as unknown as Handle).playground.state()?.choices.length ?? false, null, { timeout: 900_000, polling: 250 }).then((h) => h.jsonValue() as Promise<number>);

  await page.evaluate(installProbe);
  // Saved at once, as on leaving the page.
  await page.evaluate(() => dispatchEvent(new Event('pagehide')));
  return { page, moves, saved: await page.evaluate((k) => localStorage.getItem(k) ?? '', STORAGE_KEY) };
}

/**
 * A game in progress, so that every good compile also replays it: bots in every seat play it to
 * MOVES choices, then the seats are handed to the designer and the game waits.
 */
async function playByBots(page: Page) {
  await page.fill('[data-testid=seed]', '3');
  const seats = await page.locator('select[data-testid^=seat-]').count();
  for (let i = 0; i < seats; i++) await page.selectOption(`[data-testid=seat-${i}]`, 'bot');
  await page.click('[data-testid=start-game]');
  await page.selectOption('[data-testid=bot-speed]', 'instant');
  await page.waitForFunction((n) => {
    const st = (window as unknown as Handle).playground.state();
    return !!st && (st.choices.length >= n || (st as { over?: boolean }).over === true);
  }, MOVES, { timeout: 900_000, polling: 250 });
  await page.evaluate((n) => {
    for (let i = 0; i < n; i++) (window as unknown as Handle).playground.app.game.toggleSeat(i);
  }, seats);
  // Wait until no bot move is on its way: the number of choices holds still.
  let last = -1;
  for (;;) {
    const n = (await page.evaluate(() => (window as unknown as Handle).playground.state()?.choices.length)) ?? 0;
    if (n === last) break;
    last = n;
    await page.waitForTimeout(500);
  }
}

/**
 * In the page: the keydown's time stamp, the moment the compile status turns to the state awaited
 * with the squiggles to match, and the moment the game pane changes for a newer pack, each with the
 * end of the frame that paints it: the frame under way when the change was made in one's
 * requestAnimationFrame callbacks, else the next (a message posted from a requestAnimationFrame
 * callback is handled once that frame is done).
 * Source text, not a function: tsx would wrap the function's inner functions in a helper the page lacks.
 */
const installProbe = `(() => {
  const app = window.playground.app;
  const probe = { key: 0, want: '', before: 0, diag: 0, diagPainted: 0, replay: 0, replayPainted: 0 };
  window.probe = probe;
  // A change made by a frame's requestAnimationFrame callbacks (whoever's: the page's, Monaco's) is
  // painted in that frame, one made in any other task in the next. A frame is open from its first
  // callback to its layout: a ResizeObserver's callback, which runs after the frame's layout and
  // before its paint, closes it (a probe element changes width in every frame opened, so that it
  // runs). A message posted then is handled once the frame is done: that is when it is painted.
  const raf = window.requestAnimationFrame.bind(window);
  let open = false;
  const waiting = [];
  const painted = new MessageChannel();
  painted.port1.onmessage = () => {
    const at = performance.now();
    for (const then of waiting.splice(0)) then(at);
  };
  const probeBox = document.createElement('div');
  probeBox.style.cssText = 'position:fixed;left:0;top:0;height:0;width:1px;visibility:hidden;pointer-events:none';
  document.body.append(probeBox);
  new ResizeObserver(() => {
    if (!open) return;
    open = false;
    painted.port2.postMessage(0);
  }).observe(probeBox);
  window.requestAnimationFrame = (cb) => raf((ts) => {
    if (!open) {
      open = true;
      probeBox.style.width = probeBox.style.width === '1px' ? '2px' : '1px';
    }
    cb(ts);
  });
  const afterPaint = (then) => (open ? waiting.push(then) : window.requestAnimationFrame(() => waiting.push(then)));
  document.addEventListener('keydown', (ev) => {
    Object.assign(probe, { key: ev.timeStamp, before: app.played?.version ?? 0, diag: 0, diagPainted: 0, replay: 0, replayPainted: 0 });
  }, true);
  const status = document.querySelector('[data-testid=compile-status]');
  const editor = document.querySelector('[data-testid=editor]');
  // Both the status and the text's squiggles: an error underlined at the keystroke, or none left.
  const shown = () => status.getAttribute('data-state') === probe.want && !!editor.querySelector('.squiggly-error') === (probe.want === 'errors');
  const check = () => {
    if (probe.key && !probe.diag && shown()) {
      probe.diag = performance.now();
      afterPaint((at) => (probe.diagPainted = at));
    }
  };
  new MutationObserver(check).observe(status, { attributes: true, attributeFilter: ['data-state'] });
  new MutationObserver(check).observe(editor, { childList: true, subtree: true });
  new MutationObserver(() => {
    if (probe.key && !probe.replay && (app.played?.version ?? 0) > probe.before) {
      probe.replay = performance.now();
      afterPaint((at) => (probe.replayPainted = at));
    }
  }).observe(document.querySelector('[data-testid=game]'), { childList: true, subtree: true, attributes: true });
})()`;

/** The first rules line of rules/conquest.yaml, where `@` breaks the rules and Backspace mends them. */
const RULES_START = { path: 'rules/conquest.yaml', find: 'rules: |\n', after: 'rules: |\n'.length, column: 3, select: 0 };
/** The Worgen's human form's coins (`holder.coins += 2`): its digit selected, so that one keystroke replaces it. */
const CARD_DIGIT = { path: 'races/worgen.yaml', find: 'if form == human {\n            holder.coins += ', after: 'if form == human {\n            holder.coins += '.length, column: 0, select: 1 };

/** The editor's cursor (or a selection of `select` characters) just after `find` in `path`, or at `column` of that line. */
async function placeCursor(page: Page, at: typeof RULES_START) {
  await page.evaluate((a) => {
    const ed = (window as unknown as Handle).playground.editor;
    ed.open(a.path);
    const m = ed.model(a.path);
    const offset = m.getValue().indexOf(a.find);
    if (offset < 0) throw new Error(`no ${JSON.stringify(a.find)} in ${a.path}`);
    const p = m.getPositionAt(offset + a.after);
    const column = a.column || p.column;
    ed.editor.setSelection({ startLineNumber: p.lineNumber, startColumn: column, endLineNumber: p.lineNumber, endColumn: column + a.select });
    ed.editor.focus();
  }, at);
}

interface Side {
  name: string;
  page: Page;
  moves: number;
  figures: Map<string, number[]>;
}

function note(side: Side, label: string, ms: number) {
  if (!side.figures.has(label)) side.figures.set(label, []);
  side.figures.get(label)!.push(ms);
}

const waitProbe = (page: Page, field: 'diagPainted' | 'replayPainted') =>
  page.waitForFunction((f) => {
    const p = (window as unknown as Handle).probe;
    return p[f] > 0 ? p : false;
  }, field, { timeout: 120_000, polling: 'raf' }).then((h) => h.jsonValue() as Promise<Probe>);

/** This checkout's own trace of the last keystroke and replay, when the page keeps one. */
async function traces(page: Page): Promise<{ k?: KeystrokeTrace; r?: ReplayTrace }> {
  return page.waitForFunction(() => {
    const app = (window as unknown as Handle).playground.app;
    const k = app.timing as KeystrokeTrace;
    if (typeof k.key !== 'number') return {};
    const r = app.game.replayTrace;
    return k.painted > 0 && (!r || r.painted > 0) ? { k, r } : false;
  }, null, { timeout: 120_000, polling: 'raf' }).then((h) => h.jsonValue() as Promise<{ k?: KeystrokeTrace; r?: ReplayTrace }>);
}

function steps(side: Side, k: KeystrokeTrace, r?: ReplayTrace, replay = '') {
  note(side, 'key → editor reports the edit', k.edit - k.key);
  note(side, 'edit → compile asked', k.sent - k.edit);
  note(side, 'asked → taken by the worker', k.workerGot - k.sent);
  note(side, 'taken → diagnostics posted (worker)', k.workerSent - k.workerGot);
  note(side, '  of which the check', k.workerMs);
  note(side, 'posted → received by the page', k.received - k.workerSent);
  note(side, 'received → markers, lists, status set', k.shown - k.received);
  note(side, 'set → painted', k.painted - k.shown);
  if (!r) return;
  const n = (label: string, ms: number) => note(side, `${label} (${replay})`, ms);
  // The worker replays the game the compile carried before it posts the pack; else the page asks once the pack is in.
  const withPack = r.workerGot < r.pack;
  n(withPack ? 'replay: key → replayed with the compile (worker)' : 'replay: key → runnable pack received', withPack ? r.workerGot - k.key : r.pack - k.key);
  if (r.lowerMs) n('  of which the lowering (worker)', r.lowerMs);
  if (!withPack) {
    n('replay: pack → replay asked', r.sent - r.pack);
    n('replay: asked → taken by the worker', r.workerGot - r.sent);
  }
  n('replay: taken → posted (worker)', r.workerSent - r.workerGot);
  n('replay:   of which the replay', r.workerMs);
  if (r.setupMs || r.choicesMs) {
    n('replay:     the new game (links the new pack)', r.setupMs);
    n('replay:     the choices applied', r.choicesMs);
  }
  // Not a time: how many of the game's choices the replay took from the last one as they were.
  if (r.kept !== undefined) n('replay:     choices kept, not applied again (a count)', r.kept);
  n(withPack ? 'replay: posted with the pack → received by the page' : 'replay: posted → received by the page', r.received - r.workerSent);
  n('replay: received → game drawn', r.shown - r.received);
  n('replay: drawn → painted', r.painted - r.shown);
}

/**
 * While a side types, the other side's page is not displayed, so that neither side's figures carry
 * the other's frames; shown again, the editor takes the keyboard back (a page not displayed loses focus).
 */
async function display(page: Page, shown: boolean) {
  await page.evaluate((on) => {
    document.documentElement.style.display = on ? '' : 'none';
    if (on) (window as unknown as Handle).playground.editor.editor.focus();
  }, shown);
}

/** One keystroke's diagnostics painted, noted; with `replay`, the game replayed and painted too, under that label. */
async function keystroke(side: Side, key: string, want: 'ok' | 'errors', replay?: string) {
  const { page } = side;
  await page.evaluate((w) => ((window as unknown as Handle).probe.want = w), want);
  const t = performance.now();
  await page.keyboard.press(key);
  let p = await waitProbe(page, 'diagPainted');
  note(side, 'seen from the bench: keystroke → diagnostics', performance.now() - t);
  note(side, 'KEY → DIAGNOSTICS PAINTED', p.diagPainted - p.key);
  if (!replay) {
    const broke = await traces(page);
    if (broke.k) steps(side, broke.k);
    return;
  }
  p = await waitProbe(page, 'replayPainted');
  note(side, `seen from the bench: keystroke → game replayed, ${replay}`, performance.now() - t);
  note(side, `KEY → GAME REPLAYED (${side.moves} moves) AND PAINTED, ${replay}`, p.replayPainted - p.key);
  const mended = await traces(page);
  if (mended.k) steps(side, mended.k, mended.r, replay);
}

/** On a side: `@` and Backspace in the rules, then the card's digit changed, noted in its figures. */
async function round(side: Side, others: Side[], i: number) {
  const { page } = side;
  for (const o of others) await display(o.page, false);
  await display(page, true);
  await page.bringToFront();
  await placeCursor(page, RULES_START);
  await page.waitForTimeout(SETTLE_MS);
  await keystroke(side, '@', 'errors');
  await keystroke(side, 'Backspace', 'ok', 'rules as they were');
  await page.waitForTimeout(SETTLE_MS);
  await placeCursor(page, CARD_DIGIT);
  await page.waitForTimeout(SETTLE_MS);
  await keystroke(side, i % 2 ? '2' : '3', 'ok', 'a card in play edited');
  await page.waitForTimeout(SETTLE_MS);
}

/** A card's text: the Orcs' "1 extra victory coin" becomes 2 (a finding), then 1 again (none). */
async function cardTexts(page: Page): Promise<number[]> {
  await page.click('[data-testid=tab-texts]');
  await page.waitForSelector('[data-testid=card-text][data-card=orcs][data-ok=true]', { timeout: 90_000 });
  await page.evaluate(() => {
    const ed = (window as unknown as Handle).playground.editor;
    ed.open('races/orcs.yaml');
    const m = ed.model('races/orcs.yaml');
    const text = m.getValue();
    const at = text.indexOf('1 extra victory coin', text.indexOf('en: "')) + 1;
    const p = m.getPositionAt(at);
    ed.editor.setPosition({ lineNumber: p.lineNumber, column: p.column });
    ed.editor.focus();
  });
  const toVerdict: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    for (const [digit, ok] of [['2', false], ['1', true]] as const) {
      await page.keyboard.press('Backspace');
      const t = performance.now();
      await page.keyboard.type(digit);
      await page.waitForSelector(`[data-testid=card-text][data-card=orcs][data-ok=${ok}]`, { timeout: 60_000 });
      toVerdict.push(performance.now() - t);
    }
  }
  return toVerdict;
}

const servers: Array<{ close(): Promise<void> }> = [];
const browser = await harness.launchBrowser();
try {
  const here = await harness.startPlayground();
  servers.push(here.server);
  const first = await prepare(browser, here.url);
  const sides: Side[] = [{ name: 'this tree', ...first, figures: new Map() }];
  if (process.env.BASE) {
    const theirs: typeof harness = await import(pathToFileURL(resolve(process.env.BASE, 'test/e2e/harness.ts')).href);
    const base = await theirs.startPlayground({ cacheDir: resolve(process.env.BASE, '.vite-bench') });
    servers.push(base.server);
    sides.push({ name: 'base', ...(await prepare(browser, base.url, first.saved)), figures: new Map() });
  }
  // TRACE=<file>: a Chromium performance trace of this tree's rounds, for chrome://tracing or DevTools;
  // TRACE_CATEGORIES (comma-separated) in place of Playwright's, e.g. with disabled-by-default-devtools.timeline.invalidationTracking.
  if (process.env.TRACE) await browser.startTracing(first.page, { path: process.env.TRACE, screenshots: false, categories: process.env.TRACE_CATEGORIES?.split(',') });
  // PROFILE=<file>: a CPU profile of this tree's page over the rounds, for DevTools' Performance panel or a script.
  const profiler = process.env.PROFILE ? await first.page.context().newCDPSession(first.page) : undefined;
  if (profiler) {
    await profiler.send('Profiler.enable');
    await profiler.send('Profiler.setSamplingInterval', { interval: 250 });
    await profiler.send('Profiler.start');
  }
  // Wall-clock figures on a shared machine: the load they were taken under is part of them.
  const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
  console.log(`load average before the rounds: ${load()}`);
  for (let i = 0; i < ROUNDS; i++) {
    // Each side goes first in every other round.
    for (const side of i % 2 ? [...sides].reverse() : sides) await round(side, sides.filter((o) => o !== side), i);
  }
  if (process.env.TRACE) await browser.stopTracing();
  if (profiler) writeFileSync(process.env.PROFILE!, JSON.stringify((await profiler.send('Profiler.stop')).profile));
  console.log(`load average after the rounds: ${load()}`);
  for (const side of sides) {
    console.log(`\n${side.name}:`);
    for (const [label, xs] of side.figures) stats(label, xs);
  }
  for (const side of sides) await display(side.page, true);
  if (process.env.TEXTS !== '0') stats('\nthis tree: keystroke in a card text → its verdict on screen, seen from the bench', await cardTexts(sides[0].page));
} finally {
  await browser.close();
  for (const s of servers) await s.close();
}
