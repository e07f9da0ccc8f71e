import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { SingleBar, Presets } from 'cli-progress';
import { htmlReport } from '../simulate/html.ts';
import { packNames, textReport, type ReportContext } from '../simulate/report.ts';
import { simulate } from '../simulate/run.ts';
import { study } from '../simulate/study.ts';
import type { Io } from './io.ts';
import { botKinds, runnablePack } from './runnable.ts';

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
}

/**
 * `rulebook simulate PACK`: many games by bots, and the balance study they give (simulate/study.ts):
 * each seat's, card's and pair's win share against an even game with 95% intervals, the first
 * player's advantage, game length, and the games that did not end.
 */
export async function simulateCommand(dir: string, o: SimulateOptions, io: Io): Promise<number> {
  const agents = botKinds(o.bots)!;
  const runnable = runnablePack(dir, o.players, io);
  if (!runnable) return 1;
  const { pack, players } = runnable;
  const workers = Math.max(1, Math.min(o.workers ?? availableParallelism(), o.games));
  const bar = io.terminal && !o.json ? new SingleBar({ stream: io.terminal, format: 'games {bar} {value}/{total} · {eta}s left', hideCursor: true }, Presets.shades_classic) : undefined;
  bar?.start(o.games, 0);
  const started = performance.now();
  let games;
  try {
    games = await simulate(dir, { games: o.games, players, seed: o.seed, agents, maxSteps: o.maxSteps, workers, onProgress: (n) => bar?.update(n) });
  } finally {
    bar?.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  const figures = study(games, { margin: o.margin === undefined ? undefined : o.margin / 100 });
  const ctx: ReportContext = { title: pack.name.en ?? pack.id, bots: o.bots, seconds, workers, names: packNames(pack) };
  if (o.html) {
    try {
      writeFileSync(o.html, htmlReport(figures, ctx));
    } catch (e) {
      io.err(`cannot write ${o.html}: ${(e as Error).message}\n`);
      return 1;
    }
  }
  if (o.json) io.out(JSON.stringify({ pack: pack.id, bots: o.bots, seed: o.seed, seconds, ...figures }, null, 2) + '\n');
  else io.out(textReport(figures, ctx) + (o.html ? `\nThe study with its charts: ${o.html}\n` : ''));
  return figures.finished < figures.games ? 1 : 0;
}
