import { cloneJson, cloneState, copyPlan } from './clone.ts';
import { entityNumbers } from './entityNumbers.ts';
import { logKept } from './log.ts';
import type { Program } from './program.ts';
import { seedState } from './rng.ts';
import { metaIfAny, metaOf, type KeptSetup } from './stateMeta.ts';
import type { GameState, Value } from './types.ts';

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

/**
 * The setups of `prog` for games of a number of players and log (`keyOf`) found to draw from the
 * generator: not kept, their games are set up anew, and nothing is noted for them before their flow
 * (`beforeFlow`). Whether a setup draws is the same for every seed: up to its first draw, it reads
 * nothing the seed made.
 */
const drawing = new WeakMap<Program, Set<number>>();

/** A new game's state as its flow is about to begin, noted to be compared with it once the flow has suspended (`keepSetup`). */
export interface BeforeFlow {
  e: Record<string, Record<string, Value>>;
  current: string | null;
  turn: number;
  /** The steps the flow then took up to the first decision. */
  steps: number;
}

/**
 * The most steps a flow may take up to its first decision for its games to run it again
 * (`FlowStart`): a game copied from its kept setup gets that part for the cost of the copy, where
 * a game run from the flow's start does it all again; the flows of the test and shipped packs take
 * 4 to 10 steps there. The figure is a bound well above those, not a measured break-even.
 */
const FLOW_START_STEPS = 64;

/** `st`, a game of `players` of `prog` set up with `seed`, noted as its flow begins, when it may be kept (else undefined). */
export function beforeFlow(prog: Program, players: number, seed: number | string, st: GameState): BeforeFlow | undefined {
  if (st.rng !== seedState(seed) || st.forced !== undefined || drawing.get(prog)?.has(keyOf(players))) return undefined;
  return { e: cloneJson(st.e), current: st.current, turn: st.turn, steps: Infinity };
}

/**
 * Keeps `st`, a game of `players` just set up with `seed`, for the next games of `prog`, if its setup
 * drew nothing; with how its flow begins again (`FlowStart`) when `before`, the game as its flow
 * began, holds the records `st` holds, and the flow took few steps from there. Its tables of uses
 * need no such look: they are written only by a choice (`countUse`), and a turn replaces them with
 * an empty one, as they were before the flow.
 */
export function keepSetup(prog: Program, players: number, seed: number | string, st: GameState, before: BeforeFlow | undefined): void {
  if (st.rng !== seedState(seed) || st.forced !== undefined) {
    let keys = drawing.get(prog);
    if (keys === undefined) drawing.set(prog, (keys = new Set()));
    keys.add(keyOf(players));
    return;
  }
  let byPlayers = kept.get(prog);
  if (byPlayers === undefined) kept.set(prog, (byPlayers = new Map()));
  // With records of its own: the game it is kept from may be edited by hand and attached again.
  const snap = cloneState(st, true);
  const start = before !== undefined && before.steps <= FLOW_START_STEPS && identical(before.e, st.e) ? { current: before.current, turn: before.turn } : undefined;
  byPlayers.set(keyOf(players), { st: snap, plan: copyPlan(snap, entityNumbers(prog.pack)), start });
}

/** Whether two values made of JSON's kinds are the same, key order and -0 too: the flow run again must see what it saw. */
function identical(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i] || !identical((a as Record<string, unknown>)[ka[i]], (b as Record<string, unknown>)[kb[i]])) return false;
  }
  return true;
}
