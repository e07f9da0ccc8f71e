/**
 * The law of compile sessions, as a property: after any sequence of edits, of any kind, a session's
 * analysis equals a cold one of the same files — the diagnostics, order included, the lowered pack
 * (as data, and as played), and the symbol index. fast-check draws the sequences (and shrinks a
 * failing one to a short story); each edit is a kind and a seed that picks where it lands in the
 * files as they are at that step: a card's rule changed, a declaration renamed (its users elsewhere
 * must report), deleted, added or copied from elsewhere, a type changed, an edit undone (an error
 * introduced then fixed), a language file edited, a schema-level error, a YAML comment or value.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze, CompileSession, lowerAnalysis, type SourceFile } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { picker, playedDigest } from './helpers/seededGame.ts';

const PACKS = ['content/smallworld-wow', 'content/wotlk'];
const RUNS = 4;
const STEPS = 8;

type Pick = (n: number) => number;

/** A `rules: |` block of a file: its lines (first, past the last) and their indent. */
interface Block {
  first: number;
  end: number;
  indent: string;
}

function rulesBlocks(lines: string[]): Block[] {
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = /^(\s*)(?:- )?rules: \|[-+]?$/.exec(lines[i]);
    if (!head) continue;
    let j = i + 1;
    while (j < lines.length && (lines[j].trim() === '' || lines[j].length - lines[j].trimStart().length > head[1].length)) j++;
    let end = j;
    while (end > i + 1 && lines[end - 1].trim() === '') end--;
    const body = lines.slice(i + 1, end).filter((l) => l.trim());
    if (body.length) out.push({ first: i + 1, end, indent: /^\s*/.exec(body[0])![0] });
  }
  return out;
}

const DECL = /^(?:override\s+)?(?:fn|proc|event|pipeline|action|check|guard|on|modify|setup|flow|invariant)\b/;

/** The declarations of a block, as line ranges: each starts at the block's indent and runs to the next. */
function declarations(lines: string[], b: Block): Array<[number, number]> {
  const starts: number[] = [];
  for (let i = b.first; i < b.end; i++) if (lines[i].startsWith(b.indent) && !/^\s/.test(lines[i].slice(b.indent.length)) && DECL.test(lines[i].trim())) starts.push(i);
  return starts.map((s, k) => [s, k + 1 < starts.length ? starts[k + 1] : b.end]);
}

function rulesLines(lines: string[]): number[] {
  return rulesBlocks(lines).flatMap((b) => Array.from({ length: b.end - b.first }, (_, k) => b.first + k).filter((i) => lines[i].trim() && !lines[i].trim().startsWith('#')));
}

/** The pack as edited so far, its files as shipped, and the seeded pick of this edit. */
interface At {
  files: SourceFile[];
  original: SourceFile[];
  pick: Pick;
}

/** Edits one file chosen among those `where` accepts; `undefined` when none is. */
function editFile(at: At, where: (f: SourceFile, lines: string[]) => boolean, change: (lines: string[], f: SourceFile) => string[] | undefined): SourceFile[] | undefined {
  const candidates = at.files.filter((f) => f.path.endsWith('.yaml') && where(f, f.text.split('\n')));
  if (!candidates.length) return undefined;
  const file = candidates[at.pick(candidates.length)];
  const changed = change(file.text.split('\n'), file);
  if (!changed) return undefined;
  return at.files.map((f) => (f === file ? { path: f.path, text: changed.join('\n') } : f));
}

const withRules = (_f: SourceFile, lines: string[]) => rulesBlocks(lines).length > 0;

type Edit = (at: At) => SourceFile[] | undefined;

const edits: Record<string, Edit> = {
  ruleNumber: (at) =>
    editFile(at, withRules, (lines) => {
      const where = rulesLines(lines).filter((i) => /\b\d+\b/.test(lines[i]));
      if (!where.length) return undefined;
      const i = where[at.pick(where.length)];
      lines[i] = lines[i].replace(/\b(\d+)\b/, (n) => String(Number(n) + 1 + at.pick(3)));
      return lines;
    }),
  ruleStray: (at) =>
    editFile(at, withRules, (lines) => {
      const where = rulesLines(lines);
      const i = where[at.pick(where.length)];
      const col = /^\s*/.exec(lines[i])![0].length + at.pick(Math.max(1, lines[i].trim().length));
      lines[i] = `${lines[i].slice(0, col)}${['@', ' + ', ')', 'x'][at.pick(4)]}${lines[i].slice(col)}`;
      return lines;
    }),
  renameDeclaration: (at) =>
    editFile(at, withRules, (lines) => {
      const where = rulesLines(lines).filter((i) => /^\s*(?:override\s+)?(?:fn|proc|event|pipeline|action|check|guard)\s+[A-Za-z_]\w*/.test(lines[i]));
      if (!where.length) return undefined;
      const i = where[at.pick(where.length)];
      lines[i] = lines[i].replace(/^(\s*(?:override\s+)?(?:fn|proc|event|pipeline|action|check|guard)\s+)([A-Za-z_]\w*)/, '$1$2Renamed');
      return lines;
    }),
  deleteDeclaration: (at) =>
    editFile(at, withRules, (lines) => {
      const all = rulesBlocks(lines).flatMap((b) => declarations(lines, b));
      if (!all.length) return undefined;
      const [s, e] = all[at.pick(all.length)];
      lines.splice(s, e - s);
      return lines;
    }),
  // A declaration copied from another rules text (a duplicate, or names unknown where it lands), or one of a few written here.
  addDeclaration: (at) => {
    const sources = at.files.flatMap((f) => {
      const lines = f.text.split('\n');
      return rulesBlocks(lines).flatMap((b) => declarations(lines, b).map(([s, e]) => lines.slice(s, e).map((l) => l.slice(b.indent.length))));
    });
    const written = [['fn addedHelper(): number = 1'], ['fn addedBroken(): number = missingName + 1'], ['on noSuchEvent() {', '}'], ['fn addedText(): text = 1']];
    const pool = [...written, ...sources];
    const decl = pool[at.pick(pool.length)];
    return editFile(at, withRules, (lines) => {
      const blocks = rulesBlocks(lines);
      const b = blocks[at.pick(blocks.length)];
      lines.splice(b.end, 0, ...decl.map((l) => (l.trim() ? b.indent + l : l)));
      return lines;
    });
  },
  typeChanged: (at) =>
    editFile(
      at,
      (f) => /:\s*(number|bool|text)\b/.test(f.text),
      (lines) => {
        const where = lines.map((_, i) => i).filter((i) => /:\s*(number|bool|text)\b/.test(lines[i]) && !lines[i].trim().startsWith('#'));
        if (!where.length) return undefined;
        const i = where[at.pick(where.length)];
        const other: Record<string, string> = { number: 'bool', bool: 'text', text: 'number' };
        lines[i] = lines[i].replace(/(:\s*)(number|bool|text)\b/, (_, sep, t) => sep + other[t]);
        return lines;
      },
    ),
  // Back to the file as shipped: whatever error an edit brought in is fixed.
  undo: (at) => {
    const changed = at.files.filter((f) => at.original.find((o) => o.path === f.path)?.text !== f.text);
    if (!changed.length) return undefined;
    const file = changed[at.pick(changed.length)];
    return at.files.map((f) => (f === file ? at.original.find((o) => o.path === f.path)! : f));
  },
  languageFile: (at) =>
    editFile(
      at,
      (f) => f.path.startsWith('language/'),
      (lines) => {
        const where = lines.map((_, i) => i).filter((i) => /:\s*\S/.test(lines[i]) && !lines[i].trim().startsWith('#'));
        if (!where.length) return undefined;
        const i = where[at.pick(where.length)];
        const kind = at.pick(3);
        if (kind === 0) lines[i] = lines[i].replace(/(["\w])(\s*\]?\s*}?\s*)$/, '$1e$2');
        else if (kind === 1) lines[i] = lines[i].replace(/^(\s*)([\w"-]+):/, '$1$2Edited:');
        else lines[i] = lines[i].replace(/:\s*.*$/, ': 5');
        return lines;
      },
    ),
  schemaError: (at) =>
    editFile(
      at,
      () => true,
      (lines) => {
        const kind = at.pick(4);
        if (kind === 0) return [...lines, 'bogusKey: 1'];
        if (kind === 1) return [...lines, 'entities: [unclosed'];
        const where = lines.map((_, i) => i).filter((i) => /^\s+\w+:\s*\d+\s*$/.test(lines[i]));
        if (!where.length) return [...lines, 'kinds: 7'];
        const i = where[at.pick(where.length)];
        lines[i] = kind === 2 ? lines[i].replace(/\d+\s*$/, 'many') : `${lines[i]}\n${lines[i]}`;
        return lines;
      },
    ),
  yamlComment: (at) =>
    editFile(
      at,
      () => true,
      (lines) => {
        const inRules = new Set(rulesLines(lines));
        const where = lines.map((_, i) => i).filter((i) => !inRules.has(i) && /^\S/.test(lines[i]));
        lines.splice(where.length ? where[at.pick(where.length)] : lines.length, 0, '# edited outside the rules');
        return lines;
      },
    ),
  yamlValue: (at) =>
    editFile(
      at,
      (f) => /:\s*\d+\s*$/m.test(f.text),
      (lines) => {
        const inRules = new Set(rulesLines(lines));
        const where = lines.map((_, i) => i).filter((i) => !inRules.has(i) && /:\s*\d+\s*$/.test(lines[i]));
        if (!where.length) return undefined;
        const i = where[at.pick(where.length)];
        lines[i] = lines[i].replace(/(\d+)(\s*)$/, (_, n, end) => `${Number(n) + 1}${end}`);
        return lines;
      },
    ),
};

const step = fc.record({ kind: fc.constantFrom(...Object.keys(edits)), seed: fc.nat() });

describe('a compile session equals a cold compile after any sequence of edits', () => {
  for (const dir of PACKS) {
    it(`${dir}: ${RUNS} random sequences of ${STEPS} edits`, () => {
      const original = readPackFolder(dir).filter((f) => !f.path.startsWith('scenarios/'));
      const dependencies = dependenciesOf(dir, readPackFolder(dir));
      const kinds = new Set<string>();
      fc.assert(
        fc.property(fc.array(step, { minLength: STEPS, maxLength: STEPS }), (sequence) => {
          const session = new CompileSession();
          let files = original;
          // The session starts from the pack as shipped, as an editor opening it does.
          expect(session.analyze(files, { dependencies }).diagnostics).toEqual(analyze(files, { dependencies }).diagnostics);
          sequence.forEach(({ kind, seed }, n) => {
            const edited = edits[kind]({ files, original, pick: picker(`${kind} ${seed}`) });
            if (edited) {
              files = edited;
              kinds.add(kind);
            }
            const story = `edit ${n}: ${kind} ${seed}`;
            // The editor's two ways: checked, then lowered (lowerAnalysis), or all at once with the symbol index.
            const warm = n % 2 ? lowerAnalysis(session.analyze(files, { dependencies, lower: false }), files, { dependencies }) : session.analyze(files, { dependencies, lower: true, symbols: true });
            const cold = analyze(files, { dependencies, lower: true, symbols: n % 2 === 0 });
            expect(warm.diagnostics, story).toEqual(cold.diagnostics);
            expect(!!warm.pack, story).toBe(!!cold.pack);
            if (n % 2 === 0) expect((warm as typeof cold).symbols, story).toEqual(cold.symbols);
            if (warm.pack && cold.pack) {
              expect(JSON.stringify(warm.pack), story).toBe(JSON.stringify(cold.pack));
              if (n % 3 === 0) expect(playedDigest(warm.pack, n, 30), story).toBe(playedDigest(cold.pack, n, 30));
            }
          });
        }),
        { numRuns: RUNS, seed: 12, endOnFailure: true },
      );
      // Most kinds of edit landed somewhere (a kind may find nothing to edit in a pack).
      expect(kinds.size).toBeGreaterThan(Object.keys(edits).length / 2);
    }, 600_000);
  }
});
