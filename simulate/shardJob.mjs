// The entry of a queue worker's threads (a BullMQ sandboxed processor): the shard job is
// TypeScript, compiled on the fly by tsx as the CLI is, so a clone needs no build step.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';
register();
const { playShardJob } = await import('./shardJob.ts');
export default (job) => playShardJob(job, workerData);
