/**
 * A designer's own packs in the playground: a folder served by the dev server (`rulebook serve
 * PATH`) opens on its pack, which plays and resumes after a reload; a folder uploaded where the
 * browser has no folder picker; a folder opened with the File System Access API (a real directory
 * handle, from the browser's origin private file system, stands in for the picker's dialog) is
 * saved back to. And only what loads again is kept: an edit that would make a pack unreadable is not
 * saved, and a saved game that cannot be replayed is set aside with a message.
 *
 * The pages load the run's built playground from a preview server of this file's own, serving the
 * folder as the dev server does; the dev server itself, which `rulebook serve` and `npm start` run,
 * is checked with one page load and its confinement.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { PreviewServer, ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { main } from '../../cli/main.ts';
import type { Io } from '../../cli/io.ts';
import { readPackFolder } from '../../compiler/packFolder.ts';
import { compileState, launchBrowser, previewPlayground, startPlayground, untimed, watchErrors } from './harness.ts';
import { BUILD_WAIT, playgroundBuilt } from './use-playground.ts';

const quiet: Io = { out: () => {}, err: () => {}, readLine: async () => undefined };
const served = mkdtempSync(join(tmpdir(), 'rulebook-served-'));
const elsewhere = mkdtempSync(join(tmpdir(), 'rulebook-upload-'));
const viteCache = mkdtempSync(join(tmpdir(), 'rulebook-vite-'));
const servedKey = `folder/${basename(served)}/my-game`;

type Handle = {
  playground: {
    state(): { choices: string[] } | undefined;
    editor: { model(path: string): { getValue(): string; setValue(text: string): void } | undefined };
    app: { packKey: string; ws: { flush(): void } };
  };
};

async function choicesMade(page: Page, n: number) {
  await page.waitForFunction((n) => ((window as unknown as Handle).playground.state()?.choices.length ?? -1) === n, n, { timeout: 60_000 });
}

/** After the designer's move and the bots' answers: the number of choices made when it is the designer's turn again. */
async function designersTurnAfterAMove(page: Page): Promise<number> {
  await page.waitForFunction(() => ((window as unknown as Handle).playground.state()?.choices.length ?? 0) >= 1, null, { timeout: 60_000 });
  await page.waitForSelector('[data-testid=choice]:not([disabled])', { timeout: 60_000 });
  return page.evaluate(() => (window as unknown as Handle).playground.state()!.choices.length);
}

async function toastSays(page: Page, words: string) {
  await page.waitForFunction((w) => document.querySelector('[data-testid=toast]:not([hidden])')?.textContent?.includes(w) ?? false, words, { timeout: 30_000 });
}

describe('your own packs in the playground', () => {
  let server: PreviewServer;
  let url = '';
  let dev: ViteDevServer;
  let devUrl = '';
  let browser: Browser;

  beforeAll(async () => {
    expect(await main(['new', 'pack', 'my-game', '--dir', served], quiet)).toBe(0);
    expect(await main(['new', 'pack', 'upload-game', '--dir', elsewhere], quiet)).toBe(0);
    // What `rulebook serve PATH` sets for the dev server; the preview server reads it the same way.
    process.env.RULEBOOK_PACKS = served;
    // Vite bundles the dev server's dependencies on its first page, into a folder of this run's own.
    ({ server: dev, url: devUrl } = await startPlayground({ cacheDir: viteCache }));
    browser = untimed(await launchBrowser());
    await playgroundBuilt();
    ({ server, url } = await previewPlayground(inject('playgroundBuild')));
  }, BUILD_WAIT);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await dev?.close();
    delete process.env.RULEBOOK_PACKS;
    for (const dir of [served, elsewhere, viteCache]) rmSync(dir, { recursive: true, force: true });
  });

  it('the dev server of `rulebook serve` opens the served folder on its pack and compiles it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(devUrl, { timeout: 0 });
    await page.waitForSelector('[data-testid=pack-select]');
    expect(await page.inputValue('[data-testid=pack-select]')).toBe(servedKey);
    await compileState(page, 'ok');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens a served folder on its pack, plays a move, and resumes the game after a reload', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(url, { timeout: 0 });
    await page.waitForSelector('[data-testid=pack-select]');
    expect(await page.inputValue('[data-testid=pack-select]')).toBe(servedKey);
    await compileState(page, 'ok');
    await page.click('[data-testid=start-game]');
    await page.waitForSelector('[data-testid=choice]:not([disabled])', { timeout: 60_000 });
    await page.click('[data-testid=choice]:not([disabled])');
    const made = await designersTurnAfterAMove(page);
    await page.reload();
    await compileState(page, 'ok');
    expect(await page.inputValue('[data-testid=pack-select]')).toBe(servedKey);
    await choicesMade(page, made);

    // An edit that would leave a file larger than a pack file may be is not saved: a reload has the last good text.
    const original = readFileSync(join(served, 'my-game', 'game.yaml'), 'utf8');
    await page.evaluate((text) => (window as unknown as Handle).playground.editor.model('game.yaml')!.setValue(text), `${original}#${'x'.repeat(2 * 1024 * 1024)}\n`);
    await toastSays(page, 'This edit is not saved');
    await page.evaluate(() => (window as unknown as Handle).playground.app.ws.flush());
    await page.reload();
    await compileState(page, 'ok');
    expect(await page.evaluate(() => (window as unknown as Handle).playground.editor.model('game.yaml')!.getValue())).toBe(original);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('serves the folder only as packs: no file of it by path, nothing written', async () => {
    for (const at of [devUrl, url]) {
      const answer = await fetch(new URL('/@rulebook/served', at));
      const body = (await answer.json()) as { packs: Record<string, Record<string, string>> };
      expect(Object.keys(body.packs)).toEqual([servedKey]);
      expect(Object.keys(body.packs[servedKey]).sort()).toEqual(['game.yaml', 'pack.yaml', 'scenarios/first.yaml']);
    }
    const file = join(served, 'my-game', 'package.json');
    // The dev server's file access stops at the repository: the folder's files are not reachable by path.
    expect((await fetch(new URL(`/@fs${file}`, devUrl))).status).toBe(403);
    // The preview server serves the build's folder only (any other path is the page).
    const text = readFileSync(file, 'utf8');
    for (const path of [`/@fs${file}`, file]) expect(await (await fetch(new URL(path, url))).text()).not.toContain(text);
  });

  it('sets aside a saved game that cannot be replayed, with a message, and still plays', async () => {
    const context = await browser.newContext();
    // What an older playground, or a tampered browser, left saved: a game without its seats.
    await context.addInitScript((key) => {
      if (sessionStorage.getItem('planted')) return;
      sessionStorage.setItem('planted', '1');
      localStorage.setItem('rulebook.playground.v1', JSON.stringify({ version: 1, packs: {}, openFile: {}, sessions: { [key]: { players: 2, seed: 1, seats: null, choices: [], madeBy: [] } } }));
    }, servedKey);
    const page = await context.newPage();
    await page.goto(url, { timeout: 0 });
    await toastSays(page, `the saved game of ${servedKey} was set aside`);
    await compileState(page, 'ok');
    await page.click('[data-testid=start-game]');
    await page.waitForSelector('[data-testid=choice]:not([disabled])', { timeout: 60_000 });
    await page.evaluate(() => (window as unknown as Handle).playground.app.ws.flush());
    const kept = await page.evaluate((key) => JSON.parse(localStorage.getItem('rulebook.playground.v1')!).sessions[key], servedKey);
    expect(kept.seats).toHaveLength(kept.players);
    await context.close();
  });

  it('opens a folder uploaded where the browser has no folder picker', async () => {
    const context = await browser.newContext();
    await context.addInitScript(() => delete (window as { showDirectoryPicker?: unknown }).showDirectoryPicker);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(url, { timeout: 0 });
    await compileState(page, 'ok');
    await page.setInputFiles('[data-testid=folder-input]', elsewhere);
    await page.waitForFunction(() => (window as unknown as Handle).playground.app.packKey === 'local/upload-game');
    await compileState(page, 'ok');
    await toastSays(page, 'Opened upload-game from the folder');
    expect(await page.isHidden('[data-testid=save-folder]')).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens a folder with the File System Access API and saves the edits back to it', async () => {
    const context = await browser.newContext();
    // The picker's dialog cannot be clicked headless: it answers with a real directory handle of the origin's private file system.
    await context.addInitScript(() => {
      (window as unknown as { showDirectoryPicker: () => Promise<unknown> }).showDirectoryPicker = async () => (await navigator.storage.getDirectory()).getDirectoryHandle('picked');
    });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(url, { timeout: 0 });
    await compileState(page, 'ok');
    const files = Object.fromEntries(readPackFolder(join(elsewhere, 'upload-game')).map((f) => [f.path, f.text]));
    await page.evaluate(async (files) => {
      const root = await (await navigator.storage.getDirectory()).getDirectoryHandle('picked', { create: true });
      for (const [path, text] of Object.entries(files)) {
        let dir = root;
        for (const part of path.split('/').slice(0, -1)) dir = await dir.getDirectoryHandle(part, { create: true });
        const out = await (await dir.getFileHandle(path.split('/').pop()!, { create: true })).createWritable();
        await out.write(text);
        await out.close();
      }
    }, files);
    await page.click('[data-testid=open-folder]');
    await page.waitForFunction(() => (window as unknown as Handle).playground.app.packKey === 'local/picked');
    await compileState(page, 'ok');
    const edited = `${files['game.yaml']}# edited in the playground\n`;
    await page.evaluate((text) => (window as unknown as Handle).playground.editor.model('game.yaml')!.setValue(text), edited);
    await compileState(page, 'ok');
    await page.click('[data-testid=save-folder]');
    await toastSays(page, 'Saved to the folder picked: 1 file written');
    const onDisk = await page.evaluate(async () => {
      const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('picked');
      return (await (await dir.getFileHandle('game.yaml')).getFile()).text();
    });
    expect(onDisk).toBe(edited);
    expect(errors).toEqual([]);
    await context.close();
  });
});
