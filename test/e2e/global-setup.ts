/**
 * The e2e project's global setup: one playground dev server for the whole run, which every test
 * file but own-folder's (it serves a folder of its own) uses, with Vite's pre-bundled dependencies
 * in a folder of this run's own. A first page is loaded and compiled before any test, so the
 * dependencies are bundled and the sources transformed once, not in the first test of each file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { launchBrowser, startPlayground, status } from './harness.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The address of the run's playground. */
    playgroundUrl: string;
    /** Vite's cache folder for the run, for a test file's own dev server. */
    viteCacheDir: string;
  }
}

/** The first load bundles the dependencies from nothing: minutes on a busy machine, bounded so a broken server cannot hang the run. */
const WARM_UP_TIMEOUT = 900_000;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'rulebook-vite-'));
  const { server, url } = await startPlayground({ cacheDir });
  const teardown = async () => {
    await server.close();
    rmSync(cacheDir, { recursive: true, force: true });
  };
  try {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(url, { timeout: WARM_UP_TIMEOUT });
      await status(page, WARM_UP_TIMEOUT);
    } finally {
      await browser.close();
    }
  } catch (e) {
    await teardown();
    throw e;
  }
  project.provide('playgroundUrl', url);
  project.provide('viteCacheDir', cacheDir);
  return teardown;
}
