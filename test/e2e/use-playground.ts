/**
 * For a test file's `describe` block: the playground the run serves (global-setup.ts builds it
 * once and serves the build), once it is built, and a browser of the file's own, launched before
 * its tests and closed after them. Each test opens its own context or page, so no test sees what another left.
 */
import { get } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { launchBrowser, untimed } from './harness.ts';

/** The wait for the build: only a hang-stopper, as the build on a busy machine may take minutes. */
export const BUILD_WAIT = 900_000;

export function usePlayground(): { readonly url: string; readonly browser: Browser } {
  const handle = { url: inject('playgroundUrl'), browser: undefined as unknown as Browser };
  beforeAll(async () => {
    const launched = launchBrowser();
    try {
      await playgroundBuilt();
    } finally {
      handle.browser = untimed(await launched);
    }
  }, BUILD_WAIT);
  afterAll(async () => {
    await handle.browser?.close();
  });
  return handle;
}

/**
 * Waits until the run's playground is built (global-setup.ts builds it while the first files run);
 * a build that failed is this file's error, with the build's message.
 */
export async function playgroundBuilt(): Promise<void> {
  // node:http, not fetch: fetch gives up on an answer's headers after 300 s, and the build on a busy machine may take longer.
  const { status, body } = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
    get(inject('playgroundUrl'), (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    }).on('error', reject);
  });
  if (status !== 200) throw new Error(body);
}
