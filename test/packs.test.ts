import { describe, expect, it } from 'vitest';
import { findPacks, isDir, packAt, packLabel, readSource, renderDiagnostic, scenarioFilesOf } from '../cli/packs.ts';
import { formatFailure, readScenarioFile, runScenario } from '../scenario/index.ts';

/**
 * Every pack under content/: it compiles, and each of its scenarios is one test, by name — so the
 * designers' scenarios run with `npm test`.
 */
const packDirs = isDir('content') ? findPacks('content') : [];

describe.each(packDirs)('%s', (dir) => {
  const onDisk = packAt(dir);
  const errors = onDisk.result.diagnostics.filter((d) => d.severity === 'error');

  it(`compiles (${packLabel(onDisk)})`, () => {
    expect(errors.length, errors.map((d) => renderDiagnostic(onDisk, d)).join('\n\n')).toBe(0);
  });

  for (const path of scenarioFilesOf(dir)) {
    const file = readSource(path);
    const read = readScenarioFile(file);
    if (read.problems.length) {
      it(`${file.path} is a readable scenario file`, () => {
        expect.fail(read.problems.map((f) => formatFailure(f, '')).join('\n\n'));
      });
    }
    describe(file.path, () => {
      for (const scenario of read.scenarios) {
        it(scenario.name, () => {
          const pack = onDisk.result.pack;
          if (!pack) expect.fail(`the pack ${packLabel(onDisk)} does not compile (${errors.length} errors), so this scenario cannot run; see its "compiles" test`);
          const r = runScenario(pack, scenario, {}, file.text);
          if (!r.passed) expect.fail(r.failures.map((f) => formatFailure(f, '')).join('\n\n'));
        });
      }
    });
  }
});

it('finds the packs under content/', () => {
  expect(packDirs.length).toBeGreaterThan(0);
});
