/**
 * The language server (`rulebook lsp`): the playground's language services for any editor that
 * speaks the Language Server Protocol. A file belongs to the pack folder above it (the nearest
 * with a pack.yaml); the pack is compiled from disk with the editor's unsaved texts laid over it,
 * and every answer comes from compiler/services.ts on that compile's symbol index, as in the
 * playground.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  CodeActionKind,
  CompletionItemKind,
  DiagnosticSeverity,
  SymbolKind,
  TextDocumentSyncKind,
  TextDocuments,
  type CompletionItem,
  type Connection,
  type Diagnostic as LspDiagnostic,
  type DocumentSymbol,
  type Location,
  type WorkspaceEdit,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyze, type Diagnostic, type SourceFile, type SymbolIndex } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { completionsAt, definitionsAt, diagnosticSpan, fixesIn, fixTitle, hoverAt, referencesAt, renameAt, type CompletionKind } from '../compiler/services.ts';
import type { OutlineItem, Place } from '../compiler/symbols.ts';

/** A pack folder as last compiled. */
interface PackState {
  dir: string;
  /** Its files, the open ones as the editor holds them. */
  texts: Map<string, string>;
  diagnostics: Diagnostic[];
  index: SymbolIndex;
  /** The files that were last sent diagnostics, so a fixed file is sent an empty list. */
  published: Set<string>;
}

/** The pack folder a file is in: the nearest folder above it with a pack.yaml. */
export function packDirOf(file: string): string | undefined {
  let dir = dirname(file);
  for (;;) {
    if (existsSync(join(dir, 'pack.yaml'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

// Partial: a kind of name the index grows is still answered (as a function), before this table names it.
const completionKinds: Partial<Record<CompletionKind, CompletionItemKind>> = {
  kind: CompletionItemKind.Class,
  field: CompletionItemKind.Field,
  role: CompletionItemKind.Property,
  enum: CompletionItemKind.Enum,
  member: CompletionItemKind.EnumMember,
  die: CompletionItemKind.Constant,
  entity: CompletionItemKind.Value,
  event: CompletionItemKind.Event,
  fn: CompletionItemKind.Function,
  pipeline: CompletionItemKind.Function,
  proc: CompletionItemKind.Function,
  action: CompletionItemKind.Method,
  local: CompletionItemKind.Variable,
  keyword: CompletionItemKind.Keyword,
  special: CompletionItemKind.Variable,
  builtin: CompletionItemKind.Function,
};

const outlineKinds: Partial<Record<OutlineItem['kind'], SymbolKind>> = {
  kind: SymbolKind.Class,
  field: SymbolKind.Field,
  role: SymbolKind.Property,
  enum: SymbolKind.Enum,
  member: SymbolKind.EnumMember,
  die: SymbolKind.Constant,
  entity: SymbolKind.Object,
  event: SymbolKind.Event,
  on: SymbolKind.Event,
  fn: SymbolKind.Function,
  pipeline: SymbolKind.Function,
  proc: SymbolKind.Function,
  modify: SymbolKind.Function,
  setup: SymbolKind.Function,
  flow: SymbolKind.Function,
  invariant: SymbolKind.Function,
  action: SymbolKind.Method,
  local: SymbolKind.Variable,
};

/** Serves the language on a connection until the client shuts it down. */
export function serve(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  const packs = new Map<string, PackState>();
  const pending = new Set<string>();

  const fileOf = (uri: string) => (uri.startsWith('file:') ? fileURLToPath(uri) : undefined);
  const relPath = (dir: string, file: string) => relative(dir, file).split(sep).join('/');

  /** Where a pack file is on disk; a base pack's (`base:file.yaml`) is the folder its pack was read from. */
  const diskPath = (pack: PackState, path: string) => {
    const colon = path.indexOf(':');
    return colon < 0 ? join(pack.dir, path) : join(dirname(pack.dir), path.slice(0, colon), path.slice(colon + 1));
  };

  const textOf = (pack: PackState, path: string): string | undefined => {
    if (pack.texts.has(path)) return pack.texts.get(path);
    const file = diskPath(pack, path);
    return documents.get(pathToFileURL(file).href)?.getText() ?? (existsSync(file) ? readFileSync(file, 'utf8') : undefined);
  };

  const docOf = (pack: PackState, path: string): TextDocument | undefined => {
    const uri = pathToFileURL(diskPath(pack, path)).href;
    const open = documents.get(uri);
    if (open) return open;
    const text = textOf(pack, path);
    return text === undefined ? undefined : TextDocument.create(uri, 'yaml', 0, text);
  };

  const location = (pack: PackState, p: Place): Location | undefined => {
    const doc = docOf(pack, p.file);
    return doc && { uri: doc.uri, range: { start: doc.positionAt(p.start), end: doc.positionAt(p.end) } };
  };

  const compilePack = (dir: string) => {
    const files: SourceFile[] = readPackFolder(dir).map((f) => {
      const open = documents.get(pathToFileURL(join(dir, f.path)).href);
      return open ? { path: f.path, text: open.getText() } : f;
    });
    const dependencies = dependenciesOf(dir, files) ?? {};
    const analysis = analyze(files, { dependencies, lower: false, symbols: true });
    const previous = packs.get(dir);
    const pack: PackState = { dir, texts: new Map(files.map((f) => [f.path, f.text])), diagnostics: analysis.diagnostics, index: analysis.symbols!, published: new Set() };
    packs.set(dir, pack);
    for (const f of files) {
      const doc = docOf(pack, f.path)!;
      const mine = pack.diagnostics.filter((d) => d.file === f.path);
      if (!mine.length && !previous?.published.has(f.path)) continue;
      if (mine.length) pack.published.add(f.path);
      void connection.sendDiagnostics({ uri: doc.uri, diagnostics: mine.map((d) => lspDiagnostic(doc, d)) });
    }
  };

  /** Compiles a pack once for a burst of edits: the latest text is what counts. */
  const schedule = (uri: string) => {
    const file = fileOf(uri);
    const dir = file && packDirOf(file);
    if (!dir || pending.has(dir)) return;
    pending.add(dir);
    setImmediate(() => {
      pending.delete(dir);
      compilePack(dir);
    });
  };

  /** The pack of a document and the document's path in it, compiled now if it never was. */
  const where = (uri: string): { pack: PackState; path: string; doc: TextDocument } | undefined => {
    const file = fileOf(uri);
    const dir = file && packDirOf(file);
    const doc = documents.get(uri);
    if (!dir || !doc) return undefined;
    if (!packs.has(dir)) compilePack(dir);
    return { pack: packs.get(dir)!, path: relPath(dir, file), doc };
  };

  documents.onDidOpen((e) => schedule(e.document.uri));
  documents.onDidChangeContent((e) => schedule(e.document.uri));
  documents.onDidSave((e) => schedule(e.document.uri));
  // A file changed on disk that no editor holds (a checkout, a new card): its pack is read again.
  connection.onDidChangeWatchedFiles(({ changes }) => {
    for (const c of changes) schedule(c.uri);
  });

  connection.onInitialize(() => ({
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: true },
      completionProvider: { triggerCharacters: ['.', ' ', '[', ','] },
      hoverProvider: true,
      definitionProvider: true,
      referencesProvider: true,
      renameProvider: true,
      documentSymbolProvider: true,
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
    },
    serverInfo: { name: 'rulebook' },
  }));

  connection.onCompletion(({ textDocument, position }): CompletionItem[] => {
    const w = where(textDocument.uri);
    if (!w) return [];
    return completionsAt(w.pack.index, w.path, w.doc.getText(), w.doc.offsetAt(position)).map((c) => ({
      label: c.label,
      kind: completionKinds[c.kind] ?? CompletionItemKind.Function,
      detail: c.detail,
      documentation: c.documentation ? { kind: 'markdown', value: c.documentation } : undefined,
      sortText: c.sortText,
    }));
  });

  connection.onHover(({ textDocument, position }) => {
    const w = where(textDocument.uri);
    const hover = w && hoverAt(w.pack.index, w.path, w.doc.getText(), w.doc.offsetAt(position));
    if (!w || !hover) return null;
    return { contents: { kind: 'markdown', value: hover.markdown }, range: { start: w.doc.positionAt(hover.word.start), end: w.doc.positionAt(hover.word.end) } };
  });

  connection.onDefinition(({ textDocument, position }) => {
    const w = where(textDocument.uri);
    if (!w) return [];
    return definitionsAt(w.pack.index, w.path, w.doc.getText(), w.doc.offsetAt(position)).flatMap((p) => location(w.pack, p) ?? []);
  });

  connection.onReferences(({ textDocument, position }) => {
    const w = where(textDocument.uri);
    if (!w) return [];
    return referencesAt(w.pack.index, w.path, w.doc.getText(), w.doc.offsetAt(position)).flatMap((p) => location(w.pack, p) ?? []);
  });

  connection.onRenameRequest(({ textDocument, position, newName }): WorkspaceEdit | null => {
    const w = where(textDocument.uri);
    if (!w) return null;
    const rename = renameAt(w.pack.index, w.path, w.doc.getText(), w.doc.offsetAt(position), newName);
    if ('refused' in rename) throw new Error(rename.refused);
    const changes: NonNullable<WorkspaceEdit['changes']> = {};
    for (const o of rename.edits) {
      const loc = location(w.pack, o);
      if (loc) (changes[loc.uri] ??= []).push({ range: loc.range, newText: newName });
    }
    return { changes };
  });

  connection.onDocumentSymbol(({ textDocument }): DocumentSymbol[] => {
    const w = where(textDocument.uri);
    if (!w) return [];
    const length = w.doc.getText().length;
    const toSymbol = (o: OutlineItem): DocumentSymbol[] =>
      o.range.end > length
        ? []
        : [{
            name: o.name,
            detail: o.detail,
            kind: outlineKinds[o.kind] ?? SymbolKind.Function,
            range: { start: w.doc.positionAt(o.range.start), end: w.doc.positionAt(o.range.end) },
            selectionRange: { start: w.doc.positionAt(o.at.start), end: w.doc.positionAt(o.at.end) },
            children: o.children.flatMap(toSymbol),
          }];
    return (w.pack.index.outline.get(w.path) ?? []).flatMap(toSymbol);
  });

  connection.onCodeAction(({ textDocument, range }) => {
    const w = where(textDocument.uri);
    if (!w) return [];
    const text = w.doc.getText();
    return fixesIn(w.pack.diagnostics, w.path, text, w.doc.offsetAt(range.start), w.doc.offsetAt(range.end)).map(({ d, start, end }) => ({
      title: fixTitle(d),
      kind: CodeActionKind.QuickFix,
      isPreferred: true,
      diagnostics: [lspDiagnostic(w.doc, d)],
      edit: { changes: { [w.doc.uri]: [{ range: { start: w.doc.positionAt(start), end: w.doc.positionAt(end) }, newText: d.fix!.replacement }] } },
    }));
  });

  documents.listen(connection);
  connection.listen();
}

/** A compiler diagnostic as the protocol has it, the hint under the message as the playground shows it. */
function lspDiagnostic(doc: TextDocument, d: Diagnostic): LspDiagnostic {
  const { start, end } = diagnosticSpan(d, doc.getText());
  return {
    range: { start: doc.positionAt(start), end: doc.positionAt(end) },
    severity: d.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    code: d.code,
    source: 'rulebook',
    message: d.hint ? `${d.message}\n${d.hint}` : d.message,
  };
}
