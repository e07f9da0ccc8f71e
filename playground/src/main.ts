/**
 * The playground: edit a pack on the left, play it on the right. Every pause in typing recompiles
 * the pack in a worker; when it compiles without errors, the game in progress replays its choices
 * under the new rules and stays where it was (or shows where and why it could not).
 *
 * This module lays out the page and runs the compile loop; the pack workspace (`pack-pane.ts`),
 * the tabs under the editor (`tabs/`), the game (`session.ts`) and its pane (`play-pane.ts`) are
 * their own modules.
 */
import './style.css';
import { h, clear } from './dom.ts';
import type { AppContext } from './context.ts';
import { PackEditor, monaco } from './editor.ts';
import { EngineClient } from './engine-client.ts';
import type { Diagnostic, PackSummary } from './engine-types.ts';
import { PackPane } from './pack-pane.ts';
import { PlayPane } from './play-pane.ts';
import { prefs, savePrefs } from './prefs.ts';
import type { CompileResponse, PackResponse, PlayResponse } from './protocol.ts';
import { GameSession } from './session.ts';
import { makeTabs } from './tabs/index.ts';
import { afterPaint } from './frames.ts';
import { emptyKeystroke, pageClock } from './trace.ts';
import { TabPanel } from './tabs/panel.ts';
import { dependencyIds, scenariosOf, sourcesOf, Workspace } from './workspace.ts';
import { packFiles } from './pack-files.ts';

/**
 * A keystroke compiles at once when no compile is running; keystrokes while one runs make one more
 * compile of the newest text, asked as soon as the running one answers. So the diagnostics follow
 * the keyboard without a pause, and the worker never has more than one compile waiting.
 */

class App implements AppContext {
  readonly ws = new Workspace();
  readonly engine = new EngineClient();
  editor!: PackEditor;
  packKey = '';
  files: Record<string, string> = packFiles();

  diagnostics: Diagnostic[] = [];
  private compiling = false;
  /** An edit came while a compile ran: compile again when it answers. */
  private compileAgain = false;
  lastCompile: CompileResponse | undefined;
  /** The last pack that compiled without errors: the game runs on it. */
  summary: PackSummary | undefined;
  private summaryDigest: string | undefined;
  version = 0;

  readonly game = new GameSession(this);
  readonly playPane = new PlayPane(this, this.game);
  readonly packs = new PackPane(this, this, () => this.game.session);
  readonly panel = new TabPanel(makeTabs(this, () => this.playPane.lang));

  private el = {
    status: h('span', { class: 'status', 'data-testid': 'compile-status' }),
    editorHost: h('div', { class: 'editor-host', 'data-testid': 'editor' }),
    toast: h('div', { class: 'toast', 'data-testid': 'toast', role: 'status', hidden: true }),
  };

  get openTab(): string {
    return this.panel.open;
  }
  renderTabs() {
    this.panel.render();
  }
  /** The game's last answer from the engine (read by bench/playground.ts). */
  get played(): PlayResponse | undefined {
    return this.game.played;
  }

  start() {
    const app = document.getElementById('app')!;
    app.append(this.layout(), this.el.toast, this.packs.importInput);
    // The key's own time stamp starts the trace: what the editor does before it reports the edit counts too.
    this.el.editorHost.addEventListener('keydown', (ev) => (this.timing = { ...emptyKeystroke(), key: ev.timeStamp }), true);
    this.editor = new PackEditor(this.el.editorHost, {
      onEdit: (path, text) => this.onEdit(path, text),
      onOpenFile: (path) => {
        this.ws.setOpenFile(this.packKey, path);
        this.packs.renderFiles();
      },
      ask: (a) => this.engine.ask(a),
    });
    this.game.onChange = () => this.playPane.render();
    // For the end-to-end tests and for poking around from the console.
    (window as unknown as { playground: unknown }).playground = { editor: this.editor, monaco, app: this, state: () => this.game.played?.state };
    window.addEventListener('pagehide', () => this.ws.flush());
    window.addEventListener('beforeunload', () => this.ws.flush());
    document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && this.ws.flush());
    document.addEventListener('keydown', (ev) => {
      if ((ev.ctrlKey || ev.metaKey) && ev.key === 's') {
        ev.preventDefault();
        this.ws.flush();
        this.toast('Saved in this browser. Export a zip to keep a copy elsewhere.');
      }
    });
    // A new worker knows no pack: compile again, unless compiling is what failed.
    this.engine.onPack = (r) => {
      if (r.id === this.lastCompile?.id) this.onPack(r);
    };
    this.engine.onRestart = (compileLost) => {
      if (!compileLost) this.compileNow();
    };
    this.ws.onSaveProblem = (problem) => this.toast(problem, 'error');
    if (!this.packs.openFromLink()) this.openPack(this.ws.current);
  }

  private layout(): HTMLElement {
    const splitter = h('div', { class: 'splitter', title: 'Drag to resize' });
    const root = h(
      'div',
      { class: 'shell' },
      h(
        'header',
        { class: 'topbar' },
        h('div', { class: 'brand' }, h('span', { class: 'logo' }, '▤'), 'rulebook', h('span', { class: 'sub' }, 'playground')),
        h('label', { class: 'pack-picker' }, 'Pack', this.packs.packSelect),
        this.packs.revert,
        h('div', { class: 'spacer' }),
        this.el.status,
        h('div', { class: 'actions' },
          h('button', { onclick: () => void this.packs.newPack(), 'data-testid': 'new-pack', title: 'Start a new pack' }, 'New'),
          h('button', { onclick: () => this.packs.importInput.click(), 'data-testid': 'import-pack', title: 'Import a pack from a zip file' }, 'Import'),
          this.packs.folderControls,
          h('button', { onclick: () => this.packs.exportPack(), 'data-testid': 'export-pack', title: 'Download this pack as a zip file' }, 'Export'),
          h('button', { class: 'primary', onclick: () => void this.packs.share(), 'data-testid': 'share', title: 'Copy a link with your edits, the seed and the moves' }, 'Share link'),
        ),
      ),
      h(
        'main',
        { class: 'workbench' },
        this.packs.fileList,
        h('section', { class: 'editor-pane' }, this.packs.fileTitle, this.el.editorHost, h('div', { class: 'problems' }, this.panel.title, this.panel.body)),
        splitter,
        this.playPane.el,
      ),
    );
    if (prefs.gameWidth) root.style.setProperty('--game-width', `${prefs.gameWidth}vw`);
    // Drag the splitter to share the width between editor and game.
    splitter.addEventListener('pointerdown', (ev) => {
      splitter.setPointerCapture(ev.pointerId);
      const move = (e: PointerEvent) => {
        const frac = Math.min(0.75, Math.max(0.25, e.clientX / window.innerWidth));
        prefs.gameWidth = Math.round((1 - frac) * 100);
        root.style.setProperty('--game-width', `${prefs.gameWidth}vw`);
      };
      splitter.addEventListener('pointermove', move);
      splitter.addEventListener('pointerup', () => {
        splitter.removeEventListener('pointermove', move);
        savePrefs();
      }, { once: true });
    });
    return root;
  }

  openPack(key: string) {
    const entry = this.ws.get(key);
    if (!entry) {
      this.toast(`There is no pack \`${key}\`; the packs live under content/.`, 'error');
      return;
    }
    this.packKey = key;
    this.ws.current = key;
    this.files = entry.files;
    this.summary = undefined;
    this.lastCompile = undefined;
    this.diagnostics = [];
    this.panel.reset();
    this.game.open(key);
    this.editor.load(key, this.files, this.ws.openFile(key));
    this.packs.renderPackSelect();
    this.packs.renderFiles();
    this.panel.render();
    this.playPane.render();
    this.compileNow();
  }

  /** The last keystroke's way to its diagnostics on screen (trace.ts), for bench/playground.ts. */
  timing = emptyKeystroke();

  private onEdit(path: string, text: string) {
    this.timing.edit = performance.now();
    this.files[path] = text;
    // The worker starts on the new text first; keeping it in the browser's storage can follow.
    this.scheduleCompile();
    this.setStatus('pending');
    this.ws.setFile(this.packKey, path, text);
  }

  // ─── Compiling ────────────────────────────────────────────────────────────

  scheduleCompile() {
    if (this.compiling) this.compileAgain = true;
    else this.compileNow();
  }

  private compileNow() {
    this.compileAgain = false;
    const key = this.packKey;
    const deps: Record<string, ReturnType<typeof sourcesOf>> = Object.create(null);
    for (const id of dependencyIds(this.files)) {
      // The pack with that manifest id: the designer's own copy first, then the shipped one.
      const found = [...this.ws.list()].sort((a, b) => (a.origin === 'local' ? -1 : 0) - (b.origin === 'local' ? -1 : 0)).find((p) => p.label === id && p.key !== this.packKey);
      const entry = found && this.ws.get(found.key);
      if (entry) deps[id] = sourcesOf(entry.files);
    }
    this.compiling = true;
    this.setStatus('compiling');
    this.timing.sent = performance.now();
    void this.engine.compile({ files: sourcesOf(this.files), dependencies: deps, scenarios: scenariosOf(this.files), game: this.game.request() }).then((r) => {
      if (key !== this.packKey) return;
      this.compiling = false;
      if (this.compileAgain) this.compileNow();
      this.onCompiled(r);
    });
  }

  private onCompiled(r: CompileResponse) {
    const t = this.timing;
    t.received = performance.now();
    t.workerMs = r.ms;
    t.workerGot = r.clock ? pageClock(r.clock.got) : 0;
    t.workerSent = r.clock ? pageClock(r.clock.sent) : 0;
    this.lastCompile = r;
    this.diagnostics = r.diagnostics;
    this.editor.setDiagnostics(r.diagnostics);
    this.panel.render();
    this.packs.renderFiles();
    this.setStatus();
    t.shown = performance.now();
    afterPaint((at) => (t.painted = at));
    // Errors: the game goes on with the last good rules; its banner says so, once the diagnostics
    // are on screen (it lays out and paints the game pane). Else the game waits for the pack.
    if (!r.lowering) afterPaint(() => this.playPane.render());
  }

  /** The runnable pack of the last compile, or why it could not be lowered. */
  private onPack(r: PackResponse) {
    if (r.version === undefined || !r.summary) {
      if (r.diagnostics) this.onCompiled({ ...this.lastCompile!, diagnostics: r.diagnostics, lowering: false });
      return;
    }
    this.game.packAt = performance.now();
    this.game.lowerMs = r.lowerMs ?? 0;
    // The same summary as before: the one drawn from is kept, so the board need not be drawn again.
    const summaryChanged = !this.summary || r.summaryDigest === undefined || r.summaryDigest !== this.summaryDigest;
    if (summaryChanged) this.summary = r.summary;
    this.summaryDigest = r.summaryDigest;
    this.version = r.version;
    if (!r.summary.languages.includes(this.playPane.lang)) this.playPane.lang = r.summary.languages[0] ?? 'en';
    // The open tab may list what the summary holds (the Balance tab's bots): drawn again when it
    // changes, once the rules' version and language are the new pack's.
    if (summaryChanged) this.panel.render();
    // Edit and replay: the game in progress replays its choices under the new rules.
    if (this.game.session) this.game.newRules(r.replayed?.answer, r.replayed?.game);
    else this.playPane.render();
    afterPaint(() => this.engine.painted(r.id));
  }

  private setStatus(phase?: 'pending' | 'compiling') {
    const s = this.el.status;
    const errors = this.diagnostics.filter((d) => d.severity === 'error').length;
    const warnings = this.diagnostics.length - errors;
    s.className = 'status';
    if (phase === 'pending' || phase === 'compiling' || this.compiling) {
      s.classList.add('busy');
      s.dataset.state = 'compiling';
      s.textContent = 'compiling…';
      return;
    }
    const r = this.lastCompile;
    if (r) s.dataset.ms = String(Math.round(r.ms));
    s.title = r ? `last compile: ${Math.round(r.ms)} ms in the worker` : '';
    if (r?.engineProblem) {
      s.classList.add('warn');
      s.dataset.state = 'no-engine';
      s.textContent = r.engineProblem;
      return;
    }
    if (errors) {
      s.classList.add('bad');
      s.dataset.state = 'errors';
      s.textContent = `${errors} error${errors > 1 ? 's' : ''}${warnings ? `, ${warnings} warning${warnings > 1 ? 's' : ''}` : ''}${this.summary ? ' · playing the last good rules' : ''}`;
      return;
    }
    s.classList.add('good');
    s.dataset.state = 'ok';
    s.textContent = `✓ compiled in ${Math.max(1, Math.round(r?.ms ?? 0))} ms${warnings ? ` · ${warnings} warning${warnings > 1 ? 's' : ''}` : ''}`;
  }

  private toastTimer: ReturnType<typeof setTimeout> | undefined;
  toast(message: string, kind: 'info' | 'error' = 'info', link?: string) {
    const t = this.el.toast;
    clearTimeout(this.toastTimer);
    t.hidden = false;
    t.className = `toast ${kind}`;
    t.dataset.kind = kind;
    clear(t,
      h('span', { class: 'toast-msg' }, message),
      link ? h('input', { class: 'share-link', 'data-testid': 'share-link', readonly: true, value: link, onfocus: (e: Event) => (e.target as HTMLInputElement).select() }) : null,
      h('button', { class: 'icon', title: 'Close', onclick: () => (t.hidden = true) }, '×'),
    );
    this.toastTimer = setTimeout(() => (t.hidden = true), kind === 'error' || link ? 15000 : 4000);
  }
}

new App().start();
