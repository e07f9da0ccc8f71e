/**
 * The editor's language services: completion, hover, go to definition (F12), references
 * (Shift+F12), the outline and quick fixes. They read the compiler's symbol index of the last
 * compile and the language's own tables, so the editor knows exactly what the compiler knows.
 */
import * as monaco from 'monaco-editor/editor';
import { builtinTable } from '../../compiler/builtins.ts';
import { inRules, occurrenceAt, occurrencesOf, type OutlineItem, type SymbolInfo } from '../../compiler/symbols.ts';
import { keywordDocs, keywordNames, specialNames } from '../../dsl/language.ts';
import type { PackEditor } from './editor.ts';
import { LANGUAGE_ID } from './language.ts';

const md = (value: string): monaco.IMarkdownString => ({ value, isTrusted: false, supportThemeIcons: false });
const special = new Map<string, (typeof specialNames)[number]>(specialNames.map((s) => [s.name, s]));

/**
 * The symbol named at a position. The index is of the text last compiled: while the designer types
 * ahead of it, a name is looked up by its spelling when the occurrence there no longer matches.
 */
function symbolUnder(ed: PackEditor, model: monaco.editor.ITextModel, position: monaco.Position): { symbol?: SymbolInfo; word: monaco.editor.IWordAtPosition; offset: number } | undefined {
  const word = model.getWordAtPosition(position);
  if (!word) return undefined;
  const idx = ed.index;
  const path = ed.pathOf(model.uri) ?? '';
  const offset = model.getOffsetAt(position);
  const at = occurrenceAt(idx, path, offset);
  const exact = at && idx.symbols.get(at.key);
  if (exact && (exact.name === word.word || exact.kind === 'kind')) return { symbol: exact, word, offset };
  const byName = [...idx.symbols.values()].find((s) => s.name === word.word && s.kind !== 'local');
  return { symbol: byName, word, offset };
}

/** Is an offset inside rules text? A block scalar goes on while its lines are indented as deep as its first. */
function rulesHere(ed: PackEditor, model: monaco.editor.ITextModel, path: string, offset: number): boolean {
  const idx = ed.index;
  if (inRules(idx, path, offset)) return true;
  const before = (idx.rules.get(path) ?? []).filter((p) => p.end <= offset && p.end <= model.getValueLength()).sort((a, b) => b.end - a.end)[0];
  if (!before) return false;
  const indent = model.getPositionAt(before.start).column - 1;
  const between = model.getValue().slice(before.end, offset).split('\n');
  return between.every((line, i) => i === between.length - 1 || !line.trim() || line.length - line.trimStart().length >= indent);
}

const completionKind = (k: SymbolInfo['kind']): monaco.languages.CompletionItemKind => {
  const K = monaco.languages.CompletionItemKind;
  switch (k) {
    case 'entity':
      return K.Value;
    case 'member':
      return K.EnumMember;
    case 'kind':
      return K.Class;
    case 'enum':
      return K.Enum;
    case 'field':
      return K.Field;
    case 'event':
      return K.Event;
    case 'action':
      return K.Method;
    case 'local':
      return K.Variable;
    default:
      return K.Function;
  }
};

const outlineKind = (k: OutlineItem['kind']): monaco.languages.SymbolKind => {
  const S = monaco.languages.SymbolKind;
  switch (k) {
    case 'kind':
      return S.Class;
    case 'enum':
      return S.Enum;
    case 'member':
      return S.EnumMember;
    case 'field':
      return S.Field;
    case 'entity':
      return S.Object;
    case 'action':
      return S.Method;
    case 'event':
    case 'on':
      return S.Event;
    default:
      return S.Function;
  }
};

export function registerProviders(ed: PackEditor) {
  monaco.languages.registerCompletionItemProvider(LANGUAGE_ID, {
    triggerCharacters: ['.', ' ', '[', ','],
    provideCompletionItems(model, position) {
      const idx = ed.index;
      const word = model.getWordUntilPosition(position);
      const range = new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn);
      const path = ed.pathOf(model.uri) ?? '';
      const offset = model.getOffsetAt(position);
      const lineBefore = model.getLineContent(position.lineNumber).slice(0, word.startColumn - 1);
      const K = monaco.languages.CompletionItemKind;
      const out: monaco.languages.CompletionItem[] = [];
      const seen = new Set<string>();
      const add = (label: string, kind: monaco.languages.CompletionItemKind, detail: string, documentation?: string, sort = '5') => {
        if (seen.has(label)) return;
        seen.add(label);
        out.push({ label, kind, detail, documentation: documentation ? md(documentation) : undefined, insertText: label, range, sortText: `${sort}${label}` });
      };
      const symbols = [...idx.symbols.values()];
      const fields = new Map<string, string[]>();
      for (const s of symbols) if (s.kind === 'field') fields.set(s.name, [...(fields.get(s.name) ?? []), s.detail]);
      // After a dot: field names only.
      if (lineBefore.endsWith('.')) {
        for (const [name, details] of fields) add(name, K.Field, details.join(', '), undefined, '1');
        return { suggestions: out };
      }
      for (const s of symbols) {
        if (s.kind === 'entity' || s.kind === 'member') add(s.name, completionKind(s.kind), s.detail, s.hover, '2');
        else if (s.kind === 'kind' || s.kind === 'enum') add(s.name, completionKind(s.kind), s.detail, undefined, '3');
      }
      if (rulesHere(ed, model, path, offset)) {
        for (const s of symbols) if (s.kind === 'event' || s.kind === 'fn' || s.kind === 'pipeline' || s.kind === 'proc' || s.kind === 'action') add(s.name, completionKind(s.kind), s.detail, s.hover, '1');
        for (const [name, details] of fields) add(name, K.Field, details.join(', '), undefined, '4');
        for (const k of keywordNames) add(k, K.Keyword, 'keyword', keywordDocs.get(k), '0');
        for (const n of specialNames) add(n.name, K.Variable, n.type, n.doc, '0');
        for (const b of builtinTable.values()) add(b.name, K.Function, b.signature, `${b.doc}\n\n\`${b.example}\``, '1');
      }
      return { suggestions: out };
    },
  });

  monaco.languages.registerHoverProvider(LANGUAGE_ID, {
    provideHover(model, position) {
      const under = symbolUnder(ed, model, position);
      if (!under) return null;
      const { word } = under;
      const range = new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn);
      if (under.symbol) return { range, contents: [md(under.symbol.hover)] };
      const before = model.getLineContent(position.lineNumber).slice(0, word.startColumn - 1);
      if (before.endsWith('.')) return null;
      const builtin = builtinTable.get(word.word);
      if (builtin) return { range, contents: [md(`\`\`\`\n${builtin.signature}\n\`\`\`\n${builtin.doc}\n\nExample: \`${builtin.example}\``)] };
      const name = special.get(word.word);
      if (name) return { range, contents: [md(`**${name.name}** (${name.type}): ${name.doc}`)] };
      const doc = keywordDocs.get(word.word);
      if (doc) return { range, contents: [md(`**keyword** \`${word.word}\`: ${doc}`)] };
      return null;
    },
  });

  monaco.languages.registerDefinitionProvider(LANGUAGE_ID, {
    provideDefinition(model, position) {
      const under = symbolUnder(ed, model, position);
      if (!under?.symbol) return null;
      const path = ed.pathOf(model.uri);
      return under.symbol.defs
        .filter((p) => !(p.file === path && under.offset >= p.start && under.offset <= p.end))
        .map((p) => ed.place(p))
        .filter((l): l is monaco.languages.Location => !!l);
    },
  });

  monaco.languages.registerReferenceProvider(LANGUAGE_ID, {
    provideReferences(model, position) {
      const under = symbolUnder(ed, model, position);
      if (!under?.symbol) return [];
      return occurrencesOf(ed.index, under.symbol.key).map((p) => ed.place(p)).filter((l): l is monaco.languages.Location => !!l);
    },
  });

  // Ctrl+Shift+O and the outline: the file's kinds, enums, entities and declarations.
  monaco.languages.registerDocumentSymbolProvider(LANGUAGE_ID, {
    provideDocumentSymbols(model) {
      const path = ed.pathOf(model.uri) ?? '';
      const length = model.getValueLength();
      const toSymbol = (o: OutlineItem): monaco.languages.DocumentSymbol | undefined => {
        if (o.range.end > length) return undefined;
        const range = ed.place(o.range)!.range;
        const at = ed.place(o.at)!.range;
        return {
          name: o.name,
          detail: o.detail,
          kind: outlineKind(o.kind),
          tags: [],
          range,
          selectionRange: at,
          children: o.children.map(toSymbol).filter((x): x is monaco.languages.DocumentSymbol => !!x),
        };
      };
      return (ed.index.outline.get(path) ?? []).map(toSymbol).filter((x): x is monaco.languages.DocumentSymbol => !!x);
    },
  });

  monaco.languages.registerCodeActionProvider(LANGUAGE_ID, {
    provideCodeActions(model, range, context) {
      const actions: monaco.languages.CodeAction[] = ed.fixesAt(model, range).map(({ d, range: r }) => ({
        title: d.fix!.replacement ? `Replace with \`${d.fix!.replacement}\`` : 'Remove',
        kind: 'quickfix',
        isPreferred: true,
        diagnostics: context.markers.filter((m) => m.code === d.code && m.startLineNumber === r.startLineNumber && m.startColumn === r.startColumn),
        edit: { edits: [{ resource: model.uri, textEdit: { range: r, text: d.fix!.replacement }, versionId: model.getVersionId() }] },
      }));
      return { actions, dispose() {} };
    },
  });
}
