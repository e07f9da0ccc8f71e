/**
 * The translators' formats (issue #15): `rulebook text --export po|xliff` and `--import` on copies
 * of the shipped packs. A round trip changes no byte of any pack; an edited text lands in its own
 * card's YAML and nowhere else, and is checked at once.
 */
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { po } from 'gettext-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { main } from '../cli/main.ts';
import { findPacks } from '../cli/packs.ts';
import type { Io } from '../cli/io.ts';

const root = join(import.meta.dirname, '..');

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { out: (t) => void (out += t), err: (t) => void (err += t), readLine: async () => undefined };
  const code = await main(argv, io);
  return { code, out, err };
}

/** Every file under a folder with its content, by path relative to it. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else files.set(relative(dir, full), readFileSync(full, 'utf8'));
    }
  };
  walk(dir);
  return files;
}

let tmp: string;
let content: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'rulebook-translate-'));
  content = join(tmp, 'content');
  cpSync(join(root, 'content'), content, { recursive: true });
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

const packs = findPacks(join(root, 'content')).map((dir) => ({
  name: relative(join(root, 'content'), dir),
  langs: (parseDocument(readFileSync(join(dir, 'pack.yaml'), 'utf8')).toJS() as { languages: string[] }).languages,
}));

describe('round trip', () => {
  for (const { name, langs } of packs)
    for (const lang of langs)
      for (const format of ['po', 'xliff'] as const)
        it(`${name}: export ${format} ${lang} then import changes no byte`, async () => {
          const pack = join(content, name);
          const file = join(tmp, `${lang}.${format}`);
          const before = snapshot(content);
          const exported = await run('text', '--export', format, lang, pack, '--out', file);
          expect(exported.code, exported.out + exported.err).toBe(0);
          const imported = await run('text', '--import', file, pack);
          expect(imported.err).toBe('');
          expect(imported.out).toContain('0 cards changed in 0 files');
          expect(imported.code, imported.out).toBe(0);
          expect(snapshot(content)).toEqual(before);
        });
});

describe('an edited PO file', () => {
  it('lands in the right card, keeps every other byte, and a wrong number in it is reported', async () => {
    const pack = join(content, 'smallworld-wow');
    const file = join(tmp, 'pl.po');
    await run('text', '--export', 'po', 'pl', pack, '--out', file);
    const table = po.parse(readFileSync(file));
    const entry = Object.values(table.translations.bloodElves)[0];
    expect(entry.msgstr[0]).toContain('Otrzymujesz 1 dodatkową monetę');
    const wrong = entry.msgstr[0].replace('Otrzymujesz 1 dodatkową monetę', 'Otrzymujesz 3 dodatkowe monety');
    entry.msgstr = [wrong];
    writeFileSync(file, po.compile(table));

    const before = snapshot(content);
    const { code, out } = await run('text', '--import', file, pack);
    expect(out).toContain('1 card changed in 1 file');
    const after = snapshot(content);
    const changed = [...after].filter(([path, text]) => before.get(path) !== text).map(([path]) => path);
    expect(changed).toEqual([join('smallworld-wow', 'races', 'bloodElves.yaml')]);
    const oldLines = before.get(changed[0])!.split('\n');
    const newLines = after.get(changed[0])!.split('\n');
    const differing = newLines.map((_, i) => i).filter((i) => newLines[i] !== oldLines[i]);
    expect(differing).toHaveLength(1);
    expect(newLines[differing[0]]).toBe(`      pl: ${JSON.stringify(wrong)}`);

    expect(code).toBe(1);
    expect(out).toMatch(/bloodElves\.yaml:\d+:\d+: error TX\d{4}/);
    expect(out).toContain('1 error on 1 card');
  });

  it('a text in a new language is added beside the card\'s others, in their layout (block or flow)', async () => {
    const file = join(tmp, 'fr.xlf');
    const fill = (pack: string, id: string, text: string) => {
      const xml = readFileSync(file, 'utf8');
      const unit = xml.indexOf(`<trans-unit id="${id}">`);
      const target = xml.indexOf('<target></target>', unit);
      expect(unit).toBeGreaterThan(0);
      writeFileSync(file, xml.slice(0, target) + `<target>${text}</target>` + xml.slice(target + '<target></target>'.length));
      return run('text', '--import', file, pack);
    };

    const smallworld = join(content, 'smallworld-wow');
    await run('text', '--export', 'xliff', 'fr', smallworld, '--out', file);
    const french = 'À la fin de votre tour, vous recevez 1 pièce de victoire supplémentaire pour chaque région magique que vous occupez.';
    const elves = join(smallworld, 'races', 'bloodElves.yaml');
    const elvesBefore = readFileSync(elves, 'utf8');
    const block = await fill(smallworld, 'bloodElves', french);
    expect(block.out).toContain('1 card changed in 1 file');
    const lastText = elvesBefore.split('\n').find((l) => l.startsWith('      de: '))!;
    expect(readFileSync(elves, 'utf8')).toBe(elvesBefore.replace(lastText, `${lastText}\n      fr: ${JSON.stringify(french)}`));

    const wotlk = join(content, 'wotlk');
    await run('text', '--export', 'xliff', 'fr', wotlk, '--out', file);
    const board = join(wotlk, 'board.yaml');
    const boardBefore = readFileSync(board, 'utf8');
    const flow = await fill(wotlk, 'sc_nexus', 'Le Nexus');
    expect(flow.out).toContain('1 card changed in 1 file');
    expect(readFileSync(board, 'utf8')).toBe(boardBefore.replace('text: { en: "The Nexus", pl: "Splot" }', 'text: { en: "The Nexus", pl: "Splot", fr: "Le Nexus" }'));
  });
});

describe('bad files', () => {
  it('a file that is neither PO nor XLIFF is refused with the reason', async () => {
    const file = join(tmp, 'notes.po');
    writeFileSync(file, 'msgid "unterminated\n');
    const { code, err } = await run('text', '--import', file, join(content, 'smallworld-wow'));
    expect(code).toBe(2);
    expect(err).toContain('notes.po');
  });

  it('an id that is no card is named and left out', async () => {
    const file = join(tmp, 'pl.po');
    writeFileSync(file, po.compile({ charset: 'utf-8', headers: { Language: 'pl' }, translations: { nobody: { x: { msgctxt: 'nobody', msgid: 'x', msgstr: ['y'] } } } }));
    const { err, out } = await run('text', '--import', file, join(content, 'smallworld-wow'));
    expect(err).toContain('`nobody` is no card of smallworld-wow');
    expect(out).toContain('0 cards changed');
  });
});
