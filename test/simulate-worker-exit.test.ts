/**
 * A worker thread that stops without an error (terminated, or exited) during a simulation: tinypool
 * hears only a thread's error, so the run hears it by the thread's results port closing before the
 * thread said it was done (simulate/run.ts), rejects, and leaves the next run nothing broken. One
 * that stops while kept between runs (simulate/warmPool.ts) costs no run.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { readPackContent } from '../simulate/packContent.ts';
import { simulate } from '../simulate/run.ts';

// Games long enough that the worker thread, once it has played one, is stopped long before the run's
// games are all played, on a machine many times slower or faster than today's.
const content = readPackContent(join(import.meta.dirname, '..', 'content', 'smallworld-wow'));
const options = { games: 2000, players: 2, seed: 1, agents: ['random' as const], maxSteps: 5000, workers: 2 };

describe('a worker thread that stops without an error', () => {
  it('fails the run, which says so, and the next run plays on new threads', async () => {
    const started: Worker[] = [];
    const onWorker = (w: Worker) => started.push(w);
    process.on('worker', onWorker);
    onTestFinished(() => void process.off('worker', onWorker));
    let own = 0;
    let stopping: Promise<unknown> | undefined;
    // onProgress is called after each game of this thread with the games of every thread: more than
    // this thread's is a game the worker thread played, and it is stopped there.
    const run = simulate(content, {
      ...options,
      onProgress: (done) => {
        own++;
        if (!stopping && done > own) stopping = Promise.all(started.map((w) => w.terminate()));
      },
    });
    await expect(run).rejects.toThrow('a worker thread stopped without answering');
    expect(stopping).toBeDefined();
    await stopping;
    expect(own).toBeLessThan(options.games);

    const threads = started.length;
    const few = { ...options, games: 6 };
    expect(await simulate(content, few)).toEqual(await simulate(content, { ...few, workers: 1 }));
    expect(started.length).toBeGreaterThan(threads);
  });

  // A kept thread (simulate/warmPool.ts) gone between runs is heard of as it goes: the next run,
  // of the same pack or of another (which stops the kept threads first), plays on a new thread.
  it('stopped while kept between runs, the next run of the same pack or of another plays on a new thread', async () => {
    const tiny = readPackContent(join(import.meta.dirname, 'packs', 'tiny'));
    const ticTacToe = readPackContent(join(import.meta.dirname, 'packs', 'tictactoe'));
    const few = { ...options, games: 8 };
    const alone = await simulate(tiny, { ...few, workers: 1 });
    const aloneTicTacToe = await simulate(ticTacToe, { ...few, workers: 1 });
    const started: Worker[] = [];
    const onWorker = (w: Worker) => started.push(w);
    process.on('worker', onWorker);
    onTestFinished(() => void process.off('worker', onWorker));
    expect(await simulate(tiny, few)).toEqual(alone);
    expect(started).toHaveLength(1);
    await started[0].terminate();
    expect(await simulate(tiny, few)).toEqual(alone);
    expect(started).toHaveLength(2);
    await started[1].terminate();
    expect(await simulate(ticTacToe, few)).toEqual(aloneTicTacToe);
    expect(started).toHaveLength(3);
  });
});
