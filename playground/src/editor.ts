/**
 * The pack editor: one Monaco model per pack file, the pack language's colouring, the compiler's
 * diagnostics as markers, and completion, hover, go-to-definition and quick fixes from the pack's
 * symbol index.
 */
import * as monaco from 'monaco-editor/editor';
import 'monaco-editor/features/register.all';
// F12 / "Go to Definition" and "Peek": not among register.all's features in this Monaco version.
import 'monaco-editor/editor/contrib/gotoSymbol/browser/goToCommands';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import { keywordSet } from '../../dsl/lexer.ts';
import { builtinTable } from '../../compiler/builtins.ts';
import type { Diagnostic } from './engine-types.ts';
import { LANGUAGE_ID, languageConfiguration, monarch, themeRules } from './language.ts';
import { emptyIndex, type Place, type SymbolIndex } from './symbols.ts';

(self as unknown as { MonacoEnvironment: monaco.Environment }).MonacoEnvironment = {
  getWorker: () => new EditorWorker(),
};

/** One-line docs for the rules language's keywords, shown on hover. */
const keywordDocs: Record<string, string> = {
  event: 'declares an event that rules can `emit` and react to with `on`',
  fn: 'declares a pure function: `fn name(params): type = expression`',
  proc: 'declares a procedure: a named block of statements',
  action: 'declares something a player may do when offered: `action name(params) { … }`',
  on: 'reacts to an event: `on event(args) when condition { … }`',
  modify: 'adjusts a pipeline value: `modify pipeline(args) when condition = value`',
  pipeline: 'declares a value that cards can adjust with `modify`',
  setup: 'the statements that prepare a new game',
  flow: 'the turn structure of the game',
  let: 'names a value: `let x = expression`',
  require: 'stops an action unless the condition holds: `require cond else "reason"`',
  choose: 'asks a player to pick one of a set: `choose x in set by player "prompt" { … }`',
  offer: 'offers actions to a player: `offer player: action1, action2`',
  emit: 'raises an event: `emit event(args)`',
  log: 'writes a line in the game log',
  turn: "runs a block as a player's turn",
  finish: 'ends the game',
  shuffle: 'shuffles a list field',
  draw: 'takes the top (or bottom) item of a list field',
  put: 'puts an item on the top or bottom of a list field',
  remove: 'removes an item from a list field',
  limit: 'limits how often an action may be used: `limit 1 per turn`',
  while: 'the roles in which a card rule works: `while active, decline`',
  when: 'a condition for a rule to apply',
  where: 'filters a list: `regions where it.tokens > 0`',
};

export interface EditorHost {
  /** The designer changed a file's text. */
  onEdit(path: string, text: string): void;
  /** The designer (or go-to-definition) opened another file. */
  onOpenFile(path: string): void;
}

export class PackEditor {
  readonly editor: monaco.editor.IStandaloneCodeEditor;
  private models = new Map<string, monaco.editor.ITextModel>();
  private packKey = '';
  private current = '';
  private symbols: SymbolIndex = emptyIndex();
  private diagnostics: Diagnostic[] = [];
  private silent = false;
  private viewStates = new Map<string, monaco.editor.ICodeEditorViewState | null>();

  constructor(container: HTMLElement, private host: EditorHost) {
    registerLanguage();
    this.editor = monaco.editor.create(container, {
      theme: 'rulebook-light',
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 13,
      lineHeight: 19,
      fontFamily: "'JetBrains Mono', 'Fira Code', Menlo, Consolas, 'DejaVu Sans Mono', monospace",
      scrollBeyondLastLine: false,
      renderWhitespace: 'boundary',
      tabSize: 2,
      insertSpaces: true,
      detectIndentation: false,
      wordBasedSuggestions: 'off',
      quickSuggestions: { other: true, comments: false, strings: true },
      fixedOverflowWidgets: true,
      'semanticHighlighting.enabled': false,
      hover: { delay: 250 },
      lightbulb: { enabled: monaco.editor.ShowLightbulbIconMode.OnCode },
      stickyScroll: { enabled: true },
      guides: { indentation: true },
      padding: { top: 6 },
    });
    registerProviders(this);
    monaco.editor.registerEditorOpener({
      openCodeEditor: (_source, resource, selection) => {
        const path = this.pathOf(resource);
        if (path === undefined) return false;
        this.open(path);
        if (selection) {
          const range = 'lineNumber' in selection ? new monaco.Range(selection.lineNumber, selection.column, selection.lineNumber, selection.column) : selection;
          this.editor.setSelection(range);
          this.editor.revealRangeInCenterIfOutsideViewport(range);
        }
        return true;
      },
    });
  }

  get packFiles(): string[] {
    return [...this.models.keys()];
  }
  get currentFile(): string {
    return this.current;
  }
  get index(): SymbolIndex {
    return this.symbols;
  }

  uriOf(path: string): monaco.Uri {
    return monaco.Uri.from({ scheme: 'pack', authority: encodeURIComponent(this.packKey).replace(/%/g, '_'), path: `/${path}` });
  }
  pathOf(uri: monaco.Uri): string | undefined {
    for (const [p, m] of this.models) if (m.uri.toString() === uri.toString()) return p;
    return undefined;
  }
  model(path: string): monaco.editor.ITextModel | undefined {
    return this.models.get(path);
  }

  /** Show a pack: one model per file, replacing those of the previous pack. */
  load(packKey: string, files: Record<string, string>, open?: string) {
    for (const m of this.models.values()) m.dispose();
    this.models.clear();
    this.viewStates.clear();
    this.packKey = packKey;
    this.symbols = emptyIndex();
    this.diagnostics = [];
    for (const [path, text] of Object.entries(files)) this.addModel(path, text);
    const first = open && files[open] !== undefined ? open : files['pack.yaml'] !== undefined ? 'pack.yaml' : Object.keys(files)[0];
    this.current = '';
    if (first) this.open(first);
  }

  private addModel(path: string, text: string) {
    const model = monaco.editor.createModel(text, LANGUAGE_ID, this.uriOf(path));
    model.updateOptions({ tabSize: 2, insertSpaces: true });
    model.onDidChangeContent(() => {
      if (!this.silent) this.host.onEdit(path, model.getValue());
    });
    this.models.set(path, model);
  }

  addFile(path: string, text: string) {
    if (!this.models.has(path)) this.addModel(path, text);
    this.open(path);
  }
  removeFile(path: string) {
    this.models.get(path)?.dispose();
    this.models.delete(path);
    if (this.current === path) this.open(this.models.keys().next().value ?? '');
  }

  open(path: string) {
    const model = this.models.get(path);
    if (!model || path === this.current) return;
    if (this.current) this.viewStates.set(this.current, this.editor.saveViewState());
    this.current = path;
    this.editor.setModel(model);
    const vs = this.viewStates.get(path);
    if (vs) this.editor.restoreViewState(vs);
    this.host.onOpenFile(path);
  }

  /** Select a span of a file and bring it into view. */
  reveal(path: string, offset: number, endOffset = offset) {
    this.open(path);
    const model = this.models.get(path);
    if (!model) return;
    const s = model.getPositionAt(offset);
    const e = model.getPositionAt(endOffset);
    const range = new monaco.Range(s.lineNumber, s.column, e.lineNumber, e.column);
    this.editor.setSelection(range);
    this.editor.revealRangeInCenterIfOutsideViewport(range);
    this.editor.focus();
  }

  revealLine(path: string, line: number) {
    this.open(path);
    const model = this.models.get(path);
    if (!model || line < 1 || line > model.getLineCount()) return;
    const range = new monaco.Range(line, model.getLineFirstNonWhitespaceColumn(line) || 1, line, model.getLineMaxColumn(line));
    this.editor.setSelection(range);
    this.editor.revealRangeInCenterIfOutsideViewport(range);
    this.editor.focus();
  }

  setSymbols(symbols: SymbolIndex) {
    this.symbols = symbols;
  }

  /** Show the compiler's diagnostics as markers in every file. */
  setDiagnostics(diagnostics: Diagnostic[]) {
    this.diagnostics = diagnostics;
    for (const [path, model] of this.models) {
      const markers = diagnostics.filter((d) => d.file === path).map((d) => this.markerOf(model, d));
      monaco.editor.setModelMarkers(model, 'rulebook', markers);
    }
  }

  private rangeOf(model: monaco.editor.ITextModel, d: Diagnostic): monaco.Range {
    // Offsets are exact for the text that was compiled; line and column survive small edits elsewhere.
    const s = model.getPositionAt(d.offset);
    const e = model.getPositionAt(Math.max(d.endOffset, d.offset));
    const r = new monaco.Range(s.lineNumber, s.column, e.lineNumber, e.column);
    if (r.isEmpty()) {
      const word = model.getWordAtPosition(s);
      return word ? new monaco.Range(s.lineNumber, word.startColumn, s.lineNumber, word.endColumn) : new monaco.Range(s.lineNumber, s.column, s.lineNumber, Math.min(s.column + 1, model.getLineMaxColumn(s.lineNumber)));
    }
    return r;
  }

  private markerOf(model: monaco.editor.ITextModel, d: Diagnostic): monaco.editor.IMarkerData {
    const r = this.rangeOf(model, d);
    return {
      severity: d.severity === 'error' ? monaco.MarkerSeverity.Error : monaco.MarkerSeverity.Warning,
      message: d.hint ? `${d.message}\n${d.hint}` : d.message,
      code: d.code,
      source: 'rulebook',
      startLineNumber: r.startLineNumber,
      startColumn: r.startColumn,
      endLineNumber: r.endLineNumber,
      endColumn: r.endColumn,
    };
  }

  /** Scenario test failures, underlined in the scenario files where the test says what went wrong. */
  setScenarioMarkers(items: Array<{ file: string; offset: number; length: number; message: string }>) {
    for (const [path, model] of this.models) {
      const markers = items
        .filter((i) => i.file === path)
        .map((i) => {
          const s = model.getPositionAt(i.offset);
          const e = model.getPositionAt(i.offset + Math.max(1, i.length));
          return { severity: monaco.MarkerSeverity.Error, message: i.message, source: 'scenario', startLineNumber: s.lineNumber, startColumn: s.column, endLineNumber: e.lineNumber, endColumn: e.column };
        });
      monaco.editor.setModelMarkers(model, 'rulebook-scenarios', markers);
    }
  }

  /** The card text checker's findings, underlined as warnings on the text's words (or the rule's). */
  setTextMarkers(findings: Diagnostic[]) {
    for (const [path, model] of this.models) {
      const markers = findings.filter((d) => d.file === path).map((d) => ({ ...this.markerOf(model, d), severity: monaco.MarkerSeverity.Warning, source: 'card text' }));
      monaco.editor.setModelMarkers(model, 'rulebook-texts', markers);
    }
  }

  /** Safe fixes among the diagnostics at a range of a file. */
  fixesAt(model: monaco.editor.ITextModel, range: monaco.IRange): Array<{ d: Diagnostic; range: monaco.Range }> {
    const path = this.pathOf(model.uri);
    return this.diagnostics
      .filter((d) => d.file === path && d.fix && d.fix.safe)
      .map((d) => ({ d, range: this.rangeOf(model, d) }))
      .filter(({ range: r }) => monaco.Range.areIntersectingOrTouching(r, range));
  }

  /** Apply a diagnostic's fix as one undoable edit. */
  applyFix(d: Diagnostic) {
    if (!d.fix) return;
    const model = this.models.get(d.file);
    if (!model) return;
    this.open(d.file);
    const range = this.rangeOf(model, d);
    this.editor.pushUndoStop();
    this.editor.executeEdits('rulebook-fix', [{ range, text: d.fix.replacement }]);
    this.editor.pushUndoStop();
    this.editor.focus();
  }

  /** Replace a file's text without reporting it as an edit (used when loading or reverting). */
  setText(path: string, text: string) {
    const m = this.models.get(path);
    if (!m || m.getValue() === text) return;
    this.silent = true;
    try {
      m.setValue(text);
    } finally {
      this.silent = false;
    }
  }

  place(p: Place): monaco.languages.Location | undefined {
    const model = this.models.get(p.file);
    if (!model) return undefined;
    const s = model.getPositionAt(p.offset);
    const e = model.getPositionAt(p.end);
    return { uri: model.uri, range: new monaco.Range(s.lineNumber, s.column, e.lineNumber, e.column) };
  }

  /** Is this offset of a file inside a `rules:` block (as of the last index)? */
  inRules(path: string, offset: number): boolean {
    return this.symbols.rulesBlocks.some((b) => b.file === path && offset >= (b.lineStarts[0] ?? 0) && offset <= (b.lineStarts[b.lineStarts.length - 1] ?? 0) + 400);
  }
}

let languageRegistered = false;
function registerLanguage() {
  if (languageRegistered) return;
  languageRegistered = true;
  monaco.languages.register({ id: LANGUAGE_ID, extensions: ['.yaml', '.yml'], aliases: ['Rulebook pack'] });
  monaco.languages.setLanguageConfiguration(LANGUAGE_ID, languageConfiguration);
  monaco.languages.setMonarchTokensProvider(LANGUAGE_ID, monarch);
  monaco.editor.defineTheme('rulebook-light', {
    base: 'vs',
    inherit: true,
    rules: themeRules,
    colors: {
      'editor.background': '#fcfcfd',
      'editorLineNumber.foreground': '#b0b6bf',
      'editor.lineHighlightBackground': '#f2f4f8',
      'editorIndentGuide.background1': '#eceef2',
    },
  });
}

const md = (value: string): monaco.IMarkdownString => ({ value, isTrusted: false, supportThemeIcons: false });

function describeEntity(idx: SymbolIndex, id: string): string {
  const e = idx.entities[id];
  if (!e) return '';
  const langs = idx.languages.length ? idx.languages : Object.keys({ ...e.name, ...e.text });
  const lines = [`**${e.name.en ?? e.name[langs[0]] ?? id}** · \`${id}\`${e.kind ? ` · ${e.kind}` : ''}`];
  for (const l of langs) {
    const name = e.name[l];
    const text = e.text[l];
    if (name || text) lines.push(`*${l}*: ${name ? `**${name}**` : ''}${name && text ? ' — ' : ''}${text ?? ''}`);
  }
  return lines.join('\n\n');
}

function registerProviders(ed: PackEditor) {
  monaco.languages.registerCompletionItemProvider(LANGUAGE_ID, {
    triggerCharacters: ['.', ' ', '[', ','],
    provideCompletionItems(model, position) {
      const idx = ed.index;
      const word = model.getWordUntilPosition(position);
      const range = new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn);
      const path = ed.pathOf(model.uri) ?? '';
      const offset = model.getOffsetAt(position);
      const lineBefore = model.getLineContent(position.lineNumber).slice(0, position.column - 1);
      const K = monaco.languages.CompletionItemKind;
      const out: monaco.languages.CompletionItem[] = [];
      const seen = new Set<string>();
      const add = (label: string, kind: monaco.languages.CompletionItemKind, detail: string, documentation?: string, sort = '5') => {
        if (seen.has(label)) return;
        seen.add(label);
        out.push({ label, kind, detail, documentation: documentation ? md(documentation) : undefined, insertText: label, range, sortText: `${sort}${label}` });
      };
      // After a dot: field names only.
      if (/\.\s*[A-Za-z_]*$/.test(lineBefore.slice(0, word.startColumn - 1 + word.word.length))) {
        if (lineBefore.slice(0, word.startColumn - 1).endsWith('.')) {
          for (const [name, fs] of Object.entries(idx.fields)) add(name, K.Field, fs.map((f) => `${f.kind}.${name}: ${f.type}`).join(', '), undefined, '1');
          return { suggestions: out };
        }
      }
      const rules = ed.inRules(path, offset);
      for (const [id, e] of Object.entries(idx.entities)) add(id, K.Value, `${e.kind ?? 'entity'} · ${e.name.en ?? Object.values(e.name)[0] ?? ''}`, describeEntity(idx, id), '2');
      for (const [m, enums] of Object.entries(idx.members)) add(m, K.EnumMember, `member of ${enums.join(', ')}`, undefined, '2');
      for (const k of Object.keys(idx.kinds)) add(k, K.Class, 'kind', undefined, '3');
      for (const e of Object.keys(idx.enums)) add(e, K.Enum, `enum: ${idx.enums[e].members.join(' | ')}`, undefined, '3');
      if (rules) {
        for (const [name, ds] of Object.entries(idx.decls)) add(name, K.Function, ds[0].signature, undefined, '1');
        for (const [name, fs] of Object.entries(idx.fields)) add(name, K.Field, fs.map((f) => `${f.kind}.${name}: ${f.type}`).join(', '), undefined, '4');
        for (const k of keywordSet) add(k, K.Keyword, 'keyword', keywordDocs[k], '0');
        for (const b of builtinTable.values()) add(b.name, K.Function, b.signature, `${b.doc}\n\n\`${b.example}\``, '1');
      }
      return { suggestions: out };
    },
  });

  monaco.languages.registerHoverProvider(LANGUAGE_ID, {
    provideHover(model, position) {
      const w = model.getWordAtPosition(position);
      if (!w) return null;
      const idx = ed.index;
      const name = w.word;
      const parts: string[] = [];
      if (idx.entities[name]) parts.push(describeEntity(idx, name));
      const k = idx.kinds[name];
      if (k) {
        const fields = (o: Record<string, string>) => Object.entries(o).map(([n, t]) => `\`${n}: ${t}\``).join(', ') || '—';
        parts.push(`**kind** \`${name}\`${k.graph ? ` · graph by \`${k.graph}\`` : ''}\n\nprops: ${fields(k.props)}\n\nstate: ${fields(k.state)}`);
      }
      if (idx.enums[name]) parts.push(`**enum** \`${name}\`: ${idx.enums[name].members.map((m) => `\`${m}\``).join(' | ')}`);
      if (idx.members[name]) parts.push(`\`${name}\`: member of enum ${idx.members[name].map((e) => `\`${e}\``).join(', ')}`);
      for (const d of idx.decls[name] ?? []) parts.push(`\`\`\`\n${d.signature}\n\`\`\`\n*${d.kind}* declared in \`${d.file}\``);
      const before = model.getLineContent(position.lineNumber).slice(0, w.startColumn - 1);
      if (idx.fields[name] && (before.endsWith('.') || !parts.length)) {
        parts.push(idx.fields[name].map((f) => `\`${f.kind}.${name}: ${f.type}\` — ${f.role === 'prop' ? 'property, fixed per entity' : 'state, changes during play'}`).join('\n\n'));
      }
      const builtin = builtinTable.get(name);
      if (builtin && !idx.decls[name] && !before.endsWith('.')) parts.push(`\`\`\`\n${builtin.signature}\n\`\`\`\n${builtin.doc}\n\nExample: \`${builtin.example}\``);
      if (!parts.length && keywordSet.has(name) && !before.endsWith('.')) parts.push(`**keyword** \`${name}\`${keywordDocs[name] ? `: ${keywordDocs[name]}` : ''}`);
      if (!parts.length) return null;
      return { range: new monaco.Range(position.lineNumber, w.startColumn, position.lineNumber, w.endColumn), contents: parts.map(md) };
    },
  });

  monaco.languages.registerDefinitionProvider(LANGUAGE_ID, {
    provideDefinition(model, position) {
      const w = model.getWordAtPosition(position);
      if (!w) return null;
      const idx = ed.index;
      const n = w.word;
      const places: Place[] = [];
      if (idx.entities[n]) places.push(idx.entities[n]);
      else if (idx.kinds[n]) places.push(idx.kinds[n]);
      else if (idx.enums[n]) places.push(idx.enums[n]);
      else if (idx.decls[n]) places.push(...idx.decls[n]);
      else if (idx.members[n]) places.push(...idx.members[n].map((e) => idx.enums[e]));
      else if (idx.fields[n]) places.push(...idx.fields[n]);
      const here = model.getOffsetAt(position);
      const path = ed.pathOf(model.uri);
      return places
        .filter((p) => !(p.file === path && here >= p.offset && here <= p.end))
        .map((p) => ed.place(p))
        .filter((l): l is monaco.languages.Location => !!l);
    },
  });

  // Shift+F12: every whole-word use of a name across the pack's files.
  monaco.languages.registerReferenceProvider(LANGUAGE_ID, {
    provideReferences(model, position) {
      const w = model.getWordAtPosition(position);
      if (!w) return [];
      const out: monaco.languages.Location[] = [];
      for (const path of ed.packFiles) {
        const m = ed.model(path)!;
        for (const match of m.findMatches(w.word, false, false, true, '@ \t\n\r.,:;()[]{}"\'', false)) out.push({ uri: m.uri, range: match.range });
      }
      return out;
    },
  });

  // Ctrl+Shift+O and the outline: the file's kinds, enums, entities and declarations.
  monaco.languages.registerDocumentSymbolProvider(LANGUAGE_ID, {
    provideDocumentSymbols(model) {
      const path = ed.pathOf(model.uri);
      const idx = ed.index;
      const S = monaco.languages.SymbolKind;
      const items: Array<{ name: string; detail: string; kind: monaco.languages.SymbolKind; p: Place }> = [
        ...Object.values(idx.kinds).map((k) => ({ name: k.name, detail: 'kind', kind: S.Class, p: k as Place })),
        ...Object.values(idx.enums).map((e) => ({ name: e.name, detail: 'enum', kind: S.Enum, p: e as Place })),
        ...Object.values(idx.entities).map((e) => ({ name: e.id, detail: `${e.kind ?? 'entity'} · ${e.name.en ?? Object.values(e.name)[0] ?? ''}`, kind: S.Object, p: e as Place })),
        ...Object.values(idx.decls).flat().map((d) => ({ name: d.name, detail: d.signature, kind: d.kind === 'action' ? S.Method : d.kind === 'event' ? S.Event : S.Function, p: d as Place })),
      ];
      return items
        .filter((i) => i.p.file === path && i.p.end <= model.getValueLength())
        .sort((a, b) => a.p.offset - b.p.offset)
        .map((i) => {
          const loc = ed.place(i.p)!;
          return { name: i.name, detail: i.detail, kind: i.kind, tags: [], range: loc.range, selectionRange: loc.range };
        });
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

export { monaco };
