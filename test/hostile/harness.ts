/** What the hostile tests share: packs written to a temporary folder, and the CLI run in a child (in-process: test/helpers/cli.ts). */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect } from 'vitest';
import type { Diagnostic } from '../../compiler/index.ts';

/**
 * Each hostile input is refused in well under 10 s on an idle machine; the bound allows three times
 * that for the shared 2-core machine the suite runs on, where a slow test is not a failing one.
 */
export const budget = { timeout: 30_000 };

export const MANIFEST = (id = 'test', extra = '') => `id: ${id}\nversion: 0.1.0\nname: { en: Test }\nlanguages: [en]\nplayers: { min: 1, max: 4 }\n${extra}`;

/** A temporary folder for this test file, removed after it. */
export function tempFolder(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `rulebook-hostile-${name}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes files (path → text) under a folder, making the folders on the way. */
export function writeFiles(dir: string, files: Record<string, string>): string {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** The CLI in a child process with 512 MB of heap, and 60 s for its start and its work on a loaded machine: an input that needs more is a failure. */
export function rulebookChild(args: string[]): { code: number | null; out: string; err: string; signal: NodeJS.Signals | null } {
  const r = spawnSync(process.execPath, ['--max-old-space-size=512', 'bin/rulebook.mjs', ...args], { encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status, out: r.stdout, err: r.stderr, signal: r.signal };
}

/** A diagnostic that says where: a file of the pack, a line and column inside it, a code. */
export function expectPositioned(d: Diagnostic | undefined, texts: Record<string, string>): void {
  expect(d).toBeDefined();
  const text = texts[d!.file];
  expect(text, `the file ${d!.file} of ${d!.code}`).toBeDefined();
  const lines = text.split('\n');
  expect(d!.line).toBeGreaterThanOrEqual(1);
  expect(d!.line).toBeLessThanOrEqual(lines.length);
  expect(d!.column).toBeGreaterThanOrEqual(1);
  expect(d!.column).toBeLessThanOrEqual(lines[d!.line - 1].length + 1);
  expect(d!.code).toMatch(/^RB\d{4}$/);
  expect(d!.code).not.toBe('RB9000');
}
