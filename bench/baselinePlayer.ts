/**
 * A child process of bench/baseline.ts: one checkout's engine playing its own Small World pack by
 * its own public entry, `simulate()` in this thread, batch by batch as the parent asks. One process
 * for each engine, so that neither's code is warmed, optimised or collected by the other's games.
 *
 * argv: the checkout's root folder. A checkout whose simulate/packContent.ts exists (the engine since
 * issue #12) is given the pack's content read once, as `rulebook simulate` and bench/run.ts give it,
 * so that a batch does not read and hash the folder again; an older one is given the folder, whose
 * compiled pack its simulate() keeps by folder.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

/** What the parent asks: the games of `seeds` … `seed + games - 1`, `players` each, random agents. */
export interface BatchRequest {
  games: number;
  seed: number;
  players: number;
}

/** What a batch took: this process's CPU time (all its threads) and wall time, and the games' length. */
export interface BatchResult {
  cpuMs: number;
  wallMs: number;
  choices: number;
  unfinished: number;
}

type Summaries = Array<{ steps: number; over: boolean }>;
type Simulate = (source: unknown, o: { games: number; players: number; seed: number; agents: string[]; maxSteps: number; workers: number }) => Promise<Summaries>;

const root = process.argv[2];
const packDir = join(root, 'content/smallworld-wow');
const entry = (file: string) => pathToFileURL(join(root, file)).href;
const { simulate } = (await import(entry('simulate/run.ts'))) as { simulate: Simulate };
const source: unknown = existsSync(join(root, 'simulate/packContent.ts'))
  ? ((await import(entry('simulate/packContent.ts'))) as { readPackContent: (dir: string) => unknown }).readPackContent(packDir)
  : packDir;

process.on('message', (m: BatchRequest) => {
  void (async () => {
    const cpu = process.cpuUsage();
    const t = performance.now();
    const games = await simulate(source, { games: m.games, players: m.players, seed: m.seed, agents: ['random'], maxSteps: 5000, workers: 1 });
    const wallMs = performance.now() - t;
    const d = process.cpuUsage(cpu);
    const result: BatchResult = { cpuMs: (d.user + d.system) / 1000, wallMs, choices: games.reduce((s, g) => s + g.steps, 0), unfinished: games.filter((g) => !g.over).length };
    process.send!(result);
  })();
});
process.send!('ready');
