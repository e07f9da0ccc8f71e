/**
 * The Balance tab offers only the bots the pack being edited can seat (playground/src/bot-offers.ts):
 * no `prefer` bot for Small World, which declares no `scoring: prefer`; one for WotLK, which does.
 * An edit that takes WotLK's preference away replaces the `prefer` bots asked for by random ones,
 * with a note saying why and a button to give them up; rules that do not compile leave the tab as it
 * was; the preference put back brings the `prefer` bots back, unless they were given up. The list
 * follows each runnable pack as it lands, not at a later answer's redraw (the card texts').
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { compileState, watchErrors } from './harness.ts';
import { usePlayground } from './use-playground.ts';

interface PackAnswer {
  id: number;
  version?: number;
  summary?: { bots: Array<{ kind: string; refused?: string }> };
}

interface PageHandle {
  playground: {
    editor: { model(p: string): { getValue(): string; setValue(t: string): void } | undefined };
    app: { lastCompile?: { id: number }; engine: { onPack(r: PackAnswer): void } };
  };
  /** For each runnable pack the app took with the Balance tab open: the bots it seats, and those the tab listed right after. */
  botLists: Array<{ offered: string; listed: string }>;
}

const SEATED_BY_ANY = ['random', 'greedy', 'mcts:20', 'mcts:20:team'];
const ALL = ['random', 'greedy', 'prefer', 'mcts:20', 'mcts:20:team'];

/** Waits until the list of bots reads `kinds`, with `value` picked. */
async function botsListed(page: Page, kinds: string[], value: string) {
  await page.waitForFunction(
    ([want, v]) => {
      const select = document.querySelector<HTMLSelectElement>('[data-testid=balance-bots]');
      return !!select && [...select.options].map((o) => o.value).join() === want && select.value === v;
    },
    [kinds.join(), value] as const,
  );
}

/**
 * Reads the tab's list of bots in the same task as each runnable pack lands, once the app has taken
 * it: before the card texts' answer, which follows it, could draw the tab again.
 */
async function recordListsOnPack(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as PageHandle;
    const { app } = w.playground;
    const take = app.engine.onPack;
    w.botLists = [];
    app.engine.onPack = (r) => {
      take(r);
      const select = document.querySelector<HTMLSelectElement>('[data-testid=balance-bots]');
      if (r.version === undefined || !r.summary || r.id !== app.lastCompile?.id || !select) return;
      w.botLists.push({ offered: r.summary.bots.filter((o) => o.refused === undefined).map((o) => o.kind).join(), listed: [...select.options].map((o) => o.value).join() });
    };
  });
}

/** Waits for a runnable pack seating `kinds` to land; every one landed since the last call was listed at once. */
async function listedAsLanded(page: Page, kinds: string[]) {
  await page.waitForFunction((want) => (window as unknown as PageHandle).botLists.some((l) => l.offered === want), kinds.join());
  const lists = await page.evaluate(() => (window as unknown as PageHandle).botLists.splice(0));
  for (const l of lists) expect(l.listed).toBe(l.offered);
}

/** Sets a file's text as typing would; the playground compiles it. */
const setText = (page: Page, path: string, text: string) =>
  page.evaluate(([p, t]) => (window as unknown as PageHandle).playground.editor.model(p)!.setValue(t), [path, text] as const);
const textOf = (page: Page, path: string) => page.evaluate((p) => (window as unknown as PageHandle).playground.editor.model(p)!.getValue(), path);

describe('playground balance: the bots offered', () => {
  const pg = usePlayground();

  it('offers the bots the pack seats as each pack lands, replaces those an edit takes away with random ones, says why and lets them be given up', async () => {
    const page = await pg.browser.newPage({ viewport: { width: 1366, height: 900 } });
    const errors = watchErrors(page);
    await page.goto(pg.url);
    await compileState(page, 'ok');
    expect(await page.inputValue('[data-testid=pack-select]')).toBe('content/smallworld-wow');
    await page.click('[data-testid=tab-balance]');
    await botsListed(page, SEATED_BY_ANY, 'random');
    expect(await page.getAttribute('[data-testid=balance-bots]', 'title')).toContain("Not offered: `prefer` is not a bot for");

    await recordListsOnPack(page);
    await page.selectOption('[data-testid=pack-select]', 'content/wotlk');
    await listedAsLanded(page, ALL);
    await compileState(page, 'ok');
    await page.click('[data-testid=tab-balance]');
    await botsListed(page, ALL, 'random');
    expect(await page.getAttribute('[data-testid=balance-bots]', 'title')).not.toContain('Not offered');
    await page.selectOption('[data-testid=balance-bots]', 'prefer');
    await botsListed(page, ALL, 'prefer');
    expect(await page.locator('[data-testid=balance-bots-replaced]').count()).toBe(0);

    // The preference is the last block of the file: cut, the pack still compiles (with warnings).
    const path = 'rules/game.yaml';
    const original = await textOf(page, path);
    const at = original.indexOf('\n  prefer:\n');
    expect(at).toBeGreaterThan(0);
    await setText(page, path, original.slice(0, at + 1));
    await listedAsLanded(page, SEATED_BY_ANY);
    await page.waitForSelector('[data-testid=balance-bots-replaced]');
    await compileState(page, 'ok');
    await botsListed(page, SEATED_BY_ANY, 'random');
    const note = await page.textContent('[data-testid=balance-bots-replaced]');
    expect(note).toMatch(/^Random bots play instead: `prefer` is not a bot for .*scoring: prefer.*The prefer bots play again once the rules can seat them/);
    // The command line's advice (what to write instead) is not the tab's.
    expect(note).not.toContain('write');

    // Another setting changed meanwhile: the prefer bots are still the ones asked for.
    await page.selectOption('[data-testid=balance-games]', '50');
    await page.waitForFunction(() => document.querySelector<HTMLSelectElement>('[data-testid=balance-games]')?.value === '50');
    expect(await page.locator('[data-testid=balance-bots-replaced]').count()).toBe(1);

    // Rules that do not compile: the tab keeps the last good rules' list and note.
    await setText(page, path, `${original.slice(0, at + 1)}  prefer: [\n`);
    await compileState(page, 'errors');
    await botsListed(page, SEATED_BY_ANY, 'random');
    expect(await page.locator('[data-testid=balance-bots-replaced]').count()).toBe(1);

    await setText(page, path, original);
    await listedAsLanded(page, ALL);
    await compileState(page, 'ok');
    await botsListed(page, ALL, 'prefer');
    expect(await page.locator('[data-testid=balance-bots-replaced]').count()).toBe(0);

    // Random bots, picked from the list, are already the ones picked: the note's button gives the prefer bots up.
    await setText(page, path, original.slice(0, at + 1));
    await listedAsLanded(page, SEATED_BY_ANY);
    await page.click('[data-testid=balance-bots-random]');
    await page.waitForSelector('[data-testid=balance-bots-replaced]', { state: 'detached' });
    await botsListed(page, SEATED_BY_ANY, 'random');
    await setText(page, path, original);
    await listedAsLanded(page, ALL);
    await compileState(page, 'ok');
    await botsListed(page, ALL, 'random');
    expect(await page.locator('[data-testid=balance-bots-replaced]').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
