/**
 * The runtime's promises on every shipped pack, by a model-based property (scripts/runtimeModel.ts):
 * illegal and tampered choices refused with the state untouched, replay of any prefix equal to the
 * live state. Seeds are pinned; RELIABILITY_RUNS=N runs N sequences per pack instead of 4.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from '../../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../../compiler/packFolder.ts';
import { apply, newGame } from '../../runtime/index.ts';
import { checkRuntimeModel } from '../../scripts/runtimeModel.ts';

const runs = Number(process.env.RELIABILITY_RUNS ?? 4);

describe('the runtime under random legal and tampered choices', () => {
  for (const name of readdirSync('content')) {
    it(name, { timeout: 60_000 + runs * 5_000 }, () => {
      const dir = join('content', name);
      const files = readPackFolder(dir);
      const { pack } = compile(files, { dependencies: dependenciesOf(dir, files) });
      expect(pack, `${name} compiles`).toBeDefined();
      const stats = checkRuntimeModel(pack!, { runs, seed: 20261126, maxCommands: 20 });
      expect(stats.sequences).toBeGreaterThanOrEqual(runs);
      expect(stats.steps + stats.refused).toBeGreaterThan(0);
    });
  }
});

describe('choices the long runs found', () => {
  // The reliability run's 100 sequences per pack sent an empty choice id, which threw.
  it.each(['', '   '])('an empty or blank choice id (%j) is refused with a reason and changes nothing', (id) => {
    const dir = 'content/wotlk';
    const files = readPackFolder(dir);
    const { pack } = compile(files, { dependencies: dependenciesOf(dir, files) });
    const state = newGame(pack!, { players: 2, seed: 1 });
    const before = JSON.stringify(state);
    const r = apply(state, id);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toBeTruthy();
    expect(JSON.stringify(state)).toBe(before);
  });
});
