/**
 * The e2e project's global setup: the playground built once for the run, into a folder of the run's
 * own (the build runs while the run's first files do), and served by one preview server, which every test file but own-folder's (it serves a folder
 * of its own) uses. A page of the built playground loads a few bundled files; from the dev server
 * it would load several hundred modules, each a request of its own. The dev server, which
 * `rulebook serve` runs, is tested by own-folder's test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildPlayground, previewPlayground } from './harness.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The address of the run's playground. */
    playgroundUrl: string;
    /** The folder of the run's built playground, for a test file's own preview server. */
    playgroundBuild: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const outDir = mkdtempSync(join(tmpdir(), 'rulebook-playground-'));
  // Not awaited here: the server holds the pages' requests until the build is done, and the test
  // files wait for it (use-playground.ts), so files that need no playground run meanwhile.
  const built = buildPlayground(outDir);
  // Its failure is reported to every test file that waits for the build.
  built.catch(() => {});
  try {
    const { server, url } = await previewPlayground(outDir, built);
    project.provide('playgroundUrl', url);
    project.provide('playgroundBuild', outDir);
    return async () => {
      await server.close();
      await built.catch(() => {});
      rmSync(outDir, { recursive: true, force: true });
    };
  } catch (e) {
    await built.catch(() => {});
    rmSync(outDir, { recursive: true, force: true });
    throw e;
  }
}
