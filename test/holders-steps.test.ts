/**
 * The steps a choice counts do not depend on its state's past. What a state finds of its cards'
 * holders is kept with it (`holders.ts`), and shared with the states copied from it; a state loaded
 * from JSON keeps nothing and finds it all again. A kept answer's steps are spent again each time it
 * is taken, so a choice that ends near the end of its step budget passes, or is refused, alike on
 * the state that played on and on the same state loaded from its JSON: a game is its seed and its
 * choices, and its replay must not refuse a choice the live game took.
 */
import { describe, expect, it } from 'vitest';
import { STEP_BUDGET } from '../runtime/budget.ts';
import { apply, attach, legalChoices, newGame, replay, type CompiledPack, type EngineName, type GameState } from '../runtime/index.ts';
import { compileOk } from './helpers/inlinePack.ts';

/**
 * A banner works for the players who carry it, a role that reads a player's field only, so its
 * holders are kept with the state. `rally n` runs `n` empty rounds, then emits the event the banner
 * answers: its holders are found there, at the end of the choice's steps.
 */
const pack: CompiledPack = compileOk(
  `
kinds:
  banner:
    roles:
      bearer: players where self in it.banners
  player:
    state:
      banners: list<banner>
      cheers: number
entities:
  - banner: red
    rules: |
      on rallied(p) when p == holder {
        holder.cheers += 1
      }
  - banner: blue
    rules: |
      on rallied(p) when p == holder {
        holder.cheers += 2
      }
rules: |
  event rallied(p: player)
  setup {
    for p in players {
      p.banners = [red, blue]
    }
  }
  action rally(n: number in ${STEP_BUDGET - 1_000}..${STEP_BUDGET - 1}) "Rally for {n} rounds" {
    repeat n {
    }
    emit rallied(me)
  }
  flow {
    for p in players {
      turn p { offer p: rally }
    }
  }
`,
  { min: 2, max: 2 },
);

/** The same state with nothing kept about its cards' holders, as a replay loads it. */
function loaded(st: GameState, engine: EngineName): GameState {
  return attach(pack, JSON.parse(JSON.stringify(st)) as GameState, engine);
}

function outcome(st: GameState, rounds: number): string {
  legalChoices(st, { labels: false });
  const r = apply(st, `rally ${rounds}`);
  return r.ok ? 'ok' : `${r.reason} (${r.budget})`;
}

describe('the steps of a choice, whatever its state kept of its cards’ holders', () => {
  for (const engine of ['interpreter', 'generated'] as const) {
    it(`are the same live and loaded from JSON, at the very end of the budget (${engine})`, () => {
      const first = newGame(pack, { players: 2, seed: 1, engine });
      legalChoices(first, { labels: false });
      const played = apply(first, `rally ${STEP_BUDGET - 1_000}`);
      if (!played.ok) throw new Error(played.reason);
      // The second player's offer, in a game played on: what its state finds of the banners'
      // holders is kept with it. One choice applied to it finds them.
      const live = played.state;
      expect(outcome(live, STEP_BUDGET - 1_000)).toBe('ok');
      // The most rounds a choice from the loaded state may run, found by bisection.
      let lo = STEP_BUDGET - 1_000;
      let hi = STEP_BUDGET - 1;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (outcome(loaded(live, engine), mid) === 'ok') lo = mid;
        else hi = mid - 1;
      }
      expect(hi).toBeLessThan(STEP_BUDGET - 1);
      for (const rounds of [lo - 2, lo - 1, lo, lo + 1, lo + 2]) {
        const fromJson = outcome(loaded(live, engine), rounds);
        expect(outcome(live, rounds), `${rounds} rounds`).toBe(fromJson);
        expect(fromJson).toEqual(rounds <= lo ? 'ok' : expect.stringMatching(/step budget.*\(step\)$/));
      }
    });
  }
});

/**
 * `rally n` first checks a sum over a thousand sizes, then runs `n` empty rounds: listing checks
 * the sum for every candidate, and a choice not listed first (a replay lists nothing) checks it when
 * it is applied. The horn's `toot` comes with every offer of `rally` to the horn's holders, found
 * by a walk over the sizes: reading an id not listed first finds them too.
 */
const checked: CompiledPack = compileOk(
  `
kinds:
  horn:
    roles:
      blower: players where all(game.sizes, it > 0)
  game:
    state:
      sizes: list<number>
  player:
    state:
      cheers: number
entities:
  - horn: brass
    rules: |
      action toot "Toot" with rally {
        me.cheers += 2
      }
rules: |
  setup {
    game.sizes = ${STEP_BUDGET - 2_000}..${STEP_BUDGET - 1_001}
  }
  action rally(n: number in game.sizes) "Rally for {n} rounds" {
    require sum(game.sizes, it) > 0 else "no sizes"
    repeat n {
    }
    me.cheers += 1
  }
  flow {
    for p in players {
      turn p { offer p: rally }
    }
  }
`,
  { min: 2, max: 2 },
);

describe('the steps of a choice, listed first or not', () => {
  for (const engine of ['interpreter', 'generated'] as const) {
    it(`are the same: a replay, which lists nothing, takes every choice the live game took (${engine})`, () => {
      const options = { players: 2, seed: 1, engine };
      const listedTakes = (rounds: number) => {
        const st = newGame(checked, options);
        legalChoices(st, { labels: false });
        return apply(st, `rally ${rounds}`).ok;
      };
      // The most rounds a choice listed first may run, found by bisection.
      let lo = STEP_BUDGET - 2_000;
      let hi = STEP_BUDGET - 1_001;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (listedTakes(mid)) lo = mid;
        else hi = mid - 1;
      }
      expect(lo).toBeGreaterThan(STEP_BUDGET - 2_000);
      expect(lo).toBeLessThan(STEP_BUDGET - 1_001);
      expect(replay(checked, options, [`rally ${lo}`]).stoppedAt?.reason).toBeUndefined();
      expect(apply(newGame(checked, options), `rally ${lo}`).ok).toBe(true);
      expect(replay(checked, options, [`rally ${lo + 1}`]).stoppedAt?.reason).toMatch(/step budget/);
    });
  }
});
