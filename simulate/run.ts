/**
 * Many games of one pack by agents, spread over worker threads (tinypool). Games are seeded one by
 * one (`seed`, `seed + 1`, …), so the summaries are the same whatever the number of threads.
 */
import Tinypool from 'tinypool';
import type { AgentKind } from '../runtime/agents.ts';
import type { GameSummary } from './playout.ts';
import { playChunk, type Chunk } from './worker.ts';

export interface SimulationOptions {
  games: number;
  players: number;
  /** The first game's seed. */
  seed: number;
  agents: AgentKind[];
  maxSteps: number;
  /** Worker threads; 1 plays in this thread. */
  workers: number;
  /** Called after each batch of games with how many are done. */
  onProgress?: (done: number) => void;
}

/** Games per task: small enough to spread the work and show progress, large enough to keep the threads busy. */
const BATCH = 4;

export async function simulate(dir: string, o: SimulationOptions): Promise<GameSummary[]> {
  const seeds = Array.from({ length: o.games }, (_, i) => o.seed + i);
  const chunks: Chunk[] = [];
  for (let i = 0; i < seeds.length; i += BATCH) chunks.push({ dir, players: o.players, seeds: seeds.slice(i, i + BATCH), agents: o.agents, maxSteps: o.maxSteps });
  const out: GameSummary[] = [];
  let done = 0;
  const collect = (games: GameSummary[]) => {
    out.push(...games);
    done += games.length;
    o.onProgress?.(done);
  };
  if (o.workers <= 1) {
    for (const c of chunks) collect(playChunk(c));
  } else {
    const pool = new Tinypool({ filename: new URL('./worker.mjs', import.meta.url).href, minThreads: Math.min(o.workers, chunks.length), maxThreads: o.workers });
    try {
      await Promise.all(chunks.map((c) => (pool.run(c) as Promise<GameSummary[]>).then(collect)));
    } finally {
      await pool.destroy();
    }
  }
  return out.sort((a, b) => a.seed - b.seed);
}
