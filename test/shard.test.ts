/**
 * A study split into shards (`rulebook simulate --shard i/n --out FILE`) and joined back
 * (`rulebook simulate merge`): the shards' games are the single run's, summary for summary, and
 * the merge prints the single run's study. Shards that do not make one study are refused.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseResults } from '../simulate/results.ts';
import { mergeShards, parseShard, shardGames } from '../simulate/shard.ts';
import { simulate } from '../simulate/run.ts';
import { rulebook } from './helpers/cli.ts';

const c4 = join(import.meta.dirname, 'packs', 'connect-four');
const temp = mkdtempSync(join(tmpdir(), 'rulebook-shard-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const settings = ['--games', '30', '--seed', '5', '--bots', 'greedy', 'random', '--workers', '1'];

/** The study's JSON without the time it took, which is not a figure. */
const figures = (json: string) => {
  const { seconds, ...rest } = JSON.parse(json);
  expect(typeof seconds).toBe('number');
  return rest;
};
/** The text report without its timing. */
const report = (text: string) => text.replace(/; [\d.]+ s( on [^(]*)? \([\d.]+ games\/s\)/, '');

async function shards(n: number, dir = c4, extra: string[] = [], name = 'shard'): Promise<string[]> {
  const files: string[] = [];
  for (let i = 1; i <= n; i++) {
    const file = join(temp, `${name}-${i}-of-${n}.jsonl`);
    const r = await rulebook(['simulate', dir, ...settings, ...extra, '--shard', `${i}/${n}`, '--out', file]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`shard ${i}/${n}`);
    files.push(file);
  }
  return files;
}

describe('a study in shards', () => {
  it('shard i of n is a block of consecutive seeds; the blocks cover the study once', () => {
    const study = { seed: 5, games: 30 };
    const blocks = [1, 2, 3, 4].map((index) => shardGames(study, { index, count: 4 }));
    expect(blocks).toEqual([{ seed: 5, games: 7 }, { seed: 12, games: 8 }, { seed: 20, games: 7 }, { seed: 27, games: 8 }]);
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/4', '5/4', '1/0', 'two/four', '1']) expect(parseShard(bad)).toMatch(/is not a shard/);
  });

  it('4 shards, merged in any order, are the single run: the same summaries, the same study, the same report', async () => {
    const files = await shards(4);
    const whole = await simulate(c4, { games: 30, players: 2, seed: 5, agents: ['greedy', 'random'], maxSteps: 10_000, workers: 1 });
    const parts = files.map((file) => ({ ...parseResults(readFileSync(file, 'utf8'), file), file }));
    expect(parts.map((p) => p.games.map((g) => g.seed))).toEqual([[5, 6, 7, 8, 9, 10, 11], [12, 13, 14, 15, 16, 17, 18, 19], [20, 21, 22, 23, 24, 25, 26], [27, 28, 29, 30, 31, 32, 33, 34]]);
    expect(mergeShards([...parts].reverse()).games).toEqual(whole);

    const single = await rulebook(['simulate', c4, ...settings, '--json']);
    const merged = await rulebook(['simulate', 'merge', ...[...files].reverse(), '--pack', c4, '--json']);
    expect(merged.err).toBe('');
    expect(merged.code).toBe(single.code);
    expect(figures(merged.out)).toEqual(figures(single.out));

    const singleText = await rulebook(['simulate', c4, ...settings]);
    const mergedText = await rulebook(['simulate', 'merge', ...files, '--pack', c4]);
    expect(report(mergedText.out)).toBe(report(singleText.out));
    expect(mergedText.out).toContain('Connect Four: 30 games');
  });

  it('a whole run written with --out is one shard of one, and merges to itself', async () => {
    const file = join(temp, 'whole.jsonl');
    const r = await rulebook(['simulate', c4, ...settings, '--out', file, '--json']);
    expect(r.code).toBe(0);
    const merged = await rulebook(['simulate', 'merge', file, '--pack', c4, '--json']);
    expect(figures(merged.out)).toEqual(figures(r.out));
    expect(parseResults(readFileSync(file, 'utf8'), file).header.shard).toEqual({ index: 1, count: 1 });
  });

  describe('shards that are not one study are refused, saying which and why', () => {
    const refused = async (files: string[], why: RegExp, ...extra: string[]) => {
      const r = await rulebook(['simulate', 'merge', ...files, ...extra]);
      expect(r.out).toBe('');
      expect(r.err).toMatch(why);
      expect(r.code).toBe(1);
    };

    it('a shard missing, or given twice', async () => {
      const files = await shards(4, c4, [], 'dup');
      await refused([files[0], files[1], files[3]], /shard 3\/4 missing/);
      await refused([...files, files[2]], /shard 3\/4 is given twice .*count twice/);
    });

    it('shards of different settings, splits or pack contents', async () => {
      const files = await shards(2, c4, [], 'a');
      const other = await shards(2, c4, ['--max-steps', '500'], 'b');
      await refused([files[0], other[1]], /different studies: maxSteps 500, not 10000/);
      const thirds = await shards(3, c4, [], 'c');
      await refused([files[0], thirds[1], thirds[2]], /shard of 3, .* of 2: split the study one way/);

      const edited = join(temp, 'connect-four');
      cpSync(c4, edited, { recursive: true });
      writeFileSync(join(edited, 'pack.yaml'), readFileSync(join(edited, 'pack.yaml'), 'utf8') + '\n# an edit\n');
      const changed = await shards(2, edited, [], 'edited');
      await refused([files[0], changed[1]], /different studies: the pack's files differ \(content hash/);
      await refused(files, /not the pack these shards played/, '--pack', edited);
    });

    it('a shard whose games are not its share of the seeds, and files that are not results', async () => {
      const files = await shards(2, c4, [], 'cut');
      const cut = join(temp, 'cut.jsonl');
      writeFileSync(cut, readFileSync(files[1], 'utf8').split('\n').filter((_, i) => i !== 3).join('\n'));
      await refused([files[0], cut], /shard 2\/2, which is the 15 games seeded 20–34, but it holds 14 games seeded 20–34/);

      const garbage = join(temp, 'garbage.jsonl');
      writeFileSync(garbage, readFileSync(files[1], 'utf8').replace(/\n\{"seed":2[0-9]/, '\n{oops'));
      await refused([files[0], garbage], /garbage\.jsonl:\d+: not a line of JSON/);
      const unknownBudget = join(temp, 'unknown-budget.jsonl');
      writeFileSync(unknownBudget, readFileSync(files[1], 'utf8').replace('"over":', '"budget":"patience","over":'));
      await refused([files[0], unknownBudget], /unknown-budget\.jsonl:2: not a game's summary: budget must be one of step, list, text, range, choices/);
      const notResults = join(temp, 'not-results.jsonl');
      writeFileSync(notResults, '{"hello": 1}\n');
      await refused([notResults], /not-results\.jsonl:1: not a results header: format undefined/);
      await refused([join(temp, 'nowhere.jsonl')], /cannot read .*nowhere\.jsonl/);
    });

    it('a shard that is not one is a wrong command line', async () => {
      for (const bad of ['5/4', '0/1', 'half']) {
        const r = await rulebook(['simulate', c4, ...settings, '--shard', bad]);
        expect(r.err).toMatch(/is not a shard/);
        expect(r.code).toBe(2);
      }
      const many = await rulebook(['simulate', c4, '--games', '3', '--shard', '1/4']);
      expect(many.err).toMatch(/4 shards of 3 games/);
      expect(many.code).toBe(2);
    });
  });
});
