/**
 * The Balance tab: bots play games on the rules being edited, in the engine worker, and the tab
 * shows the balance study with its charts; results belong to their pack, rules and settings.
 * And the HTML page of `rulebook simulate --html`, opened in Chromium: its charts drawn, offline,
 * and a card's name shown as text.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import { compile } from '../../compiler/index.ts';
import { readPackFolder } from '../../compiler/packFolder.ts';
import { studyCharts } from '../../simulate/charts.ts';
import { htmlReport } from '../../simulate/html.ts';
import { playGame } from '../../simulate/playout.ts';
import { packNames } from '../../simulate/report.ts';
import { study } from '../../simulate/study.ts';
import { compileState, watchErrors } from './harness.ts';
import { usePlayground } from './use-playground.ts';

/** Canvases under `within` with something drawn on them (a blank canvas is all transparent). */
const drawn = (page: Page, within: string) =>
  page.evaluate(
    (w) =>
      [...document.querySelectorAll<HTMLCanvasElement>(`${w} canvas`)].filter((c) => {
        const pixels = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data ?? [];
        for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) return true;
        return false;
      }).length,
    within,
  );

describe('playground balance', () => {
  const pg = usePlayground();

  it('plays games by bots and shows wins by seat and by card, with charts', async () => {
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
    expect(await page.locator('[data-testid=balance-card][data-kind=race]').count()).toBeGreaterThan(1);
    expect(await page.textContent('[data-testid=balance-band]')).toContain('Fair band: 45.0%–55.0%');
    expect(await page.textContent('[data-testid=balance-count]')).toBe('20 games');
    const charts = await page.locator('[data-testid=balance-chart]').count();
    expect(charts).toBeGreaterThanOrEqual(4);
    expect(await drawn(page, '[data-testid=balance-chart]')).toBe(charts);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keeps results to their pack and settings', async () => {
    const page = await pg.browser.newPage({ viewport: { width: 1366, height: 900 } });
    const errors = watchErrors(page);
    await page.goto(pg.url);
    await page.waitForSelector('[data-testid=pack-select]');
    await page.selectOption('[data-testid=pack-select]', 'examples/tiny');
    await compileState(page, 'ok');
    await page.click('[data-testid=tab-balance]');
    await page.selectOption('[data-testid=balance-players]', '2');
    await page.click('[data-testid=balance-run]');
    await page.waitForSelector('[data-testid=balance-summary]', { timeout: 120_000 });
    const count = () => page.textContent('[data-testid=balance-count]');
    expect(await count()).toBe('20 games');

    // Other settings: their own results, none yet; back again: the results of those settings.
    await page.selectOption('[data-testid=balance-players]', '3');
    await page.waitForSelector('[data-testid=balance-empty]');
    expect(await page.locator('[data-testid=balance-summary]').count()).toBe(0);
    expect(await count()).toBe('not run');
    await page.selectOption('[data-testid=balance-games]', '50');
    await page.selectOption('[data-testid=balance-players]', '2');
    await page.waitForSelector('[data-testid=balance-empty]');
    await page.selectOption('[data-testid=balance-games]', '20');
    await page.waitForSelector('[data-testid=balance-summary]');
    expect(await page.locator('[data-testid=balance-seat]').count()).toBe(2);

    // Another pack: none of the tiny pack's results, before or after it compiles.
    await page.selectOption('[data-testid=pack-select]', 'content/smallworld-wow');
    expect(await count()).toBe('not run');
    await compileState(page, 'ok');
    await page.click('[data-testid=tab-balance]');
    await page.waitForSelector('[data-testid=balance-empty]');
    expect(await page.locator('[data-testid=balance-summary]').count()).toBe(0);
    expect(await count()).toBe('not run');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the HTML study of `rulebook simulate --html` draws every chart from the inlined libraries, and a card name stays text', async () => {
    const dir = join(import.meta.dirname, '..', '..', 'content', 'smallworld-wow');
    const compiled = compile(readPackFolder(dir));
    expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const pack = compiled.pack!;
    const s = study([1, 2, 3, 4].map((seed) => playGame(pack, { players: 2, seed, agents: 'random', maxSteps: 10_000 })));
    const hostile = '<img src=x onerror=alert(1)></script><script>alert(2)</script>';
    const victim = s.kinds[0].cards[0].card;
    const names = { ...packNames(pack), card: (id: string) => (id === victim ? hostile : packNames(pack).card(id)) };
    const out = mkdtempSync(join(tmpdir(), 'rulebook-study-'));
    onTestFinished(() => rmSync(out, { recursive: true, force: true }));
    const file = join(out, 'study.html');
    writeFileSync(file, htmlReport(s, { title: 'Small World', bots: ['random'], names }));

    const page = await pg.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchErrors(page);
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const requests: string[] = [];
    page.on('request', (r) => void (r.url().startsWith('file:') || requests.push(r.url())));
    await page.goto(pathToFileURL(file).href);
    await page.waitForFunction(() => document.readyState === 'complete');
    expect(await drawn(page, '.chart')).toBe(studyCharts(s).length);
    expect(await page.evaluate(() => document.querySelectorAll('img').length)).toBe(0);
    expect(await page.evaluate(() => document.querySelectorAll('script').length)).toBe(5);
    expect(await page.evaluate((name) => [...document.querySelectorAll('td')].filter((td) => td.textContent === name).length, hostile)).toBe(1);
    expect(dialogs).toEqual([]);
    expect(requests).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
