import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { SingleBar, Presets } from 'cli-progress';
import type { CompiledPack } from '../compiler/index.ts';
import { htmlReport } from '../simulate/html.ts';
import { QueueError, runQueued, shownUrl } from '../simulate/queue.ts';
import { packNames, textReport, type ReportContext } from '../simulate/report.ts';
import { parseResults, resultsText, ResultsError, RESULTS_FORMAT, type Results, type StudySettings } from '../simulate/results.ts';
import { simulate, startWorkers } from '../simulate/run.ts';
import { MergeError, mergeShards, parseShard, shardGames } from '../simulate/shard.ts';
import { study } from '../simulate/study.ts';
import type { GameSummary } from '../simulate/playout.ts';
import { UsageError, type Io } from './io.ts';
import { checkBots } from '../runtime/agents.ts';
import { botKinds, runnablePack } from './runnable.ts';
import { rulebookVersion } from './version.ts';
import { redisUrl } from './worker.ts';

export interface SimulateOptions {
  games: number;
  players?: number;
  seed: number;
  bots: string[];
  maxSteps: number;
  workers?: number;
  json?: boolean;
  /** Also write the study as a self-contained HTML page with charts. */
  html?: string;
  /** Half-width of the fair band, in percentage points (default 5). */
  margin?: number;
  /** Play only this shard of the study, `i/n` (docs/distributed.md). */
  shard?: string;
  /** Write the games played to this results file (JSON lines). */
  out?: string;
  /** A Redis URL: the study's shards go to `rulebook worker`s through its queue. */
  queue?: string;
  /** Shards of a queued study. */
  shards?: number;
  /** With --queue: the folder the workers are given with --packs (default: the pack folder's parent). */
  packs?: string;
  /** Prefix of the queue's keys in Redis. */
  prefix?: string;
}

/**
 * `rulebook simulate PACK`: many games by bots, and the balance study they give (simulate/study.ts):
 * each seat's, card's and pair's win share against an even game with 95% intervals, the first
 * player's advantage, game length, and the games that did not end.
 */
export async function simulateCommand(dir: string, o: SimulateOptions, io: Io): Promise<number> {
  const agents = botKinds(o.bots)!;
  if (o.queue !== undefined) redisUrl(o.queue);
  if (o.queue !== undefined && o.shard !== undefined) throw new UsageError('--shard and --queue do not go together: the queue splits the study itself (--shards n)');
  const asked = o.shard === undefined ? { index: 1, count: 1 } : parseShard(o.shard);
  if (typeof asked === 'string') throw new UsageError(asked);
  const shards = o.queue === undefined ? asked.count : Math.min(o.shards ?? QUEUED_SHARDS, o.games);
  if (shards > o.games) throw new UsageError(`${shards} shards of ${o.games} games: a shard would have no game; split the study into ${o.games} shards at most`);
  // The folder read once: the pack checked, its hash in the study and the games played are of one reading.
  const runnable = runnablePack(dir, o.players, io);
  if (!runnable) return 1;
  const { pack, players, content } = runnable;
  checkBots(agents, pack);
  // The worker threads start, and link the pack compiled here, while this thread sets the study up.
  if (o.queue === undefined && asked.count === 1) await startWorkers(content, { games: o.games, workers: o.workers ?? availableParallelism() });
  const settings: StudySettings = { pack: { id: pack.id, name: pack.name.en ?? pack.id, hash: content.hash }, rulebook: rulebookVersion(), players, bots: o.bots, seed: o.seed, games: o.games, maxSteps: o.maxSteps };
  const part = o.queue === undefined ? shardGames(settings, asked) : { seed: o.seed, games: o.games };
  // A queued study names its pack by its path inside the packs folder the workers are given.
  const root = resolve(o.packs ?? dirname(resolve(dir)));
  const rel = relative(root, resolve(dir));
  if (o.queue !== undefined && (!rel || rel.startsWith('..') || isAbsolute(rel))) throw new UsageError(`the pack folder ${dir} is not inside --packs ${root}: the workers find the pack by its path inside the folder they are given`);
  const workers = o.queue === undefined ? Math.max(1, Math.min(o.workers ?? availableParallelism(), part.games)) : undefined;
  const bar = io.terminal && !o.json ? new SingleBar({ stream: io.terminal, format: 'games {bar} {value}/{total} · {eta}s left', hideCursor: true }, Presets.shades_classic) : undefined;
  bar?.start(part.games, 0);
  const started = performance.now();
  let results: Results;
  try {
    if (o.queue !== undefined) {
      const url = o.queue;
      const onQueued = (run: string) => io.err(`queued ${shards} shards of ${settings.pack.id} (run ${run}) on ${shownUrl(url)}; workers play them: rulebook worker ${shownUrl(url)} --packs ${root}\n`);
      results = await runQueued({ url, prefix: o.prefix, study: settings, agents, pack: rel.split(sep).join('/'), shards, onProgress: (n) => bar?.update(n), onQueued });
    } else {
      const games = await simulate(content, { ...part, players, agents, maxSteps: o.maxSteps, workers: workers!, onProgress: (n) => bar?.update(n) });
      results = { header: { format: RESULTS_FORMAT, ...settings, shard: asked, seconds: (performance.now() - started) / 1000 }, games };
    }
  } catch (e) {
    if (!(e instanceof QueueError)) throw e;
    io.err(`rulebook simulate: ${e.message}\n`);
    return 1;
  } finally {
    bar?.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  if (o.shard !== undefined || o.out !== undefined) {
    const text = resultsText(results);
    if (o.out === undefined) io.out(text);
    else if (!write(o.out, text, io)) return 1;
  }
  if (o.shard !== undefined) {
    const unfinished = results.games.filter((g) => !g.over).length;
    const line = `${settings.pack.id}: shard ${asked.index}/${asked.count}, ${part.games} games seeded ${part.seed}–${part.seed + part.games - 1}${unfinished ? ` (${unfinished} did not end)` : ''}, in ${seconds.toFixed(1)} s${o.out === undefined ? '' : ` → ${o.out}`}; join the shards with \`rulebook simulate merge\`\n`;
    if (o.out === undefined) io.err(line);
    else io.out(line);
    return 0;
  }
  return printStudy(results.games, { id: pack.id, title: settings.pack.name, pack }, { ...o, seconds, workers }, io);
}

/** Shards of a queued study unless --shards says: enough to spread over a few machines' workers. */
const QUEUED_SHARDS = 8;

export interface MergeOptions {
  /** The pack folder the shards played, for its cards' names (its content must be the shards'). */
  pack?: string;
  json?: boolean;
  html?: string;
  margin?: number;
}

/**
 * `rulebook simulate merge FILE…`: the results files of a study's shards joined (simulate/shard.ts
 * refuses shards that are not one study), and the study printed as a run on one machine prints it.
 */
export async function simulateMergeCommand(files: string[], o: MergeOptions, io: Io): Promise<number> {
  let merged: Results;
  try {
    const parts = files.map((file) => {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (e) {
        throw new ResultsError(`cannot read ${file}: ${(e as Error).message}`);
      }
      return { ...parseResults(text, file), file };
    });
    merged = mergeShards(parts);
  } catch (e) {
    if (!(e instanceof ResultsError || e instanceof MergeError)) throw e;
    io.err(`rulebook simulate merge: ${e.message}\n`);
    return 1;
  }
  const h = merged.header;
  let pack: CompiledPack | undefined;
  if (o.pack !== undefined) {
    const runnable = runnablePack(o.pack, h.players, io);
    if (!runnable) return 1;
    const hash = runnable.content.hash;
    if (hash !== h.pack.hash) {
      io.err(`rulebook simulate merge: ${o.pack} is not the pack these shards played (content hash ${hash.slice(0, 12)}…, the shards' ${h.pack.hash.slice(0, 12)}…)\n`);
      return 1;
    }
    pack = runnable.pack;
  }
  return printStudy(merged.games, { id: h.pack.id, title: pack?.name.en ?? h.pack.name, pack }, { ...o, bots: h.bots, seed: h.seed, seconds: h.seconds }, io);
}

/** The study of the games, as text or JSON (and HTML with --html), the same however they were played. */
function printStudy(games: GameSummary[], about: { id: string; title: string; pack?: CompiledPack }, o: Pick<SimulateOptions, 'bots' | 'seed' | 'json' | 'html' | 'margin'> & { seconds: number; workers?: number }, io: Io): number {
  const { seconds, workers } = o;
  const figures = study(games, { margin: o.margin === undefined ? undefined : o.margin / 100 });
  const ctx: ReportContext = { title: about.title, bots: o.bots, seconds, workers, names: about.pack && packNames(about.pack) };
  if (o.html && !write(o.html, htmlReport(figures, ctx), io)) return 1;
  if (o.json) io.out(JSON.stringify({ pack: about.id, bots: o.bots, seed: o.seed, seconds, ...figures }, null, 2) + '\n');
  else io.out(textReport(figures, ctx) + (o.html ? `\nThe study with its charts: ${o.html}\n` : ''));
  return figures.finished < figures.games ? 1 : 0;
}

function write(file: string, text: string, io: Io): boolean {
  try {
    writeFileSync(file, text);
    return true;
  } catch (e) {
    io.err(`cannot write ${file}: ${(e as Error).message}\n`);
    return false;
  }
}
