/**
 * The pack editor: one Monaco model per pack file, the pack language's colouring, the compiler's
 * diagnostics as markers, and the language services (`providers.ts`), which the engine worker
 * answers from the compiler's symbol index.
 */
import * as monaco from 'monaco-editor/editor';
import 'monaco-editor/features/register.all';
// F12 / "Go to Definition" and "Peek": not among register.all's features in this Monaco version.
import 'monaco-editor/editor/contrib/gotoSymbol/browser/goToCommands';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import type { Place } from '../../compiler/symbols.ts';
import type { Diagnostic } from './engine-types.ts';
import { afterPaint } from './frames.ts';
import type { ServiceAnswers, ServiceAsk } from './protocol.ts';
import { LANGUAGE_ID, languageConfiguration, monarch, themeRules } from './language.ts';
import { registerProviders } from './providers.ts';

(self as unknown as { MonacoEnvironment: monaco.Environment }).MonacoEnvironment = {
  getWorker: () => new EditorWorker(),
};

export interface EditorHost {
  /** The designer changed a file's text. */
  onEdit(path: string, text: string): void;
  /** The designer (or go-to-definition) opened another file. */
  onOpenFile(path: string): void;
  /** An answer of the language services on the last compile; null when there is none. */
  ask<K extends keyof ServiceAnswers>(ask: ServiceAsk<K>): Promise<ServiceAnswers[K] | null>;
}

export class PackEditor {
  readonly editor: monaco.editor.IStandaloneCodeEditor;
  private models = new Map<string, monaco.editor.ITextModel>();
  private packKey = '';
  private current = '';
  private diagnostics: Diagnostic[] = [];
  private silent = false;
  private viewStates = new Map<string, monaco.editor.ICodeEditorViewState | null>();

  constructor(container: HTMLElement, private host: EditorHost) {
    registerLanguage();
    this.editor = monaco.editor.create(container, {
      theme: 'rulebook-light',
      automaticLayout: true,
      // Off, and so are its section headers, which Monaco's worker would otherwise find in the whole file at every keystroke.
      minimap: { enabled: false, showMarkSectionHeaders: false, showRegionSectionHeaders: false },
      fontSize: 13,
      lineHeight: 19,
      fontFamily: "'JetBrains Mono', 'Fira Code', Menlo, Consolas, 'DejaVu Sans Mono', monospace",
      scrollBeyondLastLine: false,
      renderWhitespace: 'boundary',
      // Drawn in the text of the lines a keystroke changes, not as an overlay that Monaco works out
      // again for every line on screen (with a read of each line's layout) at every keystroke and marker.
      experimentalWhitespaceRendering: 'off',
      tabSize: 2,
      insertSpaces: true,
      detectIndentation: false,
      wordBasedSuggestions: 'off',
      quickSuggestions: { other: true, comments: false, strings: true },
      // The worker answers completion, so a list asked for by typing can open after the word is
      // complete: its Enter then makes a new line instead of taking a suggestion that changes nothing.
      acceptSuggestionOnEnter: 'smart',
      fixedOverflowWidgets: true,
      'semanticHighlighting.enabled': false,
      // No provider of the language gives inline suggestions, code lenses or inlay hints; on, the
      // inline suggestions' model still asks (Monaco's suggest-as-inline provider) at every keystroke.
      inlineSuggest: { enabled: false },
      codeLens: false,
      inlayHints: { enabled: 'off' },
      // A pack has no colours to pick; Monaco's default finder scans the whole file after every keystroke.
      colorDecorators: false,
      hover: { delay: 250 },
      lightbulb: { enabled: monaco.editor.ShowLightbulbIconMode.OnCode },
      // The folding's ranges (the YAML's indentation): the outline, its default, would have the engine
      // worker build the pack's symbol index after every keystroke, in the way of the next compile.
      stickyScroll: { enabled: true, defaultModel: 'foldingProviderModel' },
      guides: { indentation: true },
      // The rules are coloured by the pack language's tokenizer; colouring brackets by their depth
      // parses the file's brackets again after every keystroke and decorates those on screen (about
      // a twentieth of the page's work around a keystroke in a profile of bench/playground.ts).
      bracketPairColorization: { enabled: false },
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
  ask<K extends keyof ServiceAnswers>(ask: ServiceAsk<K>): Promise<ServiceAnswers[K] | null> {
    return this.host.ask(ask);
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

  /** Diagnostics set since: markers of an older set, still waiting for their frame, are not set. */
  private diagnosticsSet = 0;

  /** Show the compiler's diagnostics as markers: in the file on screen now, in the others once that is painted. */
  setDiagnostics(diagnostics: Diagnostic[]) {
    this.diagnostics = diagnostics;
    const set = ++this.diagnosticsSet;
    const byFile = groupBy(diagnostics, (d) => d.file);
    const mark = (path: string, model: monaco.editor.ITextModel) => {
      if (!model.isDisposed()) this.setMarkers(model, 'rulebook', (byFile.get(path) ?? []).map((d) => this.markerOf(model, d)));
    };
    const shown = this.models.get(this.current);
    if (shown) mark(this.current, shown);
    afterPaint(() => {
      if (set !== this.diagnosticsSet) return;
      for (const [path, model] of this.models) if (model !== shown) mark(path, model);
    });
  }

  /** What each owner's markers were last set to, per model, with the version of the text they were placed on. */
  private markersSet = new WeakMap<monaco.editor.ITextModel, Map<string, string>>();

  /**
   * Sets a file's markers unless they are those it has: every set is an event that Monaco's views
   * and decorations answer, and a pack has a hundred files of which a keystroke changes the markers
   * of one or two.
   */
  private setMarkers(model: monaco.editor.ITextModel, owner: string, markers: monaco.editor.IMarkerData[]) {
    // Monaco moves markers with the text as it is edited: one set on another version of the text may no longer be where these say.
    const value = markers.length ? `${model.getVersionId()}\n${JSON.stringify(markers)}` : '';
    let set = this.markersSet.get(model);
    if (!set) this.markersSet.set(model, (set = new Map()));
    if ((set.get(owner) ?? '') === value) return;
    set.set(owner, value);
    monaco.editor.setModelMarkers(model, owner, markers);
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
    const byFile = groupBy(items, (i) => i.file);
    for (const [path, model] of this.models) {
      const markers = (byFile.get(path) ?? []).map((i) => {
        const s = model.getPositionAt(i.offset);
        const e = model.getPositionAt(i.offset + Math.max(1, i.length));
        return { severity: monaco.MarkerSeverity.Error, message: i.message, source: 'scenario', startLineNumber: s.lineNumber, startColumn: s.column, endLineNumber: e.lineNumber, endColumn: e.column };
      });
      this.setMarkers(model, 'rulebook-scenarios', markers);
    }
  }

  /** The card text checker's findings, underlined as warnings on the text's words (or the rule's). */
  setTextMarkers(findings: Diagnostic[]) {
    const byFile = groupBy(findings, (d) => d.file);
    for (const [path, model] of this.models) {
      this.setMarkers(model, 'rulebook-texts', (byFile.get(path) ?? []).map((d) => ({ ...this.markerOf(model, d), severity: monaco.MarkerSeverity.Warning, source: 'card text' })));
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
    const s = model.getPositionAt(p.start);
    const e = model.getPositionAt(p.end);
    return { uri: model.uri, range: new monaco.Range(s.lineNumber, s.column, e.lineNumber, e.column) };
  }
}

function groupBy<T>(items: readonly T[], keyOf: (x: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const x of items) {
    const k = keyOf(x);
    const g = groups.get(k);
    if (g) g.push(x);
    else groups.set(k, [x]);
  }
  return groups;
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

export { monaco };
