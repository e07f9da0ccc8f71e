/**
 * The CPU time of each of this process's threads, from Linux's /proc, for figures that split a
 * simulation's CPU between the threads playing and V8's own helper threads (garbage collection,
 * optimising compiles), which run beside them and, with every core playing, take their time.
 *
 * Threads are told apart by when they were born: those already there when this module was loaded
 * (V8's helpers, Node's own) are `helpers`, this thread is `main`, and those born later with CPU
 * time are the worker threads a simulation started. Elsewhere than Linux there is no /proc and
 * `threadCpu` answers undefined.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Thread id → CPU milliseconds so far. */
export type ThreadTimes = Map<string, number>;

/**
 * Each thread's time on a CPU from its schedstat, in nanoseconds (the scheduler's own count): the
 * ticks of its stat (10 ms each) were 1–2% of a thread's share of a 200-game run, as large as the
 * differences between threads the figures are read for. A kernel without schedstat gives the ticks.
 */
function cpuMs(task: string): number | undefined {
  try {
    return Number(readFileSync(`${task}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    // No schedstat in this kernel, or a thread that ended between the listing and the read.
  }
  let stat: string;
  try {
    stat = readFileSync(`${task}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The fields after the name in parentheses (which may hold spaces): utime and stime are the 12th and 13th, in ticks of 10 ms (USER_HZ).
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

export function threadTimes(): ThreadTimes | undefined {
  let ids: string[];
  try {
    ids = readdirSync('/proc/self/task');
  } catch {
    return undefined;
  }
  const out: ThreadTimes = new Map();
  for (const id of ids) {
    const ms = cpuMs(`/proc/self/task/${id}`);
    if (ms !== undefined) out.set(id, ms);
  }
  return out;
}

const born = threadTimes();

export interface ThreadSplit {
  main: number;
  /** One entry per worker thread that ran meanwhile, busiest first. */
  workers: number[];
  helpers: number;
}

/** The CPU milliseconds each thread took between two readings of `threadTimes`. */
export function threadSplit(before: ThreadTimes, after: ThreadTimes): ThreadSplit {
  const split: ThreadSplit = { main: 0, workers: [], helpers: 0 };
  for (const [id, t] of after) {
    const d = t - (before.get(id) ?? 0);
    if (id === String(process.pid)) split.main += d;
    else if (born?.has(id)) split.helpers += d;
    else if (d > 0) split.workers.push(d);
  }
  split.workers.sort((a, b) => b - a);
  return split;
}
