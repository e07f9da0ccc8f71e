/**
 * The editor's language services: completion, hover, go to definition (F12), references
 * (Shift+F12), the outline and quick fixes. The engine worker answers them with compiler/services.ts
 * on the symbol index of the last compile, the same code as the language server's (`rulebook lsp`).
 */
import * as monaco from 'monaco-editor/editor';
import { fixTitle, type CompletionKind } from '../../compiler/services.ts';
import type { OutlineItem } from '../../compiler/symbols.ts';
import type { PackEditor } from './editor.ts';
import { LANGUAGE_ID } from './language.ts';

const md = (value: string): monaco.IMarkdownString => ({ value, isTrusted: false, supportThemeIcons: false });

/** The text, file and offset of a position, as the shared services take them. */
function at(ed: PackEditor, model: monaco.editor.ITextModel, position: monaco.Position) {
  return { path: ed.pathOf(model.uri) ?? '', text: model.getValue(), offset: model.getOffsetAt(position) };
}

const completionKind = (k: CompletionKind): monaco.languages.CompletionItemKind => {
  const K = monaco.languages.CompletionItemKind;
  switch (k) {
    case 'keyword':
      return K.Keyword;
    case 'special':
      return K.Variable;
    case 'builtin':
      return K.Function;
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
    async provideCompletionItems(model, position) {
      const word = model.getWordUntilPosition(position);
      const range = new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn);
      const found = (await ed.ask({ op: 'completions', ...at(ed, model, position) })) ?? [];
      const suggestions = found.map((c): monaco.languages.CompletionItem => ({
        label: c.label,
        kind: completionKind(c.kind),
        detail: c.detail,
        documentation: c.documentation ? md(c.documentation) : undefined,
        insertText: c.label,
        range,
        sortText: c.sortText,
      }));
      return { suggestions };
    },
  });

  monaco.languages.registerHoverProvider(LANGUAGE_ID, {
    async provideHover(model, position) {
      const hover = await ed.ask({ op: 'hover', ...at(ed, model, position) });
      if (!hover || model.isDisposed()) return null;
      const s = model.getPositionAt(hover.word.start);
      const e = model.getPositionAt(hover.word.end);
      return { range: new monaco.Range(s.lineNumber, s.column, e.lineNumber, e.column), contents: [md(hover.markdown)] };
    },
  });

  monaco.languages.registerDefinitionProvider(LANGUAGE_ID, {
    async provideDefinition(model, position) {
      return ((await ed.ask({ op: 'definitions', ...at(ed, model, position) })) ?? [])
        .map((p) => ed.place(p))
        .filter((l): l is monaco.languages.Location => !!l);
    },
  });

  monaco.languages.registerReferenceProvider(LANGUAGE_ID, {
    async provideReferences(model, position) {
      return ((await ed.ask({ op: 'references', ...at(ed, model, position) })) ?? []).map((p) => ed.place(p)).filter((l): l is monaco.languages.Location => !!l);
    },
  });

  monaco.languages.registerDocumentSymbolProvider(LANGUAGE_ID, {
    async provideDocumentSymbols(model) {
      const path = ed.pathOf(model.uri) ?? '';
      const outline = (await ed.ask({ op: 'outline', path })) ?? [];
      if (model.isDisposed()) return [];
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
      return outline.map(toSymbol).filter((x): x is monaco.languages.DocumentSymbol => !!x);
    },
  });

  monaco.languages.registerCodeActionProvider(LANGUAGE_ID, {
    provideCodeActions(model, range, context) {
      const actions: monaco.languages.CodeAction[] = ed.fixesAt(model, range).map(({ d, range: r }) => ({
        title: fixTitle(d),
        kind: 'quickfix',
        isPreferred: true,
        diagnostics: context.markers.filter((m) => m.code === d.code && m.startLineNumber === r.startLineNumber && m.startColumn === r.startColumn),
        edit: { edits: [{ resource: model.uri, textEdit: { range: r, text: d.fix!.replacement }, versionId: model.getVersionId() }] },
      }));
      return { actions, dispose() {} };
    },
  });
}
