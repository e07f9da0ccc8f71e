/**
 * Incremental checking: a compile session remembers what checking each declaration found (each
 * function, pipeline, procedure, action, trigger, modifier, setup, invariant and flow, the game's
 * and the cards'), and the next compile of the same pack replays it for every declaration whose
 * inputs did not change, checking again only those of the rules texts that did. An editor that
 * compiles on every keystroke uses one session per pack; `compile()` alone stays a cold, pure
 * function of the texts.
 *
 * What a declaration depends on, and so what must be unchanged for its record to be replayed:
 * - its own tree (the parser gives the same tree for the same text, dsl/parser.ts), and its rules
 *   text as written at the same place of the same file, so that every position it reports is where
 *   it was;
 * - the pack's environment: every file's value with its rules texts taken out (kinds, fields,
 *   enums, entities, dice, roles, scoring; not its comments or layout, which checking a rule never
 *   reads), its cards only by kind and id (checking reads no card's names, texts or values: a
 *   card's numbers may change without checking the rules again); the signature of every
 *   declaration of the
 *   game's own rules (names, parameters, types; the whole of a `check` or `guard`, which a card
 *   applies in place), the names every rules text declares, and the names of broken declarations.
 *   The bodies of functions, procedures, actions and triggers are not in it: checking a declaration
 *   reads the others' signatures only.
 * A record that reported anything outside its own rules text is not kept: such a report would
 * depend on positions elsewhere.
 *
 * The checker's tables (types, names, calls, …) of an environment are kept from compile to compile
 * too, and a replayed record's entries are set again only when they are not there already: they
 * hold the entries of every declaration checked in that environment since the tables were made,
 * and a tree checked in the same environment always gets the same entries, so an older compile's
 * tables still answer for its own trees. A tree that stands at two places (the same rules text in
 * two of the game's files; a card's tree is its own, compiler/declare.ts) is set again every time,
 * in order, as a cold compile sets it. The tables are made
 * anew once stale entries outnumber the live ones, so they stay within a few compiles' size.
 *
 * What is checked outside any declaration — the game's checks and guards, the kinds' roles, the
 * score — is kept the same way as a part (`reusePart`), by the declarations and expressions it read
 * and where they stand.
 *
 * Whole-pack checks (duplicates, recursion, unused declarations, field writers, guards) run on
 * every compile over the replayed results, and what they derive from one declaration is kept with
 * its record (`fact`), what they derive from a whole rules text with the text (`unitFact`): a card's
 * part of them is derived again only when the card was checked again or the game's rules changed,
 * and an edit of one card looks up the others' once a rules text, not once a declaration. So the
 * diagnostics are those of a cold compile (test/incremental.test.ts).
 */
import type * as A from '../dsl/ast.ts';
import type { Checked, Placed } from './check.ts';
import { cardHead, type RulesUnit } from './declare.ts';
import type { DiagnosticInput } from './diagnostic.ts';
import { Parts } from './parts.ts';
import type { Fragment } from './source.ts';

/** The maps of `Checked` that checking a declaration adds to, keyed by the declaration's own nodes. */
export const recordedMaps = ['types', 'names', 'calls', 'fields', 'slots', 'applied', 'reached'] as const;
export type RecordedMap = (typeof recordedMaps)[number];

/** A map that, while `log` is set, also keeps every entry set, so that they can be set again later. */
export class RecordingMap<K, V> extends Map<K, V> {
  log: Array<[K, V]> | undefined;

  override set(key: K, value: V): this {
    this.log?.push([key, value]);
    return super.set(key, value);
  }
}

/** What checking one declaration found. */
export interface DeclRecord {
  slots: number;
  /** A procedure's: the procedures it calls (for the recursion check). */
  callees?: Set<string>;
  diagnostics: DiagnosticInput[];
  entries: Record<RecordedMap, Array<[unknown, unknown]>>;
  /** What whole-pack checks derived from the declaration, by check; `game` the game's rules they read, when they read them. */
  facts?: Map<string, { game?: object; value: unknown }>;
  /** Its entries in all, counted once it is complete (a record is not added to after). */
  count?: number;
}

/** A part of the checking outside any declaration: what it read, what it found, and what it left for the rest (its `state`). */
export interface Part {
  key: unknown[];
  record: DeclRecord;
  state: unknown;
}

/** The tables of one environment and which records' entries they hold (see the top of this file). */
interface Tables {
  maps: Record<RecordedMap, RecordingMap<unknown, unknown>>;
  present: WeakSet<DeclRecord>;
  /** Trees that stood at two places in a compile with these tables: their entries are set every time. */
  shared: WeakSet<A.Decl>;
  /** The most entries the records of one compile with these tables had. */
  live: number;
}

/** Tables are made anew when they hold this many times the live entries (and a margin). */
const STALE = 2;
const MARGIN = 4096;

/** Every record made with all its properties, so that the passes over all records read one shape of object. */
export function emptyRecord(): DeclRecord {
  return {
    slots: 0,
    callees: undefined,
    diagnostics: [],
    entries: { types: [], names: [], calls: [], fields: [], slots: [], applied: [], reached: [] },
    facts: undefined,
    count: undefined,
  };
}

/** `memo.again(…)`, or, without a memo (a cold compile), `run(report)`. */
export function againOf(memo: CheckMemo | undefined, check: string, key: () => unknown[], report: (x: DiagnosticInput) => void, run: (report: (x: DiagnosticInput) => void) => void): void {
  if (memo) memo.again(check, key(), report, run);
  else run(report);
}

/** `memo.unitFact(…)`, or, without a memo (a cold compile), `derive()`. */
export function unitFactOf<T>(memo: CheckMemo | undefined, unit: RulesUnit, check: string, game: boolean, derive: () => T): T {
  return memo ? memo.unitFact(unit, check, game, derive) : derive();
}

/** `memo.fact(…)`, or, without a memo (a cold compile), `derive()`. */
export function factOf<T>(memo: CheckMemo | undefined, unit: RulesUnit, decl: A.Decl, check: string, game: boolean, derive: () => T): T {
  return memo ? memo.fact(unit, decl, check, game, derive) : derive();
}

function countEntries(r: DeclRecord): number {
  let n = 0;
  for (const m of recordedMaps) n += r.entries[m].length;
  return n;
}

function newTables(): Tables {
  return { maps: Object.fromEntries(recordedMaps.map((m) => [m, new RecordingMap()])) as unknown as Tables['maps'], present: new WeakSet(), shared: new WeakSet(), live: 0 };
}

function size(t: Tables): number {
  let n = 0;
  for (const m of recordedMaps) n += t.maps[m].size;
  return n;
}

/** The records of one rules text, by declaration. */
type UnitRecords = Map<A.Decl, DeclRecord>;

/** A rules text's records in the environment's last compile and in this one (kept for the next), and all of this compile's, kept or not. */
interface Slot {
  previous: UnitRecords | undefined;
  current: UnitRecords | undefined;
  records: DeclRecord[];
}

/** Environments kept: typing a declaration of the game's rules goes back and forth between a few (broken, mended). */
const ENVIRONMENTS = 4;

/**
 * The check records of a session, by environment; the most recent few environments are kept, each
 * holding the records of the last compile in it, so memory is bounded by a few compiles' worth.
 */
export class CheckMemo {
  private environments: Array<{ env: readonly string[]; units: Map<string, UnitRecords>; parts: Map<string, Part>; tables: Tables }> = [];
  private current: Map<string, UnitRecords> | undefined;
  private previous: Map<string, UnitRecords> | undefined;
  private currentParts = new Map<string, Part>();
  private previousParts: Map<string, Part> | undefined;
  private tables: Tables = newTables();
  private texts = new Map<string, string>();
  /** The environment of the last compile, and whether the game's rules were checked again in this one. */
  private lastEnv: readonly string[] | undefined;
  private gameChecked = false;
  /** Stands for the game's rules as the last compile checked them: a new object whenever they may differ. */
  private game: object = {};
  /** Every record of this compile, replayed or new, kept or not. */
  private readonly used: DeclRecord[] = [];
  /** Whether this compile's environment is the last compile's, whose records it then finds. */
  private sameEnvironment = false;
  /** Rules texts of this compile with a declaration checked now, or set aside unchecked (compiler/check.ts collect). */
  private readonly unsettled = new Set<RulesUnit>();
  /** What whole-pack checks derived from each rules text, by check, and the compile that last derived or took it. */
  private readonly unitFacts = new WeakMap<RulesUnit, Map<string, { compile: number; game?: object; value: unknown }>>();
  /**
   * What the checker recorded outside any declaration's record or part, made anew each compile:
   * nothing today, but a check added outside them still has its calls seen (compiler/unused.ts).
   */
  loose: DeclRecord = emptyRecord();
  /** The last run of each whole-pack check run through `again`: what it read and what it reported. */
  private readonly runs = new Map<string, { key: unknown[]; diagnostics: DiagnosticInput[] }>();
  /** Each rules text's records in the environment's last compile and in this one, found once a compile (`slotOf`). */
  private readonly slots = new Map<RulesUnit, Slot>();
  /** The game's own rules texts in this compile, the last compile's list itself while they are the same. */
  private gameUnits: readonly RulesUnit[] = [];
  /** The game's own rules texts and their declarations' signatures in the last compile (`gameRules`). */
  private lastGame: GameRules = { units: [], signatures: [] };
  /** The compiles of this session so far, and the last of them to meet each tree. */
  private compiles = 0;
  private readonly metIn = new WeakMap<A.Decl, number>();

  /**
   * Called by the checker once the declarations are collected: picks the records that still hold,
   * and gives the checker the environment's tables.
   */
  begin(c: Checked, setAside: Iterable<RulesUnit>): void {
    const game = gameRules(c, this.lastGame);
    this.lastGame = game;
    this.gameUnits = game.units;
    const env = environmentOf(c, game.signatures, this.lastEnv ?? []);
    this.texts = c.declared.texts;
    const i = this.environments.findIndex((e) => sameParts(e.env, env));
    const found = i < 0 ? undefined : this.environments[i];
    if (i >= 0) this.environments.splice(i, 1);
    this.previous = found?.units;
    this.previousParts = found?.parts;
    this.currentParts = new Map();
    let tables = found?.tables;
    if (!tables || size(tables) > STALE * tables.live + MARGIN) tables = newTables();
    this.tables = tables;
    this.current = new Map();
    this.environments.push({ env, units: this.current, parts: this.currentParts, tables });
    if (this.environments.length > ENVIRONMENTS) this.environments.shift();
    this.sameEnvironment = !!this.lastEnv && sameParts(this.lastEnv, env);
    this.gameChecked = !this.sameEnvironment;
    this.lastEnv = env;
    this.used.length = 0;
    this.slots.clear();
    this.unsettled.clear();
    for (const u of setAside) this.unsettled.add(u);
    this.loose = emptyRecord();
    for (const m of recordedMaps) (c as unknown as Record<RecordedMap, unknown>)[m] = tables.maps[m];
    // Which compile last met each tree, rather than a set of this compile's: nothing is made per declaration.
    const compile = ++this.compiles;
    for (const u of c.declared.units) {
      for (const d of u.program.decls) {
        if (this.metIn.get(d) === compile) tables.shared.add(d);
        else this.metIn.set(d, compile);
      }
    }
  }

  /** The record of a declaration checked before with the same inputs, its entries set again where the tables lack them; kept for the next compile too. */
  reuse(p: Placed<A.Decl>): DeclRecord | undefined {
    const found = this.slotOf(p.unit).previous?.get(p.decl);
    if (!found) return undefined;
    const t = this.tables;
    if (!t.present.has(found) || t.shared.has(p.decl)) {
      // Past the recording `set`: nothing records while a record is replayed.
      const set = Map.prototype.set;
      for (const m of recordedMaps) {
        const map = t.maps[m];
        const entries = found.entries[m];
        for (let j = 0; j < entries.length; j++) set.call(map, entries[j][0], entries[j][1]);
      }
      t.present.add(found);
    }
    this.keep(p, found);
    return found;
  }

  /** A record of this compile (`fresh`: checked now, its entries just set). */
  keep(p: Placed<A.Decl>, record: DeclRecord, fresh = false): void {
    this.used.push(record);
    const slot = this.slotOf(p.unit);
    slot.records.push(record);
    if (fresh) {
      this.tables.present.add(record);
      this.unsettled.add(p.unit);
      if (!p.unit.owner) this.gameChecked = true;
    }
    if (!this.current) return;
    const f = p.unit.fragment;
    if (record.diagnostics.length) {
      const [start, end] = [f.toFile(0), f.toFile(f.text.length)];
      if (record.diagnostics.some((d) => d.at.file !== f.file || d.at.start < start || d.at.end > end)) return;
    }
    if (!slot.current) {
      const site = this.placeOf(p.unit);
      slot.current = this.current.get(site);
      if (!slot.current) {
        slot.current = new Map();
        this.current.set(site, slot.current);
      }
    }
    slot.current.set(p.decl, record);
  }

  /** Where a rules text's records are kept, looked up once a compile rather than once a declaration. */
  private slotOf(u: RulesUnit): Slot {
    let slot = this.slots.get(u);
    if (!slot) {
      const site = this.placeOf(u);
      slot = { previous: this.previous?.get(site), current: this.current?.get(site), records: [] };
      this.slots.set(u, slot);
    }
    return slot;
  }

  /**
   * A part of the checking outside any declaration (the game's checks and guards; the kinds' roles
   * and the score) checked before with the same inputs: `key` lists what it read besides the
   * environment (its declarations and where they stand, its expressions), compared one by one.
   */
  reusePart(name: string, key: unknown[]): Part | undefined {
    const found = this.previousParts?.get(name);
    if (!found || found.key.length !== key.length || found.key.some((k, i) => k !== key[i])) return undefined;
    const t = this.tables;
    if (!t.present.has(found.record)) {
      const set = Map.prototype.set;
      for (const m of recordedMaps) for (const [k, v] of found.record.entries[m]) set.call(t.maps[m], k, v);
      t.present.add(found.record);
    }
    this.used.push(found.record);
    this.currentParts.set(name, found);
    return found;
  }

  keepPart(name: string, part: Part): void {
    this.used.push(part.record);
    this.tables.present.add(part.record);
    this.gameChecked = true;
    this.currentParts.set(name, part);
  }

  /** Where a rules text stands, as records are kept by: equal for the same text at the same place of the same file, for the same card. */
  siteOf(u: RulesUnit): string {
    return this.placeOf(u);
  }

  /** Called by the checker once every declaration is checked or replayed, before the whole-pack checks. */
  checked(): void {
    if (this.gameChecked) this.game = {};
    let live = 0;
    for (const r of this.used) live += r.count ??= countEntries(r);
    this.tables.live = Math.max(this.tables.live, live);
  }

  /**
   * What `derive` gives for the records of this compile: those of each rules text of `units` (kept
   * with the text, as `unitFact` keeps), each part's, and what was checked outside them.
   */
  eachUnit<T>(check: string, units: readonly RulesUnit[], derive: (records: readonly DeclRecord[]) => T): T[] {
    const out = [derive([this.loose])];
    this.currentParts.forEach((part) => {
      const known = part.record.facts?.get(check);
      if (known) out.push(known.value as T);
      else {
        const value = derive([part.record]);
        (part.record.facts ??= new Map()).set(check, { value });
        out.push(value);
      }
    });
    for (const u of units) out.push(this.unitFact(u, check, false, () => derive(this.slots.get(u)?.records ?? [])));
    return out;
  }

  /** The game's own rules texts of this compile, in order: the same list as the last compile's while they are the same texts. */
  gameRules(): readonly RulesUnit[] {
    return this.gameUnits;
  }

  /**
   * A whole-pack check that reads nothing but `key` (trees, fragments, names, facts kept with
   * records: compared one by one, by identity, arrays by their elements): when every one is the
   * last run's, what that run reported is reported again and the check is not run.
   */
  again(check: string, key: unknown[], report: (x: DiagnosticInput) => void, run: (report: (x: DiagnosticInput) => void) => void): void {
    const last = this.runs.get(check);
    if (last && sameKey(last.key, key)) {
      for (const x of last.diagnostics) report(x);
      return;
    }
    const diagnostics: DiagnosticInput[] = [];
    run((x) => {
      diagnostics.push(x);
      report(x);
    });
    this.runs.set(check, { key, diagnostics });
  }

  /**
   * What a whole-pack check derives from one declaration of this compile, kept with its record:
   * derived again only when the declaration was checked again, or, for a check that also reads the
   * game's rules (`game`), when they may have changed (checked again, or another environment).
   */
  fact<T>(unit: RulesUnit, decl: A.Decl, check: string, game: boolean, derive: () => T): T {
    const record = this.slotOf(unit).current?.get(decl);
    if (!record) return derive();
    const known = record.facts?.get(check);
    if (known && (!game || known.game === this.game)) return known.value as T;
    const value = derive();
    (record.facts ??= new Map()).set(check, { game: game ? this.game : undefined, value });
    return value;
  }

  /**
   * What a whole-pack check derives from one rules text (`derive`, over its declarations), kept
   * with the text: taken again when the last compile derived or took it for the same text, in the
   * same environment as this one (so its declarations' records are the last compile's), no
   * declaration of the text was checked again or set aside, and, for a check that also reads the
   * game's rules (`game`), they are unchanged. One look-up a rules text, where `fact` is one a
   * declaration: a card's edit derives again that card's part alone. Today any edit of the game's
   * rules also makes every card's unit a new object (compiler/declareMemo.ts takes no file with
   * rules of the game), so the `game` test never decides alone; it is what keeps this right if that
   * memo ever keeps cards across such an edit (test/incremental.test.ts, a game procedure's body).
   */
  unitFact<T>(unit: RulesUnit, check: string, game: boolean, derive: () => T): T {
    let facts = this.unitFacts.get(unit);
    const known = facts?.get(check);
    if (known && known.compile >= this.compiles - 1 && this.sameEnvironment && !this.unsettled.has(unit) && (!game || known.game === this.game)) {
      known.compile = this.compiles;
      return known.value as T;
    }
    const value = derive();
    if (!facts) {
      facts = new Map();
      this.unitFacts.set(unit, facts);
    }
    facts.set(check, { compile: this.compiles, game: game ? this.game : undefined, value });
    return value;
  }

  /**
   * A rules text as written, where it is, and whose: the same tree from the same text elsewhere is
   * another place. Kept by fragment, which a file read again from the parse cache gives back
   * (compiler/load.ts), so an unchanged file's places are the same strings from compile to compile.
   */
  private placeOf(u: RulesUnit): string {
    const f = u.fragment;
    const owner = u.owner?.id ?? '';
    const known = places.get(f);
    if (known?.owner === owner) return known.key;
    const start = f.toFile(0);
    const written = this.texts.get(f.file)?.slice(start, f.toFile(f.text.length)) ?? f.text;
    const key = `${owner}\u0000${f.file}\u0000${start}\u0000${written}`;
    places.set(f, { owner, key });
    return key;
  }
}

const places = new WeakMap<Fragment, { owner: string; key: string }>();

/** Inputs compared one by one: an array that is not the same object by its elements (a tree checked again often gives the same names). */
function sameKey(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x !== y && !(Array.isArray(x) && Array.isArray(y) && sameKey(x, y))) return false;
  }
  return true;
}

function sameParts(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Everything a declaration's check reads besides its own declarations, as texts (see the top of this file); `last` the environment of the last compile. */
function environmentOf(c: Checked, signatures: readonly string[], last: readonly string[]): readonly string[] {
  const d = c.declared;
  const parts = new Parts(last);
  // Every file's value with its rules texts (the game's and the cards') taken out, and its cards but for their kinds and ids.
  for (const f of d.files) parts.push(f.path, f.data !== null && typeof f.data === 'object' ? valueWithoutRules(f.data) : String(f.data));
  for (const x of signatures) parts.push(x);
  for (const u of d.units) parts.push(unitNames(u));
  parts.push(brokenNames(d.broken));
  return parts.list();
}

interface GameRules {
  units: RulesUnit[];
  signatures: string[];
}

/**
 * The game's own rules texts, and the signatures of their declarations in the order the checker's
 * maps hold them. The signatures list only the game's own declarations (the checker's maps of
 * actions and functions also hold the cards', left out here), so they depend on those texts alone,
 * and the last lists themselves (`last`) are given back while the texts are the same ones in the
 * same order. The order of the actions' names may depend on a card declaring one first; a list kept
 * keeps the old order, and a list made anew in another order only makes the environment look
 * changed, so that its rules are checked again, never replayed wrongly.
 */
function gameRules(c: Checked, last: GameRules): GameRules {
  const units: RulesUnit[] = [];
  for (const u of c.declared.units) if (!u.owner) units.push(u);
  if (units.length === last.units.length && units.every((u, i) => u === last.units[i])) return last;
  const out: string[] = [];
  // Map.forEach, not for…of: entries would be arrays made for nothing.
  c.events.forEach((p, name) => !p.unit.owner && out.push(signature('event', name, p.decl, false)));
  c.fns.forEach((p, name) => !p.unit.owner && out.push(signature('fn', name, p.decl, true)));
  c.pipelines.forEach((p, name) => !p.unit.owner && out.push(signature('pipeline', name, p.decl, true)));
  c.procs.forEach((p, name) => !p.unit.owner && out.push(signature('proc', name, p.decl, true)));
  c.checks.forEach((p, name) => out.push(signature('check', name, p.decl, false)));
  c.guards.forEach((p, name) => out.push(signature('guard', name, p.decl, false)));
  c.actions.forEach((list, name) => {
    for (const p of list) if (!p.unit.owner) out.push(signature('action', name, p.decl, true));
  });
  return { units, signatures: out };
}

/** The names of broken declarations as one text: the last one given back while they are the same. */
let lastBroken: { names: string[]; text: string } = { names: [], text: 'broken ' };

function brokenNames(broken: Set<string>): string {
  const names = [...broken].sort();
  if (names.length !== lastBroken.names.length || names.some((n, i) => n !== lastBroken.names[i])) lastBroken = { names, text: `broken ${names.join(',')}` };
  return lastBroken.text;
}

/** JSON writes infinities and NaN as `null` and -0 as `0`: a value's text tells them apart. */
const exactNumbers = (_key: string, v: unknown) => (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0)) ? `\u0000${Object.is(v, -0) ? '-0' : String(v)}` : v);

/** Values as text, by value: the parse cache gives the same value for the same file text (compiler/load.ts). */
const withoutRules = new WeakMap<object, string>();
let unprintable = 0;

function valueWithoutRules(data: object): string {
  let s = withoutRules.get(data);
  if (s === undefined) {
    const { rules, entities, ...rest } = data as Record<string, unknown>;
    const cards = Array.isArray(entities) ? entities.map((e) => (e !== null && typeof e === 'object' && !Array.isArray(e) ? head(e as Record<string, unknown>) : e)) : entities;
    try {
      s = JSON.stringify([typeof rules === 'string' ? '' : rules, cards, rest], exactNumbers);
    } catch {
      // A value that holds itself (through YAML aliases) has no text: it stands only for itself.
      s = `\u0000unprintable ${unprintable++}`;
    }
    withoutRules.set(data, s);
  }
  return s;
}

/** A card's kind and id, as the declaration pass reads them. */
function head(item: Record<string, unknown>): [string | null, string] {
  const { first, id } = cardHead(item);
  return [first ?? null, id];
}

/**
 * What a rules text declares, after its card's id, by its parsed declarations (the same text gives
 * the same list, dsl/parser.ts): an unchanged unit gives the same string, compared at once.
 */
const unitsNamed = new WeakMap<A.Decl[], { owner: string; text: string }>();

function unitNames(u: RulesUnit): string {
  const owner = u.owner?.id ?? '';
  const decls = u.program.decls;
  let known = unitsNamed.get(decls);
  if (known?.owner !== owner) {
    known = { owner, text: `unit ${owner} ${decls.map((x) => `${x.kind} ${'name' in x ? x.name : ''}`).join(',')}` };
    unitsNamed.set(decls, known);
  }
  return known.text;
}

const BODIES = new Set(['body', 'value', 'min', 'max', 'when', 'label']);
/**
 * Signatures by tree: the same text gives the same tree (dsl/parser.ts), so only new declarations
 * are written out, and an unchanged one gives the same string, compared at once.
 */
const signatures = [new WeakMap<A.Decl, { what: string; name: string; text: string }>(), new WeakMap<A.Decl, { what: string; name: string; text: string }>()];

/** A declaration as written, positions aside, after what it is and its name; without its body when `head` (what callers see of it). */
function signature(what: string, name: string, decl: A.Decl, head: boolean): string {
  const known = signatures[head ? 1 : 0];
  const found = known.get(decl);
  if (found?.what === what && found.name === name) return found.text;
  const text = `${what} ${name} ${JSON.stringify(decl, (key, value) => (key === 'span' || key === 'nameSpan' || (head && BODIES.has(key)) ? undefined : value))}`;
  known.set(decl, { what, name, text });
  return text;
}
