/**
 * The game on screen as a line of states, one per choice applied, kept for the next replay: after an
 * edit, the game is played again from the first choice whose evaluation ran a rule the edit
 * changed (runtime/usage.ts), not from the start; after a move or a step back, from the last state
 * both lists of choices share. Either way the states are those a replay from the start gives
 * (test/playground-replay-line.test.ts checks it byte for byte on real packs and edits).
 */
import { applyInPlace, attach, newGame, type CompiledPack, type GameState } from '../../runtime/index.ts';
import { cloneState } from '../../runtime/clone.ts';
import { recordingPack, type RuleUse } from '../../runtime/usage.ts';

/**
 * Whether two parts of packs have the same JSON text, without writing it: walked side by side, it
 * stops at the first difference and allocates no text (a unit of a large pack is tens of kilobytes).
 * It is stricter than the texts in a few places (-0 and 0, NaN and Infinity, undefined and null in
 * a list, a function): a difference there only makes a replay start earlier.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const array = Array.isArray(a);
  if (array !== Array.isArray(b)) return false;
  if (array) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!sameJson(x[i], y[i])) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(a);
  if ((proto !== Object.prototype && proto !== null) || Object.getPrototypeOf(b) !== proto) return JSON.stringify(a) === JSON.stringify(b);
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  // Keys in order, those whose value is undefined left out, as JSON.stringify writes them.
  const kx = Object.keys(x);
  const ky = Object.keys(y);
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < kx.length && x[kx[i]] === undefined) i++;
    while (j < ky.length && y[ky[j]] === undefined) j++;
    if (i === kx.length || j === ky.length) return i === kx.length && j === ky.length;
    if (kx[i] !== ky[j] || !sameJson(x[kx[i]], y[ky[j]])) return false;
    i++;
    j++;
  }
}

export interface LineReplay {
  state: GameState;
  /** Choices applied, and where and why the next one was refused. */
  applied: number;
  stoppedAt?: { step: number; reason: string };
  /** The choices taken from the line as they were: the replay applied those after them. */
  kept: number;
  /** Time until the first choice is applied (the pack linked for the replay, compared with the line's, the new game or the state kept), and of the choices applied. */
  setupMs: number;
  choicesMs: number;
}

/**
 * The line keeps the state after every `interval` choices, and after the last: a replay goes on from
 * the one nearest before the first choice it must apply again, and changes one state in place choice
 * by choice (`applyInPlace`), which costs about half of making a new state for each.
 *
 * The interval is the least of 8, 16, 32, … that keeps at most MAX_STATES of them, so a long game
 * holds at most MAX_STATES + 1 states (its last one besides) whatever its length: past 8 × MAX_STATES
 * choices the interval doubles and every other state kept is dropped, and a step back or an edit
 * then applies at most one interval of choices again from the state before it. A game played move by
 * move keeps its last state only until the next move: the state it went on from is dropped unless it
 * falls on the interval.
 */
const FIRST_INTERVAL = 8;
const MAX_STATES = 32;

/** The interval at which a line of `choices` choices keeps its states. */
export function interval(choices: number, maxStates = MAX_STATES): number {
  let every = FIRST_INTERVAL;
  while (Math.floor(choices / every) >= maxStates) every *= 2;
  return every;
}

export class ReplayLine {
  /** `maxStates`: MAX_STATES but in tests, whose games are too short to reach it. */
  constructor(private readonly maxStates = MAX_STATES) {}

  private line:
    | {
        pack: CompiledPack;
        options: string;
        /** The choices applied, and the states kept: after i of them, for i a multiple of `interval(choices.length)` or all of them. */
        choices: string[];
        states: Map<number, GameState>;
      }
    | undefined;

  /** The game of `choices` on `pack`, from the longest part of the line that stays the same. */
  replay(pack: CompiledPack, req: { players: number; seed: number; choices: string[] }): LineReplay {
    const t0 = performance.now();
    const rec = recordingPack(pack);
    const use = rec.use;
    const options = `${req.players}|${req.seed}`;
    const line = this.line;
    this.line = undefined;
    // Phases: 0 is the new game, i + 1 the choice i applied (and, after the last, the listing that follows).
    let kept = -1;
    if (line && line.options === options) {
      const valid = line.pack === pack ? Infinity : firstChanged(line.pack, pack);
      let common = 0;
      while (common < line.choices.length && common < req.choices.length && line.choices[common] === req.choices[common]) common++;
      kept = Math.min(common, valid - 1);
      while (kept > 0 && !line.states.has(kept)) kept--;
      if (kept >= 0) inherit(recordingPack(line.pack).use, use, kept);
    }
    let state: GameState;
    const states = new Map<number, GameState>();
    if (kept < 0) {
      use.first.fill(-1);
      use.rearm();
      use.phase = 0;
      kept = 0;
      state = newGame(rec.pack, { players: req.players, seed: req.seed, engine: 'interpreter' });
      states.set(0, cloneState(state));
    } else {
      for (const [i, st] of line!.states) if (i <= kept) states.set(i, st);
      // A state kept goes on with this pack's program, on a copy: the line's states stay as they were.
      state = attach(rec.pack, cloneState(states.get(kept)!), 'interpreter');
    }
    const t1 = performance.now();
    let applied = kept;
    let stoppedAt: LineReplay['stoppedAt'];
    const every = interval(req.choices.length, this.maxStates);
    for (let i = kept; i < req.choices.length; i++) {
      use.phase = i + 1;
      const r = applyInPlace(state, req.choices[i]);
      if (!r.ok) {
        stoppedAt = { step: i, reason: r.reason };
        break;
      }
      applied = i + 1;
      if (applied % every === 0) states.set(applied, cloneState(state));
    }
    if (!states.has(applied)) states.set(applied, cloneState(state));
    const last = interval(applied, this.maxStates);
    for (const i of states.keys()) if (i !== applied && i % last !== 0) states.delete(i);
    use.phase = applied + 1;
    this.line = { pack, options, choices: req.choices.slice(0, applied), states };
    return { state, applied, stoppedAt, kept, setupMs: t1 - t0, choicesMs: performance.now() - t1 };
  }

  /** After which choices the line holds a state (the memory it keeps). */
  statesKept(): number[] {
    return [...(this.line?.states.keys() ?? [])].sort((a, b) => a - b);
  }

  /** Forget the line (after a failure, so that the next replay starts afresh). */
  clear() {
    this.line = undefined;
  }
}

/**
 * The first phase in which the line played on `before` ran a unit `after` has changed, or Infinity:
 * 0 (a new game) when anything but the units differs.
 */
function firstChanged(before: CompiledPack, after: CompiledPack): number {
  const a = recordingPack(before).units;
  const b = recordingPack(after).units;
  if (a.parts.length !== b.parts.length || !sameJson(a.rest, b.rest)) return 0;
  // A unit the line never ran cannot have made any of its states: only those it ran are compared,
  // in the order it first ran them, up to the first that differs.
  const first = recordingPack(before).use.first;
  const ran: number[] = [];
  for (let i = 0; i < first.length; i++) if (first[i] >= 0) ran.push(i);
  ran.sort((x, y) => first[x] - first[y]);
  for (const i of ran) if (!sameJson(a.parts[i], b.parts[i])) return first[i];
  return Infinity;
}

/** What the line's first `kept` choices ran, for the replay that goes on after them (the units are the same, by `firstChanged`). */
function inherit(from: RuleUse, to: RuleUse, kept: number) {
  for (let i = 0; i < to.first.length; i++) {
    const f = from.first[i];
    to.first[i] = f >= 0 && f <= kept ? f : -1;
  }
  to.rearm();
}
