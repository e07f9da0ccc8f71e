/**
 * The play pane's toolbar keeps its elements while bots play: each move updates them in place, so a
 * user's click on a control lands on the control it started on, and Playwright's real clicks (which
 * wait for a control to hold still) work while the bots play at instant speed.
 */
import { describe, expect, it } from 'vitest';
import { status, watchErrors } from './harness.ts';
import { usePlayground } from './use-playground.ts';

interface PageHandle {
  playground: { state(): { choices: string[]; over?: boolean } | undefined };
}

const moves = (page: import('playwright-core').Page) => page.evaluate(() => (window as unknown as PageHandle).playground.state()?.choices.length ?? 0);

describe('the play toolbar', () => {
  const pg = usePlayground();

  it('keeps its elements across bot moves, and a real click on step back lands while the bots play', async () => {
    const context = await pg.browser.newContext({ viewport: { width: 1366, height: 768 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(pg.url);
    expect(await status(page)).toBe('ok');
    await page.waitForSelector('[data-testid=game-setup]');
    await page.selectOption('[data-testid=player-count]', '2');
    for (const i of [0, 1]) await page.selectOption(`[data-testid=seat-${i}]`, 'bot');
    await page.fill('[data-testid=seed]', '3');
    await page.click('[data-testid=start-game]');
    await page.selectOption('[data-testid=bot-speed]', 'instant');

    const controls = ['step-back', 'step', 'bot-speed', 'view-as', 'undo', 'restart'];
    const before = await Promise.all(controls.map((id) => page.waitForSelector(`[data-testid=${id}]`)));
    const from = await moves(page);
    await page.waitForFunction((n) => ((window as unknown as PageHandle).playground.state()?.choices.length ?? 0) >= n, from + 3);
    for (const [i, id] of controls.entries()) {
      expect(await page.$eval(`[data-testid=${id}]`, (now, old) => now === old, before[i]), `the ${id} control is the same element`).toBe(true);
    }
    // The same step counter shows the moves since.
    expect(Number((await before[1].textContent())!.split('/')[0])).toBeGreaterThanOrEqual(from + 3);

    await page.click('[data-testid=step-back]');
    await page.waitForSelector('[data-testid=history-banner]');
    // One step back from the move shown when clicked (a bot's move on its way then is kept, ahead).
    const [at, total] = (await page.textContent('[data-testid=step]'))!.split('/').map(Number);
    expect(at).toBeGreaterThanOrEqual(from + 2);
    expect(at).toBeLessThan(total);
    expect(await page.$eval('[data-testid=step-back]', (now, old) => now === old, before[0])).toBe(true);

    expect(errors).toEqual([]);
    await context.close();
  });
});
