import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rulebook } from './helpers/cli.ts';

const tiny = 'test/packs/tiny';
const temp = mkdtempSync(join(tmpdir(), 'rulebook-cli-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** A copy of the tiny pack with one edit to its game.yaml. */
function brokenCopy(name: string, from: string, to: string): string {
  const dir = join(temp, name);
  cpSync(tiny, dir, { recursive: true });
  const file = join(dir, 'game.yaml');
  const text = readFileSync(file, 'utf8');
  expect(text).toContain(from);
  writeFileSync(file, text.replace(from, to));
  return dir;
}

describe('rulebook check', () => {
  it('a clean pack: exit 0 and a summary', async () => {
    const r = await rulebook(['check', tiny]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('tiny (test/packs/tiny): ok');
    expect(r.out.trim().split('\n').at(-1)).toBe('checked 1 pack: 0 errors, 0 warnings');
  });

  it('a broken copy: exit 1, with file:line:col and the caret under the mistake', async () => {
    const dir = brokenCopy('broken', '    s.owner = me', '    s.ownr = me');
    const r = await rulebook(['check', dir]);
    expect(r.code).toBe(1);
    const lines = readFileSync(join(dir, 'game.yaml'), 'utf8').split('\n');
    const line = lines.findIndex((l) => l.includes('s.ownr')) + 1;
    const col = lines[line - 1].indexOf('ownr') + 1;
    expect(r.out).toContain(`${join(dir, 'game.yaml')}:${line}:`);
    expect(r.out).toMatch(/error RB\d{4}: .*ownr/);
    expect(r.out).toContain(`${line} |     s.ownr = me`);
    const caret = r.out.split('\n').find((l) => /^\s+\|\s+\^+$/.test(l))!;
    expect(caret.indexOf('^')).toBeGreaterThanOrEqual(caret.indexOf('|') + 2 + col - 3);
    expect(r.out.trim().split('\n').at(-1)).toMatch(/^checked 1 pack: [1-9]\d* errors?, \d+ warnings?$/);
  });

  it('--json gives the diagnostics with positions', async () => {
    const dir = brokenCopy('broken-json', '    s.owner = me', '    s.ownr = me');
    const r = await rulebook(['check', '--json', dir]);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.out);
    expect(report.ok).toBe(false);
    expect(report.packs[0].diagnostics[0]).toMatchObject({ severity: 'error', file: join(dir, 'game.yaml'), line: expect.any(Number), column: expect.any(Number) });
  });

  it('a path that is not a folder is a usage error (2)', async () => {
    const r = await rulebook(['check', 'no/such/pack']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('`no/such/pack` is not a folder');
  });
});

describe('rulebook play', () => {
  it('the same seed prints the same game twice; the log names the rules', async () => {
    const a = await rulebook(['play', tiny, '--players', '2', '--seed', '3', '--bots']);
    const b = await rulebook(['play', tiny, '--players', '2', '--seed', '3', '--bots']);
    expect(a.code).toBe(0);
    expect(a.out).toBe(b.out);
    expect(a.out).toContain('Tiny race: 2 players, seed 3, bots');
    expect(a.out).toMatch(/Player 1: (Claim \w|Pass)\s+\[game\.yaml:\d+\]/);
    expect(a.out).toContain('game over after');
    expect(a.out).toMatch(/standings:\n {2}1\. Player \d \(p\d\) {2}score \d+/);
  });

  it('seeds choose different games', async () => {
    const outs = new Set<string>();
    for (const seed of ['1', '2', '3', '4', '5', '6']) outs.add((await rulebook(['play', tiny, '--seed', seed, '--bots', '--json'])).out.replace(/"seed": \d+/, ''));
    expect(outs.size).toBeGreaterThan(1);
  });

  it('--json and --quiet', async () => {
    const json = JSON.parse((await rulebook(['play', tiny, '--seed', '2', '--bots', '--json'])).out);
    expect(json).toMatchObject({ pack: 'tiny', players: 2, seed: 2, over: true });
    expect(json.standings.map((r: { player: string }) => r.player).sort()).toEqual(['p1', 'p2']);
    const quiet = await rulebook(['play', tiny, '--seed', '2', '--bots', '--quiet']);
    expect(quiet.out).not.toContain('Turn 1');
    expect(quiet.out).toContain('standings:');
  });

  it('--bots takes bot kinds, one for every seat or one per seat', async () => {
    const random = JSON.parse((await rulebook(['play', tiny, '--seed', '4', '--bots', '--json'])).out);
    expect(JSON.parse((await rulebook(['play', tiny, '--seed', '4', '--bots', 'random', '--json'])).out)).toEqual(random);
    const mixed = await rulebook(['play', tiny, '--seed', '4', '--bots', 'greedy', 'random']);
    expect(mixed.code).toBe(0);
    expect(mixed.out).toContain('Tiny race: 2 players, seed 4, bots (greedy, random)');
    expect(mixed.out).toContain('game over after');
    const wrong = await rulebook(['play', tiny, '--bots', 'clever']);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain('`clever` is not a bot: unknown name; choose `random`, `greedy`, `prefer` or `mcts:<iterations>`');
  });

  it('--max-steps stops a game early', async () => {
    const r = await rulebook(['play', tiny, '--seed', '2', '--bots', '--max-steps', '1']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('stopped after 1 step (--max-steps); the game is not over');
  });

  it('without --bots, a person picks numbered choices on standard input', async () => {
    const r = await rulebook(['play', tiny], ['1', 'x', '2', '1']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('   1. Claim a   (claim a)');
    expect(r.out).toContain('type a number from 1 to 3');
    expect(r.out).toContain('Player 1: Claim a');
    expect(r.out).toContain('Player 2: Claim c');
    expect(r.out).toContain('game abandoned after 3 steps');
  });

  it('usage errors exit 2', async () => {
    expect((await rulebook(['play', tiny, '--players', 'many'])).code).toBe(2);
    expect((await rulebook(['play', tiny, '--players', '9', '--bots'])).code).toBe(2);
    expect((await rulebook(['play', 'test/fixtures', '--bots'])).code).toBe(2);
  });
});

describe('rulebook test', () => {
  it('a pack folder: its scenarios pass, exit 0', async () => {
    const r = await rulebook(['test', tiny]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('PASS Claiming a hill scores two points');
    expect(r.out.trim().split('\n').at(-1)).toMatch(/^[1-9]\d* passed, 0 failed$/);
  });

  it('a failing scenario file: exit 1, file:line:col, expected and found', async () => {
    const r = await rulebook(['test', 'test/fixtures/scenarios/wrong-value.yaml']);
    expect(r.code).toBe(1);
    expect(r.out).toContain('test/fixtures/scenarios/wrong-value.yaml:9:7: `b.owner` is wrong after step 1 (`p1: claim b`)');
    expect(r.out).toContain('expected: p2');
    expect(r.out).toContain('found:    p1');
    expect(r.out.trim().split('\n').at(-1)).toBe('0 passed, 1 failed');
  });

  it('a scenario file in a pack folder, and --grep', async () => {
    const r = await rulebook(['test', `${tiny}/scenarios/claiming.yaml`, '--grep', 'hill']);
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n').at(-1)).toBe('1 passed, 0 failed');
  });

  it('a folder of packs and scenario files', async () => {
    const r = await rulebook(['test', 'test/packs', '--json']);
    const report = JSON.parse(r.out);
    expect(r.code).toBe(0);
    expect(report.failed).toBe(0);
    expect(report.passed).toBeGreaterThanOrEqual(3);
  });

  it('a scenario of a pack that does not compile fails, pointing at the scenario', async () => {
    const dir = brokenCopy('broken-test', '    s.owner = me', '    s.ownr = me');
    const r = await rulebook(['test', dir]);
    expect(r.code).toBe(1);
    expect(r.out).toContain('tiny does not compile');
    expect(r.out).toMatch(/FAIL Claiming a hill scores two points/);
    expect(r.out.trim().split('\n').at(-1)).toMatch(/^0 passed, [1-9]\d* failed$/);
  });

  it('exit codes: usage 2, help 0', async () => {
    expect((await rulebook(['test', 'no/such/file.yaml'])).code).toBe(2);
    expect((await rulebook(['test'])).code).toBe(2);
    expect((await rulebook([])).code).toBe(2);
    expect((await rulebook(['frobnicate'])).code).toBe(2);
    for (const cmd of ['check', 'play', 'test']) {
      const help = await rulebook([cmd, '--help']);
      expect(help.code).toBe(0);
      expect(help.out).toContain(`Usage: rulebook ${cmd}`);
      expect(help.out).toContain('Exit code:');
    }
    expect((await rulebook(['--help'])).code).toBe(0);
  });
});
