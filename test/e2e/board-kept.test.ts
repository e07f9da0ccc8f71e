/**
 * New rules that change a player's record but no region keep the board drawn (play-pane.ts): the
 * Worgen's human form worth one coin more, in a game where the Worgen took it, replays the game
 * with other coins and the same board, so the board's element stays, the players' figures are
 * drawn anew and the log keeps the entries that read as they did. An edit that moves pieces draws
 * the board again.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { status, watchErrors } from './harness.ts';
import { usePlayground } from './use-playground.ts';

interface PageHandle {
  playground: {
    editor: { model(p: string): { getValue(): string; setValue(t: string): void } };
    app: { played?: { version: number }; game: { toggleSeat(i: number): void } };
    state(): { choices: string[]; players: string[]; e: Record<string, Record<string, unknown>>; log: Array<{ text: string }> } | undefined;
  };
}

/** The log's latest entries the page shows (play-pane.ts): fewer than the game has here. */
const LOG_SHOWN = 250;

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

    // Everything in view, so that the players' coins are on screen.
    await page.selectOption('[data-testid=view-as]', 'all');
    await page.waitForFunction(() => !document.querySelector('[data-testid=players] .hidden-field'), null, { timeout: 90_000 });
    const board = await page.waitForSelector('[data-testid=game] .board-wrap');
    const players = await page.waitForSelector('[data-testid=game] [data-testid=players]');
    const entries = await page.$$('[data-testid=game] [data-testid=log-entry]');
    const textsBefore = await Promise.all(entries.map((e) => e.textContent()));
    const before = await coins(page);
    await edit(page, 'races/worgen.yaml', 'holder.coins += 2', 'holder.coins += 3');
    expect(await coins(page)).not.toEqual(before);
    expect(await page.$eval('[data-testid=game] .board-wrap', (now, old) => now === old, board), 'the board is the same element').toBe(true);
    expect(await page.$eval('[data-testid=game] [data-testid=players]', (now, old) => now === old, players), 'the players are drawn again').toBe(false);
    // The log: every entry that reads as it did is the same element, the others are new, in the game's order.
    const st = await page.evaluate(() => (window as unknown as PageHandle).playground.state()!.log.map((e) => e.text));
    expect(await page.$$eval('[data-testid=game] [data-testid=log-entry] .text', (els) => els.map((e) => e.textContent))).toEqual(st.slice(-LOG_SHOWN));
    const after = await page.$$eval('[data-testid=game] [data-testid=log-entry]', (els) => els.map((e) => e.textContent ?? ''));
    const kept = await Promise.all(entries.map((e) => e.evaluate((el) => el.isConnected)));
    expect(kept.filter(Boolean).length, 'entries that read the same are kept').toBe(textsBefore.filter((t) => after.includes(t!)).length);

    // Two tokens fewer for the Worgen: their regions hold other numbers, and the board is drawn again.
    await edit(page, 'races/worgen.yaml', 'tokens: 5', 'tokens: 3');
    expect(await page.$eval('[data-testid=game] .board-wrap', (now, old) => now === old, board), 'the board is drawn again').toBe(false);
    expect(await page.$$eval('[data-testid=game] [data-testid=log-entry] .text', (els) => els.map((e) => e.textContent)), 'the log reads as the game').toEqual(
      (await page.evaluate(() => (window as unknown as PageHandle).playground.state()!.log.map((e) => e.text))).slice(-LOG_SHOWN),
    );

    expect(errors).toEqual([]);
    await page.close();
  });
});
