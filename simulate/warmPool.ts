/**
 * The worker threads of simulations, kept warm between runs. A thread starts with the pack this
 * thread compiled (as plain data, runtime/transfer.ts) and links it; the next simulation of the
 * same pack content on as many threads takes the threads of the last one, its pack already linked
 * and its code warm. Idle threads do not keep the process alive
 * (tinypool unrefs them) and are stopped after a while without a run; threads of a run that failed,
 * and a pool one of whose threads stopped while it was kept (terminated, exited, failed between
 * runs), are never taken again: the next run gets new threads and plays.
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
    // How to read a program given as a string (`-e`, standard input): a thread's entry is a file, and
    // Node refuses to load it under this option (ERR_INPUT_TYPE_NOT_ALLOWED) though a thread takes it.
    if (argv[i] === '--input-type') {
      i++;
      continue;
    }
    if (argv[i].startsWith('--input-type=')) continue;
    const flag = /^(--require|-r|--import|--loader|--experimental-loader)(=(.*))?$/.exec(argv[i]);
    if (flag && flag[2] === undefined && i + 1 < argv.length && tsx(argv[i + 1])) i++;
    else if (!(flag && flag[3] !== undefined && tsx(flag[3]))) out.push(argv[i]);
  }
  return takenByThreads(out);
}

const taken = new Map<string, string[]>();

/**
 * The options of `argv` a worker thread takes, each with its separate value if it has one (`--stack-size
 * 900`). Node says whether it takes a thread's options only by refusing them: a thread's constructor
 * throws ERR_WORKER_INVALID_EXEC_ARGV, before the thread starts, and which options it refused only
 * in that error's words, which are not read here (they are Node's to change). So the options are asked
 * together, and a group refused is asked again in halves down to single options (`takes`, which
 * starts no thread). Refusals are option by option, so the groups taken make up all that is.
 * Should Node refuse for another reason, the thread gets no option at all rather than a start that fails.
 */
function takenByThreads(argv: string[]): string[] {
  const key = JSON.stringify(argv);
  let out = taken.get(key);
  if (!out) {
    try {
      out = takenOf(optionsOf(argv)).flat();
    } catch {
      out = [];
    }
    taken.set(key, out);
  }
  return out;
}

/** `argv` an option a group, its separate value with it: a thread's options hold nothing but options and their values. */
function optionsOf(argv: string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < argv.length; i++) {
    const takesValue = argv[i].startsWith('-') && !argv[i].includes('=') && i + 1 < argv.length && !argv[i + 1].startsWith('-');
    out.push(takesValue ? [argv[i], argv[++i]] : [argv[i]]);
  }
  return out;
}

function takenOf(options: string[][]): string[][] {
  if (!options.length || takes(options.flat())) return options;
  if (options.length === 1) return [];
  const half = options.length >> 1;
  return [...takenOf(options.slice(0, half)), ...takenOf(options.slice(half))];
}

/** Data no thread can be sent: the probe's thread fails to be given it. */
const UNSENDABLE = (): void => undefined;

/** An option no Node takes. */
const NO_SUCH_OPTION = '--rulebook-probe-no-such-option';

let optionsFirst: boolean | undefined;

/**
 * Whether this Node's Worker constructor checks a thread's options before it sends the thread its
 * `workerData`, and both before it starts the thread, as Node 20's does (lib/internal/worker.js):
 * asked once, with an option no Node takes and data no thread can be sent, which such a
 * constructor refuses for the option. Another order answers otherwise, and `takes` then starts its
 * probe threads.
 */
function checksOptionsFirst(): boolean {
  if (optionsFirst === undefined) {
    try {
      stopped(new Worker('', { eval: true, execArgv: [NO_SUCH_OPTION], workerData: UNSENDABLE }));
      optionsFirst = false;
    } catch (e) {
      optionsFirst = (e as NodeJS.ErrnoException).code === 'ERR_WORKER_INVALID_EXEC_ARGV';
    }
  }
  return optionsFirst;
}

/**
 * Whether a thread starts with `argv`, found without starting one where the constructor checks the
 * options first (`checksOptionsFirst`): data it cannot send (a function) then fails it after the
 * check and before the start, so a preload among the options (`--require`, `--import`) never runs
 * in a probe. Elsewhere the probe is given data it can send, and a thread it starts is stopped at
 * once (its preloads may run, its script is empty).
 */
function takes(argv: string[]): boolean {
  try {
    stopped(new Worker('', { eval: true, execArgv: argv, workerData: checksOptionsFirst() ? UNSENDABLE : undefined }));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_WORKER_INVALID_EXEC_ARGV') return false;
    if ((e as Error).name === 'DataCloneError') return true;
    throw e;
  }
  return true;
}

/** A probe's thread stopped; a preload that fails in it (a `--require` of a missing file) is the simulation's threads' to report, not the probe's. */
function stopped(thread: Worker): void {
  thread.on('error', () => undefined);
  thread.unref();
  void thread.terminate();
}

interface Kept {
  key: string;
  pool: Tinypool;
  /** Runs using the threads now. */
  users: number;
  /** A run on the threads failed, or one of them stopped: the threads are not lent again. */
  failed: boolean;
  idle?: NodeJS.Timeout;
}

let kept: Kept | undefined;

/** Threads lent to one run, to give back when it ends. */
export interface Lease {
  pool: Tinypool;
  /**
   * Gives the threads back; those of a failed run are stopped, and not waited for: a thread that
   * exited without an error is still the pool's, and tinypool's destroy waits for its exit forever.
   */
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
    return {
      pool,
      async release(failed) {
        const stopped = pool.destroy();
        if (!failed) await stopped;
      },
    };
  }
  if (kept && (kept.key !== key || kept.failed)) {
    // Not waited for: a thread that stopped while kept has exited already, and tinypool's destroy
    // waits for each thread's exit, forever for that one. The threads stopping take no core from
    // the new ones: a terminated thread stops running at once.
    void kept.pool.destroy();
    kept = undefined;
  }
  if (!kept) {
    const k: Kept = { key, pool: start(), users: 0, failed: false };
    // Tinypool hears of a thread stopping only by its error, and then starts another without a
    // word to a run (an idle thread's error is the pool's 'error' event, thrown when nobody
    // listens); a thread that exits without one stays in the pool, and the next run given it
    // would fail. Either way the pool is not lent again.
    for (const thread of k.pool.threads) thread.on('exit', () => void (k.failed = true));
    k.pool.on('error', () => void (k.failed = true));
    kept = k;
  }
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
        void k.pool.destroy();
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
