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

/** Milliseconds a clock tick of /proc's times is (USER_HZ, 100 on Linux whatever the kernel's HZ). */
const TICK_MS = 10;

/** Thread id → CPU milliseconds so far. */
export type ThreadTimes = Map<string, number>;

export function threadTimes(): ThreadTimes | undefined {
  let ids: string[];
  try {
    ids = readdirSync('/proc/self/task');
  } catch {
    return undefined;
  }
  const out: ThreadTimes = new Map();
  for (const id of ids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${id}/stat`, 'utf8');
    } catch {
      // A thread that ended between the listing and the read.
      continue;
    }
    // The fields after the name in parentheses (which may hold spaces): utime and stime are the 12th and 13th.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(id, (Number(f[11]) + Number(f[12])) * TICK_MS);
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
