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
}

/** What a worker thread is started with. */
export interface SimulationWorkerData {
  pack: PackForm;
}

export function playChunk(pack: CompiledPack, chunk: Chunk): GameSummary[] {
  return chunk.seeds.map((seed) => playGame(pack, { players: chunk.players, seed, agents: chunk.agents, maxSteps: chunk.maxSteps }));
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
