/**
 * The language services every editor offers, answered from the compiler's symbol index and the
 * language's own tables: completion, hover, definitions, references, rename and quick fixes.
 * Editor-agnostic (offsets into a file's text in, plain data out), so the playground's Monaco
 * providers and the language server (`rulebook lsp`) give the same answers.
 */
import { builtinTable } from './builtins.ts';
import type { Diagnostic } from './diagnostic.ts';
import { inRules, occurrenceAt, occurrencesOf, type Occurrence, type Place, type SymbolIndex, type SymbolInfo } from './symbols.ts';
import { keywordDocs, keywordNames, specialNames } from '../dsl/language.ts';

/** What a word of a pack file is: a name, or a YAML key, an entity id (ids may hold `-`). */
export const WORD_PATTERN = /[A-Za-z_][A-Za-z0-9_-]*/g;

/** A word of a file: its text and offsets (end exclusive). */
export interface Word {
  word: string;
  start: number;
  end: number;
}

/** The word around an offset (touching it on either side), as editors find it. */
export function wordAt(text: string, offset: number): Word | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = text.indexOf('\n', offset);
  const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
  for (const m of line.matchAll(WORD_PATTERN)) {
    const start = lineStart + m.index;
    if (start <= offset && offset <= start + m[0].length) return { word: m[0], start, end: start + m[0].length };
  }
  return undefined;
}

/** The part of the word before an offset, where a completion goes. */
export function wordBefore(text: string, offset: number): Word {
  const w = wordAt(text, offset);
  return w && w.start < offset ? { word: text.slice(w.start, offset), start: w.start, end: offset } : { word: '', start: offset, end: offset };
}

/**
 * The symbol named by a word. The index is of the text last compiled: while the designer types
 * ahead of it, a name is looked up by its spelling when the occurrence there no longer matches.
 */
export function symbolOf(idx: SymbolIndex, file: string, word: Word, offset: number): SymbolInfo | undefined {
  const at = occurrenceAt(idx, file, offset);
  const exact = at && idx.symbols.get(at.key);
  if (exact && (exact.name === word.word || exact.kind === 'kind')) return exact;
  return [...idx.symbols.values()].find((s) => s.name === word.word && s.kind !== 'local');
}

/** Is an offset inside rules text? A block scalar goes on while its lines are indented as deep as its first. */
export function rulesHere(idx: SymbolIndex, file: string, text: string, offset: number): boolean {
  if (inRules(idx, file, offset)) return true;
  const before = (idx.rules.get(file) ?? []).filter((p) => p.end <= offset && p.end <= text.length).sort((a, b) => b.end - a.end)[0];
  if (!before) return false;
  const indent = before.start - (text.lastIndexOf('\n', before.start - 1) + 1);
  const between = text.slice(before.end, offset).split('\n');
  return between.every((line, i) => i === between.length - 1 || !line.trim() || line.length - line.trimStart().length >= indent);
}

export type CompletionKind = SymbolInfo['kind'] | 'keyword' | 'special' | 'builtin';

export interface Completion {
  label: string;
  kind: CompletionKind;
  detail: string;
  /** Markdown. */
  documentation?: string;
  /** Orders the list: names of this pack and the language's first where they fit. */
  sortText: string;
}

/** What may be written at an offset: field names after a dot; else the pack's names, and in rules text the language's. */
export function completionsAt(idx: SymbolIndex, file: string, text: string, offset: number): Completion[] {
  const word = wordBefore(text, offset);
  const lineBefore = text.slice(text.lastIndexOf('\n', word.start - 1) + 1, word.start);
  const out: Completion[] = [];
  const seen = new Set<string>();
  const add = (label: string, kind: CompletionKind, detail: string, documentation?: string, sort = '5') => {
    if (seen.has(label)) return;
    seen.add(label);
    out.push({ label, kind, detail, documentation, sortText: `${sort}${label}` });
  };
  const symbols = [...idx.symbols.values()];
  const fields = new Map<string, string[]>();
  for (const s of symbols) if (s.kind === 'field') fields.set(s.name, [...(fields.get(s.name) ?? []), s.detail]);
  if (lineBefore.endsWith('.')) {
    for (const [name, details] of fields) add(name, 'field', details.join(', '), undefined, '1');
    return out;
  }
  for (const s of symbols) {
    if (s.kind === 'entity' || s.kind === 'member') add(s.name, s.kind, s.detail, s.hover, '2');
    else if (s.kind === 'kind' || s.kind === 'enum') add(s.name, s.kind, s.detail, undefined, '3');
  }
  if (rulesHere(idx, file, text, offset)) {
    for (const s of symbols) if (s.kind === 'event' || s.kind === 'fn' || s.kind === 'pipeline' || s.kind === 'proc' || s.kind === 'action') add(s.name, s.kind, s.detail, s.hover, '1');
    for (const [name, details] of fields) add(name, 'field', details.join(', '), undefined, '4');
    for (const k of keywordNames) add(k, 'keyword', 'keyword', keywordDocs.get(k), '0');
    for (const n of specialNames) add(n.name, 'special', n.type, n.doc, '0');
    for (const b of builtinTable.values()) add(b.name, 'builtin', b.signature, `${b.doc}\n\n\`${b.example}\``, '1');
  }
  return out;
}

const special = new Map<string, (typeof specialNames)[number]>(specialNames.map((s) => [s.name, s]));

/** The hover of the word at an offset (Markdown): a name of the pack, a built-in, a special name or a keyword. */
export function hoverAt(idx: SymbolIndex, file: string, text: string, offset: number): { markdown: string; word: Word } | undefined {
  const word = wordAt(text, offset);
  if (!word) return undefined;
  const symbol = symbolOf(idx, file, word, offset);
  if (symbol) return { markdown: symbol.hover, word };
  if (text.slice(0, word.start).endsWith('.')) return undefined;
  const builtin = builtinTable.get(word.word);
  if (builtin) return { markdown: `\`\`\`\n${builtin.signature}\n\`\`\`\n${builtin.doc}\n\nExample: \`${builtin.example}\``, word };
  const name = special.get(word.word);
  if (name) return { markdown: `**${name.name}** (${name.type}): ${name.doc}`, word };
  const doc = keywordDocs.get(word.word);
  if (doc) return { markdown: `**keyword** \`${word.word}\`: ${doc}`, word };
  return undefined;
}

/** Where the name at an offset is declared, leaving out the declaration the offset is already in. */
export function definitionsAt(idx: SymbolIndex, file: string, text: string, offset: number): Place[] {
  const word = wordAt(text, offset);
  const symbol = word && symbolOf(idx, file, word, offset);
  if (!symbol) return [];
  return symbol.defs.filter((p) => !(p.file === file && offset >= p.start && offset <= p.end));
}

/** Every occurrence of the name at an offset, its declarations included, across the pack. */
export function referencesAt(idx: SymbolIndex, file: string, text: string, offset: number): Occurrence[] {
  const word = wordAt(text, offset);
  const symbol = word && symbolOf(idx, file, word, offset);
  return symbol ? occurrencesOf(idx, symbol.key) : [];
}

/** A name a rename may give: a word of the language that is no keyword. */
export function validNewName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !keywordDocs.has(name);
}

/**
 * The spans a rename of the name at an offset rewrites, or why it cannot: every occurrence must be
 * in this pack's own files (a base pack's names belong to the base) and spell the name as declared.
 */
export function renameAt(idx: SymbolIndex, file: string, text: string, offset: number, newName: string): { edits: Occurrence[] } | { refused: string } {
  const word = wordAt(text, offset);
  const symbol = word && symbolOf(idx, file, word, offset);
  if (!symbol) return { refused: 'there is no name of this pack here' };
  if (!validNewName(newName)) return { refused: `\`${newName}\` is not a name: a letter or _ then letters, digits or _, and no keyword` };
  const edits = occurrencesOf(idx, symbol.key);
  if (edits.some((o) => o.file.includes(':'))) return { refused: `\`${symbol.name}\` is declared or used in a pack this one extends; rename it there` };
  return { edits };
}

/**
 * Where a diagnostic's fix applies: its span, or the word at it when the span is empty (a marker
 * needs something to underline, and the fix replaces what is underlined).
 */
export function diagnosticSpan(d: Diagnostic, text: string): { start: number; end: number } {
  if (d.endOffset > d.offset) return { start: d.offset, end: d.endOffset };
  const word = wordAt(text, d.offset);
  return word ? { start: word.start, end: word.end } : { start: d.offset, end: Math.min(d.offset + 1, text.length) };
}

/** The safe fixes of a file's diagnostics whose span meets a range (offsets, both ends included). */
export function fixesIn(diagnostics: readonly Diagnostic[], file: string, text: string, start: number, end: number): Array<{ d: Diagnostic; start: number; end: number }> {
  return diagnostics
    .filter((d) => d.file === file && d.fix?.safe)
    .map((d) => ({ d, ...diagnosticSpan(d, text) }))
    .filter((f) => f.start <= end && f.end >= start);
}

/** The title of a fix, as every editor shows it. */
export function fixTitle(d: Diagnostic): string {
  return d.fix?.replacement ? `Replace with \`${d.fix.replacement}\`` : 'Remove';
}
