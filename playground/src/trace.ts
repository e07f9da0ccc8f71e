/**
 * When each step from a keystroke to what it changes on screen happened, in the page's clock
 * (performance.now): the last keystroke's way to its diagnostics and the last replay's way to the
 * board. Read by bench/playground.ts, which reports each step so that a slow one can be found.
 *
 * The worker has a clock of its own; its instants cross as wall-clock instants (`performance.timeOrigin`
 * plus its `performance.now()`) and are brought back to the page's clock here.
 */

/** An instant of the worker's, on the clock every context of the page shares. */
export function wallClock(): number {
  return performance.timeOrigin + performance.now();
}

/** A wall-clock instant of the worker's, on the page's clock. */
export function pageClock(wall: number): number {
  return wall - performance.timeOrigin;
}

/** The steps a request to the worker takes, from the page asking to its answer painted. */
interface WorkerRoundTrip {
  /** Asked of the worker. */
  sent: number;
  /** The worker took the request, and posted its answer. */
  workerGot: number;
  workerSent: number;
  /** The work itself, in the worker. */
  workerMs: number;
  /** The answer reached the page, was drawn, and painted. */
  received: number;
  shown: number;
  painted: number;
}

/** A keystroke's way to its diagnostics: the answer is the check's diagnostics, set as markers, lists and status. */
export interface KeystrokeTrace extends WorkerRoundTrip {
  /** The keydown's own time stamp: when the browser took the key. */
  key: number;
  /** The editor reported the changed text. */
  edit: number;
}

/** A replay's way to the board: the answer is the replayed game, drawn. */
export interface ReplayTrace extends WorkerRoundTrip {
  /** The runnable pack reached the page. */
  pack: number;
  /** Choices the game has after that replay, and of them those kept from the last replay (replay-line.ts): the others were applied. */
  applied: number;
  kept: number;
  /** In the worker: the lowering of the pack it replays on, and of the replay the new game (the pack's first, so its rules are linked) and the choices applied. */
  lowerMs: number;
  setupMs: number;
  choicesMs: number;
}

export function emptyKeystroke(): KeystrokeTrace {
  return { key: 0, edit: 0, sent: 0, workerGot: 0, workerSent: 0, workerMs: 0, received: 0, shown: 0, painted: 0 };
}

export function emptyReplay(): ReplayTrace {
  return { pack: 0, sent: 0, workerGot: 0, workerSent: 0, workerMs: 0, received: 0, shown: 0, painted: 0, applied: 0, kept: 0, lowerMs: 0, setupMs: 0, choicesMs: 0 };
}
