/**
 * For a test file's `describe` block: the playground the run serves (global-setup.ts builds it
 * once and serves the build) and a browser of the file's own, launched before its tests and closed
 * after them. Each test opens its own context or page, so no test sees what another left.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { launchBrowser, untimed } from './harness.ts';

export function usePlayground(): { readonly url: string; readonly browser: Browser } {
  const handle = { url: inject('playgroundUrl'), browser: undefined as unknown as Browser };
  beforeAll(async () => {
    handle.browser = untimed(await launchBrowser());
  });
  afterAll(async () => {
    await handle.browser?.close();
  });
  return handle;
}
