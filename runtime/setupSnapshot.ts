import { cloneState, copyPlan } from './clone.ts';
import { entityNumbers } from './entityNumbers.ts';
import { logKept } from './log.ts';
import type { Program } from './program.ts';
import { seedState } from './rng.ts';
import { metaIfAny, metaOf, type KeptSetup } from './stateMeta.ts';
import type { GameState } from './types.ts';

/**
 * A new game's state once its setup has run up to the first decision, kept per program, number of
 * players and whether the log is kept, when that setup drew nothing from the generator: such a
 * setup is the same for every seed, and a game of a small pack cost as much to set up as to play.
 * The seed reaches a game only through the generator's state (`rng.ts`, drawn by `values.ts`), and
 * a draw always changes it, so a setup that leaves it as the seed made it drew nothing. A new game
 * is then a copy of the kept state with its own seed. The kept state itself is never played.
 */
const kept = new WeakMap<Program, Map<number, KeptSetup & { st: GameState }>>();

function keyOf(players: number): number {
  return players * 2 + (logKept() ? 1 : 0);
}

/**
 * A new game of `players` from the kept setup of `prog`, with `seed`, if one is kept; its records
 * put in the entity table of `into` (a game no longer wanted, `NewGameOptions.into`) when that game
 * was copied from the same kept setup (its ids are the kept setup's) and is not amid a choice.
 */
export function fromSetup(prog: Program, players: number, seed: number | string, into?: GameState): GameState | undefined {
  const snap = kept.get(prog)?.get(keyOf(players));
  if (snap === undefined) return undefined;
  const m = into === undefined ? undefined : metaIfAny(into);
  // Its own records at once, as a game set up anew has them: shared ones would be copied at their
  // first write each, through the bookkeeping of records shared between states, which cost more.
  // Not amid a choice applied to it in place, which keeps `replaced` a list while it lasts.
  const reused = m !== undefined && m.ids === snap.plan.ids && m.table === into!.e && m.replaced === undefined;
  // The table is the new game's from now on: no other game is made in it, were `into` given again,
  // nor is `into` put back into it as a copy of the setup.
  if (reused) {
    m.table = undefined;
    m.setup = undefined;
  }
  const st = cloneState(snap.st, true, snap.plan, reused ? into : undefined);
  st.seed = seedState(seed);
  st.rng = st.seed;
  metaOf(st).setup = snap;
  return st;
}

/** Keeps `st`, a game of `players` just set up with `seed`, for the next games of `prog`, if its setup drew nothing. */
export function keepSetup(prog: Program, players: number, seed: number | string, st: GameState): void {
  if (st.rng !== seedState(seed) || st.forced !== undefined) return;
  let byPlayers = kept.get(prog);
  if (byPlayers === undefined) kept.set(prog, (byPlayers = new Map()));
  // With records of its own: the game it is kept from may be edited by hand and attached again.
  const snap = cloneState(st, true);
  byPlayers.set(keyOf(players), { st: snap, plan: copyPlan(snap, entityNumbers(prog.pack)) });
}
