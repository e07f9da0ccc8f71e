// The entry of a queue worker's threads (a BullMQ sandboxed processor): the build of
// simulate/shardJob.ts when it is up to date, else the TypeScript through tsx, as for the CLI
// (bin/built.mjs).
import { workerData } from 'node:worker_threads';
import { importEntry } from '../bin/built.mjs';

const { playShardJob } = await importEntry('shardJob');
export default (job) => playShardJob(job, workerData);
