/**
 * The Node options a simulation's worker threads start with (simulate/warmPool.ts): this process's,
 * less tsx's loader, which a thread's entry registers itself when it needs it (bin/built.mjs).
 */
import { describe, expect, it } from 'vitest';
import { threadExecArgv } from '../simulate/warmPool.ts';

describe("worker threads' Node options", () => {
  it('drop tsx as `npx tsx` and `node --import tsx` give it, and keep every other option', () => {
    const npxTsx = ['--require', '/work/x/node_modules/tsx/dist/preflight.cjs', '--import', 'file:///work/x/node_modules/tsx/dist/loader.mjs'];
    expect(threadExecArgv(npxTsx)).toEqual([]);
    expect(threadExecArgv(['--import', 'tsx', '--enable-source-maps'])).toEqual(['--enable-source-maps']);
    expect(threadExecArgv(['--import=tsx/esm', '-r', 'C:\\w\\node_modules\\tsx\\dist\\preflight.cjs'])).toEqual([]);
    const others = ['--require', '/work/x/node_modules/vitest/suppress-warnings.cjs', '--conditions', 'development', '--import', './tsx-like.mjs', '--max-old-space-size=4096'];
    expect(threadExecArgv(others)).toEqual(others);
  });
});
