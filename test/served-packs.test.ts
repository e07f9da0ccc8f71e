/**
 * A designer's folder as the playground's dev server reads it (`playground/served-packs.ts`): every
 * pack under it, the bases they extend installed in node_modules, and nothing reached through a link
 * out of the folder or out of a pack.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readServedPacks } from '../playground/served-packs.ts';
import { rulebook } from './helpers/cli.ts';

const temp = mkdtempSync(join(tmpdir(), 'rulebook-served-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('a served folder', () => {
  it('holds every pack under it, and the installed packs they extend', async () => {
    const folder = join(temp, 'studio');
    expect((await rulebook(['new', 'pack', 'first', '--dir', join(folder, 'games')])).code).toBe(0);
    expect((await rulebook(['new', 'pack', 'base-game', '--dir', join(folder, 'node_modules')])).code).toBe(0);
    mkdirSync(join(folder, 'mods', 'mod'), { recursive: true });
    writeFileSync(join(folder, 'mods', 'mod', 'pack.yaml'), 'id: mod\nversion: 0.1.0\nname: { en: Mod }\nlanguages: [en]\nplayers: { min: 2, max: 4 }\nextends: base-game@^0.1\n');
    const { folder: name, packs } = readServedPacks(folder);
    expect(name).toBe('studio');
    expect(Object.keys(packs).sort()).toEqual(['folder/studio/games/first', 'folder/studio/installed/base-game', 'folder/studio/mods/mod']);
    expect(Object.keys(packs['folder/studio/games/first']).sort()).toEqual(['game.yaml', 'pack.yaml', 'scenarios/first.yaml']);
  });

  it('sends a file written with a byte order mark without it, as the editor shows it', async () => {
    const folder = join(temp, 'marked');
    expect((await rulebook(['new', 'pack', 'marked', '--dir', folder])).code).toBe(0);
    const game = join(folder, 'marked', 'game.yaml');
    const text = readFileSync(game, 'utf8');
    writeFileSync(game, `\ufeff${text}`);
    const { packs } = readServedPacks(folder);
    expect(packs[`folder/${basename(folder)}/marked`]['game.yaml']).toBe(text);
  });

  it('follows no link out of the folder, nor out of a pack', async () => {
    const outside = join(temp, 'outside');
    expect((await rulebook(['new', 'pack', 'secret', '--dir', outside])).code).toBe(0);
    const folder = join(temp, 'linked');
    expect((await rulebook(['new', 'pack', 'mine', '--dir', folder])).code).toBe(0);
    symlinkSync(join(outside, 'secret'), join(folder, 'secret'));
    symlinkSync(join(outside, 'secret', 'game.yaml'), join(folder, 'mine', 'stolen.yaml'));
    const { packs } = readServedPacks(folder);
    expect(Object.keys(packs)).toEqual([`folder/${basename(folder)}/mine`]);
    expect(Object.keys(packs[`folder/${basename(folder)}/mine`])).not.toContain('stolen.yaml');
    // A pack folder served as such is the folder itself.
    cpSync(join(folder, 'mine'), join(temp, 'alone'), { recursive: true });
    expect(Object.keys(readServedPacks(join(temp, 'alone')).packs)).toEqual(['folder/alone']);
  });
});
