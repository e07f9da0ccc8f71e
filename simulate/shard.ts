/**
 * A study split into shards, and shards joined back. Shard i of n plays a contiguous block of the
 * study's games: game k (from 0, seeded `seed + k`) is in shard i when
 * ⌊(i−1)·games/n⌋ ≤ k < ⌊i·games/n⌋, so shards differ by at most one game and every game is in
 * exactly one shard. Each game depends only on its seed, so the joined shards are the games of a
 * run on one machine, summary for summary, and give the same figures.
 */
import { RESULTS_FORMAT, type Results, type ShardId, type StudySettings } from './results.ts';

/** `i/n` as written on a command line, or why it is not a shard. */
export function parseShard(text: string): ShardId | string {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) return `\`${text}\` is not a shard: write i/n, e.g. 1/4 for the first of four`;
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index < 1 || index > count) return `\`${text}\` is not a shard: i/n needs 1 ≤ i ≤ n`;
  return { index, count };
}

/** The games of one shard: the first one's seed and how many. */
export function shardGames(study: Pick<StudySettings, 'seed' | 'games'>, shard: ShardId): { seed: number; games: number } {
  const from = Math.floor(((shard.index - 1) * study.games) / shard.count);
  const to = Math.floor((shard.index * study.games) / shard.count);
  return { seed: study.seed + from, games: to - from };
}

/** Shards that cannot be joined: the message says which files and why. */
export class MergeError extends Error {}

/**
 * The whole study from all its shards, each given once, in any order. Refused: shards of different
 * studies (pack content, rulebook version or settings), a shard missing or given twice, and a shard
 * whose games are not exactly its share of the seeds.
 */
export function mergeShards(parts: Array<Results & { file: string }>): Results {
  if (!parts.length) throw new MergeError('no results to merge');
  const first = parts[0];
  const count = first.header.shard.count;
  for (const p of parts.slice(1)) {
    const differs = studyDifference(first.header, p.header);
    if (differs) throw new MergeError(`${p.file} and ${first.file} are shards of different studies: ${differs}`);
    if (p.header.shard.count !== count) throw new MergeError(`${p.file} is a shard of ${p.header.shard.count}, ${first.file} of ${count}: split the study one way`);
  }
  const byIndex = new Map<number, Results & { file: string }>();
  for (const p of parts) {
    const twice = byIndex.get(p.header.shard.index);
    if (twice) throw new MergeError(`shard ${p.header.shard.index}/${count} is given twice (${twice.file} and ${p.file}): each game would count twice`);
    byIndex.set(p.header.shard.index, p);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length) throw new MergeError(`shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')} missing: the study has ${count} shards, ${parts.length} given`);
  const games = [];
  for (const p of parts) {
    const { seed, games: n } = shardGames(first.header, p.header.shard);
    const seeds = p.games.map((g) => g.seed);
    const exact = seeds.length === n && seeds.every((s, i) => s === seed + i);
    if (!exact) throw new MergeError(`${p.file} is shard ${p.header.shard.index}/${count}, which is the ${n} games seeded ${seed}–${seed + n - 1}, but it holds ${seeds.length} games${seeds.length ? ` seeded ${seeds[0]}–${seeds.at(-1)}` : ''}${seeds.length === n ? ' (not those seeds, in order)' : ''}`);
    const seated = p.games.find((g) => g.players !== first.header.players);
    if (seated) throw new MergeError(`${p.file}: game ${seated.seed} has ${seated.players} players, the study ${first.header.players}`);
    games.push(...p.games);
  }
  games.sort((a, b) => a.seed - b.seed);
  const seconds = parts.reduce((s, p) => s + p.header.seconds, 0);
  return { header: { ...first.header, format: RESULTS_FORMAT, shard: { index: 1, count: 1 }, seconds }, games };
}

/** How two studies differ, in words, or undefined when they play the same games. */
export function studyDifference(a: StudySettings, b: StudySettings): string | undefined {
  if (a.pack.id !== b.pack.id) return `pack ${b.pack.id}, not ${a.pack.id}`;
  if (a.pack.hash !== b.pack.hash) return `the pack's files differ (content hash ${b.pack.hash.slice(0, 12)}…, not ${a.pack.hash.slice(0, 12)}…)`;
  if (a.rulebook !== b.rulebook) return `played by rulebook ${b.rulebook}, not ${a.rulebook}`;
  const settings = ['players', 'seed', 'games', 'maxSteps'] as const;
  for (const k of settings) if (a[k] !== b[k]) return `${k} ${b[k]}, not ${a[k]}`;
  if (a.bots.join(' ') !== b.bots.join(' ')) return `bots ${b.bots.join(' ')}, not ${a.bots.join(' ')}`;
  return undefined;
}
