/**
 * What a thread of a simulation does: links the compiled pack it is given once, then plays the
 * games it is asked for. The pack comes compiled, as plain data (runtime/transfer.ts), by whoever
 * starts the simulation and compiled it to play its own share: a thread neither reads the folder
 * nor compiles (compiling was most of a thread's start), and every thread plays the same rules even
 * if the folder is edited during the run. This module imports no compiler, so a thread loads only
 * the runtime.
 */
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
}

/** The slots of `Chunk.claims`: the next game to claim, and the games played so far. */
const NEXT = 0;
const PLAYED = 1;

/** A chunk's `claims`, for the threads that will share it. */
export const sharedClaims = (): Int32Array => new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));

/** The seeds this thread plays, claimed one by one as it asks for the next. */
export function* claimedSeeds(chunk: Chunk): Generator<number> {
  const c = chunk.claims;
  if (!c) return yield* chunk.seeds;
  for (let i = Atomics.add(c, NEXT, 1); i < chunk.seeds.length; i = Atomics.add(c, NEXT, 1)) yield chunk.seeds[i];
}

/** Counts a game played by any thread; returns how many have been. */
export const played = (chunk: Chunk): number => (chunk.claims ? Atomics.add(chunk.claims, PLAYED, 1) + 1 : 0);

/** Leaves the games nobody has claimed unplayed: the run has failed. */
export const stopClaims = (chunk: Chunk): void => void (chunk.claims && Atomics.store(chunk.claims, NEXT, chunk.seeds.length));

/** What a worker thread is started with. */
export interface SimulationWorkerData {
  pack: PackForm;
}

export function playChunk(pack: CompiledPack, chunk: Chunk): GameSummary[] {
  const out: GameSummary[] = [];
  for (const seed of claimedSeeds(chunk)) {
    out.push(playGame(pack, { players: chunk.players, seed, agents: chunk.agents, maxSteps: chunk.maxSteps }));
    played(chunk);
  }
  return out;
}

/**
 * A worker thread's task function, its pack read and linked before the thread says it is ready. A
 * form that is not a compiled pack fails each task with the reason, rather than the thread's start.
 */
export function chunkPlayer(data: SimulationWorkerData): (chunk: Chunk) => GameSummary[] {
  let pack: CompiledPack;
  try {
    pack = packFromForm(data.pack);
    programOf(pack);
  } catch (e) {
    return () => {
      throw e;
    };
  }
  return (chunk) => playChunk(pack, chunk);
}
