/**
 * While a simulation plays on every core, each thread collects its young objects without V8's
 * helper threads, and the process has them again once the run is over (simulate/youngCollections.ts).
 * Seen from outside, as V8 reports each young collection (`--trace-gc-nvp`: the helpers' part of it
 * is `background.scavenge.parallel`, in ms), in a process of its own: the setting is the process's.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';

const root = join(import.meta.dirname, '..');

/**
 * The process: reads the pack, then does what each line it is given says, each followed by a line
 * `done <what>`: `churn` allocates short-lived objects (young collections), `simulate` plays a run
 * on every core (this thread and worker threads, one a core, at least one).
 */
const child = () => `
import { writeSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { readPackContent } from ${JSON.stringify(pathToFileURL(join(root, 'simulate', 'packContent.ts')).href)};
import { simulate } from ${JSON.stringify(pathToFileURL(join(root, 'simulate', 'run.ts')).href)};
const content = readPackContent(${JSON.stringify(join(root, 'content', 'smallworld-wow'))});
const say = (line) => writeSync(1, line + '\\n');
let kept = [];
for await (const what of createInterface({ input: process.stdin })) {
  if (what === 'churn') for (let i = 0; i < 400000; i++) { kept.push({ i, of: [i] }); if (kept.length > 20000) kept = []; }
  if (what === 'simulate') await simulate(content, { games: 40, players: 2, seed: 1, agents: ['random'], maxSteps: 5000, workers: Math.max(2, availableParallelism()) });
  say('done ' + what);
  if (what === 'exit') process.exit(0);
}
`;

/** The helpers' ms in each young collection V8 reported from `lines` until `done <what>`. */
async function collections(lines: AsyncIterator<string>, what: string): Promise<number[]> {
  const out: number[] = [];
  for (;;) {
    const { value, done } = await lines.next();
    if (done) throw new Error(`the process ended before it was done with ${what}`);
    if (value === `done ${what}`) return out;
    const helpers = / gc=s .*\bbackground\.scavenge\.parallel=([\d.]+)/.exec(value)?.[1];
    if (helpers !== undefined) out.push(Number(helpers));
  }
}

describe("V8's helpers of young collections", () => {
  it('are held off while a run plays on every core, and given back after it', { timeout: 300_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rulebook-young-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const script = join(dir, 'child.mjs');
    writeFileSync(script, child());
    const p = spawn(process.execPath, ['--import', 'tsx', '--trace-gc-nvp', script], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
    const lines = createInterface({ input: p.stdout! })[Symbol.asyncIterator]();
    const ask = (what: string) => {
      p.stdin!.write(`${what}\n`);
      return collections(lines, what);
    };
    try {
      // Before the run, V8 has its helpers: some young collection is shared with them (on a busy
      // machine a helper may not get a core in time for some, so until one is).
      let shared = false;
      for (let i = 0; i < 200 && !shared; i++) shared = (await ask('churn')).some((ms) => ms > 0);
      expect(shared).toBe(true);
      const during = await ask('simulate');
      // Every thread of the run collected its young objects alone (the workers' collections too: one
      // process, one report). The first reported may come before the run holds the helpers off: the
      // child reads the command and awaits between its `done churn` and the call, and allocates
      // there, with the young generation the churn left nearly full (a clean-clone CI run saw it).
      expect(during.length).toBeGreaterThan(1);
      expect(during.slice(1).filter((ms) => ms > 0)).toEqual([]);
      shared = false;
      for (let i = 0; i < 200 && !shared; i++) shared = (await ask('churn')).some((ms) => ms > 0);
      expect(shared).toBe(true);
      await ask('exit');
    } finally {
      p.kill();
    }
  });
});
