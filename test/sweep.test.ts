import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { compile } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { standings, type CompiledPack, type GameState } from '../runtime/index.ts';
import { sweepPack, sweepPacks, type SweepReport } from '../simulate/sweep.ts';
import { compileOk } from './helpers/inlinePack.ts';

/**
 * Whole games by seeded random agents (`simulate/sweep.ts`, the loop every bot plays through),
 * with the pack's invariants checked after setup and after every choice: every game must end
 * without a rule failing or an invariant breaking.
 */

function compiled(dir: string) {
  const files = readPackFolder(dir);
  return compile(files, { dependencies: dependenciesOf(dir, files) });
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** Plays the sweep and fails on its first failure, naming the seed and step that replay it. */
function sweepOk(pack: CompiledPack, players: number, seeds: number, maxSteps: number, observe?: (st: GameState, pick?: string) => void, onGame?: (st: GameState, seed: number) => void): SweepReport {
  const r = sweepPack(pack, { players, seeds: range(seeds), maxSteps, observe: (st, c) => observe?.(st, c?.id), onGame });
  expect(r.failures).toEqual([]);
  expect(r.games).toBe(seeds);
  return r;
}

/**
 * Both Small World packs, for every player count: across the sweep every race and every power
 * must be taken at least once. `SWEEP_SEEDS` sets the seeds per player count (default 25, 200
 * games in all; the full sweep of the issue is `SWEEP_SEEDS=200`).
 */
const seeds = Number(process.env.SWEEP_SEEDS ?? 25);

for (const dir of ['content/smallworld-wow', 'content/smallworld-wow-teams']) {
  describe(`bots play ${dir} to the end`, () => {
    const { pack, diagnostics } = compiled(dir);
    const races = new Set<string>();
    const powers = new Set<string>();

    it('compiles', () => expect(diagnostics).toEqual([]));

    for (const players of [2, 3, 4, 5]) {
      it(`${players} players, seeds 1–${seeds}`, () => {
        sweepOk(
          pack!,
          players,
          seeds,
          5000,
          (at) => {
            for (const p of at.players) {
              const { race, power } = at.e[p] as { race: string | null; power: string | null };
              if (race) races.add(race);
              if (power) powers.add(power);
            }
          },
          (st) => expect(standings(st)).toHaveLength(players),
        );
      });
    }

    // Needs the games above: the coverage is of the whole sweep (run this file whole, not with -t).
    it('every race and every power was taken in the sweep', () => {
      expect([...races].sort()).toEqual([...pack!.byKind.race].sort());
      expect([...powers].sort()).toEqual([...pack!.byKind.power].sort());
    });
  });
}

/**
 * Whole cooperative games of Wrath of the Lich King, solo and 2–5 players: every game must end
 * (won or lost), and across the sweep bots must have fought, quested and used abilities.
 * `WOTLK_SEEDS` sets the seeds per player count (default 3).
 */
const wotlkSeeds = Number(process.env.WOTLK_SEEDS ?? 3);

describe('bots play content/wotlk to the end', () => {
  const { pack, diagnostics } = compiled('content/wotlk');
  const actions = new Set<string>();

  it('compiles', () => expect(diagnostics).toEqual([]));

  for (const players of [1, 2, 3, 4, 5]) {
    it(`${players} player(s), seeds 1–${wotlkSeeds}`, () => {
      sweepOk(
        pack!,
        players,
        wotlkSeeds,
        20000,
        (_, pick) => pick && actions.add(pick.split(/[ @]/)[0]),
        (st, seed) => {
          const game = st.e.game as { won: boolean; lost: boolean };
          expect(game.won || game.lost, `seed ${seed}: the game ended neither won nor lost`).toBe(true);
          expect(standings(st)).toHaveLength(players);
        },
      );
    });
  }

  it('the bots fought, quested and used abilities', () => {
    for (const a of ['move', 'fight', 'quest', 'rest', 'travel', 'heal']) expect(actions, a).toContain(a);
  });
});

/**
 * Whole games of Wroth: solo (always against the AI faction) and 2–4 players (the first bot picks
 * the base game or the co-op one). Across the sweep both variants must have been played and the
 * bots must have used the exodus, the all-seeing die, elite troops and feat cards. `WROTH_SEEDS`
 * sets the seeds per player count (default 3).
 */
const wrothSeeds = Number(process.env.WROTH_SEEDS ?? 3);

describe('bots play content/wroth to the end', () => {
  const { pack, diagnostics } = compiled('content/wroth');
  const actions = new Set<string>();
  const variants = new Set<string>();

  it('compiles', () => expect(diagnostics).toEqual([]));

  for (const players of [1, 2, 3, 4]) {
    it(`${players} player(s), seeds 1–${wrothSeeds}`, () => {
      sweepOk(
        pack!,
        players,
        wrothSeeds,
        20000,
        (_, pick) => pick && actions.add(pick.split(/[ @]/)[0]),
        (st, seed) => {
          const game = st.e.game as { variant: string; outcome: string };
          variants.add(game.variant);
          if (game.variant === 'coop') expect(['players', 'ai'], `seed ${seed}: a co-op game ends with a side winning`).toContain(game.outcome);
          expect(standings(st)).toHaveLength(players);
        },
      );
    });
  }

  it('both variants were played, and the bots used every kind of move', () => {
    expect([...variants].sort()).toEqual(['coop', 'versus']);
    for (const a of ['useMine', 'useExtend', 'useManeuver', 'useBattle', 'exodus', 'seeStrike', 'buyElite']) expect(actions, a).toContain(a);
    expect([...actions].some((a) => a.includes('.')), 'a feat card was used').toBe(true);
  });
});

describe('the sweep checks invariants after every choice', () => {
  // Each claim adds 3 points and each answer takes them back: with two players the table holds 6
  // points after the second claim, but never after setup and never at the end.
  const pack = compileOk(
    `kinds:
  player:
    state:
      points: number
rules: |
  invariant "the table never holds more than 3 points" = sum(players, it.points) <= 3
  action claim "Claim" { me.points += 3 }
  action answer "Answer" { me.points -= 3 }
  flow {
    for p in players { turn p { offer p: claim } }
    for p in players { turn p { offer p: answer } }
  }
`,
    { min: 2, max: 2 },
  );

  it('a state broken between two choices is a failure at its step, though the game ends fine', () => {
    const r = sweepPack(pack, { players: 2, seeds: [1], maxSteps: 10 });
    expect(r).toMatchObject({ games: 1, steps: 2 });
    expect(r.failures).toEqual([{ pack: 'test', players: 2, seed: 1, step: 2, message: expect.stringContaining('invariant broken: the table never holds more than 3 points') }]);
  });

  it('sweepPacks counts the games and steps of every pack in a folder', () => {
    const r = sweepPacks({ seeds: 2, root: join(import.meta.dirname, 'packs'), packs: ['tiny'] });
    expect(r.failures).toEqual([]);
    // tiny: 2 or 3 players, 2 rounds of one choice each.
    expect(r).toMatchObject({ games: 4, steps: 2 * (2 * 2) + 2 * (2 * 3) });
  });
});
