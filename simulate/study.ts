/**
 * A balance study from many games: how often each seat and each card wins, against what an even
 * game gives (1 in N players), with 95% intervals, so that a card 3 points above even on 40 games is
 * not taken for a strong one; the first player's advantage; how long games last; and the games that
 * did not end, those stopped by a rule past its evaluation budget apart from the others.
 *
 * Cards are grouped by their kind, the pack's own entity kinds (a race, a power, a hero, a faction,
 * a scenario card: whatever kinds have roles), and pairs of cards of two kinds held by one player
 * at the end (a race with its power) are "combos", shown for the most frequent pairs. A win shared by a tie counts for each winner as
 * a share.
 *
 * The fair band: an even share ± `margin` (default 5 percentage points). A card or seat whose whole
 * 95% interval lies above the band is flagged `strong`, below it `weak`: the data say, with 95%
 * confidence, that it is off by more than the margin.
 *
 * A cooperative game (every player always has the same score, as when the table wins or loses
 * together) has no winner among the players: there the figures are mean scores, the table's, by
 * the cards in play at the end, and the fair band is the mean score of all games ± `margin` times
 * the spread of the scores (a pack that scores a win as 1 and a loss as 0 gets win rates and a band
 * of ± 5 points).
 *
 * Pure: a function of the list of game summaries alone, whatever their order (they are sorted by
 * seed first), so that games played on one machine or on many, and merged, give the same figures.
 * No Node imports: the playground's worker runs it.
 */
import type { BudgetName } from '../runtime/refusal.ts';
import type { GameSummary } from './playout.ts';

/** The default half-width of the fair band, as a share (0.05: 5 percentage points). */
export const DEFAULT_MARGIN = 0.05;
/** How many of the most frequent pairs of cards the study shows. */
export const TOP_COMBOS = 15;
const Z = 1.96;

export interface StudyOptions {
  /** Half-width of the fair band around an even share (or the mean score, times the scores' spread). */
  margin?: number;
}

export type Flag = 'strong' | 'weak';

export interface Figure {
  /** Games counted (a card held by two players of one game counts twice). */
  n: number;
  /** Wins, a tie's win split between the tied. */
  wins: number;
  share: number;
  /** The 95% Wilson interval of the share. */
  low: number;
  high: number;
  meanScore: number;
  /** The 95% interval of the mean score (normal approximation; the scores' whole range below 2 games). */
  scoreLow: number;
  scoreHigh: number;
  /** The interval lies outside the fair band. */
  flag?: Flag;
}

export interface CardFigure extends Figure {
  card: string;
  kind: string;
}

export interface ComboFigure extends Figure {
  cards: [string, string];
}

export interface Spread {
  mean: number;
  median: number;
  p90: number;
  min: number;
  max: number;
}

/** Bins `[edges[i], edges[i + 1])`, the last one closed; `counts[series][bin]`. */
export interface Histogram {
  edges: number[];
  counts: number[][];
}

export interface Unfinished {
  seed: number;
  why: string;
}

export interface Study {
  games: number;
  finished: number;
  players: number;
  /** The lowest and highest seed played. */
  seeds: { first: number; last: number };
  /** Every finished game gave all players the same score: figures are the table's mean scores. */
  cooperative: boolean;
  /** What the flags compare: the win share, or the mean score in a cooperative game. */
  measure: 'share' | 'score';
  /** 1 / players: an even game's win share. */
  even: number;
  margin: number;
  /** The fair band of the measure. */
  band: { low: number; high: number };
  /** Games stopped by a rule past its evaluation budget, with the budget. */
  budgetEnded: Array<Unfinished & { budget: BudgetName }>;
  /** Other games that did not end (no end within the step limit, no legal choice…). */
  stuck: Unfinished[];
  seats: Array<{ seat: number; player: string } & Figure>;
  /** Seat 1 against an even share (competitive games only): `advantage` is share − even. */
  firstPlayer?: { share: number; low: number; high: number; even: number; advantage: number; flag?: Flag };
  /** Cards grouped by kind (kinds by name), each group best first. */
  kinds: Array<{ kind: string; cards: CardFigure[] }>;
  /** The most frequent pairs of cards of two kinds held together by one player at the end. */
  combos: ComboFigure[];
  length: { choices: Spread; turns?: Spread; histogram: Histogram };
  /** Scores of the finished games, one series per seat. */
  scores: Histogram;
}

/** A 95% Wilson interval for `wins` out of `n`. */
export function wilson(wins: number, n: number): { low: number; high: number } {
  if (n === 0) return { low: 0, high: 1 };
  const p = wins / n;
  const d = 1 + (Z * Z) / n;
  const mid = (p + (Z * Z) / (2 * n)) / d;
  const half = (Z * Math.sqrt((p * (1 - p)) / n + (Z * Z) / (4 * n * n))) / d;
  return { low: Math.max(0, mid - half), high: Math.min(1, mid + half) };
}

/** Wins and scores of one card, seat or pair, gathered game by game. */
class Tally {
  n = 0;
  wins = 0;
  private sum = 0;
  private squares = 0;

  add(win: number, score: number) {
    this.n++;
    this.wins += win;
    this.sum += score;
    this.squares += score * score;
  }

  figure(scoreRange: { min: number; max: number }, flagOf: (f: Figure) => Flag | undefined): Figure {
    const { n, wins } = this;
    const meanScore = n ? this.sum / n : 0;
    let scoreLow = scoreRange.min;
    let scoreHigh = scoreRange.max;
    if (n >= 2) {
      const sd = Math.sqrt(Math.max(0, (this.squares - n * meanScore * meanScore) / (n - 1)));
      scoreLow = meanScore - (Z * sd) / Math.sqrt(n);
      scoreHigh = meanScore + (Z * sd) / Math.sqrt(n);
    }
    const f: Figure = { n, wins, share: n ? wins / n : 0, ...wilson(wins, n), meanScore, scoreLow, scoreHigh };
    const flag = flagOf(f);
    return flag ? { ...f, flag } : f;
  }
}

export function study(summaries: readonly GameSummary[], options: StudyOptions = {}): Study {
  const margin = options.margin ?? DEFAULT_MARGIN;
  const games = [...summaries].sort((a, b) => a.seed - b.seed);
  const finished = games.filter((g) => g.over);
  const players = games.reduce((m, g) => Math.max(m, g.players), 0);
  const even = players ? 1 / players : 0;
  const cooperative = finished.length > 0 && finished.every((g) => g.standings.every((r) => r.score === g.standings[0].score));
  const scoreOf = (g: GameSummary, p: string) => g.standings.find((r) => r.player === p)?.score ?? 0;
  const winOf = (g: GameSummary, p: string) => (g.winners.includes(p) ? 1 / g.winners.length : 0);

  const allScores = finished.flatMap((g) => g.standings.map((r) => r.score));
  const scoreRange = { min: allScores.length ? Math.min(...allScores) : 0, max: allScores.length ? Math.max(...allScores) : 0 };
  const tableMean = finished.length ? finished.reduce((s, g) => s + g.standings[0].score, 0) / finished.length : 0;
  const band = cooperative
    ? { low: tableMean - margin * (scoreRange.max - scoreRange.min), high: tableMean + margin * (scoreRange.max - scoreRange.min) }
    : { low: even - margin, high: even + margin };
  const flagOf = (f: Figure): Flag | undefined => {
    const [low, high] = cooperative ? [f.scoreLow, f.scoreHigh] : [f.low, f.high];
    if (f.n === 0) return undefined;
    return low > band.high ? 'strong' : high < band.low ? 'weak' : undefined;
  };

  const seatTallies = Array.from({ length: players }, () => new Tally());
  const cardTallies = new Map<string, Tally>();
  const kindOfCard = new Map<string, string>();
  const comboTallies = new Map<string, { cards: [string, string]; tally: Tally }>();
  for (const g of finished) {
    for (let i = 0; i < players; i++) seatTallies[i].add(winOf(g, `p${i + 1}`), scoreOf(g, `p${i + 1}`));
    const byPlayer = new Map<string, string[]>();
    for (const [card, holders] of Object.entries(g.held)) {
      if (holders.length && !kindOfCard.has(card)) kindOfCard.set(card, Object.hasOwn(g.kinds ?? {}, card) ? g.kinds[card] : '');
      for (const p of holders) {
        tallyOf(cardTallies, card).add(winOf(g, p), scoreOf(g, p));
        byPlayer.set(p, [...(byPlayer.get(p) ?? []), card]);
      }
    }
    for (const [p, cards] of byPlayer) {
      // By kind first, so that a pair always reads in the same order (a race, then its power).
      const sorted = [...cards].sort((a, b) => byText(kindOfCard.get(a)!, kindOfCard.get(b)!) || byText(a, b));
      for (let i = 0; i < sorted.length; i++) {
        for (let j = i + 1; j < sorted.length; j++) {
          if (kindOfCard.get(sorted[i]) === kindOfCard.get(sorted[j])) continue;
          const key = `${sorted[i]}\u0000${sorted[j]}`;
          const c = comboTallies.get(key) ?? { cards: [sorted[i], sorted[j]] as [string, string], tally: new Tally() };
          c.tally.add(winOf(g, p), scoreOf(g, p));
          comboTallies.set(key, c);
        }
      }
    }
  }

  const best = (a: Figure, b: Figure) => (cooperative ? b.meanScore - a.meanScore : b.share - a.share) || b.n - a.n;
  const seats = seatTallies.map((t, i) => ({ seat: i + 1, player: `p${i + 1}`, ...t.figure(scoreRange, flagOf) }));
  const cards: CardFigure[] = [...cardTallies].map(([card, t]) => ({ card, kind: kindOfCard.get(card) ?? '', ...t.figure(scoreRange, flagOf) }));
  const kinds = [...new Set(cards.map((c) => c.kind))].sort(byText).map((kind) => ({
    kind,
    cards: cards.filter((c) => c.kind === kind).sort((a, b) => best(a, b) || byText(a.card, b.card)),
  }));
  const combos: ComboFigure[] = [...comboTallies.values()]
    .sort((a, b) => b.tally.n - a.tally.n || byText(a.cards.join(' '), b.cards.join(' ')))
    .slice(0, TOP_COMBOS)
    .map((c) => ({ cards: c.cards, ...c.tally.figure(scoreRange, flagOf) }))
    .sort((a, b) => best(a, b) || byText(a.cards.join(' '), b.cards.join(' ')));

  const first = seats[0];
  const firstPlayer =
    cooperative || !first || !finished.length
      ? undefined
      : { share: first.share, low: first.low, high: first.high, even, advantage: first.share - even, ...(first.flag ? { flag: first.flag } : {}) };

  const unfinished = games.filter((g) => !g.over);
  const budgetEnded = unfinished.filter((g) => g.budget).map((g) => ({ seed: g.seed, budget: g.budget!, why: g.stuck ?? '' }));
  const stuck = unfinished.filter((g) => !g.budget).map((g) => ({ seed: g.seed, why: g.stuck ?? '' }));
  const choices = finished.map((g) => g.steps);
  const turns = finished.map((g) => g.turns ?? 0);
  return {
    games: games.length,
    finished: finished.length,
    players,
    seeds: { first: games[0]?.seed ?? 0, last: games.at(-1)?.seed ?? 0 },
    cooperative,
    measure: cooperative ? 'score' : 'share',
    even,
    margin,
    band,
    budgetEnded,
    stuck,
    seats,
    ...(firstPlayer ? { firstPlayer } : {}),
    kinds,
    combos,
    length: { choices: spread(choices), ...(turns.some((t) => t > 0) ? { turns: spread(turns) } : {}), histogram: histogram([choices]) },
    scores: histogram(Array.from({ length: players }, (_, i) => finished.map((g) => scoreOf(g, `p${i + 1}`)))),
  };
}

function tallyOf(m: Map<string, Tally>, key: string): Tally {
  let t = m.get(key);
  if (!t) m.set(key, (t = new Tally()));
  return t;
}

/** Code-unit order: the same on every machine, whatever its locale. */
function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Mean, median and 90th percentile (nearest rank) of some numbers. */
export function spread(xs: readonly number[]): Spread {
  if (!xs.length) return { mean: 0, median: 0, p90: 0, min: 0, max: 0 };
  const s = [...xs].sort((a, b) => a - b);
  const rank = (q: number) => s[Math.max(0, Math.ceil(q * s.length) - 1)];
  const mid = s.length / 2;
  return { mean: s.reduce((a, b) => a + b, 0) / s.length, median: s.length % 2 ? s[Math.floor(mid)] : (s[mid - 1] + s[mid]) / 2, p90: rank(0.9), min: s[0], max: s.at(-1)! };
}

/** At most this many bins: whole numbers get bins of whole widths. */
const BINS = 20;

/** One set of bins over all the series, so that they can be drawn side by side. */
export function histogram(series: readonly (readonly number[])[]): Histogram {
  const all = series.flat();
  if (!all.length) return { edges: [], counts: series.map(() => []) };
  const min = Math.min(...all);
  const max = Math.max(...all);
  const whole = all.every(Number.isInteger);
  const width = whole ? Math.max(1, Math.ceil((max - min + 1) / BINS)) : (max - min) / BINS || 1;
  const bins = whole ? Math.ceil((max - min + 1) / width) : max > min ? BINS : 1;
  const edges = Array.from({ length: bins + 1 }, (_, i) => min + i * width);
  const counts = series.map((xs) => {
    const c = new Array<number>(bins).fill(0);
    for (const x of xs) c[Math.min(bins - 1, Math.floor((x - min) / width))]++;
    return c;
  });
  return { edges, counts };
}
