/**
 * Every shipped pack in the playground: it opens from the pack picker, compiles without errors,
 * starts a game, draws its board when it has one, and offers the first choices, which a click plays.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPacks } from '../../cli/packs.ts';
import { compileState, watchErrors } from './harness.ts';
import { usePlayground } from './use-playground.ts';

const packs = findPacks(join(import.meta.dirname, '..', '..', 'content')).map((d) => `content/${d.split(/[\\/]/).pop()}`);

describe('every shipped pack in the playground', () => {
  const pg = usePlayground();

  it.each(packs)('%s opens, compiles and plays its first choice', async (key) => {
    const page = await pg.browser.newPage({ viewport: { width: 1366, height: 768 } });
    const errors = watchErrors(page);
    await page.goto(pg.url);
    await page.waitForSelector('[data-testid=pack-select]');
    await page.selectOption('[data-testid=pack-select]', key);
    await compileState(page, 'ok');
    await page.click('[data-testid=start-game]');
    await page.waitForSelector('[data-testid=choice]:not([disabled])', { timeout: 60_000 });
    const before = await page.locator('[data-testid=choice]').count();
    expect(before).toBeGreaterThan(0);
    // Every shipped pack has a kind with a `graph`: its board is drawn.
    expect(await page.locator('[data-testid=board]').count()).toBe(1);
    await page.click('[data-testid=choice]:not([disabled])');
    await page.waitForFunction(() => ((window as unknown as { playground: { state(): { choices: string[] } | undefined } }).playground.state()?.choices.length ?? 0) > 0, undefined, { timeout: 60_000 });
    expect(errors).toEqual([]);
    await page.close();
  });
});
