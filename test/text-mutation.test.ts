/**
 * The mutation benchmark of the card text checker (bench/textMutations.ts, which says how it
 * works): every shipped pack raises no false alarm, and single mutations of rules and texts are
 * caught at least as often as the floor below.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { findPacks } from '../cli/packs.ts';
import { mutationSummary, rate, runPack, type PackRun } from '../bench/textMutations.ts';

const root = join(import.meta.dirname, '..');

describe('card text checker: mutation benchmark over the shipped packs', () => {
  const packs = findPacks(join(root, 'content'));
  // The benchmark runs once, before the tests, so each test reads it whatever else runs (`-t`).
  const runs = new Map<string, PackRun>();
  beforeAll(() => {
    for (const dir of packs) runs.set(dir, runPack(dir));
  });

  for (const dir of packs) {
    it(`${dir.split(/[\\/]/).pop()}: no false alarm, then mutations`, () => {
      const run = runs.get(dir)!;
      console.log(run.report);
      expect(run.alarms).toEqual([]);
    });
  }

  it('detects at least the floor of single mutations and raises no false alarm', () => {
    const all = [...runs.values()].flatMap((r) => r.outcomes);
    const alarms = [...runs.values()].flatMap((r) => r.alarms);
    console.log(mutationSummary(runs));
    expect(alarms).toEqual([]);
    expect(all.length).toBeGreaterThan(100);
    // A floor against regressions at what was measured: 98.2% (768/782; issue #15 asks 98%). The
    // misses left: the Portal Mages' "except Mountain and Legendary Place markers" (what a card's
    // effect leaves alone is nowhere in its rules), the core's floor of 1 token restated under two
    // prices no printed card states (Ashes of Al'ar, Gnomes), term swaps in conditions no text
    // pairs with a number (Battlefield, a Goblins' bomb), a choice's fallback list (Worgen) and two
    // counters of Onward to Victory (one an equivalent mutant: the field is set again before it is
    // read); TEXT_BENCH_VERBOSE=1 lists them. Realistic mistakes are held apart (test/text-mistakes.test.ts).
    expect(rate(all)).toBeGreaterThanOrEqual(0.982);
  });
});
