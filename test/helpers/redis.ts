/**
 * A redis-server of one's own for the queue's test and `npm run bench:shards`, and the polling
 * wait both use: they wait on conditions, never on a fixed time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { Redis } from 'ioredis';

/** Resolves once `check` holds, polling every `every` ms; fails after `ms`. */
export async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, ms: number, every = 50): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** The process id of the Redis at `url`, or undefined while none answers there. */
export async function redisPid(url: string): Promise<number | undefined> {
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  r.on('error', () => {});
  try {
    await r.connect();
    const pid = /^process_id:(\d+)/m.exec(await r.info('server'))?.[1];
    return pid ? Number(pid) : undefined;
  } catch {
    return undefined;
  } finally {
    r.disconnect();
  }
}

/**
 * A redis-server keeping nothing on disk beyond `dir`, on loopback, its process pushed to
 * `children` for the caller to stop. Its port is one the system has just given out and freed, so
 * another process (a run beside this one) may bind it first: then this Redis exits, or the Redis
 * answering there is the other's, which its process id tells. Either way another port is tried.
 */
export async function startRedis(dir: string, children: ChildProcess[]): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const probe = createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const { port } = probe.address() as AddressInfo;
    await new Promise((r) => probe.close(r));
    const server = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
    children.push(server);
    const url = `redis://127.0.0.1:${port}`;
    const exited = () => server.exitCode !== null || server.signalCode !== null;
    const outcome = await until(`Redis at ${url}`, async () => (exited() ? 'exited' : (await redisPid(url)) === server.pid ? 'ours' : false), 30_000);
    if (outcome === 'ours') return url;
    if (attempt === 5) throw new Error(`redis-server could not bind a free loopback port in ${attempt} tries (the last ${port})`);
  }
}
