/**
 * docs/tutorial.md never rots: its `sh` blocks run in order in an empty folder, with `rulebook` on
 * the PATH as a reader's `npm link` puts it, and each `text` block right after one must be what
 * that block printed (its lines, in order, within the output).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const tutorial = readFileSync(join(root, 'docs/tutorial.md'), 'utf8');
const blocks = [...tutorial.matchAll(/^```(sh|text)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], body: m[2] }));
const work = mkdtempSync(join(tmpdir(), 'rulebook-tutorial-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The lines of `expected`, in order, each a line of `output` (trailing spaces aside). */
function shownIn(expected: string, output: string): boolean {
  const lines = output.split('\n').map((l) => l.trimEnd());
  let at = 0;
  for (const want of expected.trimEnd().split('\n').map((l) => l.trimEnd())) {
    const found = lines.indexOf(want, at);
    if (found < 0) return false;
    at = found + 1;
  }
  return true;
}

describe('docs/tutorial.md', () => {
  it('has commands to run, and ends with the new pack’s scenarios passing', () => {
    expect(blocks.filter((b) => b.lang === 'sh').length).toBeGreaterThanOrEqual(5);
    expect(blocks.at(-1)).toMatchObject({ lang: 'text' });
    expect(blocks.at(-1)!.body).toMatch(/\d+ passed, 0 failed/);
  });

  it('runs every command as written, each printing what the page shows', () => {
    const bin = join(work, '.bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'rulebook'), `#!/bin/sh\nexec "${process.execPath}" "${join(root, 'bin/rulebook.mjs')}" "$@"\n`);
    chmodSync(join(bin, 'rulebook'), 0o755);
    const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH}` };
    let output = '';
    for (const [i, block] of blocks.entries()) {
      if (block.lang === 'text') {
        expect(blocks[i - 1]?.lang, `a text block follows a command block:\n${block.body}`).toBe('sh');
        expect(shownIn(block.body, output), `the page shows:\n${block.body}\nthe commands printed:\n${output}`).toBe(true);
        continue;
      }
      const run = spawnSync('bash', ['-euo', 'pipefail', '-c', block.body], { cwd: work, env, encoding: 'utf8' });
      output = run.stdout + run.stderr;
      expect(run.status, `${block.body}\nprinted:\n${output}`).toBe(0);
    }
    // One reader's session of a dozen commands, each starting Node: the project's per-test bound is for one step.
  }, 900_000);
});
