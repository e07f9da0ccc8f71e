import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPacks, isDir, packAt, packLabel, readSource, renderDiagnostic, scenarioFilesOf } from '../cli/packs.ts';
import { compile } from '../compiler/index.ts';
import { newGame } from '../runtime/index.ts';
import { formatFailure, formatResults, readScenarioFile, runScenario, runScenarios } from '../scenario/index.ts';

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

describe('a card added to a pack', () => {
  // docs/scenarios.md, "Pin what the scenario relies on": a scenario pins the piles and rolls it
  // relies on, so a new card, which reshuffles every pile and every roll after it, breaks none.
  const dir = 'content/smallworld-wow';
  const extra = [
    {
      path: 'races/zzExtraRace.yaml',
      text: 'entities:\n  - race: zzExtraRace\n    name: { en: "Extras", pl: "Statyści" }\n    tokens: 5\n    faction: neutral\n    box: 10\n    text:\n      pl: "Nic nie robią."\n      en: "They do nothing."\n',
    },
    {
      path: 'powers/zzExtraPower.yaml',
      text: 'entities:\n  - power: zzExtraPower\n    name: { en: "Extras", pl: "Statyści" }\n    tokens: 4\n    persistsInDecline: false\n    text:\n      pl: "Nic nie robią."\n      en: "They do nothing."\n',
    },
  ];

  it.runIf(isDir(dir))('changes none of the Small World core scenarios', () => {
    const onDisk = packAt(dir);
    const r = compile([...onDisk.files, ...extra], { dependencies: onDisk.dependencies });
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const before = onDisk.result.pack!;
    const shuffled = r.pack!;
    // The new cards are really dealt: the same seed lays out other piles.
    const piles = (pack: typeof before) => newGame(pack, { players: 2, seed: 7 }).e.game.columnRaces;
    expect(piles(shuffled)).not.toEqual(piles(before));
    const files = scenarioFilesOf(dir)
      .filter((path) => path.startsWith(join(dir, 'scenarios', 'core')))
      .map(readSource);
    const results = runScenarios(shuffled, files);
    expect(results.length).toBeGreaterThan(20);
    expect(results.filter((x) => !x.passed), formatResults(results)).toEqual([]);
  });
});
