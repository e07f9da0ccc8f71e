/**
 * Balance figures from many games: how often each seat wins, and how often the players holding each
 * card at the end win, against what an even game would give (1 in N players). A win shared by a
 * tie counts for each winner as a share. Each share comes with a 95% interval (Wilson), so that a
 * card 3 points above even on 40 games is not mistaken for a strong one.
 *
 * A cooperative game (every player always has the same score, as when the table wins or loses
 * together) has no winner among the players: there the figures are mean scores, the table's, by
 * the cards in play at the end (a pack that scores a win as 1 and a loss as 0 gets win rates).
 */
import type { GameSummary } from './playout.ts';

export interface Share {
  /** Games counted. */
  n: number;
  /** Wins, a tie's win split between the tied. */
  wins: number;
  share: number;
  low: number;
  high: number;
}

export interface BalanceReport {
  games: number;
  /** Every finished game gave all players the same score. */
  cooperative: boolean;
  finished: number;
  /** Games that did not reach their end, with why (the first few). */
  stuck: Array<{ seed: number; why: string }>;
  meanSteps: number;
  /** 1 / players: an even game's win share. */
  even: number;
  seats: Array<{ seat: number; player: string; meanScore: number } & Share>;
  cards: Array<{ card: string; meanScore: number } & Share>;
}

/** A 95% Wilson interval for `wins` out of `n`. */
export function wilson(wins: number, n: number): { low: number; high: number } {
  if (n === 0) return { low: 0, high: 1 };
  const z = 1.96;
  const p = wins / n;
  const d = 1 + (z * z) / n;
  const mid = (p + (z * z) / (2 * n)) / d;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return { low: Math.max(0, mid - half), high: Math.min(1, mid + half) };
}

function share(wins: number, n: number): Share {
  return { n, wins, share: n ? wins / n : 0, ...wilson(wins, n) };
}

export function balance(games: GameSummary[]): BalanceReport {
  const finished = games.filter((g) => g.over);
  const players = games[0]?.players ?? 0;
  const cooperative = finished.length > 0 && finished.every((g) => g.standings.every((r) => r.score === g.standings[0].score));
  const winOf = (g: GameSummary, p: string) => (g.winners.includes(p) ? 1 / g.winners.length : 0);
  const seats = Array.from({ length: players }, (_, i) => {
    const player = `p${i + 1}`;
    const wins = finished.reduce((s, g) => s + winOf(g, player), 0);
    const scores = finished.map((g) => g.standings.find((r) => r.player === player)?.score ?? 0);
    return { seat: i + 1, player, meanScore: scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : 0, ...share(wins, finished.length) };
  });
  // A card counts once per holder per game: two holders of one card (a team) are two chances.
  const tally = new Map<string, { n: number; wins: number; score: number }>();
  for (const g of finished) {
    for (const [card, holders] of Object.entries(g.held)) {
      for (const p of holders) {
        const t = tally.get(card) ?? { n: 0, wins: 0, score: 0 };
        t.n++;
        t.wins += winOf(g, p);
        t.score += g.standings.find((r) => r.player === p)?.score ?? 0;
        tally.set(card, t);
      }
    }
  }
  const cards = [...tally]
    .map(([card, t]) => ({ card, meanScore: t.score / t.n, ...share(t.wins, t.n) }))
    .sort((a, b) => (cooperative ? b.meanScore - a.meanScore : b.share - a.share) || b.n - a.n || a.card.localeCompare(b.card));
  return {
    games: games.length,
    cooperative,
    finished: finished.length,
    stuck: games.filter((g) => !g.over).slice(0, 5).map((g) => ({ seed: g.seed, why: g.stuck ?? '' })),
    meanSteps: games.length ? games.reduce((s, g) => s + g.steps, 0) / games.length : 0,
    even: players ? 1 / players : 0,
    seats,
    cards,
  };
}
