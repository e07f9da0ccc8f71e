/**
 * The card text verdicts in the playground: the Card texts tab lists each card with a verdict per
 * language, recomputed after each compile, so changing a card's text (or its rules) shows or clears
 * a finding, listed in the tab and underlined in the editor.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { watchErrors } from './harness.ts';
import { usePlayground } from './use-playground.ts';

interface PageHandle {
  playground: {
    editor: {
      open(path: string): void;
      currentFile: string;
      model(path: string): { getValue(): string; getPositionAt(o: number): { lineNumber: number; column: number }; uri: unknown } | undefined;
      editor: { setSelection(r: unknown): void; focus(): void; revealLineInCenter(l: number): void; getSelection(): { startLineNumber: number } };
    };
    monaco: { editor: { getModelMarkers(f: { owner?: string; resource?: unknown }): Array<{ message: string; startLineNumber: number; severity: number }> }; Range: new (a: number, b: number, c: number, d: number) => unknown };
  };
}

const FILE = 'races/orcs.yaml';
const BEFORE = '1 extra victory coin';
const AFTER = '2 extra victory coins';

async function modelText(page: Page, path: string): Promise<string> {
  return page.evaluate((path) => (window as unknown as PageHandle).playground.editor.model(path)?.getValue() ?? '', path);
}

/** Select a span of a file in the editor, as a drag of the mouse would. */
async function select(page: Page, path: string, offset: number, endOffset: number) {
  await page.click(`[data-testid="file-${path}"]`);
  await page.evaluate(
    ({ path, offset, endOffset }) => {
      const pg = (window as unknown as PageHandle).playground;
      pg.editor.open(path);
      const m = pg.editor.model(path)!;
      const s = m.getPositionAt(offset);
      const e = m.getPositionAt(endOffset);
      pg.editor.editor.setSelection(new pg.monaco.Range(s.lineNumber, s.column, e.lineNumber, e.column));
      pg.editor.editor.revealLineInCenter(s.lineNumber);
      pg.editor.editor.focus();
    },
    { path, offset, endOffset },
  );
}

/** Replace the first occurrence of `from` in the English text of the file by typing `to`. */
async function retype(page: Page, from: string, to: string) {
  const text = await modelText(page, FILE);
  const en = text.indexOf('en: "');
  const at = text.indexOf(from, en);
  expect(at, `"${from}" is in the English text`).toBeGreaterThan(en);
  await select(page, FILE, at, at + from.length);
  await page.keyboard.type(to);
  await page.keyboard.press('Escape');
  expect(await modelText(page, FILE)).toBe(text.slice(0, at) + to + text.slice(at + from.length));
}

async function textMarkers(page: Page) {
  return page.evaluate((path) => {
    const pg = (window as unknown as PageHandle).playground;
    return pg.monaco.editor.getModelMarkers({ owner: 'rulebook-texts', resource: pg.editor.model(path)!.uri });
  }, FILE);
}

describe('playground card texts', () => {
  const pg = usePlayground();

  it('shows a finding when a card text disagrees with its rules, and clears it when fixed', async () => {
    const context = await pg.browser.newContext({ viewport: { width: 1366, height: 768 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(pg.url);
    await page.waitForSelector('[data-testid="file-pack.yaml"]');

    // ── The default pack's texts all agree with its rules. ──
    await page.click('[data-testid=tab-texts]');
    await page.waitForSelector('[data-testid=card-text][data-card=orcs][data-ok=true]', { timeout: 90_000 });
    const count = (await page.textContent('[data-testid=text-count]')) ?? '';
    expect(count).toMatch(/^\d+ cards · \d+ findings?$/);
    expect(await page.$$eval('[data-testid=card-text][data-card=orcs] [data-testid=card-verdict]', (els) => els.map((e) => e.getAttribute('data-lang')))).toEqual(['en', 'pl', 'de']);
    const findingsBefore = Number(await page.getAttribute('[data-testid=text-count]', 'data-findings'));

    // ── A number changed in the English text: Orcs gets a finding, listed and underlined. ──
    await retype(page, BEFORE, AFTER);
    await page.waitForSelector('[data-testid=card-text][data-card=orcs][data-ok=false]', { timeout: 90_000 });
    await page.waitForSelector('[data-testid=card-verdict][data-lang=en][data-ok=false]', { timeout: 10_000 });
    const finding = await page.waitForSelector('[data-testid=text-finding][data-card=orcs][data-lang=en]', { timeout: 10_000 });
    expect(await finding.getAttribute('data-code')).toMatch(/^TX0\d{3}$/);
    expect(Number(await page.getAttribute('[data-testid=text-count]', 'data-findings'))).toBeGreaterThan(findingsBefore);
    await page.waitForFunction(
      (path) => {
        const pg = (window as unknown as PageHandle).playground;
        return pg.monaco.editor.getModelMarkers({ owner: 'rulebook-texts', resource: pg.editor.model(path)!.uri }).length > 0;
      },
      FILE,
      { timeout: 30_000 },
    );
    const markers = await textMarkers(page);
    expect(markers.every((m) => m.severity === 4)).toBe(true); // warnings
    // Clicking the finding selects the text's words in the editor.
    await page.click('[data-testid=text-finding][data-card=orcs][data-lang=en] > div:first-child');
    const line = await page.evaluate(() => (window as unknown as PageHandle).playground.editor.editor.getSelection().startLineNumber);
    const text = await modelText(page, FILE);
    const enLine = text.slice(0, text.indexOf(AFTER)).split('\n').length;
    expect(line).toBe(enLine);

    // ── Changed back: the finding clears. ──
    await retype(page, AFTER, BEFORE);
    await page.waitForSelector('[data-testid=card-text][data-card=orcs][data-ok=true]', { timeout: 90_000 });
    expect(await page.$('[data-testid=text-finding][data-card=orcs]')).toBeNull();
    await page.waitForFunction(
      (path) => {
        const pg = (window as unknown as PageHandle).playground;
        return pg.monaco.editor.getModelMarkers({ owner: 'rulebook-texts', resource: pg.editor.model(path)!.uri }).length === 0;
      },
      FILE,
      { timeout: 30_000 },
    );
    expect(errors).toEqual([]);
    await context.close();
  });
});
