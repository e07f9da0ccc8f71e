import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order the files start in: the sweep first, as it is the longest file that needs no playground
 * and runs while the e2e project's setup builds it (global-setup.ts); then the e2e files, the run's
 * longest; then the unit files, which fill in at the end (a project not named here, last). Within a
 * project, largest file first, as vitest orders them.
 */
class Schedule extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const order = ['sweep', 'e2e', 'unit'];
    const rank = (f: TestSpecification) => (order.includes(f.project.name) ? order.indexOf(f.project.name) : order.length);
    // Array sort is stable: vitest's order within a project stays.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * Three projects, all run by `npm test` (`npx vitest run --project unit` for one): `unit` (compiler,
 * runtime, CLI and scenario tests on the real packs), `sweep` (whole games by bots) and `e2e` (the
 * playground in a headless browser). Timeouts are per project, set for a shared 2-core machine
 * several times slower than when idle: a test waits on conditions, and a timeout only stops one
 * that hangs.
 */
export default defineConfig({
  test: {
    // No results cache: vitest rewrites node_modules/.vite/vitest/…/results.json in place at the end
    // of a run, and another run starting then reads it half-written and fails. Files are ordered by
    // size instead of last run's durations.
    cache: false,
    sequence: { sequencer: Schedule },
    // A worker per core (vitest's default leaves one free): an e2e file's worker mostly waits on its
    // browser, so a unit file runs beside it instead of after it.
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'test/sweep.test.ts', '**/node_modules/**'],
          // A worker runs file after file with the modules it has loaded (the compiler, the runtime):
          // a fresh worker per file paid ~2 CPU-s each to load them again (10 files at load ~35:
          // 49 CPU-s isolated, 27 not). The files keep no state in modules they share: each test
          // makes its own packs, folders and servers.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        // The games are played in each pack's beforeAll (its tests read them), so the hooks get the long timeout.
        test: { name: 'sweep', include: ['test/sweep.test.ts'], testTimeout: 120_000, hookTimeout: 900_000 },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // The playground built once for the run and served to the files (see the file).
          globalSetup: ['test/e2e/global-setup.ts'],
          // A test's timeout only stops a hang: the playground test's second case takes ~40 s idle and
          // went past 300 s in a full run at a load of 35 on 2 cores.
          testTimeout: 600_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
