/**
 * A shipped game brought to mid-play in the playground, for the board layout test and
 * `npm run screenshots`: the pack opened, a game of bots started with a seat count and seed, the
 * bots let play some moves, then one step back into the history, so the bots stop and the board
 * holds still while it is measured or photographed.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { findPacks } from '../../cli/packs.ts';
import { compileState, instantBots } from './harness.ts';

export const SIZES = [
  { width: 1280, height: 720 },
  { width: 1600, height: 1000 },
] as const;

/** Every shipped pack's key in the pack picker. */
export function shippedPacks(): string[] {
  return findPacks(join(import.meta.dirname, '..', '..', 'content')).map((d) => `content/${d.split(/[\\/]/).pop()}`);
}

interface PageHandle {
  playground: { state(): { choices: string[]; over?: boolean } | undefined };
}

/**
 * Opens a pack through the picker of a page showing the playground, as a designer switches packs,
 * and waits for it to compile; gives the player counts it supports.
 */
export async function openPack(page: Page, key: string): Promise<number[]> {
  await page.selectOption('[data-testid=pack-select]', key);
  await compileState(page, 'ok');
  await page.waitForSelector('[data-testid=player-count]');
  return page.$$eval('[data-testid=player-count] option', (os) => os.map((o) => Number((o as HTMLOptionElement).value)));
}

/**
 * From the setup form (or a game in progress): a new game of `players` bots, played for `moves`
 * choices (or to its end), then shown one step back.
 */
export async function playToMidgame(page: Page, players: number, moves: number, seed = 7): Promise<void> {
  if (await page.locator('[data-testid=new-game]').count()) await page.click('[data-testid=new-game]');
  await page.waitForSelector('[data-testid=game-setup]');
  await page.selectOption('[data-testid=player-count]', String(players));
  for (let i = 0; i < players; i++) await page.selectOption(`[data-testid=seat-${i}]`, 'bot');
  await page.fill('[data-testid=seed]', String(seed));
  await page.click('[data-testid=start-game]');
  await instantBots(page);
  await page.waitForFunction((n) => {
    const st = (window as unknown as PageHandle).playground.state();
    return !!st && (st.choices.length >= n || !!st.over);
  }, moves);
  await page.click('[data-testid=step-back]');
  await page.waitForSelector('[data-testid=history-banner]');
  await settled(page);
}

/** Waits until the board has been drawn for the space it has (it is redrawn once when that turns out to be another shape). */
export async function settled(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid=board] .node');
  let last = '';
  for (;;) {
    const now = await page.evaluate(() => new Promise<string>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => {
      const b = document.querySelector('[data-testid=board]');
      resolve(b ? `${b.getAttribute('viewBox')}|${b.querySelectorAll('.node').length}|${b.getBoundingClientRect().width}` : '');
    }))));
    if (now && now === last) return;
    last = now;
  }
}
