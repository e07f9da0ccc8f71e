/**
 * Many games of one pack by agents, on this thread and worker threads (tinypool). Games are seeded
 * one by one (`seed`, `seed + 1`, …), so the summaries are the same whatever the number of threads.
 *
 * This thread plays too: with `workers: 2` it is this thread and one worker thread. This thread
 * compiles the pack, which it needs to play its share, and gives the worker threads the compiled
 * pack: a thread starts by loading the runtime and linking the pack, a fraction of a compile. The
 * next run of the same pack takes the same threads, warm (simulate/warmPool.ts).
 */
import { availableParallelism } from 'node:os';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import type { AgentKind } from '../runtime/agents.ts';
import { compiledPack, readPackContent, type PackContent } from './packContent.ts';
import type { GameSummary } from './playout.ts';
import { leaseWorkers, type Lease } from './warmPool.ts';
import { collectAlone } from './youngCollections.ts';
import { begun, emptySpan, END, playChunk, sharedClaims, sharedClock, stopClaims, type Chunk, type ChunkPlayed, type ResultsMessage, type ThreadSpan } from './worker.ts';

export interface SimulationOptions {
  games: number;
  players: number;
  /** The first game's seed. */
  seed: number;
  agents: AgentKind[];
  maxSteps: number;
  /** Threads playing, this one included; 1 plays in this thread only. */
  workers: number;
  /** Called after each game this thread plays with how many all threads have played, and at the end. */
  onProgress?: (done: number) => void;
  /** Called at the end with where the run's time went, thread by thread (the bench's idle accounting). */
  onTimeline?: (timeline: RunTimeline) => void;
}

/** Where a run's time went, thread by thread, by worker.ts's `sharedClock`. */
export interface RunTimeline {
  /** When simulate() began, and when it had every thread's games in order. */
  start: number;
  end: number;
  /**
   * This thread's span first, then each worker thread's; `back` is when this thread had the thread's
   * games (its own: as it ended its last), `early` how many of them it had before it ended its own
   * last game (its own: all), the rest copied over after it.
   */
  threads: Array<ThreadSpan & { back: number; early: number }>;
}

/**
 * How long this thread plays without yielding to its events while a worker thread has yet to begin,
 * in ms: several games (a 2-player game of the default pack is ~4.5 CPU-ms), so that the short games
 * do not pay a turn of the event loop each, and short enough that a thread just started is given its
 * task without a wait anyone sees.
 */
const YIELD_MS = 15;

/**
 * How long it plays without yielding once every worker thread has begun (or with none), in ms: then
 * only a thread's failure is heard there (the games worker threads send are read between games).
 * The turns cost no CPU that shows (200 games of 2 players, 12 and 16 runs each way interleaved in
 * one process: within 1%), but on a busy machine they cost wall time: at load ~7 on 2 cores, one
 * thread took 6% longer a run yielding every 15 ms, two threads 2% (medians of the runs' ratios, 16
 * pairs). A progress bar is drawn from its own calls, not in the turns.
 */
const HEAR_MS = 200;

/**
 * Worker threads beside this one for a run: one fewer than the threads playing, and no more than the
 * games. Each is given one task, the whole run's games to claim from (Chunk.claims).
 */
const workerThreads = (o: Pick<SimulationOptions, 'games' | 'workers'>) => Math.min(o.workers, o.games) - 1;
const TASKS_PER_THREAD = 1;

/**
 * A pack folder, or its content as a caller read it once for all it does with the pack (the CLI: its
 * check, its study's hash, the games), so that they are of one reading even if the folder is edited
 * meanwhile, and the folder is not read again for each.
 */
export type PackSource = string | PackContent;

const contentOf = (source: PackSource): PackContent => (typeof source === 'string' ? readPackContent(source) : source);

/**
 * Compiles the pack and starts the worker threads that a simulation of it with these options
 * takes, so that they load and link it while this thread does something else. Only a head start: a
 * folder that cannot be read or a pack that does not compile is left to whoever reads it next.
 */
export async function startWorkers(source: PackSource, o: Pick<SimulationOptions, 'games' | 'workers'>): Promise<void> {
  const threads = workerThreads(o);
  if (threads <= 0) return;
  let content, pack;
  try {
    content = contentOf(source);
    pack = compiledPack(content);
  } catch {
    return;
  }
  await (await leaseWorkers(content, pack, threads, TASKS_PER_THREAD)).release(false);
}

export async function simulate(source: PackSource, o: SimulationOptions): Promise<GameSummary[]> {
  const threads = workerThreads(o);
  // With a thread playing on every core, V8's helpers of young collections have no idle core left
  // (simulate/youngCollections.ts): they are held off from the start, before the run allocates.
  const giveBack = threads > 0 && threads + 1 >= availableParallelism() ? collectAlone() : undefined;
  try {
    return await playedOn(threads, source, o);
  } finally {
    giveBack?.();
  }
}

/** A simulation's games, on this thread and `threads` worker threads. */
async function playedOn(threads: number, source: PackSource, o: SimulationOptions): Promise<GameSummary[]> {
  const start = sharedClock();
  const content = contentOf(source);
  const pack = compiledPack(content);
  // Every thread claims games one at a time from the same list, this one too; progress is counted in
  // the shared claims.
  const chunk: Chunk = { players: o.players, seeds: Array.from({ length: o.games }, (_, i) => o.seed + i), agents: o.agents, maxSteps: o.maxSteps, claims: sharedClaims() };
  const lease: Lease | undefined = threads > 0 ? await leaseWorkers(content, pack, threads, TASKS_PER_THREAD) : undefined;
  // A thread that fails leaves the games nobody has claimed unplayed, so the others stop too.
  const stopAllOnFailure = (run: Promise<GameSummary[]>) =>
    run.catch((e) => {
      stopClaims(chunk);
      throw e;
    });
  // Between its games this thread reads the batches of games worker threads have sent, without a
  // turn of the event loop (`reads`), so that whichever thread ends last, only the batch a worker
  // sent last and its answer are left to copy over at the end, not all it sent since this thread's
  // last yield (at 2 players, ~45 games a HEAR_MS). It yields now and then: a worker thread that has
  // just started is given its task there (YIELD_MS), and a worker's failure heard (HEAR_MS).
  const reads: Array<() => void> = [];
  let yielded = performance.now();
  const between = (done: number): Promise<void> | undefined => {
    o.onProgress?.(done);
    for (const read of reads) read();
    if (performance.now() - yielded < (begun(chunk) < threads ? YIELD_MS : HEAR_MS)) return;
    return yieldToEvents().then(() => void (yielded = performance.now()));
  };
  const spans: RunTimeline['threads'] = [];
  let ownDone = false;
  const own = emptySpan();
  // A worker thread's games come in batches as it plays them (Chunk.results), then `END`, and the
  // rest with its answer, by two channels that keep no order between them. The pool hears of a
  // thread's error, not of a thread that stops without one: its port closing before `END` says so.
  const worker = (): Promise<GameSummary[]> => {
    const { port1: inbox, port2: results } = new MessageChannel();
    const got: GameSummary[] = [];
    let ended = false;
    let came!: () => void;
    let early = 0;
    const take = (m: ResultsMessage) => {
      if (m === END) {
        ended = true;
        return came();
      }
      if (!ownDone) early += m.length;
      got.push(...m);
    };
    const allCame = new Promise<void>((resolve, reject) => {
      came = resolve;
      inbox.on('message', take);
      inbox.on('close', () => reject(new Error('a worker thread stopped without answering')));
    });
    reads.push(() => {
      while (!ended) {
        const m = receiveMessageOnPort(inbox);
        if (!m) return;
        take(m.message as ResultsMessage);
      }
    });
    const answered = lease!.pool.run({ ...chunk, results }, { transferList: [results] }) as Promise<ChunkPlayed>;
    return Promise.all([answered, allCame])
      .then(([answer]) => {
        spans.push({ ...answer.span, back: sharedClock(), early });
        return got.concat(answer.games);
      })
      .finally(() => inbox.close());
  };
  let out: GameSummary[] = [];
  let failed = true;
  try {
    const runs = await Promise.all([...Array.from({ length: threads }, () => stopAllOnFailure(worker())), stopAllOnFailure(playChunk(pack, chunk, between, own).finally(() => void (ownDone = true)))]);
    out = runs.flat();
    failed = false;
  } finally {
    await lease?.release(failed);
  }
  if (out.length) o.onProgress?.(out.length);
  out.sort((a, b) => a.seed - b.seed);
  o.onTimeline?.({ start, end: sharedClock(), threads: [{ ...own, back: own.last, early: own.games }, ...spans] });
  return out;
}
