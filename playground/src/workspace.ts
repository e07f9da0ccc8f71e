/**
 * The designer's workspace: the packs shipped under `content/`, the packs of the designer's own
 * folder when the dev server serves one (`rulebook serve PATH`), the designer's edits to them, and
 * packs made, imported or opened from a local folder in the playground. Everything the designer
 * changes is saved in localStorage, so a reload or a crash never loses work; only what can be
 * loaded again is saved (`loadable.ts`), and what was saved but cannot be is set aside with a note.
 */
import type { SourceFile } from './engine-types.ts';
import { documentOf } from '../../compiler/load.ts';
import { neededPacks, requirementsOf } from '../../compiler/requirements.ts';
import type { ServedPacks } from '../served-packs.ts';
import { packFilesProblem, sessionProblem } from './loadable.ts';
import { packFiles } from './pack-files.ts';

export type Seat = 'human' | 'bot';

/** A game in progress: the options and the list of choices made, which replay to the same state. */
export interface Session {
  players: number;
  seed: number;
  seats: Seat[];
  choices: string[];
  /** Who made each choice (a player id), so undo can go back to the last human move. */
  madeBy: string[];
}

export interface PackEntry {
  /** `content/<folder>` for shipped packs, `folder/<name>/<path>` for a served folder's, `local/<name>` for packs made here. */
  key: string;
  origin: 'builtin' | 'local';
  /** File path (relative to the pack folder) → text. */
  files: Record<string, string>;
}

interface Saved {
  version: 1;
  /** Edited shipped packs and local packs. */
  /** Local packs: all their files. Shipped packs: only the files changed or added, and those deleted. */
  packs: Record<string, { origin: 'builtin' | 'local'; files: Record<string, string>; deleted?: string[] }>;
  current?: string;
  /** The served folder the designer last saw, so a newly served folder opens on its first pack. */
  folder?: string;
  openFile: Record<string, string>;
  sessions: Record<string, Session>;
}

const STORAGE_KEY = 'rulebook.playground.v1';

const shipped = import.meta.glob<string>('../../content/**/*.{yaml,yml}', { query: '?raw', import: 'default', eager: true });
// The small sample packs of the test suite (other games written as content) open as examples.
const examples = import.meta.glob<string>('../../test/packs/*/**/*.{yaml,yml}', { query: '?raw', import: 'default', eager: true });

function groupPacks(found: Record<string, string>, folder: RegExp, prefix: string, out: Record<string, Record<string, string>>) {
  for (const [path, text] of Object.entries(found)) {
    const m = folder.exec(path);
    if (!m) continue;
    (out[`${prefix}/${m[1]}`] ??= packFiles())[m[2]] = text;
  }
}

/** The designer's own folder, when the dev server serves one (nothing when the playground is a static build). */
export const served: ServedPacks = await fetch('/@rulebook/served')
  .then((r) => r.json() as Promise<ServedPacks>)
  .then((x) => (x && typeof x === 'object' && x.packs && typeof x.packs === 'object' ? x : { packs: {} }))
  .catch(() => ({ packs: {} }));

/** The packs under content/, the examples and the served folder's, by key, as they are on disk. */
export const builtinPacks: Record<string, Record<string, string>> = (() => {
  const out: Record<string, Record<string, string>> = Object.create(null);
  groupPacks(shipped, /\/content\/([^/]+)\/(.+)$/, 'content', out);
  groupPacks(examples, /\/test\/packs\/([^/]+)\/(.+)$/, 'examples', out);
  for (const [key, files] of Object.entries(served.packs)) if (key.startsWith('folder/') && !packFilesProblem(files)) out[key] = files;
  // A folder without a manifest is not a pack.
  for (const k of Object.keys(out)) if (!('pack.yaml' in out[k])) delete out[k];
  return out;
})();

export const DEFAULT_PACK = 'content/smallworld-wow';

export function manifestId(files: Record<string, string>): string | undefined {
  try {
    // The compiler's reading: the library's own check of keys written twice is quadratic in a mapping's keys.
    const doc = documentOf(files['pack.yaml'] ?? '');
    const m: unknown = doc.errors.length ? undefined : doc.toJS();
    if (m && typeof m === 'object' && typeof (m as { id?: unknown }).id === 'string') return (m as { id: string }).id;
  } catch {
    /* not readable */
  }
  return undefined;
}

/** File sets whose order is kept: the pack being edited and the packs it builds on. */
const ORDERS_KEPT = 8;

/**
 * A pack's paths in the order the compiler reads them, of those `keep` takes. Every keystroke
 * compiles, and a hundred paths compared by locale take longer than the rest of the request: the
 * order is kept for the same paths in the same order of insertion.
 */
function pathOrder(keep: (path: string) => boolean, before: (a: string, b: string) => number) {
  const kept = new Map<string, string[]>();
  return (files: Record<string, string>): string[] => {
    const all = Object.keys(files);
    const keys = all.join('\n');
    let order = kept.get(keys);
    if (!order) {
      if (kept.size >= ORDERS_KEPT) kept.clear();
      kept.set(keys, (order = all.filter(keep).sort(before)));
    }
    return order;
  };
}

const sourceOrder = pathOrder((p) => !p.startsWith('scenarios/'), (a, b) => (a === 'pack.yaml' ? -1 : b === 'pack.yaml' ? 1 : a.localeCompare(b)));
const scenarioOrder = pathOrder((p) => p.startsWith('scenarios/'), (a, b) => a.localeCompare(b));

/** The files the compiler reads: everything but the scenario tests, sorted so `pack.yaml` comes first. */
export function sourcesOf(files: Record<string, string>): SourceFile[] {
  return sourceOrder(files).map((path) => ({ path, text: files[path] }));
}

/** The files of a pack's scenario tests. */
export function scenariosOf(files: Record<string, string>): SourceFile[] {
  return scenarioOrder(files).map((path) => ({ path, text: files[path] }));
}

/** The last manifest read for its dependencies, and what it named: a keystroke elsewhere leaves it as it was. */
let manifestRead: { text: string; ids: string[] } | undefined;

/** Packs a manifest builds on: its `extends` base and its `dependsOn` list, by id (a version range after `@` is the compiler's to check). */
export function dependencyIds(files: Record<string, string>): string[] {
  const text = files['pack.yaml'] ?? '';
  if (manifestRead?.text !== text) manifestRead = { text, ids: neededPacks(requirementsOf(text)).map((r) => r.id) };
  return manifestRead.ids.slice();
}

/** A pack's files or a game that would not load again: it is not saved, and the designer is told why. */
export class NotLoadable extends Error {}

export class Workspace {
  private saved: Saved;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  /** Set when the browser refused to save (quota, private mode), or an edit would leave a pack that cannot load; shown to the designer. */
  saveProblem: string | undefined;
  onSaveProblem: (problem: string) => void = () => {};
  /** What was saved but cannot be loaded, and so was set aside when the playground started. */
  readonly setAside: string[] = [];

  constructor() {
    this.saved = this.load();
    // A folder served for the first time opens on its first pack.
    const first = Object.keys(builtinPacks).find((k) => k.startsWith('folder/') && !k.includes('/installed/'));
    if (served.folder && this.saved.folder !== served.folder && first) {
      this.saved.folder = served.folder;
      this.saved.current = first;
    }
  }

  private load(): Saved {
    const fresh: Saved = { version: 1, packs: Object.create(null), openFile: Object.create(null), sessions: Object.create(null) };
    let s: Partial<Saved> | undefined;
    try {
      const raw = localStorage.getItem(STORAGE_KEY);
      if (raw) s = JSON.parse(raw) as Partial<Saved>;
    } catch {
      this.setAside.push('what this browser had saved could not be read, so the playground starts afresh');
      return fresh;
    }
    if (!s || s.version !== 1 || typeof s.packs !== 'object' || !s.packs || typeof s.sessions !== 'object' || !s.sessions) return fresh;
    for (const [key, p] of Object.entries(s.packs)) {
      const base = p?.origin === 'builtin' ? builtinPacks[key] : {};
      const problem = !p || (p.origin !== 'builtin' && p.origin !== 'local') ? 'it is not a pack' : !base ? undefined : packFilesProblem(withEdits(base, p.files, p.deleted));
      if (problem) this.setAside.push(`the saved pack ${key} was set aside: ${problem}`);
      // Edits to a served folder's pack are kept while another folder is served, for when it is again.
      else fresh.packs[key] = p;
    }
    for (const [key, session] of Object.entries(s.sessions)) {
      const problem = sessionProblem(session);
      if (problem) this.setAside.push(`the saved game of ${key} was set aside: ${problem}`);
      else fresh.sessions[key] = session;
    }
    if (s.openFile && typeof s.openFile === 'object') for (const [k, v] of Object.entries(s.openFile)) if (typeof v === 'string') fresh.openFile[k] = v;
    if (typeof s.current === 'string') fresh.current = s.current;
    if (typeof s.folder === 'string') fresh.folder = s.folder;
    return fresh;
  }

  /** All packs: the served folder's first, then the shipped ones, then the examples and the designer's own. */
  list(): Array<{ key: string; origin: 'builtin' | 'local'; label: string; edited: boolean }> {
    const out: Array<{ key: string; origin: 'builtin' | 'local'; label: string; edited: boolean }> = [];
    const order = (k: string) => (k.startsWith('folder/') ? -1 : k === DEFAULT_PACK ? 0 : k.startsWith('content/') ? 1 : 2);
    for (const key of Object.keys(builtinPacks).sort((a, b) => order(a) - order(b) || a.localeCompare(b))) out.push({ key, origin: 'builtin', label: manifestId(this.get(key)!.files) ?? key, edited: key in this.saved.packs });
    for (const [key, p] of Object.entries(this.saved.packs)) if (p.origin === 'local') out.push({ key, origin: 'local', label: manifestId(p.files) ?? key.slice(6), edited: true });
    return out;
  }

  get(key: string): PackEntry | undefined {
    const s = this.saved.packs[key];
    const b = builtinPacks[key];
    if (s?.origin === 'builtin') return b ? { key, origin: 'builtin', files: withEdits(b, s.files, s.deleted) } : undefined;
    if (s) return { key, origin: s.origin, files: { ...s.files } };
    if (b) return { key, origin: 'builtin', files: { ...b } };
    return undefined;
  }

  get current(): string {
    const c = this.saved.current;
    if (c && this.get(c)) return c;
    if (builtinPacks[DEFAULT_PACK]) return DEFAULT_PACK;
    return this.list()[0]?.key ?? DEFAULT_PACK;
  }
  set current(key: string) {
    this.saved.current = key;
    this.save();
  }

  openFile(key: string): string | undefined {
    return this.saved.openFile[key];
  }
  setOpenFile(key: string, path: string) {
    this.saved.openFile[key] = path;
    this.save();
  }

  /**
   * Replace one file's text (or delete it with `undefined`). An edit that would leave files the
   * playground cannot open again is not saved (the last loadable files stay saved), and the
   * designer is told why; compile errors do not count, a pack being edited has them.
   */
  setFile(key: string, path: string, text: string | undefined) {
    const entry = this.get(key);
    if (!entry) return;
    if (text === undefined) delete entry.files[path];
    else entry.files[path] = text;
    const problem = packFilesProblem(entry.files);
    if (problem) {
      this.saveProblem = `This edit is not saved: the pack would not open again (${problem}).`;
      this.onSaveProblem(this.saveProblem);
      return;
    }
    const original = builtinPacks[key];
    if (entry.origin === 'builtin' && original) {
      if (sameFiles(original, entry.files)) delete this.saved.packs[key];
      else {
        const changed = Object.fromEntries(Object.entries(entry.files).filter(([p, t]) => original[p] !== t));
        this.saved.packs[key] = { origin: 'builtin', files: changed, deleted: Object.keys(original).filter((p) => !(p in entry.files)) };
      }
    } else this.saved.packs[key] = { origin: entry.origin, files: entry.files };
    this.save();
  }

  isEdited(key: string): boolean {
    return this.saved.packs[key]?.origin === 'builtin';
  }

  /** Forget the edits to a shipped pack. */
  revert(key: string) {
    if (builtinPacks[key]) delete this.saved.packs[key];
    this.save();
  }

  /** Add a pack made, imported or opened here; returns its key (a fresh one if the name is taken). Throws `NotLoadable` for files that are no pack. */
  addLocal(name: string, files: Record<string, string>): string {
    const problem = packFilesProblem(files);
    if (problem) throw new NotLoadable(problem);
    const base = `local/${name.replace(/[^A-Za-z0-9_.-]+/g, '-') || 'pack'}`;
    let key = base;
    for (let i = 2; this.get(key) && !(this.saved.packs[key] && sameFiles(this.saved.packs[key].files, files)); i++) key = `${base}-${i}`;
    this.saved.packs[key] = { origin: 'local', files: { ...files } };
    this.save();
    return key;
  }

  remove(key: string) {
    if (this.saved.packs[key]?.origin === 'local') delete this.saved.packs[key];
    delete this.saved.sessions[key];
    if (this.saved.current === key) this.saved.current = undefined;
    this.save();
  }

  session(key: string): Session | undefined {
    const s = this.saved.sessions[key];
    return s ? structuredClone(s) : undefined;
  }
  /** Keep a game as the one to resume; a game that cannot be replayed is refused (`NotLoadable`). */
  setSession(key: string, s: Session | undefined) {
    const problem = s && sessionProblem(s);
    if (problem) throw new NotLoadable(problem);
    if (s) this.saved.sessions[key] = structuredClone(s);
    else delete this.saved.sessions[key];
    this.save();
  }

  /** Saves soon; `flush` saves now (on page hide, so the last keystroke survives a reload). */
  save() {
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.flush(), 250);
  }
  flush() {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(this.saved));
      this.saveProblem = undefined;
    } catch (e) {
      const first = !this.saveProblem;
      this.saveProblem = `Your edits could not be saved in this browser (${(e as Error).message}). Export the pack as a zip to keep them, or delete packs you no longer need.`;
      if (first) this.onSaveProblem(this.saveProblem);
    }
  }
}

/** A served or shipped pack's files with the designer's edits and deletions. */
function withEdits(base: Record<string, string>, changed: Record<string, string> | undefined, deleted: string[] | undefined): Record<string, string> {
  const files = packFiles(base, changed);
  for (const d of Array.isArray(deleted) ? deleted : []) delete files[d];
  return files;
}

function sameFiles(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => b[k] === a[k]);
}

/** A starting point for a new pack: a small game that compiles and plays, to change into one's own. */
export function newPackFiles(id: string): Record<string, string> {
  return {
    'pack.yaml': `id: ${id}\nversion: 0.1.0\nname:\n  en: ${id}\nlanguages: [en]\nplayers: { min: 2, max: 4 }\n`,
    'vocabulary.yaml': `# The words of the game: what there is, and what changes during play.
enums:
  terrain: [fields, forest, hills]

kinds:
  space:
    props:
      terrain: terrain
      next: list<space>
      x: number          # where the playground draws it
      y: number
    graph: next
    state:
      owner: player?
  player:
    state:
      points: number
  game:
    state:
      round: number

scoring:
  score: it.points
`,
    'board.yaml': `# The board: spaces and the paths between them.
entities:
  - space: meadow
    name: { en: "Meadow" }
    terrain: fields
    next: [grove, ridge]
    x: 0
    y: 0
  - space: grove
    name: { en: "Grove" }
    terrain: forest
    next: [ridge, summit]
    x: 160
    y: -60
  - space: ridge
    name: { en: "Ridge" }
    terrain: hills
    next: [summit]
    x: 160
    y: 80
  - space: summit
    name: { en: "Summit" }
    terrain: hills
    x: 320
    y: 10
`,
    'rules.yaml': `# The rules: what a player may do, and the order of play.
rules: |
  # Hills are worth more: cards may change this with \`modify claimValue\`.
  pipeline claimValue(s: space): number min 1 = if s.terrain == hills then 2 else 1

  action claim(s: space) "Claim {s}" {
    require s.owner == none else "{s} is taken"
    s.owner = me
    me.points += claimValue(s)
  }
  action pass "Pass" { }

  flow {
    for round in 1..2 {
      game.round = round
      for p in players {
        turn p {
          offer p: claim, pass
        }
      }
    }
  }
`,
  };
}
