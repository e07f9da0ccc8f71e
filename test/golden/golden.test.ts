import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, formatDiagnostic, type Diagnostic, type SourceFile } from '../../compiler/index.ts';
import { readPackFolder } from '../../compiler/packFolder.ts';

/**
 * Golden diagnostics: broken copies of the Small World pack, each made by a small edit of the real
 * files, and the messages the author would see, kept in `<case>.expected.txt`. The expected files
 * are meant to be read: each message should say what is wrong, where, why, and what to write.
 *
 * After an intended change of wording or of the pack: `UPDATE_GOLDEN=1 npx vitest run test/golden`.
 * Diagnostics the unbroken pack has too are left out (test/packs.test.ts checks that it compiles),
 * so only line numbers move these files when the pack is edited elsewhere.
 */

const here = fileURLToPath(new URL('.', import.meta.url));
const packDir = fileURLToPath(new URL('../../content/smallworld-wow', import.meta.url));
const update = !!process.env.UPDATE_GOLDEN;

type Edit = (files: Map<string, string>) => void;

/** Replaces the one occurrence of `from` in a file; the anchor must exist, so a drifted pack fails loudly. */
const replace =
  (path: string, from: string, to: string): Edit =>
  (files) => {
    const text = files.get(path);
    if (text === undefined) throw new Error(`the pack has no file ${path}`);
    const at = text.indexOf(from);
    if (at < 0) throw new Error(`${path} no longer contains ${JSON.stringify(from)}: update this golden case`);
    files.set(path, text.slice(0, at) + to + text.slice(at + from.length));
  };

/** Adds rules lines at the top of a file's `rules: |` block (indented like the block). */
const addRules = (path: string, ...lines: string[]): Edit => replace(path, 'rules: |\n', `rules: |\n${lines.map((l) => `  ${l}\n`).join('')}`);

const addFile =
  (path: string, text: string): Edit =>
  (files) => {
    files.set(path, text);
  };

const removeFile =
  (path: string): Edit =>
  (files) => {
    if (!files.delete(path)) throw new Error(`the pack has no file ${path}`);
  };

/** A rules file of its own, one declaration a line. */
const rulesFile = (path: string, ...lines: string[]): Edit => addFile(path, `rules: |\n${lines.map((l) => `  ${l}\n`).join('')}`);

interface Case {
  name: string;
  /** What the author did, shown at the top of the expected file. */
  edit: string;
  edits: Edit[];
  /** Packs this one needs, by id (their files). */
  dependencies?: Record<string, SourceFile[]>;
  /** Makes files in an empty folder, which is read with the pack's folder reader and added to the pack. */
  folder?: (dir: string) => void;
}

const cases: Case[] = [
  {
    name: 'misspelled-terrain',
    edit: 'a rule compares terrain with `hils`',
    edits: [addRules('rules/scoring.yaml', 'fn hillsHeld(p: player): number = count(regions where owner == p and terrain == hils)')],
  },
  {
    name: 'unknown-entity-key',
    edit: 'races/orcs.yaml: `faction:` misspelled as `fraction:`',
    edits: [replace('races/orcs.yaml', '    faction: horde', '    fraction: horde')],
  },
  {
    name: 'unknown-file-key',
    edit: 'races/orcs.yaml: `entities:` misspelled as `entites:`',
    edits: [replace('races/orcs.yaml', 'entities:', 'entites:')],
  },
  {
    name: 'wrong-value-type',
    edit: 'races/orcs.yaml: `tokens: 6` written as `tokens: six`',
    edits: [replace('races/orcs.yaml', '    tokens: 6', '    tokens: six')],
  },
  {
    name: 'wrong-type-in-rule',
    edit: 'a function returns a number where a bool is declared, and a proc adds a terrain to a number',
    edits: [addRules('rules/scoring.yaml', 'fn isRich(p: player): bool = p.coins', 'proc tax(r: region) { r.tokens += r.terrain }')],
  },
  {
    name: 'unknown-name',
    edit: 'a rule says `regoins` and calls `activeRegion` (both misspelled)',
    edits: [addRules('rules/scoring.yaml', 'proc tally(p: player) {', '  p.coins += count(regoins where owner == p)', '  p.coins += count(activeRegion(p))', '}')],
  },
  {
    name: 'duplicate-id',
    edit: 'races/humans.yaml: the humans entity given the id `orcs`',
    edits: [replace('races/humans.yaml', '  - race: humans', '  - race: orcs')],
  },
  {
    name: 'duplicate-declaration',
    edit: 'a second `fn opposes` in another rules file',
    edits: [addRules('rules/redeploy.yaml', 'fn opposes(a: faction?, b: faction?): bool = a != b')],
  },
  {
    name: 'missing-dependency',
    edit: 'pack.yaml: `extends: nope`',
    edits: [replace('pack.yaml', 'languages:', 'extends: nope\nlanguages:')],
  },
  {
    name: 'malformed-yaml',
    edit: 'races/orcs.yaml: the `name:` mapping is not closed',
    edits: [replace('races/orcs.yaml', 'pl: "Orkowie" }', 'pl: "Orkowie"')],
  },
  {
    name: 'proc-calls-itself',
    edit: 'a proc that calls itself (it could loop forever)',
    edits: [addRules('rules/scoring.yaml', 'proc spread(r: region) {', '  for n in neighbours(r) { spread(n) }', '}')],
  },
  {
    name: 'roll-in-fn',
    edit: 'a `fn` rolls a die (a value may not use randomness)',
    edits: [addRules('rules/scoring.yaml', 'fn lucky(): number = roll(reinforcement) + random(3)')],
  },
  {
    name: 'syntax-errors',
    edit: 'a `let` without a name, and a proc missing its closing `}`',
    edits: [
      addRules('rules/scoring.yaml', 'proc oops(p: player) {', '  let = 3', '}'),
      addFile('rules/unclosed.yaml', 'rules: |\n  proc unclosed(p: player) {\n    if p.coins > 3 {\n      p.coins -= 1\n    }\n'),
    ],
  },
  {
    name: 'card-declares-proc',
    edit: 'a race card’s rules declare a `proc`, and its `on` names no event',
    edits: [replace('races/orcs.yaml', '    rules: |\n', '    rules: |\n      proc raid(p: player) { p.coins += 1 }\n      on conquerd(r) { holder.coins += 1 }\n')],
  },
  // ─── One case per group of codes, so that every code has an example in docs/diagnostics.md ───
  {
    name: 'manifest-values',
    edit: 'pack.yaml: no `version`, an id with capitals, `rulebook: soon`, players.min above players.max',
    edits: [
      replace('pack.yaml', 'version: 0.1.0\n', ''),
      replace('pack.yaml', 'id: smallworld-wow', 'id: Small_World'),
      replace('pack.yaml', 'rulebook: ^0.1 ', 'rulebook: soon '),
      replace('pack.yaml', 'players: { min: 2, max: 5 }', 'players: { min: 5, max: 2 }'),
    ],
  },
  {
    name: 'manifest-shapes',
    edit: 'pack.yaml: `players: 5`, no languages, and a rules language version this compiler does not read',
    edits: [replace('pack.yaml', 'players: { min: 2, max: 5 }', 'players: 5'), replace('pack.yaml', 'languages: [en, pl, de]', 'languages: []'), replace('pack.yaml', 'rulebook: ^0.1 ', 'rulebook: ^9 ')],
  },
  {
    name: 'no-manifest',
    edit: 'pack.yaml deleted',
    edits: [removeFile('pack.yaml')],
  },
  {
    name: 'needed-packs',
    edit: 'pack.yaml: depends on `tiny@^2` (version 1.0.0 is there) and extends itself',
    edits: [replace('pack.yaml', 'languages:', 'extends: smallworld-wow\ndependsOn: [tiny@^2]\nlanguages:')],
    dependencies: { tiny: [{ path: 'pack.yaml', text: 'id: tiny\nversion: 1.0.0\nname: { en: Tiny }\nlanguages: [en]\nplayers: { min: 1, max: 2 }\n' }] },
  },
  {
    name: 'file-too-large',
    edit: 'a 3 MB file of comments in the pack',
    edits: [addFile('notes.yaml', '# filler\n'.repeat(350_000))],
  },
  {
    name: 'yaml-documents',
    edit: 'a key given twice, a file of two YAML documents, and aliases that multiply a list a million times',
    edits: [
      replace('races/orcs.yaml', '    tokens: 6\n', '    tokens: 6\n    tokens: 7\n'),
      addFile('extra.yaml', 'enums:\n  colour: [red]\n---\nenums:\n  shade: [dark]\n'),
      addFile('bomb.yaml', `a: &a [x, x, x, x, x, x, x, x, x, x]\n${'bcdef'.split('').map((k, i) => `${k}: &${k} [${Array(10).fill(`*${'abcde'[i]}`).join(', ')}]`).join('\n')}\n`),
    ],
  },
  {
    name: 'dangling-link',
    edit: 'a link to a file that does not exist, among the pack files',
    edits: [],
    folder: (dir) => symlinkSync(join(dir, 'gone.yaml'), join(dir, 'extra.yaml')),
  },
  {
    name: 'field-names',
    edit: 'zz-fields.yaml: a kind whose fields are named `held by` and `2nd`',
    edits: [addFile('zz-fields.yaml', ['kinds:', '  marker:', '    state:', '      "held by": player?', '      2nd: number', ''].join('\n'))],
  },
  {
    name: 'yaml-declarations',
    edit: 'a file that declares enums, kinds, dice and entities wrongly',
    edits: [
      addFile(
        'zz-broken.yaml',
        [
          'enums:',
          '  terrain: [glacier]',
          '  colour: [red, red]',
          'dice:',
          '  mixed: [1, hit]',
          'kinds:',
          '  board:',
          '    props:',
          '      extra: number',
          '  region:',
          '    state:',
          '      tokens: number',
          '      weird: "list<"',
          '      bare: list',
          '      strange: colur',
          '  power:',
          '    defaultRole: nowhere',
          '  race:',
          '    roles:',
          '      numbered: count(players)',
          'entities:',
          '  - regoin: r_x',
          '  - {}',
          '  - marker: me',
          '  - marker: stray',
          '  - marker: empty',
          '    type:',
          '  - marker: odd',
          '    type: relic',
          '  - region: r_y',
          '    board: nowhere',
          '    terrain: hills',
          '    adjacent: r_x',
          '  - region: r_z',
          '    board: orcs',
          '    terrain: hills',
          '',
        ].join('\n'),
      ),
    ],
  },
  {
    name: 'rule-declarations',
    edit: 'rules that override nothing, a second flow, a card that declares an action twice, a name JavaScript reserves, and a value nested too deeply',
    edits: [
      rulesFile(
        'rules/broken.yaml',
        'override fn fresh(): number = 1',
        'override on turnStarted(p) { }',
        'flow { }',
        'fn constructor(): number = 1',
        `fn deep(): number = ${'-'.repeat(201)}1`,
      ),
      replace('races/orcs.yaml', '    rules: |\n', '    rules: |\n      action shout "Shout" with conquer { }\n      action shout "Shout" with conquer { }\n      action whisper "Whisper" { }\n      on turnStarted(p) while nowhere { }\n'),
    ],
  },
  {
    name: 'rule-types',
    edit: 'rules whose values have the wrong types or shapes',
    edits: [
      rulesFile(
        'rules/broken.yaml',
        'pipeline flag(): bool min 1 = true',
        'fn fieldOfNumber(): number = 3.tokens',
        'fn missing(r: region): number = r.height',
        'fn never(r: region): bool = r.owner == r.terrain',
        'fn wrongEnum(r: region): bool = r.terrain == horde',
        'fn branches(): number = if true then 1 else false',
        'fn notList(): number = count(3 where true)',
        'fn mixed(): list<number> = [1, true]',
        'fn badSum(): number = sum(3, 1)',
        'fn plusBool(): number = true + 1',
        'fn inList(): bool = 1 in [true]',
        'fn one(x: number): number = x',
        'fn callsOne(): number = one()',
        'fn absBoth(): number = abs(1, 2)',
        'fn loopy(x: number): number = loopy(x)',
        'fn itless(): number = it',
        'fn selfless(): number = self.tokens',
        'fn far(a: race, b: race): number = distance(a, b)',
      ),
    ],
  },
  {
    name: 'rule-statements',
    edit: 'statements that cannot do what they say',
    edits: [
      rulesFile(
        'rules/broken.yaml',
        'action helper "Help" with nothing { }',
        'action pickNumber(n: number) { }',
        'on turnStarted(p, extra) { }',
        'on turnStarted(p) while active { }',
        'modify nothing(r) = 1',
        'proc withDomain(n: number in 1..3) { }',
        'proc twice(p: player) { let p = 1 }',
        'proc addToOwner(r: region) { r.owner += 1 }',
        'proc brk() { break }',
        'proc offerNone(p: player) { offer p: nothing }',
        'proc useless() { count(regions) }',
        'proc repaint(r: region) { r.terrain = hills }',
        'proc act() { }',
        'fn usesProc(): number = act()',
        'proc rollNumber() { let x = roll(3) }',
        'proc shuffleNumber() { shuffle game.round }',
        'event ping()',
        'on ping() { emit ping() }',
      ),
    ],
  },
  {
    name: 'statement-shapes',
    edit: 'values written where a statement, a field to change or a text hole belongs (the grammar reads them, the checker refuses them)',
    edits: [
      rulesFile(
        'rules/broken.yaml',
        'proc sameAs(r: region) { r.tokens == 2 }',
        'proc renameCall(r: region) { neighbours(r) = [] }',
        'proc shuffleNumber() { shuffle 3 }',
        'proc unclosed(p: player) { log "{p} gains {" }',
        'proc emptyHole(p: player) { log "{p} gains {1 +} coins" }',
      ),
    ],
  },
  {
    name: 'guards',
    edit: 'a card that changes a region without `reach`, a `reach` of a player, a second guard of regions, and a guard of two things',
    edits: [
      replace('races/orcs.yaml', '    rules: |\n', '    rules: |\n      action fortify(r: region in inPlay()) "Fortify {r}" with conquer { r.fortress = true }\n      action greet(p: player) "Greet {p}" with conquer { reach p }\n'),
      rulesFile('rules/zz-guards.yaml', 'guard alsoInReach(r: region) { }', 'guard pair(a: region, b: region) { }'),
    ],
  },
  {
    name: 'no-flow',
    edit: 'rules/game.yaml: the `flow` renamed into a procedure (and a first rules file, a-first.yaml)',
    // The message points at the first rules of the pack: a file that sorts first keeps it in one place.
    edits: [replace('rules/game.yaml', '  flow {\n', '  proc playGame() {\n'), rulesFile('a-first.yaml', 'event firstOfAll()')],
  },
  {
    name: 'unused-function',
    edit: 'a function nothing calls (a warning: the pack still compiles)',
    edits: [addRules('rules/scoring.yaml', 'fn unusedHelper(): number = 1')],
  },
  {
    name: 'field-writers',
    edit: 'a game counter lowered only by `spendFavour`, lowered by the setup itself; another names a procedure that does not exist; a printed property said to change only by a procedure',
    edits: [
      addFile(
        'rules/zz-favour.yaml',
        [
          'kinds:',
          '  game:',
          '    state:',
          '      favour: { type: number, loweredOnlyBy: [spendFavour] }',
          '      grace: { type: number, raisedOnlyBy: [grantGrace] }',
          '  zzFavourToken:',
          '    props:',
          '      worth: { type: number, changedOnlyBy: [spendFavour] }',
          'rules: |',
          '  proc spendFavour(n: number) {',
          '    game.favour -= min(n, game.favour)',
          '    log "{n} favour spent"',
          '  }',
          '  setup {',
          '    game.favour += 3',
          '    game.favour -= 1',
          '    spendFavour(1)',
          '    game.grace += 1',
          '  }',
          '',
        ].join('\n'),
      ),
    ],
  },
  {
    name: 'check-misuse',
    edit: 'shared checks misused: one that applies itself, one that changes the game, a require with no reason, a check used as a value',
    edits: [
      rulesFile(
        'rules/zz-checks.yaml',
        'check rested(p: player) {',
        '  require rested(p)',
        '}',
        'check paid(p: player) {',
        '  p.coins -= 1',
        '  require p.coins >= 0 else "{p} has no coins left"',
        '}',
        'action zzRest "Rest" {',
        '  require me.coins > 0',
        '  require paid(me) else "no coins"',
        '  require rested(me)',
        '  require paid(me)',
        '}',
      ),
    ],
  },
  {
    name: 'presentation-names',
    edit: 'presentation.yaml: a misspelt kind, field and colour name, and a count that is no number',
    edits: [
      replace('presentation.yaml', '      fill: terrain', '      fill: terain'),
      replace('presentation.yaml', '    race:\n      fill: faction', '    rase:\n      fill: faction'),
      replace('presentation.yaml', '    lake: "#8cbde6"', '    lak: "#8cbde6"'),
      replace('presentation.yaml', '{ count: beasts,', '{ count: declined,'),
    ],
  },
];

function broken(c: Case): SourceFile[] {
  const files = new Map(readPackFolder(packDir).map((f) => [f.path, f.text]));
  for (const e of c.edits) e(files);
  const out: SourceFile[] = [...files].map(([path, text]) => ({ path, text }));
  if (c.folder) {
    const dir = mkdtempSync(join(tmpdir(), 'rulebook-golden-'));
    try {
      c.folder(dir);
      out.push(...readPackFolder(dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return out;
}

/**
 * A diagnostic by what it says and on which line text, not by line number: how a diagnostic of
 * the unbroken pack is recognised in a broken copy whose lines have moved.
 */
function key(d: Diagnostic, texts: Map<string, string>): string {
  return `${d.file}|${d.code}|${d.message}|${texts.get(d.file)?.split('\n')[d.line - 1] ?? ''}`;
}

let baseline: Map<string, number> | undefined;
/** What the unbroken pack already reports (nothing, when the content is sound; its own test says so). */
function unbrokenDiagnostics(): Map<string, number> {
  if (!baseline) {
    const files = readPackFolder(packDir);
    const texts = new Map(files.map((f) => [f.path, f.text]));
    baseline = new Map();
    for (const d of compile(files).diagnostics) baseline.set(key(d, texts), (baseline.get(key(d, texts)) ?? 0) + 1);
  }
  return baseline;
}

function render(c: Case, files: SourceFile[]): string {
  const texts = new Map(files.map((f) => [f.path, f.text]));
  const known = new Map(unbrokenDiagnostics());
  const result = compile(files, { dependencies: c.dependencies });
  // Only what the edit caused: content being edited elsewhere must not change these files.
  const diagnostics = result.diagnostics.filter((d) => {
    const n = known.get(key(d, texts)) ?? 0;
    if (n) known.set(key(d, texts), n - 1);
    return !n;
  });
  const head = `# ${c.edit}\n# ${diagnostics.length} diagnostic(s)${result.pack ? ', and the pack still compiled' : ''}\n`;
  return `${head}\n${diagnostics.map((d) => formatDiagnostic(d, texts.get(d.file))).join('\n\n')}\n`;
}

describe('golden diagnostics', () => {
  // The unbroken pack is compiled once for every case; on a busy machine that alone takes seconds.
  beforeAll(() => void unbrokenDiagnostics(), 120_000);

  for (const c of cases) {
    it(c.name, () => {
      const actual = render(c, broken(c));
      const file = `${here}${c.name}.expected.txt`;
      if (update || !existsSync(file)) {
        writeFileSync(file, actual);
        if (!update) throw new Error(`wrote ${c.name}.expected.txt: check it by eye and commit it`);
        return;
      }
      expect(actual).toBe(readFileSync(file, 'utf8'));
    });
  }
});
