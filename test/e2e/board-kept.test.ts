/**
 * New rules that change a player's record but no region keep the board drawn (play-pane.ts): the
 * Worgen's human form worth one coin more, in a game where the Worgen took it, replays the game
 * with other coins and the same board, so the board's element stays and the players' figures are
 * drawn anew. An edit that moves pieces draws the board again.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { status, watchErrors } from './harness.ts';
import { usePlayground } from './use-playground.ts';

interface PageHandle {
  playground: {
    editor: { model(p: string): { getValue(): string; setValue(t: string): void } };
    app: { played?: { version: number }; game: { toggleSeat(i: number): void } };
    state(): { choices: string[]; players: string[]; e: Record<string, Record<string, unknown>> } | undefined;
  };
}

const handle = (page: Page) => page.evaluate(() => (window as unknown as PageHandle).playground.state()?.choices.length ?? 0);

/** Replaces `from` by `to` in a file of the pack, as typing would, and waits for the game replayed on the new rules. */
async function edit(page: Page, path: string, from: string, to: string) {
  const before = await page.evaluate(() => (window as unknown as PageHandle).playground.app.played?.version ?? 0);
  await page.evaluate(([p, a, b]) => {
    const m = (window as unknown as PageHandle).playground.editor.model(p);
    m.setValue(m.getValue().replace(a, b));
  }, [path, from, to]);
  await page.waitForFunction((v) => ((window as unknown as PageHandle).playground.app.played?.version ?? 0) > v, before, { timeout: 90_000 });
}

const coins = (page: Page) => page.evaluate(() => {
  const st = (window as unknown as PageHandle).playground.state()!;
  return st.players.map((p) => st.e[p].coins);
});

describe('the board on new rules', () => {
  const pg = usePlayground();

  it('stays drawn when the new rules change only a player’s coins, and is drawn again when they move pieces', async () => {
    const page = await pg.browser.newPage({ viewport: { width: 1366, height: 768 } });
    const errors = watchErrors(page);
    await page.goto(pg.url);
    expect(await status(page)).toBe('ok');
    await page.waitForSelector('[data-testid=game-setup]');
    await page.selectOption('[data-testid=player-count]', '3');
    for (const i of [0, 1, 2]) await page.selectOption(`[data-testid=seat-${i}]`, 'bot');
    await page.fill('[data-testid=seed]', '3');
    await page.click('[data-testid=start-game]');
    await page.selectOption('[data-testid=bot-speed]', 'instant');
    // Seed 3's bots take the Worgen first and their human form at the 17th choice.
    await page.waitForFunction(() => ((window as unknown as PageHandle).playground.state()?.choices.length ?? 0) >= 24, null, { timeout: 90_000 });
    await page.evaluate(() => [0, 1, 2].forEach((i) => (window as unknown as PageHandle).playground.app.game.toggleSeat(i)));
    for (let last = -1, n = await handle(page); n !== last; last = n, n = await handle(page)) await page.waitForTimeout(300);

    const board = await page.waitForSelector('[data-testid=game] .board-wrap');
    const side = await page.waitForSelector('[data-testid=game] .side');
    const before = await coins(page);
    await edit(page, 'races/worgen.yaml', 'holder.coins += 2', 'holder.coins += 3');
    expect(await coins(page)).not.toEqual(before);
    expect(await page.$eval('[data-testid=game] .board-wrap', (now, old) => now === old, board), 'the board is the same element').toBe(true);
    expect(await page.$eval('[data-testid=game] .side', (now, old) => now === old, side), 'the players and the log are drawn again').toBe(false);

    // Two tokens fewer for the Worgen: their regions hold other numbers, and the board is drawn again.
    await edit(page, 'races/worgen.yaml', 'tokens: 5', 'tokens: 3');
    expect(await page.$eval('[data-testid=game] .board-wrap', (now, old) => now === old, board), 'the board is drawn again').toBe(false);

    expect(errors).toEqual([]);
    await page.close();
  });
});
