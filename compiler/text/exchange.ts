import { po } from 'gettext-parser';
import { jsToXliff12, xliff12ToJs, xliff2js } from 'xliff';
import { isMap, isScalar, type Scalar, type YAMLMap } from 'yaml';
import { documentOf } from '../load.ts';
import { rendererFor, type TextContext } from './index.ts';

/**
 * The translators' formats: every card's text in one language, with the source language beside it
 * and the card's rendering from its rules as context, written as gettext PO or XLIFF 1.2 (what
 * Poedit, Weblate, Crowdin and spreadsheets' converters read), and read back into the pack's YAML.
 */

export type ExchangeFormat = 'po' | 'xliff';

/** One card's text as a translator sees it. */
export interface ExchangeEntry {
  id: string;
  /** The pack file that declares the card, relative to the pack folder. */
  file: string;
  line: number;
  source: string;
  target: string;
  /** The card rendered from its rules, in the source language and in the target language. */
  canonicalSource: string;
  canonicalTarget: string;
}

export interface Exchange {
  pack: string;
  sourceLang: string;
  lang: string;
  entries: ExchangeEntry[];
}

/** The language a translator translates from: English when the pack has it, else the first other declared one. */
export function sourceLanguageOf(ctx: TextContext, lang: string): string {
  const langs = ctx.analysis.declared!.manifest.languages.filter((l) => l !== lang);
  return langs.includes('en') ? 'en' : (langs[0] ?? lang);
}

/** Every card of the pack's own files (not those it extends) that has rules or a text. */
export function exchangeOf(ctx: TextContext, lang: string, ownFiles: ReadonlySet<string>): Exchange {
  const sourceLang = sourceLanguageOf(ctx, lang);
  const source = rendererFor(ctx, sourceLang);
  const target = rendererFor(ctx, lang);
  const entries: ExchangeEntry[] = [];
  for (const card of ctx.cards) {
    const e = card.entity;
    if (!ownFiles.has(e.file.path)) continue;
    const canonicalSource = source.card(card.claims, card.entity).text;
    entries.push({
      id: e.id,
      file: e.file.path,
      line: lineOf(e.file.text, e.at.start),
      source: e.text[sourceLang] ?? canonicalSource,
      target: e.text[lang] ?? '',
      canonicalSource,
      canonicalTarget: target.card(card.claims, card.entity).text,
    });
  }
  return { pack: ctx.analysis.declared!.manifest.id, sourceLang, lang, entries };
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function context(x: Exchange, e: ExchangeEntry): string {
  const lines = [`card ${e.id}`, `from the rules (${x.sourceLang}): ${e.canonicalSource}`];
  if (x.lang !== x.sourceLang) lines.push(`from the rules (${x.lang}): ${e.canonicalTarget}`);
  return lines.join('\n');
}

/** A PO file: msgctxt is the card id (so two cards with the same source text stay apart). */
export function toPo(x: Exchange): string {
  const translations: Record<string, Record<string, { msgctxt: string; msgid: string; msgstr: string[]; comments: { reference: string; extracted: string } }>> = Object.create(null);
  for (const e of x.entries) {
    translations[e.id] = Object.create(null);
    translations[e.id][e.source] = { msgctxt: e.id, msgid: e.source, msgstr: [e.target], comments: { reference: `${e.file}:${e.line}`, extracted: context(x, e) } };
  }
  const headers = { 'Project-Id-Version': x.pack, Language: x.lang, 'Source-Language': x.sourceLang, 'Content-Type': 'text/plain; charset=UTF-8', 'X-Generator': 'rulebook text --export po' };
  return po.compile({ charset: 'utf-8', headers, translations }, { foldLength: 0 }).toString('utf8');
}

/** An XLIFF 1.2 file: one `<file>` per pack file, one `<trans-unit>` per card, the rules' rendering as its note. */
export function toXliff(x: Exchange): string {
  const resources: Record<string, Record<string, { source: string; target: string; note: string }>> = Object.create(null);
  for (const e of x.entries) {
    resources[e.file] ??= Object.create(null);
    resources[e.file][e.id] = { source: e.source, target: e.target, note: context(x, e) };
  }
  // A pack with no card of its own still says its languages, in an empty `<file>`.
  if (!x.entries.length) resources['pack.yaml'] = Object.create(null);
  let out = '';
  jsToXliff12({ sourceLanguage: x.sourceLang, targetLanguage: x.lang, resources }, { indent: '  ' }, (err: Error | null, xml: string) => {
    if (err) throw err;
    out = xml;
  });
  return out + '\n';
}

/** A translated file read back: its language and each card's text; cards left untranslated are absent. */
export interface Imported {
  format: ExchangeFormat;
  lang?: string;
  texts: Map<string, string>;
}

export class ExchangeError extends Error {}

/** Reads a PO or XLIFF (1.2 or 2.0) file, whichever it is. */
export function parseExchange(content: string): Imported {
  const trimmed = content.trimStart();
  if (trimmed.startsWith('<')) return parseXliff(content);
  return parsePo(content);
}

function parsePo(content: string): Imported {
  let table;
  try {
    table = po.parse(content);
  } catch (e) {
    throw new ExchangeError(`this is neither an XLIFF file nor a readable PO file: ${(e as Error).message}`);
  }
  if (!table?.translations) throw new ExchangeError('this is neither an XLIFF file nor a PO file with entries');
  const texts = new Map<string, string>();
  for (const [ctxt, byId] of Object.entries(table.translations)) {
    if (!ctxt) continue;
    for (const t of Object.values(byId)) {
      const text = t.msgstr[0] ?? '';
      if (text) texts.set(t.msgctxt ?? ctxt, text);
    }
  }
  return { format: 'po', lang: table.headers?.Language || undefined, texts };
}

function parseXliff(content: string): Imported {
  const version = /<xliff[^>]*\bversion\s*=\s*["']([^"']+)["']/.exec(content)?.[1];
  const read = version?.startsWith('2') ? xliff2js : xliff12ToJs;
  let js: { targetLanguage?: string; resources?: Record<string, Record<string, { target?: unknown }>> } | undefined;
  try {
    read(content, {}, (err: Error | null, result: typeof js) => {
      if (err) throw err;
      js = result;
    });
  } catch (e) {
    throw new ExchangeError(`this XLIFF file cannot be read: ${(e as Error).message}`);
  }
  if (!js?.resources) throw new ExchangeError('this XLIFF file has no `<file>` with translation units');
  const texts = new Map<string, string>();
  for (const units of Object.values(js.resources))
    for (const [id, u] of Object.entries(units)) {
      if (typeof u.target !== 'string') {
        if (u.target != null) throw new ExchangeError(`the target of \`${id}\` has markup; a card's text is plain text`);
        continue;
      }
      if (u.target) texts.set(id, u.target);
    }
  return { format: 'xliff', lang: js.targetLanguage || undefined, texts };
}

/** Where a card's text goes: the card's file and its path in that file's data. */
export interface TextPlace {
  file: string;
  path: Array<string | number>;
  current?: string;
}

export interface ImportResult {
  /** Each pack file that changed, with its new content. */
  files: Map<string, string>;
  /** Cards whose text changed. */
  changed: string[];
  /** Ids in the file that are no card of the pack. */
  unknown: string[];
}

/**
 * The imported texts written into the pack's YAML. Only changed values are touched, each spliced
 * in place of its old scalar (or added beside the card's other texts), so comments, layout and
 * every other byte stay as the designer wrote them.
 */
export function applyImport(imported: Imported, lang: string, places: ReadonlyMap<string, TextPlace>, read: (file: string) => string): ImportResult {
  const unknown = [...imported.texts.keys()].filter((id) => !places.has(id));
  const byFile = new Map<string, Array<{ id: string; path: Array<string | number>; text: string }>>();
  for (const [id, text] of imported.texts) {
    const place = places.get(id);
    if (!place || place.current === text) continue;
    byFile.set(place.file, [...(byFile.get(place.file) ?? []), { id, path: place.path, text }]);
  }
  const files = new Map<string, string>();
  const changed: string[] = [];
  for (const [file, edits] of byFile) {
    let content = read(file);
    const splices: Array<{ start: number; end: number; insert: string }> = [];
    const fallback: typeof edits = [];
    // The compiler's reading, in time linear in a mapping's keys, as a pack file is read to compile it.
    const doc = documentOf(content);
    for (const edit of edits) {
      const texts = doc.getIn([...edit.path, 'text'], true);
      const old = isMap(texts) ? texts.get(lang, true) : undefined;
      const quoted = JSON.stringify(edit.text);
      if (isScalar(old) && old.range) splices.push({ start: old.range[0], end: old.range[1], insert: quoted });
      else if (isMap(texts) && texts.items.length && lastEnd(texts) !== undefined) {
        const end = lastEnd(texts)!;
        // A block entry goes on a line of its own, after any comment that ends the last one's line.
        const at = texts.flow ? end : content.indexOf('\n', end) < 0 ? content.length : content.indexOf('\n', end);
        splices.push({ start: at, end: at, insert: texts.flow ? `, ${lang}: ${quoted}` : `\n${indentOf(content, texts)}${lang}: ${quoted}` });
      }
      else fallback.push(edit);
      changed.push(edit.id);
    }
    for (const s of splices.sort((a, b) => b.start - a.start)) content = content.slice(0, s.start) + s.insert + content.slice(s.end);
    if (fallback.length) {
      const d = documentOf(content);
      for (const edit of fallback) d.setIn([...edit.path, 'text', lang], d.createNode(edit.text));
      content = d.toString();
    }
    files.set(file, content);
  }
  return { files, changed, unknown };
}

function lastEnd(map: YAMLMap): number | undefined {
  const last = map.items[map.items.length - 1];
  return (last?.value as Scalar | undefined)?.range?.[1];
}

/** The indentation of a block mapping's keys, read from its first key's line. */
function indentOf(content: string, map: YAMLMap): string {
  const start = (map.items[0].key as Scalar).range![0];
  const lineStart = content.lastIndexOf('\n', start - 1) + 1;
  return content.slice(lineStart, start).replace(/\S/g, ' ');
}
