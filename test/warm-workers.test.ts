/**
 * Worker threads of simulations kept warm between runs (simulate/warmPool.ts): the next run of the
 * same pack content on as many threads takes the same threads, their pack already linked; another
 * pack, or threads whose run failed, get new ones; and games played on kept threads are the games
 * played in this thread.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { compiledPack, readPackContent } from '../simulate/packContent.ts';
import { simulate } from '../simulate/run.ts';
import { leaseWorkers } from '../simulate/warmPool.ts';
import { playChunk, type Chunk, type ChunkPlayed } from '../simulate/worker.ts';

const tiny = join(import.meta.dirname, 'packs', 'tiny');
const ticTacToe = join(import.meta.dirname, 'packs', 'tictactoe');
const chunk: Chunk = { players: 2, seeds: [3, 4], agents: ['random'], maxSteps: 10_000 };

describe('warm worker threads', () => {
  it('the same pack on as many threads takes the kept threads; another pack or a failed run gets new ones', async () => {
    const content = readPackContent(tiny);
    const lease = (c: typeof content) => leaseWorkers(c, compiledPack(c), 1, 2);
    const first = await lease(content);
    const here = await playChunk(compiledPack(content), chunk);
    expect(((await first.pool.run(chunk)) as ChunkPlayed).games).toEqual(here);
    await first.release(false);

    const again = await lease(readPackContent(tiny));
    expect(again.pool).toBe(first.pool);
    // While these threads are held, a run of another pack gets threads of its own.
    const other = await lease(readPackContent(ticTacToe));
    expect(other.pool).not.toBe(first.pool);
    expect(((await other.pool.run(chunk)) as ChunkPlayed).games).toEqual(await playChunk(compiledPack(readPackContent(ticTacToe)), chunk));
    await other.release(false);
    await again.release(true);

    const afterFailure = await lease(content);
    expect(afterFailure.pool).not.toBe(first.pool);
    expect(((await afterFailure.pool.run(chunk)) as ChunkPlayed).games).toEqual(here);
    await afterFailure.release(false);
  }, 180_000);

  it('runs on this thread and a kept worker thread give the games of this thread alone, run after run', async () => {
    const options = { games: 14, players: 2, seed: 21, agents: ['random' as const], maxSteps: 10_000 };
    const alone = await simulate(tiny, { ...options, workers: 1 });
    expect(alone.map((g) => g.seed)).toEqual(Array.from({ length: 14 }, (_, i) => 21 + i));
    for (let run = 0; run < 3; run++) expect(await simulate(tiny, { ...options, workers: 2 })).toEqual(alone);
  });
});
