import { availableParallelism, hostname } from 'node:os';
import { isDir } from './packs.ts';
import { QueueError, shownUrl, startWorker } from '../simulate/queue.ts';
import { UsageError, type Io } from './io.ts';
import { rulebookVersion } from './version.ts';

export interface WorkerCommandOptions {
  /** The folder holding the packs the studies name. */
  packs: string;
  jobs?: number;
  /** Seconds a shard stays claimed by a worker that stopped answering. */
  lock: number;
  prefix?: string;
}

/**
 * `rulebook worker redis://…`: plays the shards of the studies queued by `rulebook simulate
 * --queue` on the same Redis, until stopped (Ctrl-C or SIGTERM finish the shards begun first).
 */
export async function workerCommand(url: string, o: WorkerCommandOptions, io: Io): Promise<number> {
  redisUrl(url);
  if (!isDir(o.packs)) throw new UsageError(`\`${o.packs}\` is not a folder: --packs names the folder holding the packs (such as content/)`);
  const jobs = o.jobs ?? availableParallelism();
  const name = `${hostname()}:${process.pid}`;
  let worker;
  try {
    worker = await startWorker({ url, prefix: o.prefix, packs: o.packs, rulebook: rulebookVersion(), jobs, lockMs: o.lock * 1000, name });
  } catch (e) {
    if (!(e instanceof QueueError)) throw e;
    io.err(`rulebook worker: ${e.message}\n`);
    return 1;
  }
  const label = (job: { name: string; id?: string }) => `${job.name} (job ${job.id})`;
  worker.on('active', (job) => io.err(`playing ${label(job)}\n`));
  worker.on('completed', (job, r) => io.err(`played ${label(job)}: ${r.games.length} games in ${r.header.seconds.toFixed(1)} s\n`));
  worker.on('failed', (job, e) => io.err(`failed ${job ? label(job) : 'a shard'}: ${e.message}\n`));
  worker.on('error', (e) => io.err(`rulebook worker: ${e.message}\n`));
  io.err(`rulebook worker ${name}: waiting for shards on ${shownUrl(url)}, packs from ${o.packs}, ${jobs} at once\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  io.err('rulebook worker: stopping once the shards begun are played\n');
  await worker.close();
  return 0;
}

/** A Redis URL as the command line gives it, or a usage error saying what one looks like. */
export function redisUrl(url: string): string {
  let u: URL | undefined;
  try {
    u = new URL(url);
  } catch {
    u = undefined;
  }
  if (!u || !['redis:', 'rediss:'].includes(u.protocol)) throw new UsageError(`\`${url}\` is not a Redis URL: write redis://host:port, such as redis://127.0.0.1:6379`);
  return url;
}
