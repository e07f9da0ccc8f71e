import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { apply, legalChoices, newGame, standings, type CompiledPack, type GameState } from '../runtime/index.ts';
import { nextRandom } from '../runtime/rng.ts';

/**
 * Whole games by seeded uniform bots, for every player count of both Small World packs: each must
 * reach the end without a rule failing, and across the sweep every race and every power must be
 * taken at least once. `SWEEP_SEEDS` sets the seeds per player count (default 25, 200 games in all; the full sweep
 * of the issue is `SWEEP_SEEDS=200`).
 */
const seeds = Number(process.env.SWEEP_SEEDS ?? 25);

/**
 * One whole game by seeded uniform bots: every listed choice must be accepted, and the game must
 * end within `maxSteps` choices. `seen` is told of each state the bots reach and of each choice.
 */
function botGame(pack: CompiledPack, players: number, seed: number, maxSteps: number, seen: (st: GameState, pick: string) => void = () => {}): GameState {
  let st = newGame(pack, { players, seed });
  let rng = seed * 7919 + players;
  let steps = 0;
  while (!st.over) {
    const legal = legalChoices(st, { labels: false });
    if (!legal.length) throw new Error(`seed ${seed}: ${st.prompt?.player} has no legal choice at step ${steps}`);
    const r = nextRandom(rng);
    rng = r.state;
    const pick = legal[Math.floor(r.value * legal.length)];
    const res = apply(st, pick);
    if (!res.ok) throw new Error(`seed ${seed}, step ${steps}: a listed choice was refused: ${pick.id}: ${res.reason}`);
    st = res.state;
    seen(st, pick.id);
    if (++steps > maxSteps) throw new Error(`seed ${seed}: no end after ${maxSteps} choices`);
  }
  return st;
}

for (const dir of ['content/smallworld-wow', 'content/smallworld-wow-teams']) {
  describe(`bots play ${dir} to the end`, () => {
    const files = readPackFolder(dir);
    const { pack, diagnostics } = compile(files, { dependencies: dependenciesOf(dir, files) });
    const races = new Set<string>();
    const powers = new Set<string>();

    for (const players of [2, 3, 4, 5]) {
      it(`${players} players, seeds 1–${seeds}`, { timeout: 300_000 }, () => {
        expect(diagnostics).toEqual([]);
        for (let seed = 1; seed <= seeds; seed++) {
          const st = botGame(pack!, players, seed, 5000, (at) => {
            for (const p of at.players) {
              const { race, power } = at.e[p] as { race: string | null; power: string | null };
              if (race) races.add(race);
              if (power) powers.add(power);
            }
          });
          expect(standings(st)).toHaveLength(players);
        }
      });
    }

    it('every race and every power was taken in the sweep', () => {
      expect([...races].sort()).toEqual([...pack!.byKind.race].sort());
      expect([...powers].sort()).toEqual([...pack!.byKind.power].sort());
    });
  });
}

/**
 * Whole cooperative games of Wrath of the Lich King by seeded uniform bots, solo and 2–5 players:
 * every game must end (won or lost) without a rule failing, and across the sweep bots must have
 * played reward cards (the `anytime` actions) and fought. `WOTLK_SEEDS` sets the seeds per player
 * count (default 3).
 */
const wotlkSeeds = Number(process.env.WOTLK_SEEDS ?? 3);

describe('bots play content/wotlk to the end', () => {
  const dir = 'content/wotlk';
  const files = readPackFolder(dir);
  const { pack, diagnostics } = compile(files, { dependencies: dependenciesOf(dir, files) });
  const actions = new Set<string>();

  for (const players of [1, 2, 3, 4, 5]) {
    it(`${players} player(s), seeds 1–${wotlkSeeds}`, { timeout: 300_000 }, () => {
      expect(diagnostics).toEqual([]);
      for (let seed = 1; seed <= wotlkSeeds; seed++) {
        const st = botGame(pack!, players, seed, 20000, (_, pick) => actions.add(pick.split(/[ @]/)[0]));
        const game = st.e.game as { won: boolean; lost: boolean };
        expect(game.won || game.lost, `seed ${seed}: the game ended neither won nor lost`).toBe(true);
        expect(standings(st)).toHaveLength(players);
      }
    });
  }

  it('the bots fought, quested and used abilities', () => {
    for (const a of ['move', 'fight', 'quest', 'rest', 'travel', 'heal']) expect(actions, a).toContain(a);
  });
});

/**
 * Whole games of Wroth by seeded uniform bots: solo (always against the AI faction) and 2–4 players
 * (the first bot picks the base game or the co-op one). Every game must end without a rule failing;
 * across the sweep both variants must have been played and the bots must have used the exodus,
 * the all-seeing die, elite troops and feat cards. `WROTH_SEEDS` sets the seeds per player count
 * (default 3).
 */
const wrothSeeds = Number(process.env.WROTH_SEEDS ?? 3);

describe('bots play content/wroth to the end', () => {
  const dir = 'content/wroth';
  const files = readPackFolder(dir);
  const { pack, diagnostics } = compile(files, { dependencies: dependenciesOf(dir, files) });
  const actions = new Set<string>();
  const variants = new Set<string>();

  for (const players of [1, 2, 3, 4]) {
    it(`${players} player(s), seeds 1–${wrothSeeds}`, { timeout: 300_000 }, () => {
      expect(diagnostics).toEqual([]);
      for (let seed = 1; seed <= wrothSeeds; seed++) {
        const st = botGame(pack!, players, seed, 20000, (_, pick) => actions.add(pick.split(/[ @]/)[0]));
        const game = st.e.game as { variant: string; outcome: string };
        variants.add(game.variant);
        if (game.variant === 'coop') expect(['players', 'ai'], `seed ${seed}: a co-op game ends with a side winning`).toContain(game.outcome);
        expect(standings(st)).toHaveLength(players);
      }
    });
  }

  it('both variants were played, and the bots used every kind of move', () => {
    expect([...variants].sort()).toEqual(['coop', 'versus']);
    for (const a of ['useMine', 'useExtend', 'useManeuver', 'useBattle', 'exodus', 'seeStrike', 'buyElite']) expect(actions, a).toContain(a);
    expect([...actions].some((a) => a.includes('.')), 'a feat card was used').toBe(true);
  });
});
