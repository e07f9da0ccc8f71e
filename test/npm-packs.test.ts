/**
 * Packs travel as npm packages: `rulebook pack` writes a tarball of only the pack's files, npm
 * installs it, and `extends`/`dependsOn` find it in `node_modules` (walking up, as Node does) with
 * the same version checks as a pack beside it, following a package link only while it stays in its
 * project. The modder's example (`examples/modder-race`) is installed and tested that way.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rulebook } from './helpers/cli.ts';
import { dependencyFolder } from '../compiler/packFolder.ts';

const root = join(import.meta.dirname, '..');
const temp = mkdtempSync(join(tmpdir(), 'rulebook-npm-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** A project folder, as `npm init` leaves it. */
function project(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: dir.split(/[\\/]/).pop(), private: true }));
  return dir;
}

/** npm itself, offline: the tarballs are all it needs. */
function npmInstall(cwd: string, tarballs: string[]) {
  execFileSync('npm', ['install', ...tarballs, '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd, stdio: 'pipe' });
}

function tarEntries(tarball: string): string[] {
  return execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
}

describe('the modder’s example, installed the npm way', () => {
  it('packs Small World and the example, installs both with npm, then checks and tests the example from node_modules', async () => {
    const dist = join(temp, 'dist');
    const base = await rulebook(['pack', join(root, 'content', 'smallworld-wow'), '--out', dist]);
    expect(base.err).toBe('');
    expect(base.code).toBe(0);
    expect(base.out).toMatch(/wrote .*smallworld-wow-0\.1\.0\.tgz \(smallworld-wow@0\.1\.0, \d+ files\)/);
    const baseTgz = join(dist, 'smallworld-wow-0.1.0.tgz');
    // Only the pack: its YAML (scenarios too), its notes and package.json.
    const entries = tarEntries(baseTgz);
    expect(entries).toContain('package/pack.yaml');
    expect(entries).toContain('package/NOTES.md');
    expect(entries.every((e) => /^package\/(package\.json|NOTES\.md|.+\.ya?ml)$/.test(e))).toBe(true);

    // The modder works in a project where the base game is installed.
    const workshop = project(join(temp, 'workshop'));
    npmInstall(workshop, [baseTgz]);
    const mod = join(workshop, 'modder-race');
    cpSync(join(root, 'examples', 'modder-race'), mod, { recursive: true });
    expect(dependencyFolder(mod, 'smallworld-wow')).toBe(join(workshop, 'node_modules', 'smallworld-wow'));
    const packed = await rulebook(['pack', mod, '--out', dist]);
    expect(packed.err).toBe('');
    expect(packed.code).toBe(0);
    const modTgz = join(dist, 'modder-race-0.1.0.tgz');
    expect(tarEntries(modTgz)).toEqual(['package/NOTES.md', 'package/pack.yaml', 'package/package.json', 'package/races/tuskarr.yaml', 'package/scenarios/tuskarr.yaml']);

    // A player's table: both packages installed by npm, the mod run from node_modules.
    const table = project(join(temp, 'table'));
    npmInstall(table, [baseTgz, modTgz]);
    const installed = join(table, 'node_modules', 'modder-race');
    expect(existsSync(join(installed, 'pack.yaml'))).toBe(true);
    const checked = await rulebook(['check', installed]);
    expect(checked.out).toContain('0 errors, 0 warnings');
    expect(checked.code).toBe(0);
    const tested = await rulebook(['test', installed]);
    expect(tested.out).toContain('PASS The Tuskarr score 1 extra coin');
    expect(tested.out).toContain('2 passed, 0 failed');
    expect(tested.code).toBe(0);
  }, 300_000);
});

describe('extends and dependsOn in node_modules', () => {
  /** A small base game (`rulebook new pack`) installed as a package folder, and a pack that extends it at `range`. */
  async function setUp(name: string, range: string): Promise<{ proj: string; mod: string }> {
    const proj = project(join(temp, name));
    expect((await rulebook(['new', 'pack', 'tiny-base', '--dir', join(proj, 'node_modules')])).code).toBe(0);
    const mod = join(proj, 'packs', 'deep', 'mod');
    mkdirSync(mod, { recursive: true });
    writeFileSync(join(mod, 'pack.yaml'), `id: mod\nversion: 0.1.0\nname: { en: Mod }\nlanguages: [en]\nplayers: { min: 2, max: 4 }\nextends: tiny-base@${range}\n`);
    writeFileSync(join(mod, 'more.yaml'), 'entities:\n  - race: dwarves\n    name: { en: Dwarves }\n    power: 3\n');
    return { proj, mod };
  }

  it('finds a package in a node_modules above the pack, and checks its version like a pack beside it', async () => {
    const ok = await setUp('walk-up', '^0.1');
    const good = await rulebook(['check', ok.mod]);
    expect(good.out).toContain('0 errors');
    expect(good.code).toBe(0);
    const old = await setUp('too-old', '^0.2');
    const bad = await rulebook(['check', old.mod]);
    expect(bad.code).toBe(1);
    expect(bad.out + bad.err).toContain('RB0004');
    expect(bad.out + bad.err).toContain('the `tiny-base` found is version 0.1.0');
  });

  it('follows a package link that stays in its project, and not one that leaves it', async () => {
    const inside = await setUp('linked-inside', '^0.1');
    // The package lives elsewhere in the project, linked the way `npm install ./folder` links it.
    cpSync(join(inside.proj, 'node_modules', 'tiny-base'), join(inside.proj, 'vendor', 'tiny-base'), { recursive: true });
    rmSync(join(inside.proj, 'node_modules', 'tiny-base'), { recursive: true });
    symlinkSync(join(inside.proj, 'vendor', 'tiny-base'), join(inside.proj, 'node_modules', 'tiny-base'));
    expect((await rulebook(['check', inside.mod])).code).toBe(0);

    const outside = await setUp('linked-outside', '^0.1');
    const elsewhere = join(temp, 'elsewhere', 'tiny-base');
    cpSync(join(outside.proj, 'node_modules', 'tiny-base'), elsewhere, { recursive: true });
    rmSync(join(outside.proj, 'node_modules', 'tiny-base'), { recursive: true });
    symlinkSync(elsewhere, join(outside.proj, 'node_modules', 'tiny-base'));
    expect(dependencyFolder(outside.mod, 'tiny-base')).toBeUndefined();
    const refused = await rulebook(['check', outside.mod]);
    expect(refused.code).toBe(1);
    expect(refused.out + refused.err).toContain('RB0003');

    // A node_modules that is itself a link (a shared install) holds real packages.
    const shared = await setUp('shared-install', '^0.1');
    const store = join(temp, 'store', 'node_modules');
    cpSync(join(shared.proj, 'node_modules'), store, { recursive: true });
    rmSync(join(shared.proj, 'node_modules'), { recursive: true });
    symlinkSync(store, join(shared.proj, 'node_modules'));
    expect((await rulebook(['check', shared.mod])).code).toBe(0);
  });

  it('never makes a path of an id that is no pack id', () => {
    expect(dependencyFolder(join(temp, 'walk-up', 'packs', 'deep', 'mod'), '../tiny-base')).toBeUndefined();
    expect(dependencyFolder(join(temp, 'walk-up', 'packs', 'deep', 'mod'), '__proto__')).toBeUndefined();
  });
});

describe('rulebook pack', () => {
  it('refuses a package.json that names another package, or a pack that does not compile, and writes nothing', async () => {
    const out = join(temp, 'refused');
    expect((await rulebook(['new', 'pack', 'named', '--dir', temp])).code).toBe(0);
    writeFileSync(join(temp, 'named', 'package.json'), JSON.stringify({ name: 'other-name', version: '0.1.0' }));
    const misnamed = await rulebook(['pack', join(temp, 'named'), '--out', out]);
    expect(misnamed.code).toBe(2);
    expect(misnamed.err).toContain("names the package `other-name` but the pack's id is `named`");

    expect((await rulebook(['new', 'pack', 'broken', '--dir', temp])).code).toBe(0);
    writeFileSync(join(temp, 'broken', 'more.yaml'), 'entities:\n  - race: ogres\n    power: many\n');
    const broken = await rulebook(['pack', join(temp, 'broken'), '--out', out]);
    expect(broken.code).toBe(1);
    expect(broken.err).toContain('so it was not packed');
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
  });
});
