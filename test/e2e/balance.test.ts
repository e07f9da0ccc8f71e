/**
 * The Balance tab: bots play games on the rules being edited, in the engine worker, and the tab
 * shows wins by seat and by the cards held at the end.
 */
import { describe, expect, it } from 'vitest';
import { compileState, usePlayground, watchErrors } from './harness.ts';

describe('playground balance', () => {
  const pg = usePlayground();

  it('plays games by bots and shows wins by seat and by card', async () => {
    const page = await pg.browser.newPage({ viewport: { width: 1366, height: 900 } });
    const errors = watchErrors(page);
    await page.goto(pg.url);
    await compileState(page, 'ok');
    await page.click('[data-testid=tab-balance]');
    await page.selectOption('[data-testid=balance-players]', '2');
    await page.click('[data-testid=balance-run]');
    await page.waitForSelector('[data-testid=balance-summary]', { timeout: 120_000 });
    expect(await page.textContent('[data-testid=balance-summary]')).toMatch(/^20 of 20 games finished/);
    expect(await page.locator('[data-testid=balance-seat]').count()).toBe(2);
    expect(await page.locator('[data-testid=balance-card]').count()).toBeGreaterThan(5);
    expect(await page.textContent('[data-testid=balance-count]')).toBe('20 games');
    expect(errors).toEqual([]);
    await page.close();
  });
});
