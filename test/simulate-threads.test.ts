/**
 * The Node options a simulation's worker threads start with (simulate/warmPool.ts): this process's,
 * less tsx's loader, which a thread's entry registers itself when it needs it (bin/built.mjs), and
 * less what Node refuses in a thread (V8's options, in effect in every thread already).
 */
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { threadExecArgv } from '../simulate/warmPool.ts';

describe("worker threads' Node options", () => {
  it('drop tsx as `npx tsx` and `node --import tsx` give it, and keep every other option a thread takes', () => {
    const npxTsx = ['--require', '/work/x/node_modules/tsx/dist/preflight.cjs', '--import', 'file:///work/x/node_modules/tsx/dist/loader.mjs'];
    expect(threadExecArgv(npxTsx)).toEqual([]);
    expect(threadExecArgv(['--import', 'tsx', '--enable-source-maps'])).toEqual(['--enable-source-maps']);
    expect(threadExecArgv(['--import=tsx/esm', '-r', 'C:\\w\\node_modules\\tsx\\dist\\preflight.cjs'])).toEqual([]);
    const others = ['--require', '/work/x/node_modules/vitest/suppress-warnings.cjs', '--conditions', 'development', '--import', './tsx-like.mjs', '--enable-source-maps'];
    expect(threadExecArgv(others)).toEqual(others);
  });

  // `node --input-type=module -e "…simulate(…, { workers: 2 })"` had its threads fail to load their entry.
  it('drop how to read a program given as a string, which a thread given a file refuses', () => {
    expect(threadExecArgv(['--input-type=module', '--no-warnings', '--input-type', 'commonjs'])).toEqual(['--no-warnings']);
  });

  // `node --max-old-space-size=4096 bin/rulebook.mjs simulate … --workers 2` failed: Node refuses a
  // V8 option in a thread's options, and the process's options were all passed on.
  it("drop V8's options, with a separate value too, and a thread starts with what is left", async () => {
    const argv = ['--max-old-space-size=4096', '--conditions', 'development', '--stack-size', '900', '--no-warnings', '--max-semi-space-size=32'];
    const kept = threadExecArgv(argv);
    expect(kept).toEqual(['--conditions', 'development', '--no-warnings']);
    const w = new Worker('require("node:worker_threads").parentPort.postMessage(process.execArgv)', { eval: true, execArgv: kept });
    const seen = await new Promise((resolve, reject) => w.once('message', resolve).once('error', reject));
    await w.terminate();
    expect(seen).toEqual(kept);
  });

  // Node names the options it refuses only in its error's words: the options are asked in groups
  // instead, so refused ones anywhere among taken ones, a process option and an unknown one among
  // them, are found by Node's refusal alone.
  it('find the refused options wherever they are, by the refusal alone', () => {
    const argv = ['--title=x', '--no-warnings', '--max-old-space-size=64', '--conditions', 'dev', '--stack-size', '900', '--require', '/no/such/preload.cjs', '--not-an-option'];
    expect(threadExecArgv(argv)).toEqual(['--no-warnings', '--conditions', 'dev', '--require', '/no/such/preload.cjs']);
  });

  // A preload among the options (tsx's loader, under vitest) would run in every thread the probe started.
  it('are found without starting a thread', async () => {
    const started: unknown[] = [];
    const onWorker = (w: unknown) => started.push(w);
    process.on('worker', onWorker);
    try {
      const argv = ['--require', '/no/such/probed-preload.cjs', '--max-old-space-size=64', '--no-warnings'];
      expect(threadExecArgv(argv)).toEqual(['--require', '/no/such/probed-preload.cjs', '--no-warnings']);
      // Node announces a thread it started on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(started).toEqual([]);
    } finally {
      process.off('worker', onWorker);
    }
  });
});
