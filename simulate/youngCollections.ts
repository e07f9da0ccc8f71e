/**
 * Whether V8 collects a thread's young objects (a scavenge) with helper threads, while a simulation
 * plays on every core. V8 splits each scavenge between the thread whose heap it is and helpers of
 * the process's pool (Node's: 4 threads, whatever the cores), up to 5 parts for a young generation
 * of 4 MB or more. A thread playing alone leaves a core idle for them; with every core playing games
 * they take their time from another thread's games, which then wait. Small World, 2 players, 200
 * games on this thread and a worker thread, 2 cores: in a quiet stretch of a busy machine, V8's
 * helpers took 0.109 ms a game with their part and 0.013 without, the playing threads 3.61 and 3.62
 * CPU-ms a game (one run each way); at load ~10, 8 and 12 interleaved runs each way, the helpers
 * 0.094 → 0.012 and 0.059 → 0.027 ms a game, the players 0.8% and 0.8% more. So while such a run
 * plays, each thread collects its young objects alone.
 *
 * The setting is V8's flag `parallel_scavenge`, one for the whole process, read at each scavenge
 * (ScavengerCollector::NumberOfScavengeTasks), so it can be changed at run time. It is set back when
 * the last run that cleared it ends, and left alone in a process started with a setting of its own
 * for how V8 uses threads.
 */
import { setFlagsFromString } from 'node:v8';

/** Runs playing on every core now, which hold the helpers off. */
let runs = 0;

/** The process was started with its own say on V8's threads (as an option of Node or of V8). */
const startedWithOwn = (): boolean => /--(no-)?(parallel[-_]scavenge|single[-_]threaded)/.test([...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' '));

/**
 * Holds V8's helpers off young collections while a run plays on every core; the answer gives them
 * back (once, however often it is called).
 */
export function collectAlone(): () => void {
  if (startedWithOwn()) return () => undefined;
  if (runs++ === 0) setFlagsFromString('--no-parallel-scavenge');
  let given = false;
  return () => {
    if (given) return;
    given = true;
    if (--runs === 0) setFlagsFromString('--parallel-scavenge');
  };
}
