/**
 * End-to-end harness: the playground served on a free port, either built (`buildPlayground`, then
 * `previewPlayground`: a page loads a few bundled files) or by Vite's dev server as `rulebook serve`
 * runs it (`startPlayground`: every module a request of its own, several hundred a page), and the
 * system's headless Chromium driven by playwright-core (no browser is ever downloaded). Free of
 * vitest, so the run's global setup (global-setup.ts), `npm run screenshots` and the benchmarks use
 * it too.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createServer, preview, type Plugin, type PreviewServer, type ViteDevServer } from 'vite';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const config = `${repo}/playground/vite.config.ts`;
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * `cacheDir` is where Vite keeps its pre-bundled dependencies: by default `node_modules/.vite`,
 * which every dev server of the checkout shares; the tests give one of their own run's, as another
 * server rewriting it mid-run (a concurrent run, or one with another NODE_ENV) breaks the pages served.
 */
export async function startPlayground(options: { cacheDir?: string } = {}): Promise<{ server: ViteDevServer; url: string }> {
  const server = await createServer({
    configFile: config,
    cacheDir: options.cacheDir,
    server: { port: 0, host: '127.0.0.1', strictPort: false, hmr: false, watch: null },
    logLevel: 'warn',
  });
  await server.listen();
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('the playground dev server did not report its address');
  return { server, url };
}

/**
 * Builds the playground into `outDir`, as `vite build` does. In a process of its own, so that the
 * build is the production one whatever NODE_ENV the caller runs under (vitest sets `test`).
 */
export async function buildPlayground(outDir: string): Promise<void> {
  const vite = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
  await promisify(execFile)(process.execPath, [vite, 'build', '--config', config, '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: repo,
    env: { ...process.env, NODE_ENV: 'production' },
    maxBuffer: 16 * 1024 * 1024,
  });
}

/**
 * Serves a playground built by `buildPlayground` from `outDir`, with the designer's folder of packs
 * the dev server would serve (`RULEBOOK_PACKS`, read when the server starts; see
 * playground/served-packs.ts). Given the build under way (`built`), the server starts at once and
 * holds every request until the build is done (the build's error, if it fails), so that the run's
 * other tests need not wait for it.
 */
export async function previewPlayground(outDir: string, built?: Promise<void>): Promise<{ server: PreviewServer; url: string }> {
  const server = await preview({
    configFile: config,
    build: { outDir },
    preview: { port: 0, host: '127.0.0.1', strictPort: false },
    logLevel: 'warn',
    plugins: built ? [holdUntil(built)] : [],
  });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('the playground preview server did not report its address');
  return { server, url };
}

/** A plugin whose middleware, ahead of the built files, holds each request until `built` settles. */
function holdUntil(built: Promise<void>): Plugin {
  return {
    name: 'rulebook-hold-until-built',
    configurePreviewServer(server) {
      server.middlewares.use((_req, res, next) => {
        built.then(
          () => next(),
          (e: unknown) => {
            res.statusCode = 500;
            res.setHeader('content-type', 'text/plain; charset=utf-8');
            res.end(`the playground did not build: ${e instanceof Error ? e.message : String(e)}`);
          },
        );
      });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/**
 * Every context and page of the browser waits without a limit of its own (Playwright's is 30 s):
 * a wait ends when its condition holds, and the test's timeout (vitest.config.ts) stops one that
 * never does, however slow a busy machine makes the page. A wait given its own timeout keeps it.
 */
export function untimed(browser: Browser): Browser {
  const open = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await open(options);
    context.setDefaultTimeout(0);
    return context;
  };
  return browser;
}

/** Waits until the compile status reads `state` (`ok` once the pack compiles without errors). */
export async function compileState(page: Page, state: 'ok' | 'errors', timeout = 90_000): Promise<void> {
  await page.waitForFunction((w) => document.querySelector('[data-testid=compile-status]')?.getAttribute('data-state') === w, state, { timeout, polling: 'raf' });
}

/**
 * Waits until no compile is running and gives its outcome (`ok` or `errors`), read in the same
 * look as the wait: a second read could already see the next compile.
 */
export async function status(page: Page, timeout = 90_000): Promise<string> {
  const done = await page.waitForFunction(
    () => {
      const s = document.querySelector('[data-testid=compile-status]')?.getAttribute('data-state');
      return s && s !== 'compiling' ? s : false;
    },
    null,
    { timeout, polling: 'raf' },
  );
  return (await done.jsonValue()) as string;
}

/** Collects the page's uncaught errors and console errors, so a test can fail on them. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return errors;
}

/** Sets the bots to play instantly, with the play toolbar's menu as a user does (it holds still while bots play). */
export async function instantBots(page: Page): Promise<void> {
  await page.selectOption('[data-testid=bot-speed]', 'instant');
}
