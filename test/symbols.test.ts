/**
 * The compiler's symbol index on the shipped packs: where names are declared, where they are used
 * across YAML files and rules texts, what a hover says, each file's outline, and positions that are
 * exact inside indented block scalars.
 */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { analyze } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { buildSymbols, definitionsAt, hoverAt, inRules, occurrenceAt, plain, referencesAt, type OutlineItem, type SymbolIndex } from '../compiler/symbols.ts';
import type { SourceFile } from '../compiler/source.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

function pack(name: string): { files: SourceFile[]; symbols: SymbolIndex; text: (path: string) => string } {
  const dir = `${root}content/${name}`;
  const files = readPackFolder(dir);
  const { symbols, diagnostics } = analyze(files, { dependencies: dependenciesOf(dir, files), lower: false, symbols: true });
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const text = (path: string) => files.find((f) => f.path === path)!.text;
  return { files, symbols: symbols!, text };
}

const sw = pack('smallworld-wow');
const slice = (p: { file: string; start: number; end: number }) => sw.text(p.file).slice(p.start, p.end);

describe('symbol index', () => {
  // An editor asks for the index at its first hover: making the yaml library's document of each of
  // a pack's files then cost more than the rest of the index.
  it('is built from the reader\'s places, making no yaml library document of a file the reader read', () => {
    const dir = `${root}content/smallworld-wow`;
    const files = readPackFolder(dir);
    const analysis = analyze(files, { dependencies: dependenciesOf(dir, files), lower: false });
    const read = analysis.loaded!.files.filter((f) => f.root);
    expect(read.length).toBe(analysis.loaded!.files.length);
    const kept = read.map((f) => Object.getOwnPropertyDescriptor(f, 'doc')!);
    const asked: string[] = [];
    for (const f of read) {
      Object.defineProperty(f, 'doc', {
        configurable: true,
        get() {
          asked.push(f.path);
          return kept[read.indexOf(f)].get!.call(f);
        },
      });
    }
    try {
      expect(buildSymbols(analysis)).toEqual(sw.symbols);
      expect(asked).toEqual([]);
    } finally {
      read.forEach((f, i) => Object.defineProperty(f, 'doc', kept[i]));
    }
  });

  // compiler/yamlParts.ts walks the library's document of a file the reader left to it: the index
  // must not depend on which parser read a file, to the outline's ranges.
  it('is the same from the library\'s documents as from the reader\'s places, in every shipped pack', () => {
    type Flat = [string, number, number, number, number];
    const flat = (items: readonly OutlineItem[]): Flat[] => items.flatMap((o) => [[o.name, o.at.start, o.at.end, o.range.start, o.range.end] as Flat, ...flat(o.children)]);
    for (const name of ['smallworld-wow', 'wotlk', 'wroth']) {
      const dir = `${root}content/${name}`;
      const files = readPackFolder(dir);
      const analysis = analyze(files, { dependencies: dependenciesOf(dir, files), lower: false });
      const fromReader = buildSymbols(analysis);
      const loaded = analysis.loaded!.files;
      expect(loaded.every((f) => f.root)).toBe(true);
      // The loaded files are kept from compile to compile (compiler/load.ts): each gets its places back.
      const kept = loaded.map((f) => Object.getOwnPropertyDescriptor(f, 'root')!);
      try {
        for (const f of loaded) Object.defineProperty(f, 'root', { value: undefined, configurable: true });
        const fromLibrary = buildSymbols(analysis);
        for (const [file, items] of fromReader.outline) expect({ name, file, outline: flat(fromLibrary.outline.get(file) ?? []) }).toEqual({ name, file, outline: flat(items) });
        expect(fromLibrary).toEqual(fromReader);
      } finally {
        loaded.forEach((f, i) => Object.defineProperty(f, 'root', kept[i]));
      }
    }
  });

  it('finds the declaration of a pipeline from a call in another rule', () => {
    const conquest = sw.text('rules/conquest.yaml');
    const call = conquest.indexOf('2 + defenders(r)') + '2 + '.length;
    const defs = definitionsAt(sw.symbols, 'rules/conquest.yaml', call + 3);
    expect(defs).toHaveLength(1);
    expect(defs[0].file).toBe('rules/conquest.yaml');
    expect(defs[0].start).toBe(conquest.indexOf('pipeline defenders(') + 'pipeline '.length);
    expect(slice(defs[0])).toBe('defenders');
    // A card's `modify defenders(…)` uses it too.
    const uses = referencesAt(sw.symbols, 'rules/conquest.yaml', call);
    const champions = sw.text('powers/champions.yaml');
    expect(uses.some((u) => u.file === 'powers/champions.yaml' && u.start === champions.indexOf('modify defenders') + 'modify '.length)).toBe(true);
    expect(uses.filter((u) => u.def)).toHaveLength(1);
  });

  it('lists the uses of an entity id across YAML files and rules', () => {
    const board = sw.text('boards/small1.yaml');
    const id = 'small1a_01';
    const declared = board.indexOf(`- region: ${id}`) + '- region: '.length;
    const uses = referencesAt(sw.symbols, 'boards/small1.yaml', declared);
    expect(uses.filter((u) => u.def).map((u) => [u.file, u.start])).toEqual([['boards/small1.yaml', declared]]);
    // Every `adjacent:` list that names it is a use, and nothing else is.
    const written = [...board.matchAll(new RegExp(`\\b${id}\\b`, 'g'))].map((m) => m.index);
    expect(uses.map((u) => u.start).sort((a, b) => a - b)).toEqual(written);
    for (const u of uses) expect(slice(u)).toBe(id);

    // A race is named by other cards' rules in other files (`lostRace == …`), found there by the checker.
    const byRules = [...sw.symbols.occurrences.values()].flat().filter((o) => o.key.startsWith('entity:') && !o.def && sw.text(o.file).slice(o.start - 20, o.start).includes('=='));
    expect(byRules.length).toBeGreaterThan(0);
  });

  it('says what a name is on hover', () => {
    const board = sw.text('boards/small1.yaml');
    const use = board.indexOf('adjacent: [') + 'adjacent: ['.length;
    const h = hoverAt(sw.symbols, 'boards/small1.yaml', use + 1)!;
    expect(h.text).toContain('`small1a_02` · region');
    expect(h.text).toContain('*en*: **Ghostlands**');
    expect(h.text).toContain('*pl*: **Ziemie Widm**');

    const conquest = sw.text('rules/conquest.yaml');
    const field = conquest.indexOf('r.terrain != sea') + 2;
    expect(hoverAt(sw.symbols, 'rules/conquest.yaml', field)!.text).toBe('`region.terrain: terrain` — property, fixed per entity');
    const member = conquest.indexOf('!= sea') + 3;
    expect(hoverAt(sw.symbols, 'rules/conquest.yaml', member)!.text).toBe('`sea`: member of enum `terrain`');
    const pipe = conquest.indexOf('pipeline conquestCost') + 'pipeline '.length;
    expect(hoverAt(sw.symbols, 'rules/conquest.yaml', pipe)!.text).toContain('pipeline conquestCost(r: region): number');
    // A parameter: its type, and its uses lead back to it.
    const param = conquest.indexOf('conquestCost(r') + 'conquestCost('.length;
    expect(hoverAt(sw.symbols, 'rules/conquest.yaml', param)!.text).toBe('`r: region` — a name of this rule');
    const body = conquest.indexOf('defenders(r)', param) + 'defenders('.length;
    expect(definitionsAt(sw.symbols, 'rules/conquest.yaml', body)).toEqual([{ file: 'rules/conquest.yaml', start: param, end: param + 1 }]);
  });

  it('shows the words of a pack in a hover as text, never as markup an editor would act on', () => {
    const hostile = '![seen](https://example.invalid/pixel.png) <img src=x> [link](javascript:x)';
    const shown = plain(hostile);
    expect(shown).not.toMatch(/(^|[^\\])!\[/);
    expect(shown).not.toMatch(/(^|[^\\])</);
    expect(shown).not.toMatch(/(^|[^\\])\]\(/);
    expect(shown.replace(/\\(.)/g, '$1')).toBe(hostile);
  });

  it('outlines a file', () => {
    const outline = sw.symbols.outline.get('rules/conquest.yaml')!;
    const names = outline.map((o) => `${o.kind} ${o.name}`);
    expect(names[0]).toBe('kind region');
    expect(names).toContain('event conquered');
    expect(names).toContain('pipeline conquestCost');
    expect(outline[0].children.map((c) => c.name)).toContain('wispWall');
    const starts = outline.map((o) => o.range.start);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    for (const o of outline) {
      expect(o.range.start).toBeLessThanOrEqual(o.at.start);
      expect(o.range.end).toBeGreaterThanOrEqual(o.at.end);
    }
    const orcs = sw.symbols.outline.get('races/orcs.yaml')!;
    expect(orcs.map((o) => `${o.kind} ${o.name}`)).toEqual(['entity orcs', 'on conquered']);
  });

  it('places every occurrence exactly, in block scalars at any indentation, in every shipped pack', () => {
    for (const name of ['smallworld-wow', 'smallworld-wow-teams', 'wotlk', 'wroth']) {
      const p = name === 'smallworld-wow' ? sw : pack(name);
      let count = 0;
      for (const [file, list] of p.symbols.occurrences) {
        const own = p.files.find((f) => f.path === file);
        if (!own) continue; // a base pack's file
        for (const o of list) {
          const s = p.symbols.symbols.get(o.key)!;
          const written = own.text.slice(o.start, o.end);
          // A kind is also named by its plural in rules (`regions`).
          if (s.kind === 'kind') expect([s.name, written]).toContain(written);
          else expect(written, `${name}/${file}:${o.start}`).toBe(s.name);
          expect(occurrenceAt(p.symbols, file, o.start)?.key).toBe(o.key);
          count++;
        }
      }
      expect(count, name).toBeGreaterThan(100);
    }
    // A card's own rules sit six spaces deep in `races/orcs.yaml`.
    const orcs = sw.text('races/orcs.yaml');
    const holder = orcs.indexOf('holder.coins') + 'holder.'.length;
    expect(orcs.slice(orcs.lastIndexOf('\n', holder) + 1, holder)).toMatch(/^ {8}holder\.$/);
    const coins = occurrenceAt(sw.symbols, 'races/orcs.yaml', holder)!;
    expect([coins.key, coins.start, coins.end]).toEqual(['field:player.coins', holder, holder + 'coins'.length]);
    expect(inRules(sw.symbols, 'races/orcs.yaml', holder)).toBe(true);
    expect(inRules(sw.symbols, 'races/orcs.yaml', orcs.indexOf('tokens: 6'))).toBe(false);
  });

  it('keeps the names that were understood when a pack has errors', () => {
    const files = sw.files.map((f) => (f.path === 'rules/conquest.yaml' ? { ...f, text: f.text.replace('r.terrain != sea', 'r.terain != sea') } : f));
    const { symbols, diagnostics } = analyze(files, { lower: false, symbols: true });
    expect(diagnostics.some((d) => d.severity === 'error' && d.file === 'rules/conquest.yaml' && d.message.includes('terain'))).toBe(true);
    expect(symbols!.symbols.get('pipeline:conquestCost')?.defs).toHaveLength(1);
    expect(symbols!.symbols.get('entity:orcs')).toBeDefined();
    // Without being asked for, no index is built.
    expect(analyze(files, { lower: false }).symbols).toBeUndefined();
  });
});
