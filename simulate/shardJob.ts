/**
 * What a queue worker does with one shard of a study, in a thread of its own (so that the worker's
 * main thread keeps renewing the job's lock however long the games take): finds the pack under the
 * worker's packs folder, refuses it unless its content is the study's, and plays the shard's games.
 * A refusal is final (BullMQ's UnrecoverableError): another attempt on the same worker would only
 * be refused again.
 */
import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { UnrecoverableError, type SandboxedJob } from 'bullmq';
import { AgentKindError, checkBots, type AgentKind } from '../runtime/agents.ts';
import type { CompiledPack } from '../runtime/index.ts';
import { compileContent, readPackContent } from './packContent.ts';
import { RESULTS_FORMAT, type Results, type ShardId, type StudySettings } from './results.ts';
import { shardGames } from './shard.ts';
import { playChunk } from './worker.ts';

/** A job of the queue: one shard of a study. */
export interface ShardJob {
  /** The pack folder, relative to the packs folder each worker is given, with `/` between folders. */
  pack: string;
  study: StudySettings;
  agents: AgentKind[];
  shard: ShardId;
}

/** What a worker's thread is told when it starts. */
export interface ShardWorkerData {
  /** The folder the worker may read packs from, and nothing outside it. */
  packs: string;
  /** The rulebook version of this worker: games played by another version may differ. */
  rulebook: string;
}

/** Compiled once per content hash per thread, for the next shards of the same study. */
const compiled = new Map<string, CompiledPack>();

export async function playShardJob(job: SandboxedJob<ShardJob>, worker: ShardWorkerData): Promise<Results> {
  const { study, shard, agents } = job.data;
  if (study.rulebook !== worker.rulebook) throw new UnrecoverableError(`this worker runs rulebook ${worker.rulebook}, the study was queued by rulebook ${study.rulebook}: games could differ`);
  const dir = packFolder(worker.packs, job.data.pack);
  const content = readPackContent(dir);
  if (content.hash !== study.pack.hash) throw new UnrecoverableError(`the pack \`${job.data.pack}\` in ${worker.packs} is not the one the study was queued with (content hash ${content.hash.slice(0, 12)}…, expected ${study.pack.hash.slice(0, 12)}…): give every machine the same copy of the pack`);
  let pack = compiled.get(content.hash);
  if (!pack) {
    pack = compileContent(content);
    compiled.set(content.hash, pack);
  }
  // A bot the pack cannot seat is refused on every attempt, as the other refusals are.
  try {
    checkBots(agents, pack);
  } catch (e) {
    if (e instanceof AgentKindError) throw new UnrecoverableError(e.message);
    throw e;
  }
  const { seed, games } = shardGames(study, shard);
  const started = performance.now();
  const chunk = { players: study.players, seeds: Array.from({ length: games }, (_, i) => seed + i), agents, maxSteps: study.maxSteps };
  const out = await playChunk(pack, chunk, (played) => job.updateProgress(played));
  return { header: { format: RESULTS_FORMAT, ...study, shard, seconds: (performance.now() - started) / 1000 }, games: out };
}

/** The pack folder a job names, kept inside the packs folder (a job comes from whoever can reach the Redis). */
function packFolder(root: string, pack: string): string {
  const base = realpathSync(root);
  const refuse = (why: string) => new UnrecoverableError(`the job names the pack \`${pack}\`, ${why}`);
  if (typeof pack !== 'string' || !pack || isAbsolute(pack) || pack.split(/[\\/]/).some((part) => part === '..' || part === '')) throw refuse('which is not a folder inside the packs folder');
  const dir = join(base, pack);
  if (!existsSync(join(dir, 'pack.yaml'))) throw refuse(`but there is no pack folder there in ${root} (start the worker with --packs set to the folder holding the packs)`);
  const rel = relative(base, realpathSync(dir));
  if (rel.startsWith('..') || isAbsolute(rel)) throw refuse(`which leads outside ${root}`);
  return dir;
}
