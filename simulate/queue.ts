/**
 * A study spread over machines through a BullMQ queue on one Redis: the coordinator enqueues the
 * study's shards as jobs and waits for them; workers, anywhere that reaches the Redis, play them.
 *
 * No game is lost or counted twice: a shard's job id is the run's id and the shard's index, so a
 * shard is enqueued once however often the study is started, and its games are the job's one
 * result, stored when the whole shard is done. A worker that dies mid-shard stops renewing its
 * lock; after `lockMs` another worker's stalled-job check puts the shard back in the queue and it
 * is played again from its start. The run's id is a hash of the study, so running the same study
 * again collects the shards already played.
 */
import { createHash } from 'node:crypto';
import type { Job, Worker } from 'bullmq';
import type { AgentKind } from '../runtime/agents.ts';
import { parseResults, resultsText, type Results, type StudySettings } from './results.ts';
import { mergeShards, shardGames, studyDifference } from './shard.ts';
import type { ShardJob, ShardWorkerData } from './shardJob.ts';

// BullMQ and ioredis are imported when a queue is used: loading them is a good part of the CLI's
// start, and most commands never use a queue.
export const QUEUE_NAME = 'rulebook-shards';

/** A queue that cannot be used: Redis unreachable, a shard refused by a worker. */
export class QueueError extends Error {}

interface Connection {
  /** `redis://host:port` (or `rediss://`, with a user and password if the server wants them). */
  url: string;
  /** Prefix of the queue's keys in Redis: studies under different prefixes never meet. */
  prefix?: string;
}

export interface QueuedStudy extends Connection {
  study: StudySettings;
  agents: AgentKind[];
  /** The pack folder relative to the workers' packs folder. */
  pack: string;
  shards: number;
  /** Games played so far, all shards together (a shard played again counts from 0 again). */
  onProgress?: (done: number) => void;
  /** Called once the shards are in the queue, with the run's id. */
  onQueued?: (run: string) => void;
}

/** Plays a study through the queue and returns all its games, as `mergeShards` joins them. */
export async function runQueued(q: QueuedStudy): Promise<Results> {
  await reachable(q.url);
  const connection = connectionOf(q.url);
  const run = runId(q.study, q.shards);
  const { Queue, QueueEvents } = await import('bullmq');
  const queue = new Queue<ShardJob>(QUEUE_NAME, { connection, prefix: q.prefix });
  const events = new QueueEvents(QUEUE_NAME, { connection, prefix: q.prefix });
  try {
    await events.waitUntilReady();
    const done = new Map<string, number>();
    events.on('progress', ({ jobId, data }) => {
      if (!jobId.startsWith(`${run}-`) || typeof data !== 'number') return;
      done.set(jobId, data);
      q.onProgress?.([...done.values()].reduce((a, b) => a + b, 0));
    });
    const jobs: Job<ShardJob>[] = [];
    for (let index = 1; index <= q.shards; index++) {
      const shard = { index, count: q.shards };
      const jobId = `${run}-${index}`;
      // A shard that failed in an earlier start of the same study is tried again, not taken as
      // failed. Its state is read before it is added, not after: a worker may take the shard and
      // refuse it between the add and a read after it, and this start's own failure would be tried
      // again (a second attempt, a second stack trace, refused again).
      const earlier = await queue.getJobState(jobId);
      const job = await queue.add(`${q.study.pack.id} ${index}/${q.shards}`, { pack: q.pack, study: q.study, agents: q.agents, shard }, {
        jobId,
        // A thrown error (not a refusal) is tried again on another worker, up to 3 times in all.
        attempts: 3,
        removeOnComplete: { age: 24 * 3600 },
        removeOnFail: { age: 24 * 3600 },
      });
      if (earlier === 'failed') await job.retry('failed');
      jobs.push(job);
    }
    q.onQueued?.(run);
    const parts = await Promise.all(
      jobs.map(async (job) => {
        const { index, count } = job.data.shard;
        let result: unknown;
        try {
          result = await job.waitUntilFinished(events);
        } catch (e) {
          throw new QueueError(`shard ${index}/${count} failed: ${(e as Error).message}`);
        }
        done.set(job.id!, shardGames(q.study, job.data.shard).games);
        // The result came through Redis: read it as a results file is read, checked the same way.
        return { ...parseResults(resultsText(result as Results), `shard ${index}/${count} (job ${job.id})`), file: `shard ${index}/${count} (job ${job.id})` };
      }),
    );
    for (const p of parts) {
      const differs = studyDifference(q.study, p.header);
      if (differs) throw new QueueError(`${p.file} was played for another study: ${differs}`);
    }
    return mergeShards(parts);
  } finally {
    await events.close();
    await queue.close();
  }
}

export interface WorkerOptions extends Connection {
  /** The folder holding the packs; a job naming a pack outside it is refused. */
  packs: string;
  /** This rulebook's version: a job queued by another is refused. */
  rulebook: string;
  /** Shards played at once, each in its own thread. */
  jobs: number;
  /** How long a shard stays claimed by a worker that stopped answering before another takes it (ms). */
  lockMs: number;
  /** Shown as the job's `processedBy`. */
  name?: string;
}

/** A worker draining the queue until `close()`: it finishes the shards it has begun. */
export async function startWorker(o: WorkerOptions): Promise<Worker<ShardJob, Results>> {
  await reachable(o.url);
  const workerData: ShardWorkerData = { packs: o.packs, rulebook: o.rulebook };
  const { Worker } = await import('bullmq');
  const worker = new Worker<ShardJob, Results>(QUEUE_NAME, new URL('./shardJob.mjs', import.meta.url), {
    connection: connectionOf(o.url),
    prefix: o.prefix,
    name: o.name,
    concurrency: o.jobs,
    useWorkerThreads: true,
    workerThreadsOptions: { workerData },
    lockDuration: o.lockMs,
    stalledInterval: o.lockMs,
    // A shard whose worker died is put back this many times before it counts as failed.
    maxStalledCount: 3,
  });
  await worker.waitUntilReady();
  return worker;
}

/** The same study split the same way is the same run, whoever starts it. */
function runId(study: StudySettings, shards: number): string {
  const key = JSON.stringify([study.pack.id, study.pack.hash, study.rulebook, study.players, study.bots, study.seed, study.games, study.maxSteps, shards]);
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

function connectionOf(url: string) {
  // BullMQ's blocking calls must wait for Redis as long as it takes, not give up after a few retries.
  return { url, maxRetriesPerRequest: null };
}

/** Fails at once, with the reason, when Redis does not answer, instead of retrying forever. */
async function reachable(url: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 5000 });
  // The connection's own error (ECONNREFUSED, a wrong password) says more than the "closed" that follows it.
  let cause: Error | undefined;
  redis.on('error', (e: Error) => void (cause ??= e));
  try {
    await redis.connect();
    await redis.ping();
  } catch (e) {
    throw new QueueError(`cannot reach Redis at ${shownUrl(url)}: ${(cause ?? (e as Error)).message}`);
  } finally {
    redis.disconnect();
  }
}

/** A Redis URL to print: without its password. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}
