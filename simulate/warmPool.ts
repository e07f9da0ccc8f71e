/**
 * The worker threads of simulations, kept warm between runs. A thread starts with the pack this
 * thread compiled (as plain data, runtime/transfer.ts) and links it; the next simulation of the
 * same pack content on as many threads takes the threads of the last one, its pack already linked
 * and its code warm. Idle threads do not keep the process alive
 * (tinypool unrefs them) and are stopped after a while without a run; threads of a run that failed
 * are never taken again.
 */
import { Worker } from 'node:worker_threads';
import Tinypool from 'tinypool';
import type { CompiledPack } from '../runtime/index.ts';
import { packForm } from '../runtime/transfer.ts';
import type { PackContent } from './packContent.ts';
import type { SimulationWorkerData } from './worker.ts';

/** How long idle threads wait for the next run before they are stopped. */
const IDLE_MS = 60_000;

/**
 * A thread's young generation, in MB. Games make short-lived states by the thousand: with V8's
 * default (48) a thread playing 200 two-player games of Small World scavenges 57 times, copying 32 MB
 * of survivors and promoting 14 MB; with 96, 36 times, 25 MB and 9 MB (--trace-gc-nvp). Fewer
 * scavenges matter most with every core playing, where V8's helper threads for them have no idle
 * core to run on. More than 96 changes nothing: V8 caps a thread's semi-space there.
 */
const YOUNG_GENERATION_MB = 96;

/**
 * This process's Node options less tsx's loader, and less what Node refuses in a thread (V8's own
 * options, as `--max-old-space-size`, and the process's, in effect in every thread already): a
 * thread's entry loads the build, or registers tsx itself when the build is stale (bin/built.mjs), so
 * a thread inheriting the loader only starts slower (a second loader to start and hooks on every
 * import), as the bench does under `tsx`.
 */
export function threadExecArgv(argv: readonly string[] = process.execArgv): string[] {
  const tsx = (spec: string) => /^(tsx(\/|$)|.*[\\/]node_modules[\\/]tsx[\\/])/.test(spec.replace(/^file:\/\//, ''));
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const flag = /^(--require|-r|--import|--loader|--experimental-loader)(=(.*))?$/.exec(argv[i]);
    if (flag && flag[2] === undefined && i + 1 < argv.length && tsx(argv[i + 1])) i++;
    else if (!(flag && flag[3] !== undefined && tsx(flag[3]))) out.push(argv[i]);
  }
  return takenByThreads(out);
}

/** A V8 option, refused in every thread's options: the probe of `takenByThreads` never starts a thread. */
const REFUSED = '--max-old-space-size=1';

const taken = new Map<string, string[]>();

/**
 * The options of `argv` a worker thread takes. Node says which it refuses only by refusing them, in
 * the error of a thread's constructor, which throws before the thread starts; it names those it read
 * up to an option's separate value (`--stack-size 900`), where it stops reading. So it is asked with
 * an option it always refuses last, and asked again without those it named (a named option's separate
 * value going with it) until it names that one alone. Should Node's answer not be read so, the thread
 * gets no option at all rather than a start that fails.
 */
function takenByThreads(argv: string[]): string[] {
  const key = JSON.stringify(argv);
  const known = taken.get(key);
  if (known) return known;
  let out = argv;
  for (let asked = 0; ; asked++) {
    const refused = refusedOf([...out, REFUSED]);
    if (refused?.size === 1 && refused.has(REFUSED)) break;
    const left: string[] = [];
    for (let i = 0; i < out.length; i++) {
      if (!refused?.has(out[i])) left.push(out[i]);
      else if (!out[i].includes('=') && i + 1 < out.length && !out[i + 1].startsWith('-')) i++;
    }
    if (left.length === out.length || asked > argv.length) {
      out = [];
      break;
    }
    out = left;
  }
  taken.set(key, out);
  return out;
}

/** The options Node names as refused in a thread's `argv` (`REFUSED` among them); undefined if it did not answer so. */
function refusedOf(argv: string[]): Set<string> | undefined {
  try {
    void new Worker('', { eval: true, execArgv: argv }).terminate();
  } catch (e) {
    const listed = (e as NodeJS.ErrnoException).code === 'ERR_WORKER_INVALID_EXEC_ARGV' ? /flags: (.*)$/.exec((e as Error).message) : null;
    if (listed) return new Set(listed[1].split(', '));
  }
  return undefined;
}

interface Kept {
  key: string;
  pool: Tinypool;
  /** Runs using the threads now. */
  users: number;
  failed: boolean;
  idle?: NodeJS.Timeout;
}

let kept: Kept | undefined;

/** Threads lent to one run, to give back when it ends. */
export interface Lease {
  pool: Tinypool;
  release(failed: boolean): Promise<void>;
}

/** Threads playing `pack`, the compiled pack of `content`. */
export async function leaseWorkers(content: PackContent, pack: CompiledPack, threads: number, tasksPerThread: number): Promise<Lease> {
  const key = `${content.hash} ${threads} ${tasksPerThread}`;
  const data: SimulationWorkerData = { pack: packForm(pack) };
  const start = () =>
    new Tinypool({
      filename: new URL('./worker.mjs', import.meta.url).href,
      minThreads: threads,
      maxThreads: threads,
      concurrentTasksPerWorker: tasksPerThread,
      workerData: data,
      execArgv: threadExecArgv(),
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
  if (kept && (kept.key !== key || kept.failed) && kept.users > 0) {
    // Another run holds other threads: this run gets its own, stopped when it ends.
    const pool = start();
    return { pool, release: () => pool.destroy() };
  }
  if (kept && (kept.key !== key || kept.failed)) {
    await kept.pool.destroy();
    kept = undefined;
  }
  kept ??= { key, pool: start(), users: 0, failed: false };
  const k = kept;
  clearTimeout(k.idle);
  k.users++;
  return {
    pool: k.pool,
    async release(failed) {
      k.users--;
      k.failed ||= failed;
      if (k.users > 0) return;
      if (k.failed) {
        if (kept === k) kept = undefined;
        await k.pool.destroy();
        return;
      }
      k.idle = setTimeout(() => {
        if (kept === k && k.users === 0) {
          kept = undefined;
          void k.pool.destroy();
        }
      }, IDLE_MS).unref();
    },
  };
}
