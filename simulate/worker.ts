/**
 * What a thread of a simulation does: links the compiled pack it is given once, then plays the
 * games it is asked for. The pack comes compiled, as plain data (runtime/transfer.ts), by whoever
 * starts the simulation and compiled it to play its own share: a thread neither reads the folder
 * nor compiles (compiling was most of a thread's start), and every thread plays the same rules even
 * if the folder is edited during the run. This module imports no compiler, so a thread loads only
 * the runtime.
 */
import type { MessagePort } from 'node:worker_threads';
import type { AgentKind } from '../runtime/agents.ts';
import type { CompiledPack } from '../runtime/index.ts';
import { programOf } from '../runtime/link.ts';
import { packFromForm, type PackForm } from '../runtime/transfer.ts';
import { playGame, type GameSummary } from './playout.ts';

export interface Chunk {
  players: number;
  seeds: number[];
  agents: AgentKind[];
  maxSteps: number;
  /**
   * Shared by every thread given the chunk (a SharedArrayBuffer's view): each claims its next game
   * here, one at a time, so the threads run out of games together, whatever the games' lengths, and
   * none waits for another to be told of more. Without it, a thread plays every seed.
   */
  claims?: Int32Array;
  /**
   * Where a worker thread sends its games as it plays them, a batch every SEND_MS, and last `END`,
   * once it is done with the chunk, played or failed. The run's thread reads those that have come
   * between its own games (simulate/run.ts), and the rest as they come once its own games are done:
   * at the end only the last batch and the answer's games are still to be copied over, not all of
   * the thread's (all of a thread's games in one message at its end took 2–3 ms of the run's wall
   * time with every other thread done, the copy on both sides: about 1.6 ms for 100 games of 2
   * players). The order of the games is the seeds' in the end whichever way they came. The port
   * closing before `END` came is the thread gone without answering (terminated, or exited with no
   * error for the pool to hear): a port closes when the thread holding it stops.
   */
  results?: MessagePort;
}

/**
 * How often a worker thread sends the games it has played, in ms: a few games of 2 players, and
 * what is left at its end is no more than that.
 */
const SEND_MS = 10;

/** The slots of `Chunk.claims`: the next game to claim, the games played so far, the worker threads that have begun. */
const NEXT = 0;
const PLAYED = 1;
const BEGUN = 2;

/** A chunk's `claims`, for the threads that will share it. */
export const sharedClaims = (): Int32Array => new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));

/** How many worker threads have begun playing the chunk: the run's thread need not yield for them to be given it. */
export const begun = (chunk: Chunk): number => (chunk.claims ? Atomics.load(chunk.claims, BEGUN) : 0);

/** The seeds this thread plays, claimed one by one as it asks for the next. */
export function* claimedSeeds(chunk: Chunk): Generator<number> {
  const c = chunk.claims;
  if (!c) return yield* chunk.seeds;
  for (let i = Atomics.add(c, NEXT, 1); i < chunk.seeds.length; i = Atomics.add(c, NEXT, 1)) yield chunk.seeds[i];
}

/** Counts a game played by any thread; returns how many have been. */
const played = (claims: Int32Array): number => Atomics.add(claims, PLAYED, 1) + 1;

/** Leaves the games nobody has claimed unplayed: the run has failed. */
export const stopClaims = (chunk: Chunk): void => void (chunk.claims && Atomics.store(chunk.claims, NEXT, chunk.seeds.length));

/** What a worker thread is started with. */
export interface SimulationWorkerData {
  pack: PackForm;
}

/**
 * Now by the clock every thread of this process reads alike (ms since the epoch, finer than
 * `Date.now()`'s whole ones). Node 20 gives a worker thread the main thread's time origin (a worker
 * and its parent read the same `performance.now()`, measured), but does not document it, and a
 * browser's worker counts from its own start: adding each thread's origin holds either way.
 */
export const sharedClock = (): number => performance.timeOrigin + performance.now();

/**
 * When one thread played its part of a run, by `sharedClock`: a run's time that is in no thread's
 * games is a thread waiting (to be given its games, between them, for the others at the end).
 */
export interface ThreadSpan {
  /** When it began its first game and ended its last; 0 when it played none. */
  first: number;
  last: number;
  games: number;
  /** Time in its games: the rest of first..last is between them (this thread's events, a yield). */
  playing: number;
}

/** What a worker thread answers for a chunk. */
export interface ChunkPlayed {
  /** Its games not sent through the chunk's `results` already: with no `results`, all of them. */
  games: GameSummary[];
  span: ThreadSpan;
}

/**
 * A worker thread's last message through a chunk's `results`: every batch came before it. A port's
 * messages come in order, and all those sent before it closed come before its `'close'` (on Node 20,
 * whether it was closed, collected or its thread exited): so a port collected in the thread after it
 * answered, which closes it too, is not taken for the thread gone.
 */
export const END = 'end';

/** What comes through a chunk's `results`: batches of games, then `END`. */
export type ResultsMessage = GameSummary[] | typeof END;

/**
 * The one game loop of simulations, whatever thread runs it: plays the chunk's games this thread
 * claims, one after another. `between` is called after each game with how many all threads have
 * played (this one alone when the chunk has no claims) and the games this thread has played so far,
 * and awaited if it answers a promise: a thread that must hear from others between games (the
 * simulation's own thread, given worker threads' messages; a queue worker's thread, reporting
 * progress) yields there; a worker thread only sends its games from there (Chunk.results), never
 * waiting. `span`, if given, is filled in as the games are played.
 */
export async function playChunk(pack: CompiledPack, chunk: Chunk, between?: (played: number, games: readonly GameSummary[]) => void | Promise<void>, span?: ThreadSpan): Promise<GameSummary[]> {
  const out: GameSummary[] = [];
  for (const seed of claimedSeeds(chunk)) {
    const began = span && sharedClock();
    out.push(playGame(pack, { players: chunk.players, seed, agents: chunk.agents, maxSteps: chunk.maxSteps }));
    if (span) {
      span.last = sharedClock();
      span.first ||= began!;
      span.games++;
      span.playing += span.last - began!;
    }
    const done = chunk.claims ? played(chunk.claims) : out.length;
    const heard = between?.(done, out);
    if (heard) await heard;
  }
  return out;
}

/** A span to fill in: nothing played yet. */
export const emptySpan = (): ThreadSpan => ({ first: 0, last: 0, games: 0, playing: 0 });

/**
 * A worker thread's task function, its pack read and linked before the thread says it is ready. A
 * form that is not a compiled pack fails each task with the reason, rather than the thread's start.
 * It sends its games through a chunk's `results` every `sendMs` (0: after each game).
 */
export function chunkPlayer(data: SimulationWorkerData, sendMs = SEND_MS): (chunk: Chunk) => Promise<ChunkPlayed> {
  let pack: CompiledPack;
  try {
    pack = packFromForm(data.pack);
    programOf(pack);
  } catch (e) {
    return () => Promise.reject(e);
  }
  return async (chunk) => {
    if (chunk.claims) Atomics.add(chunk.claims, BEGUN, 1);
    const span = emptySpan();
    const port = chunk.results;
    let sent = 0;
    let sentAt = performance.now();
    const send = port
      ? (_: number, games: readonly GameSummary[]) => {
          if (performance.now() - sentAt < sendMs) return;
          port.postMessage(games.slice(sent) satisfies ResultsMessage);
          sent = games.length;
          sentAt = performance.now();
        }
      : undefined;
    try {
      const games = await playChunk(pack, chunk, send, span);
      return { games: games.slice(sent), span };
    } catch (e) {
      // The other threads stop claiming at once, not when the run's thread hears of the failure.
      stopClaims(chunk);
      throw e;
    } finally {
      port?.postMessage(END satisfies ResultsMessage);
    }
  };
}
