/**
 * A balance study as text, for a terminal: how the games went, the fair band, the first player's
 * advantage, wins by seat, by card (kind by kind) and by the most frequent pairs, and the games that
 * did not end, with the seeds that replay them. `rulebook simulate` prints it, and so does a merge
 * of shards, from the same study. Names come from the pack when the caller has it, else ids.
 * No Node imports.
 */
import type { CompiledPack } from '../runtime/index.ts';
import type { ChartNames } from './charts.ts';
import type { Figure, Spread, Study } from './study.ts';

export interface ReportContext {
  /** The pack's name. */
  title: string;
  bots: string[];
  /** Wall-clock seconds and worker threads, when the games were played here. */
  seconds?: number;
  workers?: number;
  names?: ChartNames;
}

/** Display names of a pack's cards and kinds, in a language (English by default). */
export function packNames(pack: CompiledPack, lang = 'en'): Required<ChartNames> {
  return {
    card: (id) => pack.entities[id]?.name[lang] ?? pack.entities[id]?.name.en ?? id,
    kind: (kind) => pack.kinds[kind]?.plural ?? kind,
  };
}

/** Unfinished games listed by the text report; the JSON has them all. */
const LISTED = 10;

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const points = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)} points`;
const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const num = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));
const spreadText = (s: Spread) => `mean ${s.mean.toFixed(1)}, median ${num(s.median)}, 90th percentile ${num(s.p90)} (${num(s.min)}–${num(s.max)})`;
const mark = (f: Figure) => (f.flag === 'strong' ? '▲' : f.flag === 'weak' ? '▼' : ' ');

export function textReport(s: Study, ctx: ReportContext): string {
  const card = ctx.names?.card ?? ((id: string) => id);
  const kind = ctx.names?.kind ?? ((k: string) => k || 'cards');
  const lines: string[] = [];
  const unfinished = s.games - s.finished;
  lines.push(`${ctx.title}: ${count(s.games, 'game')} of ${s.players} players by ${ctx.bots.join('/')} bots, seeds ${s.seeds.first}–${s.seeds.last}`);
  const speed = ctx.seconds === undefined ? '' : `; ${ctx.seconds.toFixed(1)} s${ctx.workers ? ` on ${count(ctx.workers, 'thread')}` : ''} (${(s.games / Math.max(ctx.seconds, 1e-9)).toFixed(1)} games/s)`;
  lines.push(`${s.finished} finished, ${s.budgetEnded.length} ended by the evaluation budget, ${unfinished - s.budgetEnded.length} stuck${speed}`);
  lines.push(`Game length: choices ${spreadText(s.length.choices)}${s.length.turns ? `; turns ${spreadText(s.length.turns)}` : ''}`);
  const unfinishedList = (title: string, games: Array<{ seed: number; why: string; budget?: string }>) => {
    if (!games.length) return;
    lines.push('', `${title} (${count(games.length, 'game')}):`);
    for (const g of games.slice(0, LISTED)) lines.push(`  seed ${g.seed}${g.budget ? ` (${g.budget} budget)` : ''}: ${g.why}`);
    if (games.length > LISTED) lines.push(`  … and ${games.length - LISTED} more (--json lists them all)`);
  };
  unfinishedList('Ended by the evaluation budget: a rule went past it', s.budgetEnded);
  unfinishedList('Stuck', s.stuck);

  const names = (xs: Array<{ label: string } & Figure>, value: (f: Figure) => string) => {
    const width = Math.max(0, ...xs.map((x) => x.label.length));
    for (const x of xs) lines.push(`  ${x.label.padEnd(width)}  ${value(x)}  ${mark(x)} in ${count(x.n, 'game')}`);
  };
  if (s.cooperative) {
    // One score for the table: no seat wins over another, cards are told apart by the table's score.
    lines.push('', `One score for the table (a solo or cooperative game): every player scored the same in every game; mean score ${(s.seats[0]?.meanScore ?? 0).toFixed(2)}.`);
    lines.push(`Fair band: the mean score ± ${pct(s.margin)} of the scores' spread, ${s.band.low.toFixed(2)}–${s.band.high.toFixed(2)}; ▲ above it, ▼ below it with 95% confidence.`);
    const value = (f: Figure) => `${f.meanScore.toFixed(2).padStart(6)} [${f.scoreLow.toFixed(2)}–${f.scoreHigh.toFixed(2)}]`;
    for (const k of s.kinds) {
      lines.push('', `Mean score by ${kind(k.kind)} held at the end (best first):`);
      names(k.cards.map((c) => ({ ...c, label: card(c.card) })), value);
    }
    if (s.combos.length) {
      lines.push('', 'Mean score of the most frequent pairs held together by one player (best first):');
      names(s.combos.map((c) => ({ ...c, label: c.cards.map(card).join(' + ') })), value);
    }
    return lines.join('\n') + '\n';
  }
  lines.push('', `Fair band: an even share ${pct(s.even)} ± ${(s.margin * 100).toFixed(1)} points, ${pct(s.band.low)}–${pct(s.band.high)}; ▲ above it, ▼ below it with 95% confidence.`);
  if (s.firstPlayer) {
    const f = s.firstPlayer;
    lines.push(`First player: ${pct(f.share)} [${pct(f.low)}–${pct(f.high)}] against an even ${pct(f.even)} (${points(f.advantage)})${f.flag ? (f.flag === 'strong' ? ': an advantage beyond the band' : ': a handicap beyond the band') : ''}`);
  }
  const value = (f: Figure) => `${pct(f.share).padStart(6)} [${pct(f.low)}–${pct(f.high)}] mean score ${f.meanScore.toFixed(1)}`;
  lines.push('', 'Wins by seat:');
  names(s.seats.map((x) => ({ ...x, label: x.player })), value);
  for (const k of s.kinds) {
    lines.push('', `Wins of the players holding each of the ${kind(k.kind)} at the end (best first):`);
    names(k.cards.map((c) => ({ ...c, label: card(c.card) })), value);
  }
  if (s.combos.length) {
    lines.push('', 'Wins of the most frequent pairs held together by one player at the end (best first):');
    names(s.combos.map((c) => ({ ...c, label: c.cards.map(card).join(' + ') })), value);
  }
  return lines.join('\n') + '\n';
}
