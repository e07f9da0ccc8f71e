import { availableParallelism } from 'node:os';
import { SingleBar, Presets } from 'cli-progress';
import { balance, type BalanceReport } from '../simulate/balance.ts';
import { simulate } from '../simulate/run.ts';
import { plural } from './check.ts';
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
}

/**
 * `rulebook simulate PACK`: many games by bots, and the balance figures they give: each seat's
 * and each card's win share against an even game, with 95% intervals.
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
  const report = balance(games);
  if (o.json) io.out(JSON.stringify({ pack: pack.id, players, bots: o.bots, seed: o.seed, seconds, ...report }, null, 2) + '\n');
  else io.out(formatReport(pack.name.en ?? pack.id, players, o, report, seconds, workers));
  return report.stuck.length ? 1 : 0;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function formatReport(name: string, players: number, o: SimulateOptions, r: BalanceReport, seconds: number, workers: number): string {
  const lines: string[] = [];
  lines.push(`${name}: ${r.games} games of ${players} players by ${o.bots.join('/')} bots, seeds ${o.seed}–${o.seed + r.games - 1}`);
  lines.push(`${r.finished} finished, ${r.games - r.finished} stuck; ${r.meanSteps.toFixed(0)} choices a game; ${seconds.toFixed(1)} s on ${plural(workers, 'thread')} (${(r.games / seconds).toFixed(1)} games/s)`);
  for (const s of r.stuck) lines.push(`  stuck: seed ${s.seed}: ${s.why}`);
  if (r.cooperative) {
    // One score for the table: no seat wins over another, cards are told apart by the table's score.
    lines.push('', `One score for the table (a solo or cooperative game): every player scored the same in every game; mean score ${(r.seats[0]?.meanScore ?? 0).toFixed(2)}.`);
    if (r.cards.length) {
      lines.push('', 'Mean score of the games in which each card was held at the end (best first):');
      const width = Math.max(...r.cards.map((c) => c.card.length));
      for (const c of r.cards) lines.push(`  ${c.card.padEnd(width)}  ${c.meanScore.toFixed(2).padStart(6)}  in ${plural(c.n, 'game')}`);
    }
    return lines.join('\n') + '\n';
  }
  lines.push('', `Wins by seat (an even game: ${pct(r.even)}):`);
  for (const s of r.seats) lines.push(`  ${s.player}  ${pct(s.share).padStart(6)}  [${pct(s.low)}–${pct(s.high)}]  mean score ${s.meanScore.toFixed(1)}`);
  if (r.cards.length) {
    lines.push('', 'Wins of the players holding each card at the end (best first; * outside an even game\'s share):');
    const width = Math.max(...r.cards.map((c) => c.card.length));
    for (const c of r.cards) {
      const off = c.low > r.even || c.high < r.even ? '*' : ' ';
      lines.push(`  ${c.card.padEnd(width)}  ${pct(c.share).padStart(6)}  [${pct(c.low)}–${pct(c.high)}] ${off} in ${plural(c.n, 'game')}`);
    }
  }
  return lines.join('\n') + '\n';
}
