/**
 * `rulebook new`: the scaffolds compile, their scenarios pass, their `$schema` lines lead to this
 * rulebook's schemas from wherever they are written; and the messages a designer meets first.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rulebook } from './helpers/cli.ts';

const root = join(import.meta.dirname, '..');
const temp = mkdtempSync(join(tmpdir(), 'rulebook-new-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** The schema a file's first line names, resolved from the file's folder. */
function schemaOf(file: string): string {
  const path = readFileSync(file, 'utf8').match(/^# yaml-language-server: \$schema=(\S+)\n/)?.[1];
  expect(path, `${file} starts with a $schema line`).toBeDefined();
  return resolve(dirname(file), path!);
}

describe('rulebook new pack', () => {
  it('writes a pack that compiles, with schema lines that resolve, and a first scenario that passes', async () => {
    const made = await rulebook(['new', 'pack', 'first-game', '--dir', join(temp, 'deep', 'er')]);
    expect(made.code).toBe(0);
    const dir = join(temp, 'deep', 'er', 'first-game');
    expect(schemaOf(join(dir, 'pack.yaml'))).toBe(join(root, 'schemas', 'manifest.schema.json'));
    expect(schemaOf(join(dir, 'game.yaml'))).toBe(join(root, 'schemas', 'pack-file.schema.json'));
    expect(schemaOf(join(dir, 'scenarios', 'first.yaml'))).toBe(join(root, 'schemas', 'scenario.schema.json'));
    // An npm package named by the pack id, at the manifest's version, publishing only pack files.
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; version: string; files: string[] };
    expect(pkg).toMatchObject({ name: 'first-game', version: '0.1.0' });
    expect(readFileSync(join(dir, 'pack.yaml'), 'utf8')).toMatch(/^version: 0\.1\.0$/m);
    expect(pkg.files).toContain('**/*.yaml');
    const checked = await rulebook(['check', dir]);
    expect(checked.out).toContain('0 errors, 0 warnings');
    expect(checked.code).toBe(0);
    const tested = await rulebook(['test', dir]);
    expect(tested.out).toContain('1 passed, 0 failed');
    expect(tested.code).toBe(0);
  });

  it('refuses a name that is no pack id, and a folder already in use', async () => {
    const bad = await rulebook(['new', 'pack', 'My Game', '--dir', temp]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('is not a pack id');
    expect((await rulebook(['new', 'pack', 'twice', '--dir', temp])).code).toBe(0);
    const again = await rulebook(['new', 'pack', 'twice', '--dir', temp]);
    expect(again.code).toBe(2);
    expect(again.err).toContain('already exists and is not empty');
  });
});

describe('rulebook new card', () => {
  it("adds a card of the pack's own kind beside its others, and its scenario passes with the pack's", async () => {
    const dir = join(temp, 'tiny');
    cpSync(join(root, 'test/packs/tiny'), dir, { recursive: true });
    const made = await rulebook(['new', 'card', 'space', 'd', '--pack', dir]);
    expect(made.err).toBe('');
    expect(made.code).toBe(0);
    // The tiny pack's spaces all live in game.yaml at its top: a new card goes to a folder named for the kind.
    const card = join(dir, 'spaces', 'd.yaml');
    expect(schemaOf(card)).toBe(join(root, 'schemas', 'pack-file.schema.json'));
    // Its printed values start as the first space's (a card that already plays).
    expect(readFileSync(card, 'utf8')).toContain('space: d');
    expect(readFileSync(card, 'utf8')).toContain('terrain: hills');
    const scenario = join(dir, 'scenarios', 'spaces', 'd.yaml');
    expect(schemaOf(scenario)).toBe(join(root, 'schemas', 'scenario.schema.json'));
    expect(readFileSync(scenario, 'utf8')).toContain('d.terrain: hills');
    const tested = await rulebook(['test', dir]);
    expect(tested.out).toContain('PASS The space d is in the game as written');
    expect(tested.out).toMatch(/\d+ passed, 0 failed/);
    expect(tested.code).toBe(0);
  });

  it("names the pack's own kinds when the kind is not one of them", async () => {
    const dir = join(temp, 'tiny-kinds');
    cpSync(join(root, 'test/packs/tiny'), dir, { recursive: true });
    const wrong = await rulebook(['new', 'card', 'race', 'orcs', '--pack', dir]);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain('this pack has no kind `race`; its kinds are: space');
    expect(existsSync(join(dir, 'races'))).toBe(false);
    const taken = await rulebook(['new', 'card', 'space', 'a', '--pack', dir]);
    expect(taken.code).toBe(2);
    expect(taken.err).toContain('already has an entity `a`');
  });
});

describe('first messages', () => {
  it('rulebook test on a pack with no scenarios fails and says why', async () => {
    const made = await rulebook(['new', 'pack', 'bare', '--dir', temp]);
    expect(made.code).toBe(0);
    rmSync(join(temp, 'bare', 'scenarios'), { recursive: true });
    const tested = await rulebook(['test', join(temp, 'bare')]);
    expect(tested.code).toBe(1);
    expect(tested.err).toContain('no scenarios in');
    expect(tested.err).toContain('so nothing was tested');
  });

  it('rulebook test with a --grep that matches nothing fails', async () => {
    const tested = await rulebook(['test', join(root, 'test/packs/tiny'), '--grep', 'no scenario is called this']);
    expect(tested.code).toBe(1);
    expect(tested.err).toContain('no scenario whose name contains `no scenario is called this`');
  });

  it('rulebook --version prints the version of the package', async () => {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    const shown = await rulebook(['--version']);
    expect(shown).toEqual({ code: 0, out: `${version}\n`, err: '' });
  });
});
