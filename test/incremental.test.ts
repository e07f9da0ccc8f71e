/**
 * A compile session (compiler/incremental.ts) gives what a cold compile gives: for runs of random
 * one-card edits of every shipped pack — comments, a stray character, a renamed declaration, a
 * changed number, a deleted line, a comment or a changed value outside the rules texts, an edit
 * undone — the session's diagnostics equal those of
 * `analyze` on the same files, and when the pack compiles, the two packs hold the same tables and
 * rules and play the same seeded random game step for step; so does a session's analysis lowered
 * afterwards (`lowerAnalysis`, as the playground's worker does); and the symbol index an editor
 * asks of the session is the one a cold analysis builds.
 */
import { describe, expect, it } from 'vitest';
import { analyze, compile, CompileSession, lowerAnalysis, type SourceFile } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { picker, playedDigest } from './helpers/seededGame.ts';

const PACKS = ['content/smallworld-wow', 'content/smallworld-wow-teams', 'content/wotlk', 'content/wroth'];
const EDITS = 16;

/** Where the rules texts of a file are: the lines of each `rules: |` block. */
function rulesLines(text: string): number[] {
  const lines = text.split('\n');
  const out: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = /^(\s*)(?:- )?rules: \|[-+]?$/.exec(lines[i]);
    if (!head) continue;
    for (let j = i + 1; j < lines.length && (lines[j].trim() === '' || lines[j].length - lines[j].trimStart().length > head[1].length); j++) if (lines[j].trim()) out.push(j);
  }
  return out;
}

type Edit = (text: string, pick: (n: number) => number) => string;

const edits: Record<string, Edit> = {
  comment: (text, pick) => {
    const lines = text.split('\n');
    const at = rulesLines(text);
    const i = at[pick(at.length)];
    const indent = /^\s*/.exec(lines[i])![0];
    lines.splice(i, 0, `${indent}# edited`);
    return lines.join('\n');
  },
  strayCharacter: (text, pick) => {
    const lines = text.split('\n');
    const at = rulesLines(text);
    const i = at[pick(at.length)];
    const col = /^\s*/.exec(lines[i])![0].length + pick(Math.max(1, lines[i].trim().length));
    lines[i] = `${lines[i].slice(0, col)}@${lines[i].slice(col)}`;
    return lines.join('\n');
  },
  rename: (text, pick) => {
    const names = [...text.matchAll(/\b(?:fn|proc|event|pipeline|action|check)\s+([A-Za-z_]\w*)/g)].map((m) => m[1]);
    if (!names.length) return edits.strayCharacter(text, pick);
    const name = names[pick(names.length)];
    return text.replace(new RegExp(`\\b(fn|proc|event|pipeline|action|check)(\\s+)${name}\\b`), `$1$2${name}Renamed`);
  },
  number: (text, pick) => {
    const lines = text.split('\n');
    const at = rulesLines(text).filter((i) => /\b\d+\b/.test(lines[i]));
    if (!at.length) return edits.comment(text, pick);
    const i = at[pick(at.length)];
    lines[i] = lines[i].replace(/\b(\d+)\b/, (n) => String(Number(n) + 1));
    return lines.join('\n');
  },
  // Outside the rules texts: a comment (the layout changes, the values do not) and a value.
  yamlComment: (text, pick) => {
    const lines = text.split('\n');
    const inRules = new Set(rulesLines(text));
    const at = lines.map((_, i) => i).filter((i) => !inRules.has(i) && /^\S/.test(lines[i]));
    lines.splice(at.length ? at[pick(at.length)] : lines.length, 0, '# edited outside the rules');
    return lines.join('\n');
  },
  yamlValue: (text, pick) => {
    const lines = text.split('\n');
    const inRules = new Set(rulesLines(text));
    const at = lines.map((_, i) => i).filter((i) => !inRules.has(i) && /:\s*\d+\s*$/.test(lines[i]));
    if (!at.length) return edits.yamlComment(text, pick);
    const i = at[pick(at.length)];
    lines[i] = lines[i].replace(/(\d+)(\s*)$/, (_, n, end) => `${Number(n) + 1}${end}`);
    return lines.join('\n');
  },
  deleteLine: (text, pick) => {
    const lines = text.split('\n');
    const at = rulesLines(text);
    lines.splice(at[pick(at.length)], 1);
    return lines.join('\n');
  },
};

describe('a compile session gives what a cold compile gives', () => {
  for (const dir of PACKS) {
    it(`${dir}: after each of ${EDITS} random edits`, () => {
      const original = readPackFolder(dir).filter((f) => !f.path.startsWith('scenarios/'));
      const dependencies = dependenciesOf(dir, readPackFolder(dir));
      const editable = original.filter((f) => rulesLines(f.text).length);
      expect(editable.length).toBeGreaterThan(0);
      const pick = picker(dir);
      const session = new CompileSession();
      let files: SourceFile[] = original;
      const kinds = new Set<string>();
      let compiled = 0;
      for (let step = 0; step <= EDITS; step++) {
        if (step > 0) {
          // Now and then back to the pack as shipped, as an undo would.
          if (step % 5 === 0) files = original;
          else {
            const file = editable[pick(editable.length)];
            const kind = Object.keys(edits)[pick(Object.keys(edits).length)];
            kinds.add(kind);
            const current = files.find((f) => f.path === file.path)!;
            files = files.map((f) => (f === current ? { path: f.path, text: edits[kind](f.text, pick) } : f));
          }
        }
        // Every other step the editor's way: checked first, lowered after (lowerAnalysis); every
        // other of the rest with the symbol index, as an editor asks for it once typing pauses.
        const symbols = step % 4 === 0;
        const warm = step % 2 ? lowerAnalysis(session.analyze(files, { dependencies, lower: false }), files, { dependencies }) : session.analyze(files, { dependencies, lower: true, symbols });
        const cold = analyze(files, { dependencies, lower: true, symbols });
        expect(warm.diagnostics, `step ${step}`).toEqual(cold.diagnostics);
        expect(!!warm.pack, `step ${step}`).toBe(!!cold.pack);
        if (symbols) {
          expect(cold.symbols?.symbols.size, `step ${step}`).toBeGreaterThan(0);
          expect((warm as typeof cold).symbols, `step ${step}`).toEqual(cold.symbols);
        }
        if (warm.pack && cold.pack) {
          compiled++;
          // The lowered tables and rules as data (the pack's functions aside), then as played.
          expect(JSON.stringify(warm.pack), `step ${step}`).toBe(JSON.stringify(cold.pack));
          expect(playedDigest(warm.pack, step, 60), `step ${step}`).toBe(playedDigest(cold.pack, step, 60));
        }
      }
      expect(compiled).toBeGreaterThan(2);
      expect(kinds.size).toBeGreaterThan(2);
    }, 240_000);
  }

  it('renaming a declaration the cards use reports their uses, and renaming it back clears them', () => {
    const dir = 'content/smallworld-wow';
    const original = readPackFolder(dir).filter((f) => !f.path.startsWith('scenarios/'));
    const session = new CompileSession();
    expect(session.analyze(original).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const file = original.find((f) => /\bevent conquered\b/.test(f.text))!;
    const renamed = original.map((f) => (f === file ? { path: f.path, text: f.text.replace(/\bevent conquered\b/, 'event conqueredRenamed') } : f));
    const broken = session.analyze(renamed);
    expect(broken.diagnostics).toEqual(analyze(renamed).diagnostics);
    expect(broken.diagnostics.some((d) => d.code === 'RB0505' && d.file.startsWith('races/'))).toBe(true);
    expect(session.analyze(original).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('a game function whose result type alone changes (no name does) reports at the cards that call it, and changing it back clears them', () => {
    const dir = 'content/smallworld-wow';
    const original = readPackFolder(dir).filter((f) => !f.path.startsWith('scenarios/'));
    const session = new CompileSession();
    expect(session.analyze(original).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const signature = 'fn feeToConquer(r: region): number';
    const file = original.find((f) => f.text.includes(signature))!;
    const retyped = original.map((f) => (f === file ? { path: f.path, text: f.text.replace(signature, 'fn feeToConquer(r: region): bool') } : f));
    const broken = session.analyze(retyped);
    expect(broken.diagnostics).toEqual(analyze(retyped).diagnostics);
    expect(broken.diagnostics.filter((d) => d.severity === 'error' && /^(races|powers)\//.test(d.file)).map((d) => d.file).sort()).toEqual(['powers/champions.yaml', 'races/ethereals.yaml', 'races/gnomes.yaml']);
    expect(session.analyze(original).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('a function added to the game’s rules that nothing calls is reported unused in a session as cold, and no more once it is gone', () => {
    const dir = 'content/smallworld-wow';
    const original = readPackFolder(dir).filter((f) => !f.path.startsWith('scenarios/'));
    const signature = 'fn feeToConquer(r: region): number';
    const file = original.find((f) => f.text.includes(signature))!;
    const added = original.map((f) => (f === file ? { path: f.path, text: f.text.replace(signature, `fn neverCalled(): number = 1\n  ${signature}`) } : f));
    const session = new CompileSession();
    expect(session.analyze(original).diagnostics).toEqual([]);
    const warm = session.analyze(added);
    expect(warm.diagnostics).toEqual(analyze(added).diagnostics);
    expect(warm.diagnostics.map((d) => [d.code, d.file, d.message])).toEqual([['RB0540', file.path, 'the function `neverCalled` is never called']]);
    expect(session.analyze(original).diagnostics).toEqual([]);
  });

  // Each rule is added to a card's rules and taken away again; the whole-pack checks read what the
  // session replays and what they derived from it before (compiler/incremental.ts).
  const added: Array<[code: string, rule: string]> = [
    ['RB0620', 'on turnEnded(p) when p == holder {\n  for r in inPlay() where owner == holder {\n    r.beasts += 1\n  }\n}'],
    ['RB0557', 'on turnEnded(p) when p == holder {\n  for r in inPlay() where owner == holder {\n    reach r\n    r.tokens -= 1\n  }\n}'],
    ['RB0540', 'fn spareCount(): number = 1'],
    ['RB0551', 'modify conquestCost(r) = conquestCost(r) + 1'],
    ['RB0531', 'on conquered(r, attacker, loser, lostRace) when attacker == holder {\n  emit conquered(r, attacker, loser, lostRace, 0, 0)\n}'],
  ];
  it('the whole-pack checks (guards, field writers, unused names, recursion, event rings) report in a session what they report cold', () => {
    const dir = 'content/smallworld-wow';
    const original = readPackFolder(dir).filter((f) => !f.path.startsWith('scenarios/'));
    const card = 'races/orcs.yaml';
    const withRule = (rule: string) => original.map((f) => (f.path === card ? { path: f.path, text: f.text.replace(/(\n {4}rules: \|\n)/, `$1${rule.split('\n').map((l) => `      ${l}\n`).join('')}`) } : f));
    const session = new CompileSession();
    expect(session.analyze(original).diagnostics).toEqual(analyze(original).diagnostics);
    for (const [code, rule] of added) {
      const files = withRule(rule);
      const warm = session.analyze(files);
      expect(warm.diagnostics, code).toEqual(analyze(files).diagnostics);
      expect(warm.diagnostics.map((d) => d.code), code).toContain(code);
      // Again, everything replayed: what the checks derived is reported from the records.
      expect(session.analyze(files).diagnostics, code).toEqual(warm.diagnostics);
      expect(session.analyze(original).diagnostics, code).toEqual(analyze(original).diagnostics);
    }
  });

  // What a file declares of the vocabulary is read once per file text (compiler/declare.ts): each
  // edit is taken back after, and the reference is a compile of texts no cache has seen (a comment
  // added at the end of every file, which moves nothing before it).
  const vocabularyEdits: Array<[code: string, file: string, from: RegExp, to: string]> = [
    ['RB0211', 'vocabulary.yaml', /fields, caves/, 'fields, cave'],
    ['RB0207', 'vocabulary.yaml', /side: text/, 'side: txt'],
    ['RB0215', 'markers.yaml', /wellCount: number/, 'wellCount: number\n      terrain: number'],
    ['RB0558', 'vocabulary.yaml', /loweredOnlyBy: \[rout,/, 'loweredOnlyBy: [routed,'],
    ['RB0214', 'markers.yaml', /\n {2}region:\n {4}state:/, '\n  region:\n    props:\n      level: number\n    state:'],
    ['RB0201', 'markers.yaml', /\nkinds:/, '\nenums:\n  faction: [red, blue]\nkinds:'],
    ['RB0202', 'rules/game.yaml', /reinforcement: \[0, 0, 0, 1, 2, 3\]/, 'reinforcement: [0, 0, none, 1, 2, 3]'],
    ['RB0301', 'rules/game.yaml', /active: players where race == self/, 'active: players where race == == self'],
    ['RB0301', 'rules/game.yaml', /score: it\.coins/, 'score: it.coins +'],
  ];
  it('edits of the vocabulary (enums, kinds, fields, writers, roles, dice, the score) report in a session what they report in a compile of texts never seen', () => {
    const dir = 'content/smallworld-wow';
    const original = readPackFolder(dir).filter((f) => !f.path.startsWith('scenarios/'));
    const session = new CompileSession();
    const unseen = (files: SourceFile[], tag: string) => files.map((f) => ({ path: f.path, text: `${f.text}\n# ${tag}\n` }));
    expect(session.analyze(original).diagnostics).toEqual(analyze(unseen(original, 'start')).diagnostics);
    vocabularyEdits.forEach(([code, path, from, to], i) => {
      expect(original.find((f) => f.path === path)?.text, code).toMatch(from);
      const files = original.map((f) => (f.path === path ? { path, text: f.text.replace(from, to) } : f));
      const warm = session.compile(files);
      const cold = compile(unseen(files, `edit ${i}`));
      expect(warm.diagnostics, code).toEqual(cold.diagnostics);
      expect(warm.diagnostics.map((d) => d.code), code).toContain(code);
      const undone = session.compile(original);
      const fresh = compile(unseen(original, `undone ${i}`));
      expect(undone.diagnostics, code).toEqual(fresh.diagnostics);
      expect(JSON.stringify(undone.pack), code).toBe(JSON.stringify(fresh.pack));
    });
  });

  // A file edited in its cards alone (its vocabulary as and where it was, the same cards by kind and
  // id) is declared again alone; the rest of the declarations are the last compile's
  // (compiler/declareMemo.ts), kinds and all; and the rules are checked again only where they
  // changed, a card's values being no part of what checking reads (compiler/incremental.ts).
  it('an edit of cards alone declares again only the files it changed, and gives what a cold compile gives', () => {
    const dir = 'content/smallworld-wow';
    const original = readPackFolder(dir).filter((f) => !f.path.startsWith('scenarios/'));
    const card = 'races/orcs.yaml';
    // The first race after the Orcs in the order files are declared in: made a second `orcs`, its clash is reported there, pointing at the Orcs' line.
    const later = original.filter((f) => f.path > card && /^ {2}- race: \w+/m.test(f.text)).sort((a, b) => a.path.localeCompare(b.path))[0];
    const edit = (files: SourceFile[], path: string, from: RegExp | string, to: string) => files.map((f) => (f.path === path ? { path, text: f.text.replace(from, to) } : f));
    const clash = edit(original, later.path, /^( {2}- race: )\w+/m, '$1orcs');
    const withKind = 'races/draenei.yaml';
    // Whether the declarations are the last compile's (`taken`), and the checker's tables (`kept`): a kind moved in its file is declared again, but no rule reads where it is.
    const steps: Array<[what: string, files: SourceFile[], code: string | undefined, taken: boolean, kept: boolean]> = [
      ['another number', edit(original, card, /tokens: 6/, 'tokens: 7'), undefined, true, true],
      ['a number that is no number', edit(original, card, /tokens: 6/, 'tokens: many'), 'RB0218', true, true],
      ['a faction that is none', edit(original, card, /faction: horde/, 'faction: hord'), 'RB0211', true, true],
      ['a rule that does not check', edit(original, card, /holder\.coins \+= 1/, 'holder.coins += true'), 'RB0501', true, true],
      ['back as shipped', original, undefined, true, true],
      ['a second card called orcs', clash, 'RB0205', false, false],
      ['the first orcs moved down two lines', edit(clash, card, /\nentities:/, '\n# moved\n# down\nentities:'), 'RB0205', true, true],
      ['a card file that declares an enum', edit(original, card, /\nentities:/, '\nenums:\n  mood: [calm, angry]\nentities:'), undefined, false, false],
      ['again as shipped', original, undefined, false, false],
      // A card beside a kind its file declares: the kind is where it was, so only the card is declared again.
      ['a rule of a card below a kind', edit(original, withKind, /holder\.hand \+= 1/, 'holder.hand += 2'), undefined, true, true],
      ['a number of a card below a kind', edit(original, withKind, /tokens: 7/, 'tokens: 8'), undefined, true, true],
      ['the kind moved down a line', edit(original, withKind, /\nkinds:/, '\n# moved\nkinds:'), undefined, false, true],
      ['a field added to the kind', edit(original, withKind, /graceUsed: bool/, 'graceUsed: bool\n      graceCount: number'), undefined, false, false],
    ];
    const session = new CompileSession();
    let last = session.analyze(original);
    expect(last.diagnostics).toEqual(analyze(original).diagnostics);
    for (const [what, files, code, taken, kept] of steps) {
      const warm = session.analyze(files, { lower: true, symbols: true });
      const cold = analyze(files, { lower: true, symbols: true });
      expect(warm.diagnostics, what).toEqual(cold.diagnostics);
      if (code) expect(warm.diagnostics.map((d) => d.code), what).toContain(code);
      expect(warm.symbols, what).toEqual(cold.symbols);
      expect(JSON.stringify(warm.pack), what).toBe(JSON.stringify(cold.pack));
      expect(JSON.stringify(warm.presentation), what).toBe(JSON.stringify(cold.presentation));
      expect(warm.declared!.kinds === last.declared!.kinds, what).toBe(taken);
      // The checker's tables are those of the last compile's environment (compiler/incremental.ts) when nothing a rule is checked against changed.
      expect(warm.checked!.types === last.checked!.types, what).toBe(kept);
      last = warm;
    }
  });

  it('a session edited many times in one environment keeps giving what a cold compile gives (its tables made anew as they fill)', () => {
    const original = readPackFolder('test/packs/tictactoe').filter((f) => !f.path.startsWith('scenarios/'));
    const file = original.find((f) => rulesLines(f.text).length)!;
    const session = new CompileSession();
    const pick = picker('tables');
    let files = original;
    // About 90 entries a step: past 80 steps the tables have been made anew at least once.
    for (let step = 0; step < 80; step++) {
      files = step % 7 === 6 ? original : original.map((f) => (f === file ? { path: f.path, text: edits.comment(f.text, pick) } : f));
      const warm = session.analyze(files, { lower: true });
      const cold = analyze(files, { lower: true });
      expect(warm.diagnostics, `step ${step}`).toEqual(cold.diagnostics);
      expect(playedDigest(warm.pack!, step, 60), `step ${step}`).toBe(playedDigest(cold.pack!, step, 60));
    }
  });

  // A declaration set aside (a duplicate, a `proc` on a card) is never checked, so the passes over
  // every rules text skip it: the tables may hold entries for its tree from an earlier compile in
  // which the same text stood where it was checked, or, for one text in two of the game's files,
  // from the other file.
  it('a declaration set aside is skipped by the field writers, in a session as cold, whichever text it was before', () => {
    const tiny = readPackFolder('test/packs/tiny').filter((f) => !f.path.startsWith('scenarios/'));
    const raises = 'proc p2(x: player) {\n    x.points += 5\n  }';
    const lowers = 'proc p2(x: player) {\n    x.points -= 0\n  }';
    const gameText = (card: string) =>
      tiny
        .find((f) => f.path === 'game.yaml')!
        .text.replace('      points: number', '      points: { type: number, raisedOnlyBy: [award] }')
        .replace('  action pass "Pass" { }', '  action pass "Pass" { }\n  proc award(p: player) {\n    p.points += 1\n  }')
        .replace('    terrain: hills\n    next: [b]', `    terrain: hills\n    next: [b]${card ? `\n    rules: |\n      ${card.replace(/\n/g, '\n    ')}` : ''}`);
    const pack = (a: string, b: string, card = ''): SourceFile[] => [
      ...tiny.filter((f) => f.path !== 'game.yaml'),
      { path: 'game.yaml', text: gameText(card) },
      { path: 'a.yaml', text: `rules: |\n  ${a}\n` },
      ...(b ? [{ path: 'b.yaml', text: `rules: |\n  ${b}\n` }] : []),
    ];
    const at = (r: ReturnType<typeof analyze>, code: string) => r.diagnostics.filter((d) => d.code === code).map((d) => `${d.file}:${d.line}`);
    // b.yaml's p2 is the duplicate; a card's proc is refused: either way only a.yaml's raise is reported.
    const steps: Array<[what: string, files: SourceFile[], set: string]> = [
      ['the raise checked, the duplicate lowers', pack(raises, lowers), 'RB0402'],
      ['the texts swapped', pack(lowers, raises), 'RB0402'],
      ['swapped back', pack(raises, lowers), 'RB0402'],
      ['one text in both files', pack(raises, raises), 'RB0402'],
      ['a card holds the raise', pack(lowers, '', raises), 'RB0401'],
      ['the game holds the raise, the card the other', pack(raises, '', lowers), 'RB0401'],
      ['the card holds the raise again', pack(lowers, '', raises), 'RB0401'],
    ];
    const session = new CompileSession();
    for (const [what, files, set] of steps) {
      const cold = analyze(files);
      expect(session.analyze(files).diagnostics, what).toEqual(cold.diagnostics);
      expect(at(cold, set), what).toHaveLength(1);
      const raised = files.find((f) => f.path === 'a.yaml')!.text.includes('+= 5');
      const claim = `game.yaml:${files.find((f) => f.path === 'game.yaml')!.text.split('\n').findIndex((l) => l.includes('me.points += claimValue(s)')) + 1}`;
      expect(at(cold, 'RB0557').filter((x) => x !== claim), what).toEqual(raised ? ['a.yaml:3'] : []);
    }
  });

  // The symbol index reads the checker's tables by node as the field writers do: a declaration set
  // aside has no entries of its own there, but a session's tables may hold some from a compile in
  // which the same tree was checked, and one tree may stand in two of the game's files.
  it('a declaration set aside gives the symbol index what a cold compile gives, in a session: its name a use, nothing of its body', () => {
    const tiny = readPackFolder('test/packs/tiny').filter((f) => !f.path.startsWith('scenarios/'));
    const first = 'proc p2(x: player) {\n    let gain = 5\n    x.points += gain\n  }';
    const second = 'proc p2(x: player) {\n    let loss = 0\n    x.points -= loss\n  }';
    const withCard = (card: string) =>
      tiny.find((f) => f.path === 'game.yaml')!.text.replace('    terrain: hills\n    next: [b]', `    terrain: hills\n    next: [b]${card ? `\n    rules: |\n      ${card.replace(/\n/g, '\n    ')}` : ''}`);
    const pack = (a: string, b: string, card = ''): SourceFile[] => [
      ...tiny.filter((f) => f.path !== 'game.yaml'),
      { path: 'game.yaml', text: withCard(card) },
      ...(a ? [{ path: 'a.yaml', text: `rules: |\n  ${a}\n` }] : []),
      ...(b ? [{ path: 'b.yaml', text: `rules: |\n  ${b}\n` }] : []),
    ];
    const steps: Array<[what: string, files: SourceFile[]]> = [
      ['b.yaml alone', pack('', first)],
      ['a.yaml before it, b.yaml set aside', pack(second, first)],
      ['the texts swapped', pack(first, second)],
      ['swapped back', pack(second, first)],
      ['one text in both files', pack(first, first)],
      ['a card holds it', pack('', '', first)],
      ['the game holds it, the card the other', pack(first, '', second)],
    ];
    const session = new CompileSession();
    for (const [what, files] of steps) {
      const cold = analyze(files, { symbols: true });
      const warm = session.analyze(files, { symbols: true });
      expect(warm.diagnostics, what).toEqual(cold.diagnostics);
      expect(warm.symbols, what).toEqual(cold.symbols);
      if (what === 'a.yaml before it, b.yaml set aside') {
        const p2 = cold.symbols!.symbols.get('proc:p2')!;
        expect([p2.defs.map((d) => d.file), p2.hover]).toEqual([['a.yaml'], '```\nproc p2(x: player)\n```\n*proc* declared at `a.yaml:2`']);
        expect(cold.symbols!.occurrences.get('b.yaml')!.map((o) => [o.key, o.def])).toEqual([['proc:p2', false]]);
      }
    }
  });

  // A procedure's body is no part of the environment: a card's guard report through it is kept
  // with the card (`unitFact`) and must be derived again when the game's rules change.
  it('a game procedure whose body alone changes reports again at the card that calls it, in a session as cold', () => {
    const original = readPackFolder('content/smallworld-wow').filter((f) => !f.path.startsWith('scenarios/'));
    const rule = 'on turnEnded(p) when p == holder {\n  for r in inPlay() where owner == holder {\n    zap(r)\n  }\n}';
    const withCard = original.map((f) => (f.path === 'races/orcs.yaml' ? { path: f.path, text: f.text.replace(/(\n {4}rules: \|\n)/, `$1${rule.split('\n').map((l) => `      ${l}\n`).join('')}`) } : f));
    expect(withCard.find((f) => f.path === 'rules/conquest.yaml')!.text).toMatch(/\nrules: \|\n/);
    const game = (body: string) => withCard.map((f) => (f.path === 'rules/conquest.yaml' ? { path: f.path, text: f.text.replace(/\nrules: \|\n/, `\nrules: |\n  proc zap(r: region) {\n    ${body}\n  }\n`) } : f));
    const session = new CompileSession();
    for (const [body, changes] of [['r.beasts += 0', true], ['let n = 1', false], ['r.beasts += 1', true], ['let n = 1', false]] as const) {
      const cold = analyze(game(body));
      expect(session.analyze(game(body)).diagnostics, body).toEqual(cold.diagnostics);
      expect(cold.diagnostics.filter((d) => d.code === 'RB0620').map((d) => d.file), body).toEqual(changes ? ['races/orcs.yaml'] : []);
    }
  });
});
