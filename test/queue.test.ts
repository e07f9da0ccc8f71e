/**
 * A study through the BullMQ queue on a real Redis: `rulebook worker` processes drain the shards,
 * one is killed (SIGKILL) in the middle of a shard, its shard is put back and played by the other,
 * and the study's games are exactly a single run's: none lost, none counted twice.
 *
 * The Redis is `RULEBOOK_REDIS_URL` (.ci/run starts one), else a redis-server of this test's own on
 * a port of its own. With neither, the test fails saying so: it never passes by skipping.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../cli/main.ts';
import type { Io } from '../cli/io.ts';
import { rulebookVersion } from '../cli/version.ts';
import { readPackContent } from '../simulate/packContent.ts';
import { QUEUE_NAME, QueueError, runQueued, startWorker } from '../simulate/queue.ts';
import { simulate } from '../simulate/run.ts';
import { study } from '../simulate/study.ts';
import { redisPid, startRedis, until } from './helpers/redis.ts';

const root = join(import.meta.dirname, '..');
const packs = join(import.meta.dirname, 'packs');
const c4 = join(packs, 'connect-four');
const temp = mkdtempSync(join(tmpdir(), 'rulebook-queue-'));
/** Keys of this run of the test only: a shared Redis may hold other studies, or this test's last run. */
const prefix = `rulebook-test-${process.pid}-${Date.now()}`;
const children: ChildProcess[] = [];
/** How long a wait on the workers may last: only a hang-stopper on a loaded machine. */
const WAIT = 240_000;
let url = process.env.RULEBOOK_REDIS_URL ?? '';

/**
 * A port where a connection is refused for as long as the test holds it: the local end of a
 * connection to a server of its own. No server can listen there meanwhile (that socket does not
 * allow the address to be reused), unlike a port freed after asking the system for one.
 */
async function refusingPort(): Promise<{ port: number; release: () => Promise<void> }> {
  const accepted: Socket[] = [];
  const server = createServer((c) => void accepted.push(c)).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
  await once(client, 'connect');
  return {
    port: client.localPort!,
    release: async () => {
      client.destroy();
      for (const c of accepted) c.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

/**
 * A relay to the Redis at `to` for a client that must hear late: once a connection has sent a
 * command naming `marker`, Redis's answers to that connection are held back until `release()`, and
 * then passed on in order. What a busy coordinator meets (an answer that comes after a worker has
 * already acted) made to happen by a condition, not by a delay.
 */
async function holdingRelay(to: string, marker: string): Promise<{ url: string; release: () => void; close: () => Promise<void> }> {
  const target = new URL(to);
  const sockets: Socket[] = [];
  const releases: Array<() => void> = [];
  let released = false;
  const server = createServer((client) => {
    const redis = connect(Number(target.port), target.hostname);
    sockets.push(client, redis);
    let sent = '';
    let holding = false;
    const held: Buffer[] = [];
    client.on('data', (d: Buffer) => {
      redis.write(d);
      // The marker may come split between two reads: the end of the last is kept to search with it.
      sent = sent.slice(-marker.length) + d.toString('latin1');
      if (!released && sent.includes(marker)) holding = true;
    });
    redis.on('data', (d: Buffer) => void (holding ? held.push(d) : client.write(d)));
    releases.push(() => {
      for (const d of held.splice(0)) client.write(d);
      holding = false;
    });
    for (const [a, b] of [[client, redis], [redis, client]]) {
      a.on('error', () => b.destroy());
      a.on('close', () => b.destroy());
    }
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `redis://${target.username || target.password ? `${target.username}:${target.password}@` : ''}127.0.0.1:${(server.address() as AddressInfo).port}`,
    release: () => {
      released = true;
      for (const r of releases) r();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

beforeAll(async () => {
  if (!url) {
    const binary = spawnSync('redis-server', ['--version']);
    if (binary.error) throw new Error('test/queue.test.ts needs a Redis: set RULEBOOK_REDIS_URL (bash .ci/run starts one) or install redis-server (apt-get install redis-server)');
    url = await startRedis(temp, children);
  } else await until(`Redis at ${url}`, async () => (await redisPid(url)) !== undefined, 30_000);
});

afterAll(async () => {
  const queue = new Queue(QUEUE_NAME, { connection: { url, maxRetriesPerRequest: null }, prefix });
  await queue.obliterate({ force: true }).catch(() => {});
  await queue.close();
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
  await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once('exit', r)) : undefined)));
  rmSync(temp, { recursive: true, force: true });
});

/**
 * `rulebook worker` in a process of its own, with what it has written to standard error. Its lock is
 * short (5 s), so that a killed worker's shard comes back soon, yet long enough that a loaded
 * machine's late lock renewal is not taken for a dead worker.
 */
function worker(): { process: ChildProcess; log: () => string } {
  let log = '';
  const p = spawn(process.execPath, [join(root, 'bin', 'rulebook.mjs'), 'worker', url, '--packs', packs, '--jobs', '1', '--lock', '5', '--prefix', prefix], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  p.stderr!.on('data', (d) => void (log += d));
  children.push(p);
  return { process: p, log: () => log };
}

async function rulebook(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { out: (t) => void (out += t), err: (t) => void (err += t), readLine: async () => undefined };
  const code = await main(args, io);
  return { code, out, err };
}

describe('a study through the queue', () => {
  const games = 240;
  const agents = ['greedy', 'random'] as const;
  const content = readPackContent(c4);
  const settings = { pack: { id: 'connect-four', name: 'Connect Four', hash: content.hash }, rulebook: rulebookVersion(), players: 2, bots: [...agents], seed: 3, games, maxSteps: 10_000 };

  it('two workers, one killed mid-shard: its shard is played again, and the games are the single run\'s', { timeout: 600_000 }, async () => {
    const a = worker();
    const b = worker();
    await until('both workers to start', () => a.log().includes('waiting for shards') && b.log().includes('waiting for shards'), WAIT);

    const queue = new Queue(QUEUE_NAME, { connection: { url, maxRetriesPerRequest: null }, prefix });
    let run = '';
    const result = runQueued({ url, prefix, study: settings, agents: [...agents], pack: 'connect-four', shards: 4, onQueued: (id) => (run = id) });
    // Worker a's first shard, once some of its games are played (and well before all are).
    const jobId = await until('worker a to be playing a shard', async () => {
      const id = /playing .* \(job (\S+)\)/.exec(a.log())?.[1];
      const job = id ? await queue.getJob(id) : undefined;
      return job && typeof job.progress === 'number' && job.progress > 0 && (await job.getState()) === 'active' ? id : undefined;
    }, WAIT);
    a.process.kill('SIGKILL');
    const merged = await result;
    const job = (await queue.getJob(jobId!))!;
    await queue.close();

    expect(run).not.toBe('');
    expect(jobId!.startsWith(run)).toBe(true);
    // The killed worker's shard stalled, went back to the queue and was played by the other worker.
    expect(job.stalledCounter).toBeGreaterThanOrEqual(1);
    expect(job.processedBy).not.toContain(String(a.process.pid));
    // The queue hears of the shard's end before the worker's own line about it comes through its pipe.
    await until('worker b to say it played the shard', () => b.log().includes(`played ${job.name} (job ${jobId})`), WAIT);

    const whole = await simulate(c4, { games, players: 2, seed: 3, agents: [...agents], maxSteps: 10_000, workers: 1 });
    expect(merged.games.map((g) => g.seed)).toEqual(Array.from({ length: games }, (_, i) => 3 + i));
    expect(merged.games).toEqual(whole);
    expect(study(merged.games)).toEqual(study(whole));

    // The same study through the command line: the shards are the run's jobs, already played.
    const cli = await rulebook('simulate', c4, '--games', String(games), '--seed', '3', '--bots', ...agents, '--queue', url, '--shards', '4', '--prefix', prefix, '--json');
    expect(cli.code).toBe(0);
    const { seconds, pack, bots, seed, ...figures } = JSON.parse(cli.out);
    expect([typeof seconds, pack, bots, seed]).toEqual(['number', 'connect-four', [...agents], 3]);
    expect(figures).toEqual(JSON.parse(JSON.stringify(study(whole))));
  });

  it('a worker refuses a pack whose content is not the study\'s, a pack outside its packs folder, and for good a bot the pack cannot seat', { timeout: 600_000 }, async () => {
    // The study is queued from a copy of the pack edited on the coordinator's machine only.
    const edited = join(temp, 'connect-four');
    cpSync(c4, edited, { recursive: true });
    writeFileSync(join(edited, 'pack.yaml'), readFileSync(join(c4, 'pack.yaml'), 'utf8') + '\n# only on this machine\n');
    // The worker of `rulebook worker` (the first test runs the command), here in this process: a
    // process of its own would only add the command line's start.
    // A lock long enough for a slow machine: a shard whose lock ran out while its thread started is
    // put back and tried again, and this test counts the tries.
    const w = await startWorker({ url, prefix, packs, rulebook: rulebookVersion(), jobs: 1, lockMs: 120_000 });
    try {
      const elsewhere = { ...settings, games: 4, seed: 1000, pack: { ...settings.pack, hash: readPackContent(edited).hash } };
      await expect(runQueued({ url, prefix, study: elsewhere, agents: [...agents], pack: 'connect-four', shards: 1 })).rejects.toThrow(/shard 1\/1 failed: the pack `connect-four` in .* is not the one the study was queued with \(content hash/);
      const outside = { ...settings, games: 4, seed: 2000 };
      await expect(runQueued({ url, prefix, study: outside, agents: [...agents], pack: '../../connect-four', shards: 1 })).rejects.toThrow(/shard 1\/1 failed: the job names the pack `..\/..\/connect-four`, which is not a folder inside the packs folder/);
      // A bot the pack cannot seat (a job may come from any Redis client): refused at its first attempt, not tried again.
      const unseated = { ...settings, games: 4, seed: 3000, bots: ['prefer'] };
      let run = '';
      await expect(runQueued({ url, prefix, study: unseated, agents: ['prefer'], pack: 'connect-four', shards: 1, onQueued: (id) => (run = id) })).rejects.toThrow(/^shard 1\/1 failed: `prefer` is not a bot for Connect Four: it plays the pack's `scoring: prefer`, which it does not declare/);
      const queue = new Queue(QUEUE_NAME, { connection: { url, maxRetriesPerRequest: null }, prefix });
      try {
        const job = (await queue.getJob(`${run}-1`))!;
        // One failure by an error, not three: a stalled attempt (its lock lost on a slow machine, put
        // back by BullMQ) counts in `attemptsMade` but leaves no stack trace.
        // On a failure, the message shows every attempt's stack trace: what failed the attempts before the last.
        expect([await job.getState(), job.stacktrace?.length], (job.stacktrace ?? []).join('\n--- the attempt before:\n')).toEqual(['failed', 1]);
      } finally {
        await queue.close();
      }
    } finally {
      await w.close();
    }
  });

  // The shard is refused while the coordinator has yet to hear that Redis has it: the coordinator
  // must not take the refusal for a failure of an earlier start of the study and try it again.
  it('a shard refused for good before the coordinator heard it was queued is not tried again', { timeout: 600_000 }, async () => {
    const w = await startWorker({ url, prefix, packs, rulebook: rulebookVersion(), jobs: 1, lockMs: 120_000 });
    const unseated = { ...settings, games: 4, seed: 4000, bots: ['prefer'] };
    // Redis's answers to the coordinator are held from the shard's add (the one command naming the
    // job: `<pack id> <shard>/<shards>`) until the shard has failed, heard here straight from Redis.
    const relay = await holdingRelay(url, 'connect-four 1/1');
    const events = new QueueEvents(QUEUE_NAME, { connection: { url, maxRetriesPerRequest: null }, prefix });
    const queue = new Queue(QUEUE_NAME, { connection: { url, maxRetriesPerRequest: null }, prefix });
    try {
      await events.waitUntilReady();
      const failures: string[] = [];
      events.on('failed', ({ jobId }) => {
        failures.push(jobId);
        relay.release();
      });
      let run = '';
      await expect(runQueued({ url: relay.url, prefix, study: unseated, agents: ['prefer'], pack: 'connect-four', shards: 1, onQueued: (id) => (run = id) })).rejects.toThrow(/^shard 1\/1 failed: `prefer` is not a bot for Connect Four/);
      const job = (await queue.getJob(`${run}-1`))!;
      expect([await job.getState(), job.attemptsMade, job.stacktrace?.length], (job.stacktrace ?? []).join('\n--- the attempt before:\n')).toEqual(['failed', 1, 1]);
      expect(failures).toEqual([`${run}-1`]);
    } finally {
      await events.close();
      await queue.close();
      await relay.close();
      await w.close();
    }
  });

  it('an unreachable Redis is a clear error, not endless retries', async () => {
    const { port, release } = await refusingPort();
    try {
      await expect(runQueued({ url: `redis://127.0.0.1:${port}`, study: settings, agents: [...agents], pack: 'connect-four', shards: 1 })).rejects.toThrow(QueueError);
      const r = await rulebook('simulate', c4, '--queue', `redis://127.0.0.1:${port}`);
      expect(r.err).toMatch(/cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+\/?: .*ECONNREFUSED/);
      expect(r.code).toBe(1);
    } finally {
      await release();
    }
    const bad = await rulebook('worker', 'http://example.org', '--packs', packs);
    expect(bad.err).toMatch(/not a Redis URL/);
    expect(bad.code).toBe(2);
  });
});
