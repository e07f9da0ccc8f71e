/**
 * The checklists of docs/architecture.md ("how to add a built-in", "how to add a statement") held
 * against the code: every keyword of the language table is a token of the lexer, parses where the
 * table says, and is in docs/language.md; every built-in has a signature, an implementation and a
 * doc row; every diagnostic code the compiler reports is in the codes table, with one message
 * shape and an example from the golden tests.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { builtins } from '../compiler/builtins.ts';
import { codeTable, diagnosticCodes, messagePattern } from '../compiler/codes.ts';
import { clauseKeywords, declarations, keywordNames, specialNames, statements } from '../dsl/language.ts';
import { keywords, rulesLexer } from '../dsl/lexer.ts';
import { parseRules } from '../dsl/parser.ts';
import { BUILTINS } from '../runtime/builtins.ts';
import { GOLDEN_DIR, goldenExamples } from '../scripts/docs.ts';

const languageDoc = readFileSync('docs/language.md', 'utf8');
const architecture = readFileSync('docs/architecture.md', 'utf8');

/** The words of a rules text, as the lexer reads them. */
const tokenNames = (text: string) => rulesLexer.tokenize(text).tokens.map((t) => t.tokenType.name);

describe('the language table', () => {
  it('has each keyword once, and the lexer makes a keyword token of each', () => {
    expect(new Set(keywordNames).size).toBe(keywordNames.length);
    for (const k of keywordNames) {
      const lexed = rulesLexer.tokenize(k);
      expect(lexed.tokens.map((t) => t.tokenType), k).toEqual([keywords[k]]);
    }
    // A word that only starts with a keyword is a name (`format` is not `for` + `mat`).
    for (const k of keywordNames) expect(tokenNames(`${k}x`), k).toEqual(['Ident']);
  });

  it('parses the example of every declaration into a declaration of its kind', () => {
    for (const d of declarations) {
      const r = parseRules(d.example);
      expect(r.errors, d.example).toEqual([]);
      expect(r.value!.decls.map((x) => x.kind), d.example).toEqual([d.keyword]);
    }
  });

  it('parses the example of every statement into a statement of its kind', () => {
    for (const s of statements) {
      const r = parseRules(`flow { ${s.example} }`);
      expect(r.errors, s.example).toEqual([]);
      const flow = r.value!.decls[0];
      expect(flow.kind === 'flow' && flow.body.stmts.map((x) => x.kind), s.example).toEqual([s.keyword]);
    }
  });

  it('parses the example of every other keyword, which uses it', () => {
    for (const c of clauseKeywords) {
      expect(parseRules(c.example).errors, c.example).toEqual([]);
      expect(tokenNames(c.example), c.example).toContain(`Kw_${c.keyword}`);
    }
  });

  it('is documented: docs/language.md shows every declaration, statement, keyword and special name', () => {
    for (const d of declarations) expect(languageDoc, d.keyword).toContain(`| \`${d.keyword} `);
    for (const s of statements) expect(languageDoc, s.keyword).toMatch(new RegExp(`\\| \`${s.keyword}\\b`));
    for (const c of clauseKeywords) expect(languageDoc, c.keyword).toMatch(new RegExp(`\\b${c.keyword}\\b[^\`]*\``));
    for (const n of specialNames) expect(languageDoc, n.name).toContain(`\`${n.name}\``);
  });
});

describe('built-in functions', () => {
  it('each has a signature from its data, an implementation in runtime/builtins.ts, and a row in docs/language.md', () => {
    for (const b of builtins) {
      expect(b.signature, b.name).toBe(`${b.name}(${b.params.map((p) => (p.perElement ? `${p.type} per element` : p.type)).join(', ')}): ${b.returns}`);
      expect(b.arity, b.name).toBe(b.params.length);
      expect(BUILTINS.has(b.name), `${b.name} has no implementation in runtime/builtins.ts`).toBe(true);
      expect(languageDoc, b.name).toContain(`| \`${b.signature.replace(/\|/g, '\\|')}\` |`);
    }
  });

  it('the runtime implements no built-in the compiler does not know', () => {
    expect([...BUILTINS.keys()].sort()).toEqual(builtins.map((b) => b.name).sort());
  });
});

/** Every `'RB1234'` written in the compiler's sources. */
function codesInSources(): Map<string, string> {
  const found = new Map<string, string>();
  for (const dir of ['compiler', 'compiler/text', 'dsl']) {
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.ts'))) {
      if (`${dir}/${f}` === 'compiler/codes.ts') continue;
      for (const m of readFileSync(`${dir}/${f}`, 'utf8').matchAll(/'(RB\d{4})'/g)) found.set(m[1], `${dir}/${f}`);
    }
  }
  return found;
}

/** Every diagnostic printed in the golden files: its code and message. */
function goldenMessages(): Array<{ file: string; severity: string; code: string; message: string }> {
  const out: Array<{ file: string; severity: string; code: string; message: string }> = [];
  for (const file of readdirSync(GOLDEN_DIR).filter((f) => f.endsWith('.expected.txt'))) {
    for (const m of readFileSync(`${GOLDEN_DIR}/${file}`, 'utf8').matchAll(/^\S+: (error|warning) (RB\d{4}): (.*)$/gm)) out.push({ file, severity: m[1], code: m[2], message: m[3] });
  }
  return out;
}

describe('diagnostic codes', () => {
  it('are listed once each', () => {
    expect(codeTable.size).toBe(diagnosticCodes.length);
  });

  it('every code the compiler reports is in compiler/codes.ts', () => {
    for (const [code, file] of codesInSources()) expect(codeTable.has(code), `${code} (${file}) is not in compiler/codes.ts`).toBe(true);
  });

  it('every code in the table is reported somewhere', () => {
    const used = codesInSources();
    for (const c of diagnosticCodes) expect(used.has(c.code), `${c.code} is in the table but reported nowhere`).toBe(true);
  });

  it('every code has an example from the golden tests (or says why none can be made)', () => {
    const examples = goldenExamples();
    for (const c of diagnosticCodes) expect(examples.has(c.code) || !!c.noExample, `${c.code} has no golden example: add a case to test/golden/golden.test.ts`).toBe(true);
  });

  it('every message in the golden files has its code’s one shape and severity', () => {
    const seen = goldenMessages();
    expect(seen.length).toBeGreaterThan(diagnosticCodes.length);
    for (const d of seen) {
      const c = codeTable.get(d.code);
      expect(c, `${d.file}: ${d.code}`).toBeDefined();
      expect(d.message, `${d.file}: ${d.code}`).toMatch(messagePattern(c!));
      expect(d.severity, `${d.file}: ${d.code}`).toBe(c!.severity);
    }
  });
});

describe('docs/architecture.md', () => {
  it('has the checklists this test enforces', () => {
    expect(architecture).toContain('## How to add a built-in');
    expect(architecture).toContain('## How to add a statement');
  });
});
