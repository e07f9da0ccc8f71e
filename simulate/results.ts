/**
 * The results file of a study's shard: JSON lines, a header first (which study, which shard), then
 * one `GameSummary` a line in seed order. The header says everything a game's summary depends on,
 * so that a merge can refuse shards of different studies instead of mixing them.
 *
 *   {"format":"rulebook-games/1","rulebook":"0.1.0","pack":{"id":…,"name":…,"hash":…},"players":2,
 *    "bots":["random"],"seed":1,"games":2000,"maxSteps":10000,"shard":{"index":1,"count":4},"seconds":…}
 *   {"seed":1,"players":2,"steps":21,…}
 */
import { BUDGET_NAMES } from '../runtime/refusal.ts';
import type { GameSummary } from './playout.ts';

export const RESULTS_FORMAT = 'rulebook-games/1';

/** What a study plays: the same settings give the same games, wherever they are played. */
export interface StudySettings {
  pack: { id: string; name: string; hash: string };
  /** The rulebook version that played the games. */
  rulebook: string;
  players: number;
  bots: string[];
  /** The first game's seed; the study's games are seeded `seed`, `seed + 1`, … */
  seed: number;
  /** Games in the whole study, all shards together. */
  games: number;
  maxSteps: number;
}

/** Shard `index` (from 1) of `count`. */
export interface ShardId {
  index: number;
  count: number;
}

export interface ResultsHeader extends StudySettings {
  format: typeof RESULTS_FORMAT;
  shard: ShardId;
  /** Time spent playing this shard's games. */
  seconds: number;
}

export interface Results {
  header: ResultsHeader;
  games: GameSummary[];
}

export function resultsText(r: Results): string {
  return [r.header, ...r.games].map((x) => JSON.stringify(x)).join('\n') + '\n';
}

/** A bad results file: its name and line are in the message. */
export class ResultsError extends Error {}

/** Reads a results file written by `resultsText`; anything else is refused with where and why. */
export function parseResults(text: string, file: string): Results {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const at = (i: number, why: string) => new ResultsError(`${file}:${i + 1}: ${why}`);
  const json = (i: number): unknown => {
    try {
      return JSON.parse(lines[i]);
    } catch (e) {
      throw at(i, `not a line of JSON (${(e as Error).message})`);
    }
  };
  if (!lines.length) throw new ResultsError(`${file}: empty, not a results file (written by \`rulebook simulate --shard i/n --out FILE\`)`);
  const header = json(0);
  const bad = headerProblem(header);
  if (bad) throw at(0, `not a results header: ${bad}`);
  const games: GameSummary[] = [];
  for (let i = 1; i < lines.length; i++) {
    const game = json(i);
    const wrong = summaryProblem(game);
    if (wrong) throw at(i, `not a game's summary: ${wrong}`);
    games.push(game as GameSummary);
  }
  return { header: header as ResultsHeader, games };
}

type Shape = Record<string, unknown>;
const isObject = (x: unknown): x is Shape => typeof x === 'object' && x !== null && !Array.isArray(x);
const isCount = (x: unknown) => Number.isSafeInteger(x) && (x as number) >= 0;
const isStrings = (x: unknown) => Array.isArray(x) && x.every((s) => typeof s === 'string');

function headerProblem(h: unknown): string | undefined {
  if (!isObject(h)) return 'expected an object';
  if (h.format !== RESULTS_FORMAT) return `format ${JSON.stringify(h.format)}, expected "${RESULTS_FORMAT}"`;
  const p = h.pack;
  if (!isObject(p) || typeof p.id !== 'string' || typeof p.name !== 'string' || typeof p.hash !== 'string') return 'pack must have an id, a name and a hash';
  if (typeof h.rulebook !== 'string') return 'rulebook must be a version';
  if (!isCount(h.players) || !isCount(h.games) || !isCount(h.maxSteps)) return 'players, games and maxSteps must be whole numbers';
  if (!Number.isSafeInteger(h.seed)) return 'seed must be a whole number';
  if (!isStrings(h.bots)) return 'bots must be a list of names';
  const s = h.shard;
  if (!isObject(s) || !isCount(s.count) || !isCount(s.index) || (s.index as number) < 1 || (s.index as number) > (s.count as number)) return 'shard must be {index, count} with 1 ≤ index ≤ count';
  if (typeof h.seconds !== 'number' || !(h.seconds >= 0)) return 'seconds must be a number';
  return undefined;
}

function summaryProblem(g: unknown): string | undefined {
  if (!isObject(g)) return 'expected an object';
  if (!Number.isSafeInteger(g.seed) || !isCount(g.players) || !isCount(g.steps) || typeof g.over !== 'boolean') return 'seed, players, steps and over are missing or of the wrong type';
  if (!Array.isArray(g.standings) || !g.standings.every((r) => isObject(r) && typeof r.player === 'string' && typeof r.score === 'number' && typeof r.tiebreak === 'number')) return 'standings must be a list of {player, score, tiebreak}';
  if (!isStrings(g.winners)) return 'winners must be a list of players';
  if (!isObject(g.held) || !Object.values(g.held).every(isStrings)) return 'held must map cards to lists of players';
  if (g.budget !== undefined && !BUDGET_NAMES.some((b) => b === g.budget)) return `budget must be one of ${BUDGET_NAMES.join(', ')}`;
  return undefined;
}
