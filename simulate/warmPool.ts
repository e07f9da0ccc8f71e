/**
 * The worker threads of simulations, kept warm between runs. A thread starts with the pack this
 * thread compiled (as plain data, runtime/transfer.ts) and links it; the next simulation of the
 * same pack content on as many threads takes the threads of the last one, its pack already linked
 * and its code warm. Idle threads do not keep the process alive
 * (tinypool unrefs them) and are stopped after a while without a run; threads of a run that failed
 * are never taken again.
 */
import Tinypool from 'tinypool';
import type { CompiledPack } from '../runtime/index.ts';
import { packForm } from '../runtime/transfer.ts';
import type { PackContent } from './packContent.ts';
import type { SimulationWorkerData } from './worker.ts';

/** How long idle threads wait for the next run before they are stopped. */
const IDLE_MS = 60_000;

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
  const start = () => new Tinypool({ filename: new URL('./worker.mjs', import.meta.url).href, minThreads: threads, maxThreads: threads, concurrentTasksPerWorker: tasksPerThread, workerData: data });
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
