/**
 * The plain JavaScript build (scripts/build.mjs): two builds at once both finish and leave a build
 * that runs, each in its own folder, the link pointing at one of them (the atomic swap).
 */
import { execFile } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
// Inside the checkout (dist/ is ignored by git), where the build's packages resolve from node_modules/.
const dir = join(root, 'dist', `build-test-${process.pid}`);
const link = join(dir, 'node');
const build = () => promisify(execFile)(process.execPath, [join(root, 'scripts', 'build.mjs'), '--out', link], { cwd: root });

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run build', () => {
  it('two builds at once both finish, and the build linked runs', async () => {
    const runs = await Promise.allSettled([build(), build()]);
    expect(runs.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    const folders = readdirSync(dir).filter((n) => n !== 'node');
    expect(folders).toHaveLength(2);
    expect(folders).toContain(readlinkSync(link));
    for (const f of folders) expect(['inputs.json', 'rulebook.mjs', 'worker.mjs'].every((n) => existsSync(join(dir, f, n)))).toBe(true);
    const { main } = await import(pathToFileURL(join(link, 'rulebook.mjs')).href);
    const out: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((s: string) => out.push(String(s)) > 0) as typeof process.stdout.write;
    try {
      expect(await main(['--version'])).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    expect(out.join('')).toMatch(/^\d+\.\d+\.\d+/);
  }, 300_000);
});
