import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { compile } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { standings, type GameState } from '../runtime/index.ts';
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

interface Ending {
  seed: number;
  /** Rows in the final standings. */
  ranked: number;
  game: Record<string, unknown>;
}

/**
 * A pack's sweep, played once before its tests (so that each test reads it, whichever run): the
 * report and the endings for each number of players, and `seen` told of every state and choice.
 */
function sweepOf(dir: string, counts: number[], seeds: number, maxSteps: number, seen: (st: GameState, pick?: string) => void) {
  const { pack, diagnostics } = compiled(dir);
  const runs = new Map<number, { report: SweepReport; endings: Ending[] }>();
  beforeAll(() => {
    if (!pack) return;
    for (const players of counts) {
      const endings: Ending[] = [];
      const report = sweepPack(pack, { players, seeds: range(seeds), maxSteps, observe: (st, c) => seen(st, c?.id), onGame: (st, seed) => endings.push({ seed, ranked: standings(st).length, game: st.e.game }) });
      runs.set(players, { report, endings });
    }
  });
  it('compiles', () => expect(diagnostics).toEqual([]));
  /** The games of `players`: none failed, each ended, each ranked every player. */
  const games = (players: number): Ending[] => {
    const run = runs.get(players)!;
    expect(run.report.failures).toEqual([]);
    expect(run.report.games).toBe(seeds);
    for (const e of run.endings) expect(e.ranked, `seed ${e.seed}`).toBe(players);
    return run.endings;
  };
  return { pack: pack!, games };
}

/**
 * Both Small World packs, for every player count: across the sweep every race and every power
 * must be taken at least once. `SWEEP_SEEDS` sets the seeds per player count (default 25, 200
 * games in all; the full sweep of the issue is `SWEEP_SEEDS=200`).
 */
const seeds = Number(process.env.SWEEP_SEEDS ?? 25);

for (const dir of ['content/smallworld-wow', 'content/smallworld-wow-teams']) {
  describe(`bots play ${dir} to the end`, () => {
    const races = new Set<string>();
    const powers = new Set<string>();
    const counts = [2, 3, 4, 5];
    const { pack, games } = sweepOf(dir, counts, seeds, 5000, (at) => {
      for (const p of at.players) {
        const { race, power } = at.e[p] as { race: string | null; power: string | null };
        if (race) races.add(race);
        if (power) powers.add(power);
      }
    });

    for (const players of counts) it(`${players} players, seeds 1–${seeds}`, () => void games(players));

    it('every race and every power was taken in the sweep', () => {
      expect([...races].sort()).toEqual([...pack.byKind.race].sort());
      expect([...powers].sort()).toEqual([...pack.byKind.power].sort());
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
  const actions = new Set<string>();
  const { games } = sweepOf('content/wotlk', [1, 2, 3, 4, 5], wotlkSeeds, 20000, (_, pick) => void (pick && actions.add(pick.split(/[ @]/)[0])));

  for (const players of [1, 2, 3, 4, 5]) {
    it(`${players} player(s), seeds 1–${wotlkSeeds}`, () => {
      for (const { seed, game } of games(players)) expect(game.won || game.lost, `seed ${seed}: the game ended neither won nor lost`).toBe(true);
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
  const actions = new Set<string>();
  const variants = new Set<string>();
  const { games } = sweepOf('content/wroth', [1, 2, 3, 4], wrothSeeds, 20000, (st, pick) => {
    if (pick) actions.add(pick.split(/[ @]/)[0]);
    if (st.over) variants.add((st.e.game as { variant: string }).variant);
  });

  for (const players of [1, 2, 3, 4]) {
    it(`${players} player(s), seeds 1–${wrothSeeds}`, () => {
      for (const { seed, game } of games(players)) if (game.variant === 'coop') expect(['players', 'ai'], `seed ${seed}: a co-op game ends with a side winning`).toContain(game.outcome);
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
