/**
 * Many games of one pack by agents, on this thread and worker threads (tinypool). Games are seeded
 * one by one (`seed`, `seed + 1`, …), so the summaries are the same whatever the number of threads.
 *
 * This thread plays too: with `workers: 2` it is this thread and one worker thread. This thread
 * compiles the pack, which it needs to play its share, and gives the worker threads the compiled
 * pack: a thread starts by loading the runtime and linking the pack, a fraction of a compile. The
 * next run of the same pack takes the same threads, warm (simulate/warmPool.ts).
 */
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import type { AgentKind } from '../runtime/agents.ts';
import { compiledPack, readPackContent } from './packContent.ts';
import type { GameSummary } from './playout.ts';
import { leaseWorkers, type Lease } from './warmPool.ts';
import { playChunk, type Chunk } from './worker.ts';

export interface SimulationOptions {
  games: number;
  players: number;
  /** The first game's seed. */
  seed: number;
  agents: AgentKind[];
  maxSteps: number;
  /** Threads playing, this one included; 1 plays in this thread only. */
  workers: number;
  /** Called after each batch of games with how many are done. */
  onProgress?: (done: number) => void;
}

/** Games per task: small enough to spread the work and show progress, large enough to keep the threads busy. */
const BATCH = 2;
/**
 * Tasks handed to a worker thread at once: it starts the next while this thread, busy with its own
 * games, has not yet read the results of the last.
 */
const QUEUED_PER_WORKER = 2;

/** Worker threads beside this one for a run: one fewer than the threads playing, and no more than the tasks. */
const workerThreads = (o: Pick<SimulationOptions, 'games' | 'workers'>) => Math.min(o.workers, Math.ceil(o.games / BATCH)) - 1;

/**
 * Compiles the pack and starts the worker threads that a simulation of it with these options
 * takes, so that they load and link it while this thread does something else (the CLI checks the
 * pack meanwhile). Only a head start: a folder that cannot be read or a pack that does not compile
 * is left to whoever reads it next.
 */
export async function startWorkers(dir: string, o: Pick<SimulationOptions, 'games' | 'workers'>): Promise<void> {
  const threads = workerThreads(o);
  if (threads <= 0) return;
  let content, pack;
  try {
    content = readPackContent(dir);
    pack = compiledPack(content);
  } catch {
    return;
  }
  await (await leaseWorkers(content, pack, threads, QUEUED_PER_WORKER)).release(false);
}

export async function simulate(dir: string, o: SimulationOptions): Promise<GameSummary[]> {
  const content = readPackContent(dir);
  const chunks: Chunk[] = [];
  for (let i = 0; i < o.games; i += BATCH) {
    const seeds = Array.from({ length: Math.min(BATCH, o.games - i) }, (_, k) => o.seed + i + k);
    chunks.push({ players: o.players, seeds, agents: o.agents, maxSteps: o.maxSteps });
  }
  const out: GameSummary[] = [];
  let done = 0;
  const collect = (games: GameSummary[]) => {
    out.push(...games);
    done += games.length;
    o.onProgress?.(done);
  };
  let next = 0;
  const take = () => (next < chunks.length ? chunks[next++] : undefined);
  const threads = workerThreads(o);
  const pack = compiledPack(content);
  const lease: Lease | undefined = threads > 0 ? await leaseWorkers(content, pack, threads, QUEUED_PER_WORKER) : undefined;
  let failed = true;
  try {
    const here = async () => {
      for (let c = take(); c; c = take()) {
        const games: GameSummary[] = [];
        for (const seed of c.seeds) {
          games.push(...playChunk(pack, { ...c, seeds: [seed] }));
          // Between games the results of the worker threads are read and they are given more: a
          // thread's next task is queued, so it idles only if this thread plays a whole task's
          // games without looking, and a task is never shorter than one game.
          await yieldToEvents();
        }
        collect(games);
      }
    };
    const lane = async () => {
      try {
        for (let c = take(); c; c = take()) collect((await lease!.pool.run(c)) as GameSummary[]);
      } catch (e) {
        // The run has failed: no thread starts another task.
        next = chunks.length;
        throw e;
      }
    };
    // The worker threads' first tasks are queued before this thread takes its own.
    const lanes = Array.from({ length: threads * QUEUED_PER_WORKER }, lane);
    await Promise.all([...lanes, here()]);
    failed = false;
  } finally {
    await lease?.release(failed);
  }
  return out.sort((a, b) => a.seed - b.seed);
}
