/**
 * Control characters from content (ANSI colours, OSC links and titles, carriage returns, bidi
 * overrides) never reach the terminal raw: every write of the CLI goes through `safeText`.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { safeText } from '../../cli/io.ts';
import { rulebook } from '../helpers/cli.ts';
import { budget, tempFolder } from './harness.ts';

const root = tempFolder('output');
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** The tiny pack with escapes in a space's name and in a log line. */
function nastyPack(name: string): string {
  const dir = join(root, name);
  cpSync('test/packs/tiny', dir, { recursive: true });
  const file = join(dir, 'game.yaml');
  const text = readFileSync(file, 'utf8');
  expect(text).toContain('  - space: a\n');
  writeFileSync(file, text.replace('  - space: a\n', '  - space: a\n    name: { en: "A\\e]0;pwned\\a\\e[2J\\e]8;;http://evil.example\\aclick\\e]8;;\\a\\r\\u202eZ" }\n'));
  return dir;
}

describe('control characters from content', () => {
  it('safeText shows them as escapes and keeps lines and tabs', () => {
    expect(safeText('a\u001b[31mb\u0007c\r\n\td\u202e')).toBe('a\\u001b[31mb\\u0007c\\u000d\n\td\\u202e');
  });

  it('`rulebook play --bots` prints a card name with escapes as text', budget, async () => {
    const dir = nastyPack('play');
    const r = await rulebook(['play', dir, '--bots', '--seed', '3']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('\\u001b');
    expect(r.out).not.toMatch(RAW);
    expect(r.err).not.toMatch(RAW);
  });

  it('`--json` output stays valid JSON, and means the same text', budget, async () => {
    const dir = nastyPack('json');
    const r = await rulebook(['play', dir, '--bots', '--seed', '3', '--json']);
    expect(r.out).not.toMatch(RAW);
    expect(JSON.stringify(JSON.parse(r.out))).toContain('\\u001b]0;pwned');
    expect(JSON.stringify(JSON.parse(r.out))).toContain('\u202eZ');
  });

  it('`rulebook check` quotes the author\'s line with escapes in it as text', budget, async () => {
    const dir = nastyPack('check');
    const file = join(dir, 'game.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('    terrain: hills\n    next: [b]', '    terrain: "hil\\e[8mls"\n    next: [b]'));
    const r = await rulebook(['check', dir]);
    expect(r.code).toBe(1);
    expect(r.out).toContain('\\u001b[8m');
    expect(r.out).not.toMatch(RAW);
  });

  it('`rulebook test` names a scenario with escapes as text', budget, async () => {
    const dir = nastyPack('test');
    writeFileSync(join(dir, 'scenarios', 'nasty.yaml'), 'scenario: "passes \\e[2K\\rFAKE: all green"\nplayers: 2\nsteps:\n  - p1: pass\n');
    const r = await rulebook(['test', join(dir, 'scenarios', 'nasty.yaml')]);
    expect(r.out + r.err).toContain('\\u001b[2K');
    expect(r.out).not.toMatch(RAW);
    expect(r.err).not.toMatch(RAW);
  });
});
