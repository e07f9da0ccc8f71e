/**
 * What a thread of a simulation does: compiles the pack it is given once, then plays the games it
 * is asked for. The pack comes as its content (files and hash, simulate/packContent.ts), read once
 * by whoever starts the simulation: a thread never reads the folder, so every thread plays the
 * same content even if the folder is edited during the run.
 */
import type { AgentKind } from '../runtime/agents.ts';
import type { CompiledPack } from '../runtime/index.ts';
import { compileContent, type PackContent } from './packContent.ts';
import { playGame, type GameSummary } from './playout.ts';

export interface Chunk {
  players: number;
  seeds: number[];
  agents: AgentKind[];
  maxSteps: number;
}

/** What a worker thread is started with. */
export interface SimulationWorkerData {
  content: PackContent;
}

/**
 * The last pack compiled in this thread: a worker thread plays one pack all its life, and this
 * thread's runs of the same pack compile it once.
 */
let last: { hash: string; pack: CompiledPack } | undefined;

export function compiledPack(content: PackContent): CompiledPack {
  if (last?.hash !== content.hash) last = { hash: content.hash, pack: compileContent(content) };
  return last.pack;
}

export function playChunk(pack: CompiledPack, chunk: Chunk): GameSummary[] {
  return chunk.seeds.map((seed) => playGame(pack, { players: chunk.players, seed, agents: chunk.agents, maxSteps: chunk.maxSteps }));
}

/**
 * A worker thread's task function, its pack compiled before the thread says it is ready. A pack
 * that does not compile fails each task with the reason, rather than the thread's start.
 */
export function chunkPlayer(data: SimulationWorkerData): (chunk: Chunk) => GameSummary[] {
  let pack: CompiledPack;
  try {
    pack = compiledPack(data.content);
  } catch (e) {
    return () => {
      throw e;
    };
  }
  return (chunk) => playChunk(pack, chunk);
}
