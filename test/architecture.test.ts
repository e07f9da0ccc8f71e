/**
 * The import rules of docs/architecture.md, read from the source with the TypeScript parser: which
 * folder may import which, what runs in the browser, and that the core names no game.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { builtinTable } from '../compiler/builtins.ts';
import { compile } from '../compiler/index.ts';
import { builtinKinds, contextualWords, keywordSet, specialNameSet, typeNames } from '../dsl/language.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';

const root = join(import.meta.dirname, '..');

interface Import {
  /** As written, without a Vite query (`?worker`). */
  spec: string;
  /** The repository path it resolves to, for an import of ours. */
  target?: string;
  typeOnly: boolean;
  line: number;
}

interface Source {
  path: string;
  imports: Import[];
  /** Identifiers and the text of string literals outside comments. */
  words: Set<string>;
  /**
   * What code can read a game's value by or test it against: whole string literals and the names of
   * properties read (`x.tokens`, `x['tokens']`). Local names are the code's own words.
   */
  names: Set<string>;
}

const sources = new Map<string, Source>();

function source(path: string): Source {
  let s = sources.get(path);
  if (s) return s;
  const file = ts.createSourceFile(path, readFileSync(join(root, path), 'utf8'), ts.ScriptTarget.Latest, true);
  s = { path, imports: [], words: new Set(), names: new Set() };
  const add = (spec: string, node: ts.Node, typeOnly: boolean) => {
    const bare = spec.replace(/\?.*$/, '');
    const target = bare.startsWith('.') ? relative(root, resolve(root, dirname(path), bare)) : undefined;
    s!.imports.push({ spec: bare, target, typeOnly, line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const c = node.importClause;
      const typeOnly = !!c && (c.isTypeOnly || (!c.name && !!c.namedBindings && ts.isNamedImports(c.namedBindings) && c.namedBindings.elements.length > 0 && c.namedBindings.elements.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier.text, node, typeOnly);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly = node.isTypeOnly || (!!node.exportClause && ts.isNamedExports(node.exportClause) && node.exportClause.elements.every((e) => e.isTypeOnly));
      add(node.moduleSpecifier.text, node, typeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      add(node.arguments[0].text, node, false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, node, true);
    } else if (ts.isIdentifier(node)) {
      s!.words.add(node.text);
      if (ts.isPropertyAccessExpression(node.parent) && node.parent.name === node) s!.names.add(node.text);
    } else if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      for (const w of node.text.match(/[A-Za-z_][\w-]*/g) ?? []) s!.words.add(w);
      if (ts.isStringLiteralLike(node)) s!.names.add(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  sources.set(path, s);
  return s;
}

/** Every TypeScript file under a folder of the repository. */
function filesUnder(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
    }
  };
  walk(folder);
  return out.sort();
}

const folderOf = (path: string) => path.split('/')[0];
const isNode = (spec: string) => spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0]);

/** The imports of our own code from files under `folder`, with where they go. */
function ourImports(folder: string): Array<{ from: string; to: string; typeOnly: boolean; line: number }> {
  return filesUnder(folder).flatMap((f) => source(f).imports.filter((i) => i.target).map((i) => ({ from: f, to: i.target!, typeOnly: i.typeOnly, line: i.line })));
}

const at = (x: { from: string; line: number; to: string }) => `${x.from}:${x.line} imports ${x.to}`;

describe('import rules', () => {
  it('dsl/ imports nothing of ours outside dsl/', () => {
    expect(ourImports('dsl').filter((i) => folderOf(i.to) !== 'dsl').map(at)).toEqual([]);
  });

  it('runtime/ imports nothing of ours outside runtime/ (it runs packs, it does not compile them)', () => {
    expect(ourImports('runtime').filter((i) => folderOf(i.to) !== 'runtime').map(at)).toEqual([]);
  });

  // Besides types, the runtime modules about a pack's names that run no rule: null-prototype
  // tables, player ids and the kind of an id, each said once for the compiler's output and the
  // runtime's state (and a compiled pack read back from another thread, runtime/transfer.ts).
  const namesOnly = ['runtime/table.ts', 'runtime/players.ts', 'runtime/kindOf.ts'];

  it('compiler/ imports dsl/, schemas/ and its own files, and runtime/ only for types (never the engine)', () => {
    const wrong = ourImports('compiler').filter((i) => !['compiler', 'dsl', 'schemas'].includes(folderOf(i.to)) && !(folderOf(i.to) === 'runtime' && (i.typeOnly || namesOnly.includes(i.to))));
    expect(wrong.map(at)).toEqual([]);
  });

  it('scenario/ and simulate/ build on the language, never on a front end', () => {
    const wrong = [...ourImports('scenario'), ...ourImports('simulate')].filter((i) => ['cli', 'playground', 'test', 'bench', 'scripts'].includes(folderOf(i.to)) || (folderOf(i.from) === 'scenario' && folderOf(i.to) === 'simulate'));
    expect(wrong.map(at)).toEqual([]);
  });

  it('nothing but tests, benchmarks and scripts imports the CLI or the playground', () => {
    const wrong = ['dsl', 'compiler', 'runtime', 'scenario', 'simulate', 'cli', 'playground']
      .flatMap(ourImports)
      .filter((i) => (folderOf(i.to) === 'cli' && folderOf(i.from) !== 'cli') || (folderOf(i.to) === 'playground' && folderOf(i.from) !== 'playground'));
    expect(wrong.map(at)).toEqual([]);
  });

  it('what the playground loads in the browser imports nothing of Node, however deep', () => {
    const seen = new Set<string>();
    const wrong: string[] = [];
    const visit = (path: string, via: string[]) => {
      if (seen.has(path)) return;
      seen.add(path);
      for (const i of source(path).imports) {
        if (isNode(i.spec)) wrong.push(`${[...via, path].join(' → ')}:${i.line} imports ${i.spec}`);
        if (i.target && !i.typeOnly && /\.tsx?$/.test(i.target) && existsSync(join(root, i.target))) visit(i.target, [...via, path]);
      }
    };
    for (const f of filesUnder('playground/src')) visit(f, []);
    expect(wrong).toEqual([]);
    // The walk reached the core the playground runs: the compiler, the runtime, the agents, the scenarios.
    for (const f of ['compiler/index.ts', 'runtime/index.ts', 'runtime/agents.ts', 'scenario/index.ts', 'dsl/parser.ts']) expect(seen, f).toContain(f);
  });
});

/** Every key the pack formats (schemas/*.schema.json) define: `type`, `markers`, `size` … */
function schemaKeys(): string[] {
  const keys: string[] = [];
  const visit = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(visit);
    else if (x && typeof x === 'object') {
      for (const [k, v] of Object.entries(x)) {
        if (k === 'properties' && v && typeof v === 'object') keys.push(...Object.keys(v));
        visit(v);
      }
    }
  };
  for (const f of readdirSync(join(root, 'schemas'))) visit(JSON.parse(readFileSync(join(root, 'schemas', f), 'utf8')));
  return keys;
}

/**
 * Words a pack may use for its own things that the core uses in its own sense: the language's
 * (keywords, special names, types, built-ins) and the pack format's keys, read from their tables.
 */
const languageWords = new Set<string>([
  ...keywordSet,
  ...specialNameSet,
  ...typeNames,
  ...builtinKinds,
  ...Object.values(contextualWords).flat(),
  ...builtinTable.keys(),
  ...schemaKeys(),
]);

/** Plain words of programming that name the core's own data, where the core uses them, and why. */
const ownWords: ReadonlyMap<string, { under: string; why: string }> = new Map([
  ['start', { under: '', why: 'where a span, a game or a run starts' }],
  ['size', { under: '', why: 'a Map’s or a Set’s size' }],
  ['target', { under: '', why: 'what a field expression reads, a translation’s target text, a link’s target' }],
  ['block', { under: '', why: 'a block of statements' }],
  ['blocks', { under: '', why: 'the lowered program’s blocks' }],
  ['base', { under: '', why: 'the pack a pack extends, the first slot of a check put in place, a pipeline’s base value' }],
  ['actions', { under: '', why: 'a pack’s table of actions, an offer’s actions' }],
  ['face', { under: 'compiler/', why: 'the type of a die’s faces' }],
  ['token', { under: 'dsl/', why: 'the lexer’s tokens' }],
  ['tokens', { under: 'dsl/', why: 'the lexer’s tokens' }],
  ['symbol', { under: 'compiler/symbols.ts', why: 'the editor’s symbol index' }],
  ['marker', { under: 'compiler/presentation.ts', why: 'the presentation format’s markers' }],
  ['normal', { under: 'compiler/text/', why: 'a card text’s claim about a pipeline’s normal value' }],
  ['picked', { under: 'compiler/text/', why: 'a card text’s claim about what a player picks' }],
  ['nothing', { under: '', why: 'what a log line says a player chose when they chose none' }],
  ['team', { under: 'runtime/agents/', why: 'the bots’ `:team` option' }],
  ['links', { under: 'runtime/builtins.ts', why: 'a compiled pack’s graph' }],
  ['pending', { under: 'runtime/engine.ts', why: 'events waiting to be emitted' }],
  ['stepsLeft', { under: 'runtime/budget.ts', why: 'the evaluation budget’s steps left' }],
]);

describe('the core names no game', () => {
  // Every entity id of the shipped packs (a race, a hero, a region, a card), and every word a pack
  // gives its own meaning to: its kinds and their plurals, fields, enums and their members, dice.
  const ids = new Map<string, string>();
  const words = new Map<string, string>();
  for (const dir of readdirSync(join(root, 'content'))) {
    const folder = join(root, 'content', dir);
    if (!existsSync(join(folder, 'pack.yaml'))) continue;
    const files = readPackFolder(folder);
    const { pack } = compile(files, { dependencies: dependenciesOf(folder, files) });
    if (!pack) throw new Error(`content/${dir} does not compile`);
    for (const id of Object.keys(pack.entities)) ids.set(id, `content/${dir}`);
    const name = (w: string, what: string) => words.set(w, `${what} of content/${dir}`);
    for (const [k, info] of Object.entries(pack.kinds)) {
      name(k, 'a kind');
      name(info.plural, 'a kind’s plural');
      for (const f of [...Object.keys(info.props), ...Object.keys(info.state)]) name(f, `a field of ${k}`);
    }
    for (const [e, members] of Object.entries(pack.enums)) {
      name(e, 'an enum');
      for (const m of members) name(m, `a member of ${e}`);
    }
    for (const d of Object.keys(pack.dice)) name(d, 'a die');
  }

  it('no identifier or string in dsl/, compiler/ or runtime/ is the id of a shipped pack’s entity', () => {
    expect(ids.size).toBeGreaterThan(100);
    const hits: string[] = [];
    for (const f of ['dsl', 'compiler', 'runtime'].flatMap(filesUnder)) {
      for (const w of source(f).words) if (ids.has(w)) hits.push(`${f}: \`${w}\` (${ids.get(w)})`);
    }
    expect(hits).toEqual([]);
  });

  it('no identifier or whole string in dsl/, compiler/ or runtime/ is a kind, field or enum word of a shipped pack, but for general words', () => {
    expect(words.size).toBeGreaterThan(100);
    const hits: string[] = [];
    for (const f of ['dsl', 'compiler', 'runtime'].flatMap(filesUnder)) {
      for (const w of source(f).names) {
        if (!words.has(w) || languageWords.has(w) || f.startsWith(ownWords.get(w)?.under ?? '\0')) continue;
        hits.push(`${f}: \`${w}\` (${words.get(w)})`);
      }
    }
    expect(hits).toEqual([]);
  });

  it('no text of dsl/, compiler/ or runtime/, comments included, names a game by its title', () => {
    // A title's parts (`Small World of Warcraft`, `Battle for Azeroth`), the run of capitalised words
    // it starts with when that is two words or more (`Small World`), in every language; and the test
    // packs that are games of their own (`Connect Four`, `Tic-tac-toe`), not one-word tests (`Lure`).
    const titles = new Set<string>();
    const titlesOf = (folder: string, games: boolean) => {
      for (const dir of readdirSync(folder)) {
        const manifest = join(folder, dir, 'pack.yaml');
        if (!existsSync(manifest)) continue;
        const names = Object.values((parse(readFileSync(manifest, 'utf8')) as { name: Record<string, string> }).name);
        for (const part of names.flatMap((n) => n.split(/[:()]/)).map((x) => x.trim()).filter(Boolean)) {
          const lead = part.match(/^(?:\p{Lu}[\p{L}-]*\s+)+\p{Lu}[\p{L}-]*/u)?.[0];
          if (games) titles.add(part);
          if (lead) titles.add(lead);
          if (part.includes('-')) titles.add(part);
        }
      }
    };
    titlesOf(join(root, 'content'), true);
    titlesOf(join(root, 'test', 'packs'), false);
    expect([...titles]).toEqual(expect.arrayContaining(['Small World', 'Wroth', 'Connect Four', 'Tic-tac-toe']));
    const hits: string[] = [];
    for (const f of ['dsl', 'compiler', 'runtime'].flatMap(filesUnder)) {
      const text = readFileSync(join(root, f), 'utf8').toLowerCase();
      for (const t of titles) if (new RegExp(`(?<![\\p{L}-])${t.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}-])`, 'u').test(text)) hits.push(`${f}: ${t}`);
    }
    expect(hits).toEqual([]);
  });

  it('no word in the code or strings of dsl/, compiler/ or runtime/ is a compound name of a shipped pack, an example’s `game.someDeck` included', () => {
    // A compound word (`drawPile`, `scourgeDeck`) is a pack's own coinage, never a general word.
    const compound = /^[a-z]+[A-Z]/;
    const hits: string[] = [];
    for (const f of ['dsl', 'compiler', 'runtime'].flatMap(filesUnder)) {
      for (const w of source(f).words) {
        if (!compound.test(w) || !words.has(w) || languageWords.has(w) || f.startsWith(ownWords.get(w)?.under ?? '\0')) continue;
        hits.push(`${f}: \`${w}\` (${words.get(w)})`);
      }
    }
    expect(hits).toEqual([]);
  });
});
