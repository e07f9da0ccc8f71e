/**
 * `npm run bench:shards`: a study of the shipped default pack played three ways through the command
 * line, each on a copy of the pack taken at the start, and the three compared game for game and
 * figure for figure:
 *
 * 1. on one machine: `rulebook simulate PACK --games N --out whole.jsonl --json`;
 * 2. in 4 shards, each its own process as a batch system would start them (`--shard i/4`), joined
 *    by `rulebook simulate merge`;
 * 3. through the queue: a redis-server of its own on a free loopback port, two `rulebook worker`
 *    processes, `rulebook simulate --queue … --shards 4`; one worker is killed (SIGKILL) once, in
 *    the middle of its first shard, so that shard is played again by the other.
 *
 * It fails (exit code 1, saying what differs) unless the games and the printed figures (all but the
 * time taken) are the same all three ways, the killed worker's shard was put back (stalled) and
 * played to the end by the other worker. The issue's run is the default: 2,000 games of
 * content/smallworld-wow, 2 players, random bots, from seed 1. Settings: --games / SHARDS_GAMES,
 * --pack / SHARDS_PACK, --bots / SHARDS_BOTS (space-separated), --lock / SHARDS_LOCK (seconds a
 * killed worker's shard stays claimed; default 30, long enough that a loaded machine's late lock
 * renewal is not taken for a dead worker). Every process plays with one thread (--workers 1,
 * --jobs 1): the check is of equality, not speed. redis-server must be on PATH (.ci/run installs it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { Queue } from 'bullmq';
import { QUEUE_NAME } from '../simulate/queue.ts';
import { parseResults } from '../simulate/results.ts';
import { startRedis, until } from '../test/helpers/redis.ts';

const root = join(import.meta.dirname, '..');
const cli = join(root, 'bin', 'rulebook.mjs');
const { values: flags } = parseArgs({ options: { games: { type: 'string' }, pack: { type: 'string' }, bots: { type: 'string' }, lock: { type: 'string' } } });
const GAMES = flags.games ?? process.env.SHARDS_GAMES ?? '2000';
const PACK = flags.pack ?? process.env.SHARDS_PACK ?? 'content/smallworld-wow';
const BOTS = (flags.bots ?? process.env.SHARDS_BOTS ?? 'random').split(' ');
const LOCK = flags.lock ?? process.env.SHARDS_LOCK ?? '30';
const SHARDS = 4;
/** How long a wait on the workers may last: a 2,000-game shard on a loaded machine takes many minutes. */
const WAIT = 3_600_000;
const temp = mkdtempSync(join(tmpdir(), 'rulebook-shards-'));
// Every way plays a copy of the pack taken at the start: a pack edited in the work tree during a
// long run would be another study, which the merge and the workers rightly refuse.
const packs = join(temp, 'packs');
const pack = join(packs, basename(resolve(PACK)));
cpSync(resolve(root, PACK), pack, { recursive: true });
const study = [pack, '--games', GAMES, '--seed', '1', '--bots', ...BOTS];
const children: ChildProcess[] = [];

interface Run {
  code: number | null;
  out: string;
  err: string;
}

/** A rulebook command in a process of its own. */
function rulebook(args: string[], onErr?: (text: string) => void): { process: ChildProcess; done: Promise<Run> } {
  const p = spawn(process.execPath, [cli, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(p);
  let out = '';
  let err = '';
  p.stdout!.on('data', (d) => void (out += d));
  p.stderr!.on('data', (d) => {
    err += d;
    onErr?.(err);
  });
  const done = once(p, 'exit').then(([code]) => ({ code: code as number | null, out, err }));
  return { process: p, done };
}

async function ok(what: string, run: Promise<Run>): Promise<Run> {
  const r = await run;
  if (r.code !== 0) throw new Error(`${what} exited with ${r.code}:\n${r.err}`);
  return r;
}

/** A study's printed figures without the time it took, which is the one figure allowed to differ. */
function figures(json: string): unknown {
  const { seconds: _seconds, ...rest } = JSON.parse(json);
  return rest;
}

function games(file: string): unknown[] {
  return parseResults(readFileSync(file, 'utf8'), file).games;
}

function timed<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const t = performance.now();
  return work().then((value) => ({ value, seconds: (performance.now() - t) / 1000 }));
}

function compare(what: string, a: unknown, b: unknown, problems: string[]): void {
  if (!isDeepStrictEqual(a, b)) problems.push(`${what} differ from the single machine's`);
}

/**
 * The study through a queue on a Redis of its own, with two workers, the first killed once in the
 * middle of its first shard; what went wrong with the killed worker's shard is added to `problems`.
 */
async function throughQueue(out: string, problems: string[]): Promise<Run> {
  const url = await startRedis(temp, children);
  const prefix = `rulebook-bench-${process.pid}`;
  const worker = () => rulebook(['worker', url, '--packs', packs, '--jobs', '1', '--lock', LOCK, '--prefix', prefix]);
  const a = worker();
  const b = worker();
  let aLog = '';
  let bLog = '';
  a.process.stderr!.on('data', (d) => void (aLog += d));
  b.process.stderr!.on('data', (d) => void (bLog += d));
  await until('both workers to start', async () => aLog.includes('waiting for shards') && bLog.includes('waiting for shards'), WAIT, 200);
  const queue = new Queue(QUEUE_NAME, { connection: { url, maxRetriesPerRequest: null }, prefix });
  try {
    const run = ok('the queued run', rulebook(['simulate', ...study, '--queue', url, '--shards', String(SHARDS), '--packs', packs, '--prefix', prefix, '--json', '--out', out]).done);
    // Worker a's first shard, once some of its games are played and it is still playing it.
    const killed = await until('worker a to be in the middle of a shard', async () => {
      const id = /playing .* \(job (\S+)\)/.exec(aLog)?.[1];
      const job = id ? await queue.getJob(id) : undefined;
      return job && typeof job.progress === 'number' && job.progress > 0 && (await job.getState()) === 'active' ? { id: id!, progress: job.progress } : undefined;
    }, WAIT, 200);
    a.process.kill('SIGKILL');
    console.log(`queue: worker a (pid ${a.process.pid}) killed with ${killed.progress} games of its shard (job ${killed.id}) played`);
    const result = await run;
    const job = (await queue.getJob(killed.id))!;
    if (!(job.stalledCounter >= 1)) problems.push(`the killed worker's shard (job ${killed.id}) was not put back: stalled ${job.stalledCounter} times`);
    if (job.processedBy?.endsWith(`:${a.process.pid}`)) problems.push(`the killed worker's shard (job ${killed.id}) is recorded as played by the killed worker`);
    if (!bLog.includes(`(job ${killed.id}): `)) problems.push(`worker b did not play the killed worker's shard (job ${killed.id}) to its end`);
    console.log(`queue: the killed worker's shard stalled ${job.stalledCounter} time(s), then played by ${job.processedBy}`);
    await queue.obliterate({ force: true });
    return result;
  } finally {
    await queue.close();
  }
}

async function main(): Promise<number> {
  const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
  console.log(`bench:shards — ${GAMES} games of ${PACK}, bots ${BOTS.join(' ')}, from seed 1; load average ${load()}`);
  const problems: string[] = [];

  const whole = join(temp, 'whole.jsonl');
  const files = Array.from({ length: SHARDS }, (_, i) => join(temp, `shard-${i + 1}.jsonl`));
  const queuedOut = join(temp, 'queued.jsonl');
  // The three ways at once, each in processes of its own: they share nothing but the pack's folder,
  // and are compared only once all have ended.
  const [single, sharded, queued] = await Promise.all([
    timed(() => ok('the single-machine run', rulebook(['simulate', ...study, '--workers', '1', '--json', '--out', whole]).done)),
    timed(async () => {
      await Promise.all(files.map((f, i) => ok(`shard ${i + 1}/${SHARDS}`, rulebook(['simulate', ...study, '--workers', '1', '--shard', `${i + 1}/${SHARDS}`, '--out', f]).done)));
      return ok('simulate merge', rulebook(['simulate', 'merge', ...files, '--pack', pack, '--json']).done);
    }),
    timed(() => throughQueue(queuedOut, problems)),
  ]);
  const expected = figures(single.value.out);
  const expectedGames = games(whole);
  console.log(`one machine: ${expectedGames.length} games in ${single.seconds.toFixed(0)} s`);
  compare(`${SHARDS} shards' games`, files.flatMap(games), expectedGames, problems);
  compare(`${SHARDS} shards' merged figures`, figures(sharded.value.out), expected, problems);
  console.log(`${SHARDS} shards, each its own process, merged: ${files.flatMap(games).length} games in ${sharded.seconds.toFixed(0)} s`);
  compare('the queued games', games(queuedOut), expectedGames, problems);
  compare('the queued figures', figures(queued.value.out), expected, problems);
  console.log(`queued, 2 workers, one killed: ${games(queuedOut).length} games in ${queued.seconds.toFixed(0)} s`);

  const seats = (expected as { seats: Array<{ player: string; wins: number; n: number; share: number; low: number; high: number }> }).seats;
  console.log(`the figures, the same all three ways: ${seats.map((s) => `${s.player} ${s.wins}/${s.n} (${(s.share * 100).toFixed(1)}%, 95% ${(s.low * 100).toFixed(1)}–${(s.high * 100).toFixed(1)}%)`).join(', ')}`);
  console.log(`load average at the end ${load()}`);
  for (const p of problems) console.log(`DIFFERS: ${p}`);
  console.log(problems.length ? `FAILED: ${problems.length} difference(s)` : 'identical: games and figures, one machine = 4 shards merged = queued with a worker killed');
  return problems.length ? 1 : 0;
}

main()
  .then((code) => (process.exitCode = code))
  .catch((e: Error) => {
    console.error(e.message);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
    rmSync(temp, { recursive: true, force: true });
  });
