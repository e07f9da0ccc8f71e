/**
 * Every shipped pack in the playground: it opens from the pack picker, compiles without errors,
 * starts a game, draws its board when it has one, and offers the first choices, which a click plays.
 * The packs are opened one after another in one page, as a designer switches between them: each
 * opened pack starts with no game of its own, so what is checked is that pack's game.
 */
import { describe, expect, it } from 'vitest';
import { compileState, watchErrors } from './harness.ts';
import { shippedPacks } from './midgame.ts';
import { usePlayground } from './use-playground.ts';

interface PageHandle {
  playground: { app: { packKey: string }; state(): { choices: string[] } | undefined };
}

describe('every shipped pack in the playground', () => {
  const pg = usePlayground();

  it('each shipped pack opens from the picker, compiles and plays its first choice', async () => {
    const page = await pg.browser.newPage({ viewport: { width: 1366, height: 768 } });
    const errors = watchErrors(page);
    await page.goto(pg.url);
    await page.waitForSelector('[data-testid=pack-select]');
    const packs = shippedPacks();
    expect(packs.length).toBeGreaterThan(1);
    for (const key of packs) {
      await page.selectOption('[data-testid=pack-select]', key);
      expect(await page.evaluate(() => (window as unknown as PageHandle).playground.app.packKey), key).toBe(key);
      expect(await page.evaluate(() => (window as unknown as PageHandle).playground.state()), `${key}: no game before it starts`).toBeUndefined();
      await compileState(page, 'ok');
      await page.click('[data-testid=start-game]');
      await page.waitForSelector('[data-testid=choice]:not([disabled])', { timeout: 60_000 });
      expect(await page.locator('[data-testid=choice]').count(), key).toBeGreaterThan(0);
      // Every shipped pack has a kind with a `graph`: its board is drawn.
      expect(await page.locator('[data-testid=board]').count(), key).toBe(1);
      await page.click('[data-testid=choice]:not([disabled])');
      await page.waitForFunction(() => ((window as unknown as PageHandle).playground.state()?.choices.length ?? 0) > 0, undefined, { timeout: 60_000 });
      expect(errors, key).toEqual([]);
    }
    await page.close();
  });
});
