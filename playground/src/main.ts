/**
 * The playground: edit a pack on the left, play it on the right. Every pause in typing recompiles
 * the pack in a worker; when it compiles without errors, the game in progress replays its choices
 * under the new rules and stays where it was (or shows where and why it could not).
 */
import './style.css';
import { h, clear } from './dom.ts';
import { ask, confirmAction } from './dialog.ts';
import { PackEditor, monaco } from './editor.ts';
import { EngineClient } from './engine-client.ts';
import type { Choice, Diagnostic, GameState, PackSummary } from './engine-types.ts';
import type { CompileResponse, PlayResponse, ScenariosResponse, SimulateResponse, TextFindingInfo, TextsResponse } from './protocol.ts';
import { idsIn, renderBoard, playerColours } from './board.ts';
import { decodeShare, encodeShare, type SharePayload } from './share.ts';
import { exportZip, importZip } from './zip.ts';
import { builtinPacks, dependencyIds, manifestId, newPackFiles, scenariosOf, sourcesOf, Workspace, type Seat, type Session } from './workspace.ts';

/** How long typing must pause before a compile. Short: the compile runs off the page's thread. */
const COMPILE_DEBOUNCE_MS = 60;
const BOT_DELAYS: Record<string, number> = { instant: 0, fast: 150, slow: 700 };
const LOG_LIMIT = 250;

/** Mulberry32: the bot's seeded pick among legal choices, so a game with bots replays the same. */
function botPick(seed: number, step: number, n: number): number {
  let a = (seed ^ Math.imul(step + 1, 0x9e3779b1)) >>> 0;
  a = (a + 0x6d2b79f5) >>> 0;
  let t = a;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (((t ^ (t >>> 14)) >>> 0) % n + n) % n;
}

type BottomTab = 'problems' | 'scenarios' | 'texts' | 'balance';

class App {
  private ws = new Workspace();
  private engine = new EngineClient();
  private editor!: PackEditor;
  private packKey = '';
  private files: Record<string, string> = {};

  private diagnostics: Diagnostic[] = [];
  private compileTimer: ReturnType<typeof setTimeout> | undefined;
  private compiling = false;
  private lastCompile: CompileResponse | undefined;
  /** The last pack that compiled without errors: the game runs on it. */
  private summary: PackSummary | undefined;
  private version = 0;

  private bottomTab: BottomTab = 'problems';
  /** The balance simulation asked for last, its progress, then its figures. */
  private balance: { id: number; games: number; players: number; bots: 'random' | 'greedy'; run?: SimulateResponse } | undefined;
  private scenarioRun: ScenariosResponse | undefined;
  /** The card text checker's verdicts on the last good compile. */
  private textRun: TextsResponse | undefined;

  private session: Session | undefined;
  /** Number of choices shown when stepping through history; undefined when live. */
  private cursor: number | undefined;
  private viewAs: string | null = null;
  private lang = 'en';
  /** Layout and play preferences, kept apart from the packs. */
  private prefs: { botSpeed: string; gameWidth?: number } = (() => {
    try {
      return { botSpeed: 'fast', ...JSON.parse(localStorage.getItem('rulebook.playground.prefs') ?? '{}') };
    } catch {
      return { botSpeed: 'fast' };
    }
  })();
  private savePrefs() {
    try {
      localStorage.setItem('rulebook.playground.prefs', JSON.stringify(this.prefs));
    } catch {
      /* preferences are a convenience */
    }
  }
  private get botSpeed(): string {
    return this.prefs.botSpeed in BOT_DELAYS ? this.prefs.botSpeed : 'fast';
  }
  private set botSpeed(v: string) {
    this.prefs.botSpeed = v;
    this.savePrefs();
  }
  private botsPaused = false;
  private played: PlayResponse | undefined;
  private playSeq = 0;
  private botTimer: ReturnType<typeof setTimeout> | undefined;
  private boardZoom: { k: number; cx: number; cy: number } | undefined;
  private boardAspect = 1.7;

  // Elements
  private el = {
    packSelect: h('select', { 'data-testid': 'pack-select', title: 'Pack' }),
    status: h('span', { class: 'status', 'data-testid': 'compile-status' }),
    files: h('nav', { class: 'files', 'data-testid': 'file-list' }),
    fileTitle: h('div', { class: 'file-title', 'data-testid': 'file-title' }),
    editorHost: h('div', { class: 'editor-host', 'data-testid': 'editor' }),
    problems: h('div', { class: 'problems-list', 'data-testid': 'problems' }),
    problemsTitle: h('div', { class: 'problems-title' }),
    game: h('section', { class: 'game', 'data-testid': 'game' }),
    toast: h('div', { class: 'toast', 'data-testid': 'toast', role: 'status', hidden: true }),
    importInput: h('input', { type: 'file', accept: '.zip,application/zip', hidden: true, 'data-testid': 'import-input' }),
    revert: h('button', { class: 'ghost', 'data-testid': 'revert-pack', title: 'Discard your edits to this shipped pack' }, 'Revert'),
  };

  start() {
    const app = document.getElementById('app')!;
    app.append(this.layout(), this.el.toast, this.el.importInput);
    this.editor = new PackEditor(this.el.editorHost, {
      onEdit: (path, text) => this.onEdit(path, text),
      onOpenFile: (path) => {
        this.ws.setOpenFile(this.packKey, path);
        this.renderFiles();
      },
    });
    // For the end-to-end tests and for poking around from the console.
    (window as unknown as { playground: unknown }).playground = { editor: this.editor, monaco, app: this, state: () => this.played?.state };
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
    this.el.importInput.addEventListener('change', () => void this.importFile());
    this.engine.onScenarios = (r) => this.onScenarios(r);
    this.engine.onTexts = (r) => this.onTexts(r);
    this.engine.onSimulated = (r) => {
      if (!this.balance || r.id !== this.balance.id) return;
      this.balance.run = r;
      if (this.bottomTab === 'balance' || r.report || r.error) this.renderProblems();
    };
    // A new worker knows no pack: compile again, unless compiling is what failed.
    this.engine.onRestart = (compileLost) => {
      if (!compileLost) this.compileNow();
    };
    this.ws.onSaveProblem = (problem) => this.toast(problem, 'error');

    const shared = decodeShare(location.hash);
    if (shared?.ok) this.openShared(shared.payload);
    else {
      if (shared && !shared.ok) this.toast(shared.reason, 'error');
      this.openPack(this.ws.current);
    }
  }

  // ─── Layout ───────────────────────────────────────────────────────────────

  private layout(): HTMLElement {
    this.el.packSelect.addEventListener('change', () => this.openPack(this.el.packSelect.value));
    this.el.revert.addEventListener('click', () => void this.revertPack());
    const splitter = h('div', { class: 'splitter', title: 'Drag to resize' });
    const root = h(
      'div',
      { class: 'shell' },
      h(
        'header',
        { class: 'topbar' },
        h('div', { class: 'brand' }, h('span', { class: 'logo' }, '▤'), 'rulebook', h('span', { class: 'sub' }, 'playground')),
        h('label', { class: 'pack-picker' }, 'Pack', this.el.packSelect),
        this.el.revert,
        h('div', { class: 'spacer' }),
        this.el.status,
        h('div', { class: 'actions' },
          h('button', { onclick: () => void this.newPack(), 'data-testid': 'new-pack', title: 'Start a new pack' }, 'New'),
          h('button', { onclick: () => this.el.importInput.click(), 'data-testid': 'import-pack', title: 'Import a pack from a zip file' }, 'Import'),
          h('button', { onclick: () => this.exportPack(), 'data-testid': 'export-pack', title: 'Download this pack as a zip file' }, 'Export'),
          h('button', { class: 'primary', onclick: () => void this.share(), 'data-testid': 'share', title: 'Copy a link with your edits, the seed and the moves' }, 'Share link'),
        ),
      ),
      h(
        'main',
        { class: 'workbench' },
        this.el.files,
        h('section', { class: 'editor-pane' }, this.el.fileTitle, this.el.editorHost, h('div', { class: 'problems' }, this.el.problemsTitle, this.el.problems)),
        splitter,
        this.el.game,
      ),
    );
    if (this.prefs.gameWidth) root.style.setProperty('--game-width', `${this.prefs.gameWidth}vw`);
    // Drag the splitter to share the width between editor and game.
    splitter.addEventListener('pointerdown', (ev) => {
      splitter.setPointerCapture(ev.pointerId);
      const move = (e: PointerEvent) => {
        const frac = Math.min(0.75, Math.max(0.25, e.clientX / window.innerWidth));
        this.prefs.gameWidth = Math.round((1 - frac) * 100);
        root.style.setProperty('--game-width', `${this.prefs.gameWidth}vw`);
      };
      splitter.addEventListener('pointermove', move);
      splitter.addEventListener('pointerup', () => {
        splitter.removeEventListener('pointermove', move);
        this.savePrefs();
      }, { once: true });
    });
    return root;
  }

  // ─── Packs ────────────────────────────────────────────────────────────────

  private renderPackSelect() {
    const option = (p: ReturnType<Workspace['list']>[number]) => h('option', { value: p.key, selected: p.key === this.packKey }, `${p.label}${p.edited && p.origin === 'builtin' ? ' (edited)' : ''}`);
    const packs = this.ws.list();
    const group = (label: string, keep: (p: (typeof packs)[number]) => boolean) => {
      const ps = packs.filter(keep);
      return ps.length ? h('optgroup', { label }, ps.map(option)) : null;
    };
    clear(
      this.el.packSelect,
      group('Packs', (p) => p.key.startsWith('content/')),
      group('Yours', (p) => p.origin === 'local'),
      group('Examples', (p) => p.key.startsWith('examples/')),
    );
    this.el.packSelect.value = this.packKey;
    const entry = this.ws.get(this.packKey);
    this.el.revert.hidden = !(entry?.origin === 'builtin' && this.ws.isEdited(this.packKey));
    if (entry?.origin === 'local') {
      this.el.revert.hidden = false;
      this.el.revert.textContent = 'Delete';
      this.el.revert.title = 'Delete this pack from the playground';
    } else {
      this.el.revert.textContent = 'Revert';
      this.el.revert.title = 'Discard your edits to this shipped pack';
    }
  }

  openPack(key: string) {
    const entry = this.ws.get(key);
    if (!entry) {
      this.toast(`There is no pack \`${key}\`; the packs live under content/.`, 'error');
      return;
    }
    this.stopBots();
    this.playSeq++; // answers about the previous pack's game are ignored
    this.packKey = key;
    this.ws.current = key;
    this.files = entry.files;
    this.summary = undefined;
    this.played = undefined;
    this.lastCompile = undefined;
    this.diagnostics = [];
    this.scenarioRun = undefined;
    this.textRun = undefined;
    this.editor.setTextMarkers([]);
    this.session = this.ws.session(key);
    this.cursor = undefined;
    this.viewAs = null;
    this.editor.load(key, this.files, this.ws.openFile(key));
    this.renderPackSelect();
    this.renderFiles();
    this.renderProblems();
    this.renderGame();
    this.compileNow();
  }

  private async revertPack() {
    const entry = this.ws.get(this.packKey);
    if (!entry) return;
    if (entry.origin === 'local') {
      if (!(await confirmAction(`Delete “${manifestId(entry.files) ?? this.packKey}”?`, 'The pack is removed from this browser. Export it first to keep a copy.', 'Delete pack'))) return;
      this.ws.remove(this.packKey);
      this.openPack(this.ws.current);
      return;
    }
    if (!(await confirmAction('Revert to the shipped pack?', 'All your edits to this pack are discarded, and its files are as shipped again.', 'Discard edits'))) return;
    this.ws.revert(this.packKey);
    this.openPack(this.packKey);
    this.toast('Edits discarded.');
  }

  private async newPack() {
    const id = await ask('New pack', 'Its id: letters, digits and dashes. The pack starts as a small playable game to change into yours.', 'my-game', 'Create');
    if (!id) return;
    const clean = id.trim().toLowerCase().replace(/[^a-z0-9-]+/g, '-');
    const key = this.ws.addLocal(clean, newPackFiles(clean));
    this.openPack(key);
  }

  private exportPack() {
    const id = manifestId(this.files) ?? this.packKey.split('/').pop() ?? 'pack';
    const bytes = exportZip(id, this.files);
    const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'application/zip' }));
    const a = h('a', { href: url, download: `${id}.zip` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    this.toast(`Exported ${id}.zip.`);
  }

  private async importFile() {
    const file = this.el.importInput.files?.[0];
    this.el.importInput.value = '';
    if (!file) return;
    const r = importZip(new Uint8Array(await file.arrayBuffer()));
    if (!r.ok) {
      this.toast(`Could not import ${file.name}: ${r.reason}.`, 'error');
      return;
    }
    const key = this.ws.addLocal(r.id, r.files);
    this.openPack(key);
    this.toast(`Imported ${r.id} (${Object.keys(r.files).length} files)${r.ignored.length ? `; ignored ${r.ignored.length} files that are not pack YAML` : ''}.`);
  }

  private async share() {
    const base = builtinPacks[this.packKey] ? this.packKey : undefined;
    const original = base ? builtinPacks[base] : {};
    const files: Record<string, string> = {};
    for (const [p, t] of Object.entries(this.files)) if (original[p] !== t) files[p] = t;
    const payload: SharePayload = { v: 1, base, files, deleted: Object.keys(original).filter((p) => !(p in this.files)), session: this.session };
    const url = `${location.origin}${location.pathname}${encodeShare(payload)}`;
    try {
      await navigator.clipboard.writeText(url);
      this.toast('Share link copied: it carries your edits, the seed and the moves.', 'info', url);
    } catch {
      this.toast('Share link (copy it):', 'info', url);
    }
  }

  private openShared(p: SharePayload) {
    history.replaceState(null, '', location.pathname + location.search);
    const base = p.base && builtinPacks[p.base] ? { ...builtinPacks[p.base] } : {};
    for (const d of p.deleted ?? []) delete base[d];
    const files = { ...base, ...p.files };
    if (!files['pack.yaml']) {
      this.toast('The share link has no pack.yaml, so it holds no pack.', 'error');
      this.openPack(this.ws.current);
      return;
    }
    const key = this.ws.addLocal(`${manifestId(files) ?? 'pack'}-shared`, files);
    if (p.session) this.ws.setSession(key, p.session);
    this.openPack(key);
    this.toast('Opened a shared pack as a local copy; your own edits are untouched.');
  }

  // ─── Files and editing ────────────────────────────────────────────────────

  private renderFiles() {
    const counts = new Map<string, { e: number; w: number }>();
    for (const d of this.diagnostics) {
      const c = counts.get(d.file) ?? { e: 0, w: 0 };
      if (d.severity === 'error') c.e++;
      else c.w++;
      counts.set(d.file, c);
    }
    const paths = Object.keys(this.files).sort((a, b) => (a === 'pack.yaml' ? -1 : b === 'pack.yaml' ? 1 : a.localeCompare(b)));
    const current = this.editor.currentFile;
    let lastDir = '';
    const items: HTMLElement[] = [];
    for (const p of paths) {
      const dir = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '';
      if (dir !== lastDir && dir) items.push(h('div', { class: 'dir' }, `${dir}/`));
      lastDir = dir;
      const c = counts.get(p);
      items.push(
        h(
          'button',
          { class: `file${p === current ? ' active' : ''}${dir ? ' nested' : ''}`, 'data-testid': `file-${p}`, title: p, onclick: () => this.editor.open(p) },
          h('span', { class: 'name' }, p.slice(dir ? dir.length + 1 : 0)),
          c?.e ? h('span', { class: 'badge error' }, c.e) : c?.w ? h('span', { class: 'badge warning' }, c.w) : null,
        ),
      );
    }
    clear(
      this.el.files,
      h('div', { class: 'files-head' }, h('span', null, 'Files'), h('button', { class: 'icon', title: 'New file', 'data-testid': 'add-file', onclick: () => void this.addFile() }, '+')),
      h('div', { class: 'files-scroll' }, items),
    );
    const dirty = current && this.ws.get(this.packKey)?.origin === 'builtin' && builtinPacks[this.packKey]?.[current] !== this.files[current];
    clear(
      this.el.fileTitle,
      h('span', { class: 'path' }, current || 'no file'),
      dirty ? h('span', { class: 'edited', title: 'Edited: differs from the shipped file; saved in this browser' }, '● edited') : null,
      current && current !== 'pack.yaml' ? h('button', { class: 'ghost small', onclick: () => void this.deleteFile(current), title: 'Delete this file' }, 'Delete file') : null,
    );
  }

  private async addFile() {
    const path = await ask('New file', 'Its path in the pack, for example races/dwarves.yaml.', 'rules.yaml', 'Add file');
    if (!path) return;
    let p = path.trim().replace(/^\/+/, '');
    if (!/\.ya?ml$/.test(p)) p += '.yaml';
    if (p.split('/').includes('..')) return this.toast('A pack file stays inside its pack folder.', 'error');
    if (this.files[p] !== undefined) return this.editor.open(p);
    const text = '# New file\n';
    this.files[p] = text;
    this.ws.setFile(this.packKey, p, text);
    this.editor.addFile(p, text);
    this.renderFiles();
    this.scheduleCompile();
  }

  private async deleteFile(p: string) {
    if (!(await confirmAction(`Delete ${p}?`, 'The file is removed from this pack. Undo is not possible, but Revert brings back a shipped file.', 'Delete file'))) return;
    delete this.files[p];
    this.ws.setFile(this.packKey, p, undefined);
    this.editor.removeFile(p);
    this.renderFiles();
    this.renderPackSelect();
    this.scheduleCompile();
  }

  /** When the last edit, compile request, answer and redraw happened (performance.now), for bench/playground.ts. */
  timing = { edit: 0, sent: 0, received: 0, shown: 0, workerMs: 0 };

  private onEdit(path: string, text: string) {
    this.timing.edit = performance.now();
    this.files[path] = text;
    this.ws.setFile(this.packKey, path, text);
    this.scheduleCompile();
    this.setStatus('pending');
  }

  // ─── Compiling ────────────────────────────────────────────────────────────

  private scheduleCompile() {
    clearTimeout(this.compileTimer);
    this.compileTimer = setTimeout(() => this.compileNow(), COMPILE_DEBOUNCE_MS);
  }

  private compileNow() {
    clearTimeout(this.compileTimer);
    const key = this.packKey;
    const deps: Record<string, ReturnType<typeof sourcesOf>> = {};
    for (const id of dependencyIds(this.files)) {
      // The pack with that manifest id: the designer's own copy first, then the shipped one.
      const found = [...this.ws.list()].sort((a, b) => (a.origin === 'local' ? -1 : 0) - (b.origin === 'local' ? -1 : 0)).find((p) => p.label === id && p.key !== this.packKey);
      const entry = found && this.ws.get(found.key);
      if (entry) deps[id] = sourcesOf(entry.files);
    }
    this.compiling = true;
    this.setStatus('compiling');
    this.timing.sent = performance.now();
    void this.engine.compile({ files: sourcesOf(this.files), dependencies: deps, scenarios: scenariosOf(this.files) }).then((r) => {
      if (key !== this.packKey) return;
      this.compiling = false;
      this.onCompiled(r);
    });
  }

  private onCompiled(r: CompileResponse) {
    this.timing.received = performance.now();
    this.timing.workerMs = r.ms;
    this.lastCompile = r;
    this.diagnostics = r.diagnostics;
    this.editor.setSymbols(r.symbols);
    this.editor.setDiagnostics(r.diagnostics);
    this.renderProblems();
    this.renderFiles();
    this.setStatus();
    this.timing.shown = performance.now();
    if (r.version !== undefined && r.summary) {
      this.summary = r.summary;
      this.version = r.version;
      if (!r.summary.languages.includes(this.lang)) this.lang = r.summary.languages[0] ?? 'en';
      // Edit and replay: the game in progress replays its choices under the new rules.
      if (this.session) void this.play();
      else this.renderGame();
    } else {
      // Errors: the game goes on with the last good rules; its banner says so.
      this.renderGame();
    }
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

  private onScenarios(r: ScenariosResponse) {
    if (r.version !== this.version) return;
    this.scenarioRun = r;
    this.editor.setScenarioMarkers(
      r.results.flatMap((res) => res.failures.map((f) => ({ file: f.at.file, offset: f.at.offset, length: f.at.length, message: [f.message, f.reason && `reason: ${f.reason}`, f.hint].filter(Boolean).join('\n') }))),
    );
    this.renderProblems();
  }

  private onTexts(r: TextsResponse) {
    if (r.version !== this.version) return;
    this.textRun = r;
    this.editor.setTextMarkers(this.textFindings(r));
    this.renderProblems();
  }

  /** Every finding of the card text checker: the cards' and the language files'. */
  private textFindings(r: TextsResponse): TextFindingInfo[] {
    return [...r.setup, ...r.cards.flatMap((c) => Object.values(c.langs).flatMap((l) => l.findings))];
  }

  private renderProblems() {
    const ds = [...this.diagnostics].sort((a, b) => (a.severity === b.severity ? a.file.localeCompare(b.file) || a.offset - b.offset : a.severity === 'error' ? -1 : 1));
    const errors = ds.filter((d) => d.severity === 'error').length;
    const hasScenarios = Object.keys(this.files).some((p) => p.startsWith('scenarios/'));
    if (!hasScenarios && this.bottomTab === 'scenarios') this.bottomTab = 'problems';
    const run = this.scenarioRun;
    const failed = run?.results.filter((r) => !r.passed).length ?? 0;
    const texts = this.textRun;
    const textCount = texts ? this.textFindings(texts).length : 0;
    const textErrors = texts ? this.textFindings(texts).some((f) => f.severity === 'error') : false;
    const tab = (id: BottomTab, ...label: Array<HTMLElement | string>) =>
      h('button', { class: `tab${this.bottomTab === id ? ' active' : ''}`, 'data-testid': `tab-${id}`, onclick: () => { this.bottomTab = id; this.renderProblems(); } }, ...label);
    clear(
      this.el.problemsTitle,
      tab('problems', 'Problems ', h('span', { class: `count${errors ? ' error' : ds.length ? ' warning' : ''}`, 'data-testid': 'problem-count' }, ds.length)),
      hasScenarios
        ? tab('scenarios', 'Scenarios ', run
            ? h('span', { class: `count${failed || run.error ? ' error' : ' good'}`, 'data-testid': 'scenario-count', title: `${run.results.length - failed} passed, ${failed} failed` }, failed ? `${failed} failed` : `${run.results.length} passed`)
            : h('span', { class: 'count', 'data-testid': 'scenario-count', title: 'The scenarios run once the pack compiles without errors' }, this.summary ? '…' : 'not run'))
        : null,
      tab('texts', 'Card texts ', texts
        ? h('span', { class: `count${texts.error || textErrors ? ' error' : textCount ? ' warning' : ' good'}`, 'data-testid': 'text-count', 'data-findings': textCount }, texts.error ? 'failed' : `${texts.cards.length} cards · ${textCount} finding${textCount === 1 ? '' : 's'}`)
        : h('span', { class: 'count', 'data-testid': 'text-count', title: 'Card texts are checked once the pack compiles without errors' }, this.summary ? '…' : 'not run')),
      tab('balance', 'Balance ', h('span', { class: 'count', 'data-testid': 'balance-count' }, this.balanceLabel())),
      this.bottomTab === 'texts' && texts ? h('span', { class: 'ran' }, `checked on the last good compile in ${Math.round(texts.ms)} ms`) : null,
      this.bottomTab === 'scenarios' && run ? h('span', { class: 'ran' }, `ran on the last good compile in ${Math.round(run.ms)} ms`) : null,
    );
    if (this.bottomTab === 'scenarios') return this.renderScenarios();
    if (this.bottomTab === 'texts') return this.renderTexts();
    if (this.bottomTab === 'balance') return this.renderBalance();
    if (!ds.length) {
      clear(this.el.problems, h('div', { class: 'empty' }, this.lastCompile ? 'No problems: the pack compiles.' : 'Compiling…'));
      return;
    }
    clear(
      this.el.problems,
      ds.map((d) =>
        h(
          'div',
          { class: `problem ${d.severity}`, 'data-testid': 'problem', 'data-code': d.code, tabindex: 0, onclick: () => this.editor.reveal(d.file, d.offset, d.endOffset), onkeydown: (e: Event) => (e as KeyboardEvent).key === 'Enter' && this.editor.reveal(d.file, d.offset, d.endOffset) },
          h('span', { class: 'sev' }, d.severity === 'error' ? '✕' : '!'),
          h(
            'div',
            { class: 'body' },
            h('div', { class: 'msg' }, h('span', { class: 'message' }, d.message), ' ', h('span', { class: 'where' }, `${d.file}:${d.line}:${d.column}`), ' ', h('span', { class: 'code' }, d.code)),
            d.hint ? h('div', { class: 'hint' }, d.hint) : null,
          ),
          d.fix?.safe
            ? h('button', {
                class: 'small',
                'data-testid': 'apply-fix',
                title: 'Apply this fix',
                onclick: (e: Event) => {
                  e.stopPropagation();
                  this.editor.applyFix(d);
                },
              }, d.fix.replacement ? `Fix: ${d.fix.replacement}` : 'Fix')
            : null,
        ),
      ),
    );
  }

  /** Each card with a ✓ or ✗ per language; its findings below it, a click away from the text's words. */
  private renderTexts() {
    const run = this.textRun;
    if (!run) {
      clear(this.el.problems, h('div', { class: 'empty' }, this.summary ? 'Checking the card texts…' : 'Card texts are checked once the pack compiles without errors.'));
      return;
    }
    const bad = (c: TextsResponse['cards'][number]) => Object.values(c.langs).some((l) => l.findings.length);
    const cards = [...run.cards].sort((a, b) => Number(bad(b)) - Number(bad(a)));
    const finding = (f: TextFindingInfo) =>
      h('div', { class: `failure ${f.severity}`, 'data-testid': 'text-finding', 'data-card': f.card, 'data-lang': f.lang, 'data-code': f.code, tabindex: 0, title: f.hint ?? '', onclick: () => this.editor.reveal(f.file, f.offset, f.endOffset), onkeydown: (e: Event) => (e as KeyboardEvent).key === 'Enter' && this.editor.reveal(f.file, f.offset, f.endOffset) },
        h('div', null, f.lang ? h('span', { class: 'lang' }, f.lang) : null, ' ', f.message, ' ', h('span', { class: 'where' }, `${f.file}:${f.line}:${f.column}`), ' ', h('span', { class: 'code' }, f.code)),
        f.canonical ? h('div', { class: 'hint' }, `the rules read: “${f.canonical}”`) : null,
        f.rule ? h('div', { class: 'hint rule', onclick: (e: Event) => { e.stopPropagation(); this.editor.revealLine(f.rule!.file, f.rule!.line); } }, `rule at ${f.rule.file}:${f.rule.line}:${f.rule.column}: ${f.rule.source}`) : null,
      );
    clear(
      this.el.problems,
      run.error ? h('div', { class: 'problem error' }, h('span', { class: 'sev' }, '✕'), h('div', { class: 'body' }, run.error)) : null,
      run.setup.map(finding),
      cards.map((c) =>
        h('div', { class: `scenario card-text ${bad(c) ? 'failed' : 'passed'}`, 'data-testid': 'card-text', 'data-card': c.id, 'data-ok': String(!bad(c)) },
          h('div', { class: 'problem-row', tabindex: 0, onclick: () => this.editor.revealLine(c.file, c.line) },
            h('span', { class: 'message' }, c.id),
            run.languages.map((lang) => {
              const l = c.langs[lang];
              if (!l) return null;
              const mark = l.findings.some((f) => f.severity === 'error') ? '✗' : l.findings.length ? '!' : '✓';
              return h('span', { class: `verdict ${mark === '✓' ? 'ok' : mark === '✗' ? 'bad' : 'warn'}`, 'data-testid': 'card-verdict', 'data-lang': lang, 'data-ok': String(l.ok), title: `${lang}: ${l.text ?? '(no text)'}\nfrom the rules: ${l.canonical}` }, `${mark} ${lang}`);
            }),
            ' ',
            h('span', { class: 'where' }, `${c.file}:${c.line}`),
          ),
          Object.values(c.langs).flatMap((l) => l.findings).map(finding),
        ),
      ),
    );
  }

  private balanceLabel(): string {
    const run = this.balance?.run;
    if (!this.balance) return 'not run';
    if (!run) return '…';
    if (run.error) return 'stopped';
    return run.report ? `${run.games} games` : `${run.done}/${run.games}`;
  }

  /** Games by bots on the last good compile: wins by seat and by the cards held at the end. */
  private renderBalance() {
    const b = this.balance;
    const players = this.summary ? Array.from({ length: this.summary.players.max - this.summary.players.min + 1 }, (_, i) => this.summary!.players.min + i) : [];
    const games = h('select', { 'data-testid': 'balance-games', title: 'Games to play' }, [20, 50, 100, 200].map((n) => h('option', { value: n, selected: n === (b?.games ?? 20) }, `${n} games`)));
    const seats = h('select', { 'data-testid': 'balance-players', title: 'Players' }, players.map((n) => h('option', { value: n, selected: n === (b?.players ?? players[0]) }, `${n} players`)));
    const bots = h('select', { 'data-testid': 'balance-bots', title: 'random: a uniform pick; greedy: the best lead after playing the rest of its turn (slower)' }, ['random', 'greedy'].map((k) => h('option', { value: k, selected: k === (b?.bots ?? 'random') }, `${k} bots`)));
    const start = () => {
      const req = { games: Number(games.value), players: Number(seats.value), seed: 1, bots: bots.value as 'random' | 'greedy' };
      this.balance = { id: this.engine.simulate(req), games: req.games, players: req.players, bots: req.bots };
      this.renderProblems();
    };
    const controls = h('div', { class: 'balance-controls' }, games, seats, bots, h('button', { class: 'small', 'data-testid': 'balance-run', disabled: !this.summary, onclick: start }, 'Run'));
    const run = b?.run;
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    const body: Array<HTMLElement | null> = [];
    if (!this.summary) body.push(h('div', { class: 'empty' }, 'Bots play once the pack compiles without errors.'));
    else if (!b) body.push(h('div', { class: 'empty' }, 'Play many games by bots on these rules, to see how often each seat and each card wins.'));
    else if (run?.error) body.push(h('div', { class: 'problem error' }, h('span', { class: 'sev' }, '✕'), h('div', { class: 'body' }, `${run.error} (after ${run.done} games)`)));
    else if (!run?.report) body.push(h('div', { class: 'empty', 'data-testid': 'balance-progress' }, `Playing: ${run?.done ?? 0} of ${b.games} games…`));
    else {
      const r = run.report;
      body.push(h('div', { class: 'balance-note', 'data-testid': 'balance-summary' }, `${r.finished} of ${r.games} games finished, ${r.meanSteps.toFixed(0)} choices a game, ${(run.ms / 1000).toFixed(1)} s`));
      for (const s of r.stuck) body.push(h('div', { class: 'problem warning' }, `seed ${s.seed}: ${s.why}`));
      if (r.cooperative) body.push(h('div', { class: 'empty' }, `One score for the table (a solo or cooperative game); mean score ${(r.seats[0]?.meanScore ?? 0).toFixed(2)}.`));
      else body.push(h('div', { class: 'balance-row head' }, `Wins by seat (even: ${pct(r.even)})`), ...r.seats.map((s) => h('div', { class: 'balance-row', 'data-testid': 'balance-seat' }, h('span', { class: 'name' }, s.player), h('span', null, pct(s.share)), h('span', { class: 'where' }, `[${pct(s.low)}–${pct(s.high)}] mean score ${s.meanScore.toFixed(1)}`))));
      body.push(h('div', { class: 'balance-row head' }, r.cooperative ? 'Mean score by card held at the end' : 'Wins of the players holding each card at the end'));
      for (const c of r.cards) {
        const off = !r.cooperative && (c.low > r.even || c.high < r.even);
        body.push(h('div', { class: `balance-row${off ? ' off' : ''}`, 'data-testid': 'balance-card', 'data-card': c.card, title: off ? 'outside an even game’s share, with 95% confidence' : '' }, h('span', { class: 'name' }, this.summary.entities[c.card]?.name[this.lang] ?? c.card), h('span', null, r.cooperative ? c.meanScore.toFixed(2) : pct(c.share)), h('span', { class: 'where' }, `${r.cooperative ? '' : `[${pct(c.low)}–${pct(c.high)}] `}in ${c.n} game${c.n === 1 ? '' : 's'}`)));
      }
    }
    clear(this.el.problems, controls, ...body);
  }

  private renderScenarios() {
    const run = this.scenarioRun;
    if (!run) {
      clear(this.el.problems, h('div', { class: 'empty' }, this.summary ? 'Running the scenarios…' : 'The scenarios run once the pack compiles without errors.'));
      return;
    }
    const results = [...run.results].sort((a, b) => Number(a.passed) - Number(b.passed));
    clear(
      this.el.problems,
      run.error ? h('div', { class: 'problem error' }, h('span', { class: 'sev' }, '✕'), h('div', { class: 'body' }, run.error)) : null,
      results.map((r) =>
        h('div', { class: `scenario ${r.passed ? 'passed' : 'failed'}`, 'data-testid': 'scenario', 'data-passed': String(r.passed) },
          h('div', { class: 'problem-row', tabindex: 0, onclick: () => this.editor.revealLine(r.file, r.line) },
            h('span', { class: 'sev' }, r.passed ? '✓' : '✕'),
            h('span', { class: 'message' }, r.scenario),
            ' ',
            h('span', { class: 'where' }, `${r.file}:${r.line}`),
          ),
          r.failures.map((f) =>
            h('div', { class: 'failure', tabindex: 0, onclick: () => this.editor.reveal(f.at.file, f.at.offset, f.at.offset + f.at.length) },
              h('div', null, f.message, ' ', h('span', { class: 'where' }, `${f.at.file}:${f.at.line}:${f.at.column}`)),
              f.reason ? h('div', { class: 'hint' }, `the rules said: ${f.reason}`) : null,
              f.expected !== undefined || f.found !== undefined ? h('div', { class: 'hint' }, `expected ${JSON.stringify(f.expected)}, found ${JSON.stringify(f.found)}`) : null,
              f.hint ? h('div', { class: 'hint' }, f.hint) : null,
            ),
          ),
        ),
      ),
    );
  }

  // ─── Playing ──────────────────────────────────────────────────────────────

  private defaultSession(): Session {
    const min = this.summary?.players.min ?? 2;
    const max = this.summary?.players.max ?? min;
    const players = Math.min(max, Math.max(min, 3));
    return { players, seed: Math.floor(Math.random() * 1e6), seats: Array.from({ length: players }, (_, i) => (i === 0 ? 'human' : 'bot')), choices: [], madeBy: [] };
  }

  private setupDraft: Session | undefined;

  private startGame(s: Session) {
    this.stopBots();
    this.session = { ...s, choices: [], madeBy: [] };
    this.cursor = undefined;
    this.viewAs = null;
    this.botsPaused = false;
    this.ws.setSession(this.packKey, this.session);
    void this.play();
  }

  private endGame() {
    this.stopBots();
    this.setupDraft = this.session ? { ...this.session } : undefined;
    this.session = undefined;
    this.played = undefined;
    this.cursor = undefined;
    this.ws.setSession(this.packKey, undefined);
    this.renderGame();
  }

  private async play() {
    const s = this.session;
    if (!s || !this.summary) {
      this.renderGame();
      return;
    }
    const seq = ++this.playSeq;
    const choices = this.cursor === undefined ? s.choices : s.choices.slice(0, this.cursor);
    const r = await this.engine.play({ players: s.players, seed: s.seed, choices, viewAs: this.viewAs });
    if (seq !== this.playSeq || r.error === 'superseded') return;
    this.played = r;
    this.renderGame();
    this.maybeBotMove();
  }

  private seatOf(player: string): Seat {
    const i = this.played?.state?.players.indexOf(player) ?? -1;
    return this.session?.seats[i] ?? 'human';
  }

  private toMove(): string | undefined {
    const st = this.played?.state;
    return st?.prompt?.player ?? this.played?.legal[0]?.player ?? st?.current ?? undefined;
  }

  private stopBots() {
    clearTimeout(this.botTimer);
    this.botTimer = undefined;
  }

  private maybeBotMove() {
    this.stopBots();
    const r = this.played;
    const s = this.session;
    if (!r || !s || this.cursor !== undefined || this.botsPaused || r.stoppedAt || !r.state || r.state.over || !r.legal.length) return;
    const player = r.legal[0].player;
    if (this.seatOf(player) !== 'bot') return;
    // Stop a runaway game: a designer can resume.
    if (s.choices.length >= 2000) {
      this.botsPaused = true;
      this.renderGame();
      return;
    }
    this.botTimer = setTimeout(() => {
      const legal = r.legal.filter((c) => c.player === player);
      const pick = legal[botPick(s.seed, s.choices.length, legal.length)];
      this.makeChoice(pick);
    }, BOT_DELAYS[this.botSpeed] ?? 150);
  }

  makeChoice(c: Choice) {
    const s = this.session;
    if (!s) return;
    this.stopBots();
    if (this.cursor !== undefined) {
      // Choosing while looking back branches the game from there.
      s.choices = s.choices.slice(0, this.cursor);
      s.madeBy = s.madeBy.slice(0, this.cursor);
      this.cursor = undefined;
    }
    if (this.played?.stoppedAt) {
      // The rules changed under the old choices: the ones that no longer apply are dropped.
      s.choices = s.choices.slice(0, this.played.applied);
      s.madeBy = s.madeBy.slice(0, this.played.applied);
    }
    s.choices.push(c.id);
    s.madeBy.push(c.player);
    this.ws.setSession(this.packKey, s);
    void this.play();
  }

  private undo() {
    const s = this.session;
    if (!s || !s.choices.length) return;
    this.stopBots();
    const end = this.cursor ?? (this.played?.stoppedAt ? this.played.applied : s.choices.length);
    let n = end;
    // Back to before the last human move, so the bots do not replay it at once.
    while (n > 0) {
      n--;
      const by = s.madeBy[n];
      if (by === undefined || this.seatOf(by) === 'human') break;
    }
    if (s.seats.every((x) => x === 'bot')) this.botsPaused = true;
    s.choices = s.choices.slice(0, n);
    s.madeBy = s.madeBy.slice(0, n);
    this.cursor = undefined;
    this.ws.setSession(this.packKey, s);
    void this.play();
  }

  private step(to: number | undefined) {
    const s = this.session;
    if (!s) return;
    this.stopBots();
    const max = this.played?.stoppedAt && this.cursor === undefined ? this.played.applied : s.choices.length;
    this.cursor = to === undefined || to >= s.choices.length ? undefined : Math.max(0, Math.min(max, to));
    void this.play();
  }

  private discardDeadChoices() {
    const s = this.session;
    const r = this.played;
    if (!s || !r?.stoppedAt) return;
    s.choices = s.choices.slice(0, r.applied);
    s.madeBy = s.madeBy.slice(0, r.applied);
    this.ws.setSession(this.packKey, s);
    void this.play();
  }

  private renderGame() {
    const g = this.el.game;
    if (!this.summary) {
      const r = this.lastCompile;
      clear(
        g,
        h('div', { class: 'game-empty', 'data-testid': 'game-empty' },
          h('h2', null, 'Play'),
          !r
            ? h('p', null, 'Compiling the pack…')
            : r.engineProblem
              ? h('p', null, `The game cannot start: ${r.engineProblem}.`)
              : h('p', null, 'The game starts once the pack compiles without errors. Fix the problems listed under the editor.'),
        ),
      );
      return;
    }
    if (!this.session) {
      this.renderSetup(g, this.summary);
      return;
    }
    this.renderPlay(g, this.summary, this.session);
  }

  private renderSetup(g: HTMLElement, summary: PackSummary) {
    const draft = (this.setupDraft ??= this.defaultSession());
    const { min, max } = summary.players;
    draft.players = Math.min(max, Math.max(min, draft.players));
    draft.seats = Array.from({ length: draft.players }, (_, i) => draft.seats[i] ?? 'bot');
    const seats = h('div', { class: 'seats' });
    const renderSeats = () =>
      clear(
        seats,
        draft.seats.map((seat, i) =>
          h('label', { class: 'seat' },
            h('span', { class: 'dot', style: `background:${playerColours[i % playerColours.length]}` }),
            `Player ${i + 1}`,
            seatSelect(seat, (v) => (draft.seats[i] = v), `seat-${i}`),
          ),
        ),
      );
    renderSeats();
    const count = h('select', { 'data-testid': 'player-count' }, Array.from({ length: max - min + 1 }, (_, i) => min + i).map((n) => h('option', { value: n, selected: n === draft.players }, `${n} players`)));
    count.addEventListener('change', () => {
      draft.players = Number(count.value);
      draft.seats = Array.from({ length: draft.players }, (_, i) => draft.seats[i] ?? 'bot');
      renderSeats();
    });
    const seed = h('input', { type: 'number', value: draft.seed, min: 0, 'data-testid': 'seed', class: 'seed' });
    seed.addEventListener('input', () => (draft.seed = Math.max(0, Math.floor(Number(seed.value) || 0))));
    clear(
      g,
      h('div', { class: 'setup', 'data-testid': 'game-setup' },
        h('h2', null, `New game of ${summary.id}`),
        h('div', { class: 'row' },
          h('label', null, 'Players ', count),
          h('label', null, 'Seed ', seed),
          h('button', { class: 'small', title: 'Another seed', 'data-testid': 'random-seed', onclick: () => { draft.seed = Math.floor(Math.random() * 1e6); seed.value = String(draft.seed); } }, 'Random'),
        ),
        seats,
        h('button', { class: 'primary big', 'data-testid': 'start-game', onclick: () => this.startGame(draft) }, 'Start game'),
        h('p', { class: 'note' }, 'Bots pick among the legal choices with the seed, so a game replays the same. Edit the rules while playing: the moves replay under the new rules.'),
      ),
    );
  }

  private renderPlay(g: HTMLElement, summary: PackSummary, s: Session) {
    const r = this.played;
    const state = r?.view ?? r?.state;
    const full = r?.state;
    const live = this.cursor === undefined;
    const shownSteps = r ? r.applied : 0;
    const total = s.choices.length;
    const toMove = this.toMove();
    const humanToMove = !!toMove && this.seatOf(toMove) === 'human';
    const canChoose = !!r && !r.error && (!this.viewAs || this.viewAs === toMove);

    const viewSelect = h('select', { 'data-testid': 'view-as', title: 'Whose view of the game: hidden information is removed' },
      h('option', { value: '' }, 'View: everything'),
      (full?.players ?? []).map((p, i) => h('option', { value: p, selected: this.viewAs === p }, `View as P${i + 1}`)),
    );
    viewSelect.addEventListener('change', () => {
      this.viewAs = viewSelect.value || null;
      void this.play();
    });
    const langSelect = summary.languages.length > 1
      ? h('select', { 'data-testid': 'language', title: 'Language of names and texts' }, summary.languages.map((l) => h('option', { value: l, selected: l === this.lang }, l.toUpperCase())))
      : null;
    langSelect?.addEventListener('change', () => {
      this.lang = langSelect.value;
      this.renderGame();
    });
    const speed = h('select', { 'data-testid': 'bot-speed', title: 'Bot speed' }, Object.keys(BOT_DELAYS).map((k) => h('option', { value: k, selected: k === this.botSpeed }, `Bots: ${k}`)));
    speed.addEventListener('change', () => {
      this.botSpeed = speed.value;
      this.maybeBotMove();
    });

    const toolbar = h('div', { class: 'game-toolbar' },
      h('div', { class: 'group' },
        h('span', { class: 'game-id', title: `seed ${s.seed}` }, `${s.players} players · seed ${s.seed}`),
        h('button', { class: 'small', 'data-testid': 'restart', title: 'Same players and seed, no moves', onclick: () => this.startGame(s) }, 'Restart'),
        h('button', { class: 'small ghost', 'data-testid': 'new-game', title: 'Choose players and seed', onclick: () => this.endGame() }, 'New game'),
      ),
      h('div', { class: 'group history', 'data-testid': 'history' },
        h('button', { class: 'small', 'data-testid': 'undo', disabled: !total, title: 'Undo to before your last move', onclick: () => this.undo() }, '↶ Undo'),
        h('button', { class: 'icon', title: 'To the start', disabled: shownSteps === 0, onclick: () => this.step(0) }, '«'),
        h('button', { class: 'icon', 'data-testid': 'step-back', title: 'Step back', disabled: shownSteps === 0, onclick: () => this.step(shownSteps - 1) }, '◀'),
        h('span', { class: 'step', 'data-testid': 'step' }, `${shownSteps}/${total}`),
        h('button', { class: 'icon', 'data-testid': 'step-forward', title: 'Step forward', disabled: live, onclick: () => this.step((this.cursor ?? total) + 1) }, '▶'),
        h('button', { class: 'icon', 'data-testid': 'live', title: 'Back to the present', disabled: live, onclick: () => this.step(undefined) }, '»'),
      ),
      h('div', { class: 'group' }, speed, viewSelect, langSelect),
    );

    const banners: HTMLElement[] = [];
    if (r?.stoppedAt && live) {
      banners.push(
        h('div', { class: 'banner warn', 'data-testid': 'replay-stopped' },
          h('span', { class: 'banner-text' },
            h('strong', null, `Under the new rules, move ${r.stoppedAt.step + 1} of ${total} (\`${s.choices[r.stoppedAt.step] ?? '?'}\`) is refused: `),
            `${r.stoppedAt.reason}. The game shows the state before it; the ${total - r.applied} move${total - r.applied > 1 ? 's' : ''} from there on ${total - r.applied > 1 ? 'are' : 'is'} kept in case you edit the rules back.`,
          ),
          h('button', { class: 'small', onclick: () => this.discardDeadChoices() }, 'Drop them and play on'),
        ),
      );
    }
    if (!live) banners.push(h('div', { class: 'banner info', 'data-testid': 'history-banner' }, `Looking back at move ${this.cursor} of ${total}. Choosing here starts a new line of play from this point.`, h('button', { class: 'small', onclick: () => this.step(undefined) }, 'Back to the present')));
    if (r?.error) banners.push(h('div', { class: 'banner bad', 'data-testid': 'game-error' }, r.error));
    if (this.diagnostics.some((d) => d.severity === 'error')) banners.push(h('div', { class: 'banner muted' }, 'The pack has errors; the game runs on the last rules that compiled.'));
    if (this.botsPaused) banners.push(h('div', { class: 'banner info' }, 'Bots are paused.', h('button', { class: 'small', onclick: () => { this.botsPaused = false; this.maybeBotMove(); this.renderGame(); } }, 'Resume bots')));

    const boardWrap = h('div', { class: 'board-wrap' });
    const legal = canChoose ? r!.legal : [];
    const drawBoard = (aspect: number) => {
      if (!state) return void clear(boardWrap, h('div', { class: 'no-board' }, r?.error ? 'No game state.' : 'Starting…'));
      const svg = renderBoard({
        summary,
        state,
        lang: this.lang,
        aspect,
        zoom: this.boardZoom,
        onZoom: (z) => (this.boardZoom = z),
        choices: legal,
        clickable: humanToMove && !r?.stoppedAt,
        onPick: (_entity, choices, at) => (choices.length === 1 ? this.makeChoice(choices[0]) : this.pickMenu(choices, at)),
      });
      clear(boardWrap, svg ?? h('div', { class: 'no-board' }, 'No kind of this pack has a graph, so there is no board to draw.'));
    };
    // Several boards are arranged for the space they get: drawn for the last known shape, then
    // again if the space turns out to be another shape (a banner came or went).
    drawBoard(this.boardAspect);
    requestAnimationFrame(() => {
      if (!boardWrap.isConnected || boardWrap.clientHeight < 20) return;
      const aspect = boardWrap.clientWidth / boardWrap.clientHeight;
      if (Math.abs(aspect - this.boardAspect) / this.boardAspect > 0.08) {
        this.boardAspect = aspect;
        drawBoard(aspect);
      }
    });

    clear(
      g,
      toolbar,
      banners,
      h('div', { class: 'game-body' },
        boardWrap,
        h('div', { class: 'side' },
          this.renderPrompt(state, toMove, legal, humanToMove),
          this.renderPlayers(summary, state, s),
          this.renderLog(state),
        ),
      ),
    );
  }

  private renderPrompt(state: GameState | undefined, toMove: string | undefined, legal: Choice[], humanToMove: boolean): HTMLElement {
    const r = this.played;
    const idx = state && toMove ? state.players.indexOf(toMove) : -1;
    const who = idx >= 0 ? h('span', { class: 'who' }, h('span', { class: 'dot', style: `background:${playerColours[idx % playerColours.length]}` }), `P${idx + 1}`) : null;
    let head: (HTMLElement | string | null)[];
    if (!state) head = ['…'];
    else if (state.over) {
      const rows = r?.standings ?? [];
      const best = rows[0];
      head = [
        h('strong', { 'data-testid': 'game-over' }, 'Game over'),
        rows.length
          ? h('ol', { class: 'standings', 'data-testid': 'standings' }, rows.map((row) => {
              const i = state.players.indexOf(row.player);
              return h('li', { class: best && row.score === best.score && row.tiebreak === best.tiebreak ? 'winner' : '' },
                h('span', { class: 'dot', style: `background:${playerColours[i % playerColours.length]}` }), `P${i + 1} `, h('strong', null, row.score), row.tiebreak ? h('span', { class: 'tiebreak' }, ` (tiebreak ${row.tiebreak})`) : null);
            }))
          : null,
      ];
    }
    else if (r?.stoppedAt && this.cursor === undefined) head = ['Replay stopped; drop the later moves to play on.'];
    else if (!legal.length && this.viewAs && this.viewAs !== toMove) head = [who, ' to move (switch the view to see their choices)'];
    else head = [who, humanToMove ? ' to move' : ' (bot) is thinking…', state.prompt?.text ? h('div', { class: 'prompt-text' }, state.prompt.text) : null];
    const buttons = legal.map((c) =>
      h('button', {
        class: 'choice',
        'data-testid': 'choice',
        'data-choice': c.id,
        disabled: !humanToMove || !!r?.stoppedAt,
        title: c.id,
        onclick: () => this.makeChoice(c),
        // Pointing at a choice shows on the board what it names.
        onmouseenter: () => highlight(c, true),
        onmouseleave: () => highlight(c, false),
      }, choiceLabel(c, state?.prompt?.text)),
    );
    return h('div', { class: 'panel prompt', 'data-testid': 'prompt' }, h('div', { class: 'panel-head' }, ...head), h('div', { class: 'choices', 'data-testid': 'choices' }, buttons));
  }

  private renderPlayers(summary: PackSummary, state: GameState | undefined, s: Session): HTMLElement {
    if (!state) return h('div', { class: 'panel players' });
    const playerKind = summary.kinds.player;
    const fieldNames = playerKind ? Object.keys(playerKind.state) : [...new Set(state.players.flatMap((p) => Object.keys(state.e[p] ?? {})))];
    const name = (v: unknown): string => {
      if (v === null || v === undefined) return '—';
      if (typeof v === 'string') {
        const pi = state.players.indexOf(v);
        if (pi >= 0) return `P${pi + 1}`;
        return summary.entities[v]?.name[this.lang] ?? summary.entities[v]?.name.en ?? v;
      }
      if (Array.isArray(v)) return v.length ? v.map(name).join(', ') : '—';
      if (typeof v === 'boolean') return v ? 'yes' : 'no';
      return String(v);
    };
    // Players are columns and fields rows: a pack may give players many fields, and 2 to 5 columns fit.
    const head = h('tr', null, h('th', null, ''), state.players.map((p, i) =>
      h('th', { class: p === this.toMove() ? 'active' : '', 'data-testid': `player-${i}` },
        h('span', { class: 'dot', style: `background:${playerColours[i % playerColours.length]}` }), `P${i + 1}`,
        h('button', {
          class: `seat-toggle ${s.seats[i] ?? 'bot'}`,
          'data-testid': `seat-${i}`,
          title: 'Who plays this seat: click to switch between you and a bot',
          onclick: () => {
            s.seats[i] = s.seats[i] === 'human' ? 'bot' : 'human';
            this.ws.setSession(this.packKey, s);
            this.maybeBotMove();
            this.renderGame();
          },
        }, s.seats[i] === 'human' ? 'you' : 'bot'),
      ),
    ));
    const rows = fieldNames.map((f) =>
      h('tr', null, h('th', { class: 'field' }, f), state.players.map((p) => {
        const fields = state.e[p] ?? {};
        const hidden = playerKind?.state[f]?.hidden && this.viewAs !== null && this.viewAs !== p;
        return h('td', { 'data-testid': `field-${p}-${f}`, class: hidden ? 'hidden-field' : '', title: hidden ? 'hidden from this view' : `${f}: ${JSON.stringify(fields[f])}` }, hidden ? 'hidden' : name(fields[f]));
      })),
    );
    const game = state.e.game;
    return h('div', { class: 'panel players', 'data-testid': 'players' },
      h('table', null, h('thead', null, head), h('tbody', null, rows)),
      game && Object.keys(game).length ? h('div', { class: 'game-fields', 'data-testid': 'game-fields' }, Object.entries(game).map(([k, v]) => h('span', { class: 'kv', title: JSON.stringify(v) }, h('span', { class: 'k' }, k), ' ', name(v)))) : null,
    );
  }

  private renderLog(state: GameState | undefined): HTMLElement {
    const list = h('ol', { class: 'log', 'data-testid': 'log' });
    // The latest entries: a whole game's log would make every redraw slow.
    const all = state?.log ?? [];
    const shown = all.slice(-LOG_LIMIT);
    if (all.length > shown.length) list.append(h('li', { class: 'entry setup' }, `… ${all.length - shown.length} earlier entries (step back through the history to see them)`));
    for (const e of shown) {
      const pi = e.player ? (state?.players.indexOf(e.player) ?? -1) : -1;
      const rule = e.rule ? /^(.+?):(\d+)/.exec(e.rule) : null;
      list.append(
        h('li', { class: `entry${e.step < 0 ? ' setup' : ''}`, 'data-testid': 'log-entry' },
          h('span', { class: 'step' }, e.step < 0 ? 'setup' : `#${e.step + 1}`),
          pi >= 0 ? h('span', { class: 'dot', style: `background:${playerColours[pi % playerColours.length]}`, title: `P${pi + 1}` }) : null,
          h('span', { class: 'text' }, e.text),
          e.rule
            ? h('button', {
                class: 'rule',
                title: `Caused by ${e.rule}; click to open`,
                'data-testid': 'log-rule',
                onclick: () => rule && this.editor.revealLine(rule[1], Number(rule[2])),
              }, e.rule.replace(/^.*\//, ''))
            : null,
        ),
      );
    }
    const wrap = h('div', { class: 'panel log-panel' }, h('div', { class: 'panel-head' }, 'Log'), list);
    requestAnimationFrame(() => (list.scrollTop = list.scrollHeight));
    return wrap;
  }

  private pickMenu(choices: Choice[], at: { x: number; y: number }) {
    document.querySelector('.pick-menu')?.remove();
    const menu = h('div', { class: 'pick-menu', 'data-testid': 'pick-menu', style: `left:${Math.min(at.x, window.innerWidth - 220)}px;top:${Math.min(at.y, window.innerHeight - 40 * choices.length - 10)}px` },
      choices.map((c) => h('button', { class: 'choice', 'data-choice': c.id, onclick: () => { menu.remove(); this.makeChoice(c); } }, choiceLabel(c, this.played?.state?.prompt?.text))),
    );
    document.body.append(menu);
    const close = (e: Event) => {
      if (!menu.contains(e.target as Node)) {
        menu.remove();
        document.removeEventListener('pointerdown', close, true);
      }
    };
    setTimeout(() => document.addEventListener('pointerdown', close, true));
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

function highlight(c: Choice, on: boolean) {
  for (const id of c.args.flatMap(idsIn)) {
    for (const el of document.querySelectorAll(`[data-testid=board] [data-entity="${CSS.escape(id)}"]`)) el.classList.toggle('hl', on);
  }
}

/** A choice's label without the prompt's question, which the panel already shows above the choices. */
function choiceLabel(c: Choice, prompt: string | undefined): string {
  const label = c.label || c.id;
  return prompt && label.startsWith(`${prompt}: `) ? label.slice(prompt.length + 2) : label;
}

function seatSelect(value: Seat, onChange: (v: Seat) => void, testid: string): HTMLSelectElement {
  const sel = h('select', { class: 'seat-select', 'data-testid': testid }, h('option', { value: 'human', selected: value === 'human' }, 'Human'), h('option', { value: 'bot', selected: value === 'bot' }, 'Bot'));
  sel.addEventListener('change', () => onChange(sel.value as Seat));
  return sel;
}

new App().start();
