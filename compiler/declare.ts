import { LRUCache } from 'lru-cache';
import type * as A from '../dsl/ast.ts';
import { parseExpression, parseRules, parseType, readRules, type RulesParse } from '../dsl/parser.ts';
import { builtinKinds, isReservedName, typeNames } from '../dsl/language.ts';
import type { DiagnosticInput, FileSpan } from './diagnostic.ts';
import { fragmentOf, fragmentSpan, spanAt, type LoadedFile, type LoadedPack } from './load.ts';
import { lineIndexOf, type Fragment } from './source.ts';
import { closest } from './suggest.ts';
import { checkNesting } from './nesting.ts';
import type { DeclareMemo, FileCards, GameUnits } from './declareMemo.ts';
import { Parts } from './parts.ts';
import { checkReservedNames } from './reserved.ts';
import * as Ty from './types.ts';
import type { Type } from './types.ts';
import type { Value } from '../runtime/types.ts';

export interface FieldSym {
  name: string;
  type: Type;
  default: Value;
  hidden: boolean;
  at: FileSpan;
  /** `loweredOnlyBy: [rout]`: the procedures that alone may make a change to the field (compiler/fieldWrites.ts). */
  writers: FieldWriters[];
}

/** The way a statement changes a field: `-=`, `remove`, `draw` lower it; `+=`, `put` raise it; `=` may do either. */
export type WriteDirection = 'lowered' | 'raised' | 'changed';

export interface FieldWriters {
  direction: WriteDirection;
  procs: Array<{ name: string; at: FileSpan }>;
}

/** The YAML key of each direction, as a field declaration writes it. */
export const writerKeys: ReadonlyArray<readonly [WriteDirection, string]> = [
  ['lowered', 'loweredOnlyBy'],
  ['raised', 'raisedOnlyBy'],
  ['changed', 'changedOnlyBy'],
];

export interface KindSym {
  name: string;
  plural: string;
  props: Map<string, FieldSym>;
  state: Map<string, FieldSym>;
  graph?: string;
  /** Each role's expression as written, and parsed (absent when it has a syntax error, reported here). */
  roles: Map<string, { source: Fragment; at: FileSpan; expr?: A.Expr }>;
  /** The role of a card rule that names none; else the first role declared. */
  defaultRole?: { name: string; at: FileSpan };
  at: FileSpan;
}

export interface EntitySym {
  id: string;
  kind: string;
  name: Record<string, string>;
  text: Record<string, string>;
  /** Raw YAML values of props and initial state, checked against the kind's fields. */
  values: Record<string, unknown>;
  file: LoadedFile;
  path: Array<string | number>;
  at: FileSpan;
}

/** A parsed rules text and the card it belongs to (none for the game's own rules). */
export interface RulesUnit {
  program: A.Program;
  fragment: Fragment;
  owner?: EntitySym;
  /** Comes from the pack this one extends (its file paths read `base-id:path`). */
  fromBase?: boolean;
}

/** Stage 3: every name the pack declares, in YAML and in its rules, with where it was declared. */
export interface Declared {
  manifest: { id: string; version: string; name: Record<string, string>; languages: string[]; players: { min: number; max: number } };
  enums: Map<string, { values: string[]; at: FileSpan }>;
  /** Enum member → the enums that contain it. */
  members: Map<string, string[]>;
  kinds: Map<string, KindSym>;
  entities: Map<string, EntitySym>;
  dice: Map<string, { faces: Value[]; face: Type; at: FileSpan }>;
  units: RulesUnit[];
  /** Text of every file, for positions in messages and the log. */
  texts: Map<string, string>;
  /** Every YAML file read (the manifest first), as parsed. */
  files: LoadedFile[];
  /** Names of declarations that did not parse: uses of them are not reported again. */
  broken: Set<string>;
  /** The scoring expressions as written, and parsed (absent when one has a syntax error). */
  scoring?: { score: Fragment; tiebreak?: Fragment; estimate?: Fragment; scoreExpr?: A.Expr; tiebreakExpr?: A.Expr; estimateExpr?: A.Expr; prefer: Preference[] };
}

/**
 * A `scoring: prefer` entry, as written and parsed: how much a bot likes a choice of the action, or
 * (`choose: { <type>: … }`) an option of that type picked in a prompt, `none` declining one.
 */
export interface Preference {
  action: string;
  /** Under `choose`: the option's type (a kind, an enum, `bool`, `number`) or `none`. */
  option?: string;
  source: Fragment;
  /** The key of the entry. */
  at: FileSpan;
  expr?: A.Expr;
}

const BUILTIN_KINDS: readonly string[] = builtinKinds;

/** YAML of the wrong shape was already reported by the schema stage; here it reads as empty, never as a crash. */
const mapOf = (x: unknown): Record<string, unknown> => (x && typeof x === 'object' && !Array.isArray(x) ? (x as Record<string, unknown>) : {});
const listOf = (x: unknown): unknown[] => (Array.isArray(x) ? x : []);

/**
 * With a `memo` (compiler/declareMemo.ts), a compile after an edit of cards only declares again the
 * files that changed, taking the rest as the last compile of the session found it.
 */
export function declare(pack: LoadedPack, reportTo: (d: DiagnosticInput) => void, memo?: DeclareMemo): Declared {
  // What each step reports is also kept by step, for the memo to give back in the same order.
  let step: DiagnosticInput[] = [];
  const report = (x: DiagnosticInput) => {
    step.push(x);
    reportTo(x);
  };
  const m = mapOf(pack.manifest?.data) as Partial<Declared['manifest']>;
  const d: Declared = {
    manifest: {
      id: m.id ?? 'unnamed',
      version: m.version ?? '0.0.0',
      name: m.name ?? { en: m.id ?? 'unnamed' },
      languages: m.languages ?? ['en'],
      players: m.players ?? { min: 1, max: 1 },
    },
    enums: new Map(),
    members: new Map(),
    kinds: new Map(),
    entities: new Map(),
    dice: new Map(),
    units: [],
    broken: new Set(),
    files: [...(pack.manifest ? [pack.manifest] : []), ...pack.files],
    texts: new Map(),
  };
  for (const f of d.files) d.texts.set(f.path, f.text);
  if (pack.manifest && d.manifest.players.min > d.manifest.players.max) {
    report({ code: 'RB0106', message: `players.min (${d.manifest.players.min}) is above players.max (${d.manifest.players.max})`, at: spanAt(pack.manifest, ['players']) });
  }
  const fieldTypes: Array<() => void> = [];
  const kept = memo?.unchanged(pack);
  const merged: DiagnosticInput[] = (step = []);

  for (const file of kept ? [] : pack.files) {
    const read = vocabularyOf(file);
    for (const { name, values, at } of read.enums) {
      if (d.enums.has(name) || BUILTIN_KINDS.includes(name)) {
        report({ code: 'RB0201', message: `the enum \`${name}\` is declared twice`, at, hint: 'give one of them another name' });
        continue;
      }
      d.enums.set(name, { values, at });
      // By a set of the enum's own: a member's owners may be every enum of a hostile pack.
      const seen = new Set<string>();
      values.forEach((v, i) => {
        const owners = d.members.get(v) ?? [];
        if (seen.has(v)) report({ code: 'RB0213', message: `\`${v}\` appears twice in the enum \`${name}\``, at: spanAt(file, ['enums', name, i]) });
        seen.add(v);
        owners.push(name);
        d.members.set(v, owners);
      });
    }
    for (const k of read.kinds) {
      const { name, raw, at } = k;
      const existing = d.kinds.get(name);
      const kind: KindSym = existing ?? { name, plural: typeof raw.plural === 'string' ? raw.plural : `${name}s`, props: new Map(), state: new Map(), roles: new Map(), at };
      if (existing && !BUILTIN_KINDS.includes(name) && (raw.props || raw.graph) && (existing.props.size || existing.graph)) {
        report({ code: 'RB0214', message: `the kind \`${name}\` is declared twice with props`, at, hint: 'a second declaration may only add `state` or `roles`' });
      }
      d.kinds.set(name, kind);
      if (typeof raw.graph === 'string') kind.graph = raw.graph;
      if (k.defaultRole) kind.defaultRole = { ...k.defaultRole };
      for (const f of k.fields) {
        const sym: FieldSym = { name: f.field, type: Ty.ERROR, default: null, hidden: f.hidden, at: f.at, writers: f.writers };
        if (!FIELD_NAME.test(f.field)) {
          const fixed = fieldNameFor(f.field);
          report({
            code: 'RB0221',
            message: `\`${f.field}\` cannot be a field name: fields are names such as \`owner\` or \`hits_2\``,
            at: sym.at,
            hint: fixed ? `rename it, e.g. to \`${fixed}\`` : 'give it a name: letters, digits and `_`, not starting with a digit',
            fix: fixed ? { replacement: fixed, safe: false } : undefined,
          });
        }
        if (kind.props.has(f.field) || kind.state.has(f.field)) {
          report({ code: 'RB0215', message: `\`${name}.${f.field}\` is declared twice`, at: sym.at });
          continue;
        }
        kind[f.section].set(f.field, sym);
        const typeText = f.typeText;
        if (typeof typeText !== 'string') continue;
        fieldTypes.push(() => {
          sym.type = resolveTypeText(d, typeText, f.typeFragment, report);
          const given = mapOf(f.spec).default;
          sym.default = given === undefined ? defaultOf(sym.type) : checkValue(d, given, sym.type, file, [...f.path, 'default'], report);
        });
      }
      for (const r of k.roles) kind.roles.set(r.role, { source: r.source, at: r.at, expr: parseYamlExpression(r.source, report) });
    }
    for (const { name, faces, at } of read.dice) {
      const face = faces.every((f) => typeof f === 'number') ? Ty.NUMBER : Ty.ERROR;
      d.dice.set(name, { faces, face, at });
    }
    const scoring = read.scoring;
    if (scoring) {
      const { score, tiebreak, estimate, prefer } = scoring;
      d.scoring = {
        score,
        tiebreak,
        estimate,
        scoreExpr: parseYamlExpression(score, report),
        tiebreakExpr: tiebreak && parseYamlExpression(tiebreak, report),
        estimateExpr: estimate && parseYamlExpression(estimate, report),
        prefer: prefer.map((p) => ({ ...p, expr: parseYamlExpression(p.source, report) })),
      };
    }
  }
  if (kept) {
    const v = kept.vocabulary;
    [d.enums, d.members, d.kinds, d.dice, d.scoring] = [v.enums, v.members, v.kinds, v.dice, v.scoring];
    for (const x of v.merged) reportTo(x);
  }
  for (const k of kept ? [] : BUILTIN_KINDS) {
    if (!d.kinds.has(k)) d.kinds.set(k, { name: k, plural: `${k}s`, props: new Map(), state: new Map(), roles: new Map(), at: { file: 'pack.yaml', start: 0, end: 0 } });
  }
  for (const [name, die] of kept ? [] : d.dice) {
    if (die.face.k === 'error') {
      const faces = die.faces.map(String);
      const owner = [...d.enums].find(([, e]) => faces.every((f) => e.values.includes(f)));
      if (owner) die.face = { k: 'enum', name: owner[0] };
      else report({ code: 'RB0202', message: `the faces of die \`${name}\` are neither all numbers nor all members of one enum`, at: die.at, hint: 'declare an enum with the face names, e.g. `enums: { face: [hit, block] }`' });
    }
  }

  // Entities: `- region: r1` — the first key names the kind and the id.
  const cards = new Map<LoadedFile, FileCards>();
  for (const file of pack.files) {
    const known = kept?.cards(file);
    if (known) {
      for (const e of known.entities) d.entities.set(e.id, e);
      d.units.push(...known.units);
      for (const name of known.broken) d.broken.add(name);
      for (const x of known.diagnostics) reportTo(x);
      cards.set(file, known);
      continue;
    }
    const found: FileCards = { entities: [], units: [], broken: [], diagnostics: (step = []) };
    cards.set(file, found);
    const list = listOf(mapOf(file.data).entities) as Array<Record<string, unknown>>;
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      if (!item || typeof item !== 'object') continue;
      const read = itemRead(file, item, i);
      const { first, id, path } = read;
      if (!first || !d.kinds.has(first) || BUILTIN_KINDS.includes(first)) {
        const guess = first ? closest(first, [...d.kinds.keys()].filter((k) => !BUILTIN_KINDS.includes(k))) : undefined;
        report({
          code: first ? 'RB0203' : 'RB0216',
          message: first ? `\`${first}\` is not a kind of this pack, so this entity has no kind` : 'an entity must start with `<kind>: <id>`',
          at: spanAt(file, [...path, first ?? 0], true),
          hint: guess ? `did you mean \`${guess}\`?` : `start the entry with one of: ${[...d.kinds.keys()].filter((k) => !BUILTIN_KINDS.includes(k)).join(', ')}`,
          fix: guess ? { replacement: guess, safe: false } : undefined,
        });
        continue;
      }
      const at = read.at!;
      if (!read.validId) {
        report({ code: 'RB0204', message: `\`${id}\` cannot be an id: ids are names such as \`north_gate\` or \`r_12\`, not keywords`, at });
        continue;
      }
      const clash = d.entities.get(id);
      if (clash || d.members.has(id) || d.kinds.has(id) || d.dice.has(id)) {
        report({
          code: 'RB0205',
          message: `the id \`${id}\` is used twice`,
          at,
          hint: clash ? `it is already the ${clash.kind} at ${clash.file.path}:${lineIndexOf(clash.file.text).position(clash.at.start).line}; ids are shared by every kind, enum member and die, so rename one` : 'it is already an enum member, kind or die; ids are shared by all of them',
        });
        continue;
      }
      const entity: EntitySym = { id, kind: first, name: read.name, text: read.text, values: read.values, file, path, at };
      d.entities.set(id, entity);
      found.entities.push(entity);
      if (read.rules) found.units.push(parseUnit(d, read.rules, report, found.broken, entity));
    }
  }
  const fields: DiagnosticInput[] = (step = []);
  if (kept) for (const x of kept.vocabulary.fields) reportTo(x);
  else for (const resolve of fieldTypes) resolve();
  const types = kept ? kept.vocabulary.types : valueTypes(d);
  for (const e of d.entities.values()) {
    const checked = memo?.values.get(e);
    if (checked) {
      for (const x of checked) reportTo(x);
      continue;
    }
    memo?.values.set(e, (step = []));
    checkedValues(d, e, types, report);
  }

  const game: GameUnits = kept?.game ?? { units: [], broken: [], diagnostics: (step = []) };
  if (kept) {
    d.units.push(...game.units);
    for (const name of game.broken) d.broken.add(name);
    for (const x of game.diagnostics) reportTo(x);
  } else {
    for (const file of pack.files) {
      const frag = fragmentOf(file, ['rules']);
      if (frag) game.units.push(parseUnit(d, frag, report, game.broken));
    }
  }
  memo?.keep(pack, kept?.vocabulary ?? { enums: d.enums, members: d.members, kinds: d.kinds, dice: d.dice, scoring: d.scoring, merged, fields, types }, cards, game);
  step = [];
  checkNesting(d, report);
  checkReservedNames(d, report);
  return d;
}

/** What a file declares of the pack's vocabulary, read by itself: the merge across files happens in `declare`. */
interface Vocabulary {
  enums: Array<{ name: string; values: string[]; at: FileSpan }>;
  kinds: Array<{
    name: string;
    raw: Record<string, unknown>;
    at: FileSpan;
    defaultRole?: { name: string; at: FileSpan };
    fields: Array<{ section: 'props' | 'state'; field: string; spec: unknown; path: Array<string | number>; typeText: unknown; typeFragment?: Fragment; hidden: boolean; at: FileSpan; writers: FieldWriters[] }>;
    roles: Array<{ role: string; source: Fragment; at: FileSpan }>;
  }>;
  dice: Array<{ name: string; faces: Value[]; at: FileSpan }>;
  /** Present when the file has a `scoring` with a `score`. */
  scoring?: { score: Fragment; tiebreak?: Fragment; estimate?: Fragment; prefer: Preference[] };
}

/**
 * A field's name as the rules read it after a dot (the lexer's word): keywords are field names there
 * (`x.turn`), so unlike an id a field may be called one.
 */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A field name close to `name`: letters without their accents, each run of other characters no word may hold made `_`; undefined where nothing is left. */
function fieldNameFor(name: string): string | undefined {
  const word = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!word) return undefined;
  return /^[0-9]/.test(word) ? `_${word}` : word;
}

/**
 * Vocabularies by file: a file unchanged since the last compile is the same object
 * (compiler/load.ts), so a recompile reads again only the files that changed. What is read is
 * never changed by the passes after (a field's symbol is made anew each compile around it).
 */
const vocabularies = new WeakMap<LoadedFile, Vocabulary>();

function vocabularyOf(file: LoadedFile): Vocabulary {
  let v = vocabularies.get(file);
  if (v) return v;
  const data = mapOf(file.data);
  v = { enums: [], kinds: [], dice: [] };
  for (const [name, raw] of Object.entries(mapOf(data.enums))) {
    v.enums.push({ name, values: listOf(raw).filter((x): x is string => typeof x === 'string'), at: spanAt(file, ['enums', name], true) });
  }
  for (const [name, rawKind] of Object.entries(mapOf(data.kinds))) {
    const raw = mapOf(rawKind);
    const kind: Vocabulary['kinds'][number] = { name, raw, at: spanAt(file, ['kinds', name], true), fields: [], roles: [] };
    if (typeof raw.defaultRole === 'string') kind.defaultRole = { name: raw.defaultRole, at: spanAt(file, ['kinds', name, 'defaultRole']) };
    for (const section of ['props', 'state'] as const) {
      for (const [field, spec] of Object.entries(mapOf(raw[section]))) {
        const path = ['kinds', name, section, field];
        const typeText = typeof spec === 'string' ? spec : mapOf(spec).type;
        kind.fields.push({
          section,
          field,
          spec,
          path,
          typeText,
          typeFragment: typeof typeText !== 'string' ? undefined : typeof spec === 'string' ? fragmentOf(file, path) : fragmentOf(file, [...path, 'type']),
          hidden: !!mapOf(spec).hidden,
          at: spanAt(file, path, true),
          writers: writerKeys.flatMap(([direction, key]) => {
            const names = mapOf(spec)[key];
            if (names === undefined) return [];
            const procs = listOf(names).flatMap((n, i) => (typeof n === 'string' ? [{ name: n, at: spanAt(file, [...path, key, i]) }] : []));
            return [{ direction, procs }];
          }),
        });
      }
    }
    for (const role of Object.keys(mapOf(raw.roles))) {
      const source = fragmentOf(file, ['kinds', name, 'roles', role]);
      if (source) kind.roles.push({ role, source, at: spanAt(file, ['kinds', name, 'roles', role], true) });
    }
    v.kinds.push(kind);
  }
  for (const [name, rawFaces] of Object.entries(mapOf(data.dice))) v.dice.push({ name, faces: listOf(rawFaces) as Value[], at: spanAt(file, ['dice', name], true) });
  if (data.scoring) {
    const score = fragmentOf(file, ['scoring', 'score']);
    const written = mapOf(mapOf(data.scoring).prefer);
    const entry = (path: string[], p: { action: string; option?: string }): Preference[] => {
      const source = fragmentOf(file, path);
      return source ? [{ ...p, source, at: spanAt(file, path, true) }] : [];
    };
    const prefer = Object.keys(written).flatMap((action) =>
      action === 'choose'
        ? Object.keys(mapOf(written.choose)).flatMap((option) => entry(['scoring', 'prefer', 'choose', option], { action, option }))
        : entry(['scoring', 'prefer', action], { action }),
    );
    if (score) v.scoring = { score, tiebreak: fragmentOf(file, ['scoring', 'tiebreak']), estimate: fragmentOf(file, ['scoring', 'estimate']), prefer };
  }
  vocabularies.set(file, v);
  return v;
}

/** What an entity's YAML item says by itself: its kind and id, where, its names, values and rules text. */
interface ItemRead {
  file: string;
  path: Array<string | number>;
  first?: string;
  id: string;
  validId: boolean;
  at?: FileSpan;
  name: Record<string, string>;
  text: Record<string, string>;
  values: Record<string, unknown>;
  rules?: Fragment;
}

/**
 * Items read, by YAML item: a file read again from the parse cache gives back the same items
 * (compiler/load.ts), so a recompile reads again only the items of the files that changed.
 */
const itemsRead = new WeakMap<object, ItemRead>();

/** A card's kind (its first key) and id (that key's value, as text). */
export function cardHead(item: Record<string, unknown>): { first: string | undefined; id: string } {
  const [first] = Object.keys(item);
  // A mapping or list as the id (`card: { toString: false }`, maybe circular through aliases) is never turned into text by its own methods.
  const raw = first === undefined ? undefined : item[first];
  return { first, id: raw !== null && typeof raw === 'object' ? (Array.isArray(raw) ? '[…]' : '{…}') : String(raw) };
}

function itemRead(file: LoadedFile, item: Record<string, unknown>, i: number): ItemRead {
  const known = itemsRead.get(item);
  if (known && known.file === file.path && known.path[1] === i) return known;
  const { first, id } = cardHead(item);
  const path = ['entities', i];
  const { [first ?? '']: _id, name, text, rules, ...values } = item;
  const read: ItemRead = {
    file: file.path,
    path,
    first,
    id,
    validId: /^[A-Za-z_][A-Za-z0-9_]*$/.test(id) && !isReservedName(id),
    at: first === undefined ? undefined : spanAt(file, [...path, first]),
    name: (name as Record<string, string>) ?? { en: id },
    text: (text as Record<string, string>) ?? {},
    values,
    rules: typeof rules === 'string' ? fragmentOf(file, [...path, 'rules']) : undefined,
  };
  itemsRead.set(item, read);
  return read;
}

/** `outline` by file: a file read again from the parse cache is the same object (compiler/load.ts). */
const outlines = new WeakMap<LoadedFile, string | null>();

/** A file's cards' kinds and ids in order, as a text. */
function headsOf(file: LoadedFile): string {
  const heads = listOf(mapOf(file.data).entities).map((item, i) => (item && typeof item === 'object' ? itemRead(file, item as Record<string, unknown>, i) : undefined));
  return JSON.stringify(heads.map((r) => (r ? [r.first ?? null, r.id] : null)));
}


/**
 * What a file declares but its cards' contents, as a text: its vocabulary (enums, kinds, dice,
 * scoring) as read and where each part is written, and its cards' kinds and ids in order; undefined
 * for a file with rules of the game or a presentation, or a vocabulary that cannot be written out
 * (a value that holds itself through YAML aliases). Two versions of a file with the same outline
 * differ only in their cards' names, texts, values and rules (compiler/declareMemo.ts).
 */
export function outline(file: LoadedFile): string | undefined {
  let known = outlines.get(file);
  if (known === undefined) {
    known = null;
    const data = mapOf(file.data);
    if (data.rules === undefined && data.presentation === undefined) {
      try {
        known = JSON.stringify([vocabularyOf(file), headsOf(file)], (_key, v: unknown) => placed(file, v));
      } catch {
        // Without a text the file is declared again on every edit.
      }
    }
    outlines.set(file, known);
  }
  return known ?? undefined;
}

/** A value of a vocabulary written out exactly: a fragment by where it is and what is written there, and numbers JSON would blur (infinities, NaN, -0) by their text. */
function placed(file: LoadedFile, v: unknown): unknown {
  if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0) ? v : `\u0000${Object.is(v, -0) ? '-0' : String(v)}`;
  if (v && typeof v === 'object' && typeof (v as Fragment).toFile === 'function') {
    const f = v as Fragment;
    const [start, end] = [f.toFile(0), f.toFile(f.text.length)];
    return [f.file, start, end, f.text, file.text.slice(start, end)];
  }
  return v;
}

/**
 * Cards' rules trees, by card and text. The checker's tables are keyed by node, and what a card's
 * nodes get there depends on the card (`self` is of its kind, a call may name its own function),
 * and every pass after the checking (field writers, guards, the lowering) reads them for all
 * cards at once: one text on two cards must be two trees, or each card would read the entries of
 * whichever was checked last. Kept by card, so an unchanged card has the same tree from compile to
 * compile (compiler/incremental.ts); the game's own rules, which have no card, share the parser's.
 */
const cardPrograms = new LRUCache<string, RulesParse>({ maxSize: 4 * 1024 * 1024, sizeCalculation: (_r, key) => Math.max(1, key.length) });

function cardRules(owner: EntitySym, text: string): RulesParse {
  const key = `${owner.kind}\u0000${owner.id}\u0000${text}`;
  let r = cardPrograms.get(key);
  if (!r) {
    r = readRules(text);
    cardPrograms.set(key, r);
  }
  return r;
}

/**
 * Parses a rules text. The parser recovers from a syntax error, so one broken declaration neither
 * hides the others nor makes every use of it an error.
 */
function parseUnit(d: Declared, fragment: Fragment, report: (d: DiagnosticInput) => void, broken: string[], owner?: EntitySym): RulesUnit {
  const parsed = owner ? cardRules(owner, fragment.text) : parseRules(fragment.text);
  for (const e of parsed.errors) report({ code: 'RB0301', message: e.message, at: fragmentSpan(fragment, e.span), hint: syntaxHint(e.message) });
  for (const name of parsed.broken) {
    d.broken.add(name);
    broken.push(name);
  }
  const unit = { program: { decls: parsed.decls }, fragment, owner, fromBase: fragment.file.includes(':') };
  d.units.push(unit);
  return unit;
}

/**
 * Expressions written as YAML values, by place: a fragment is one per document and path
 * (compiler/load.ts), so a file read again from the parse cache gives back the same tree, and the
 * same text at two places is still two trees (the checker's tables are keyed by node).
 */
const yamlExpressions = new WeakMap<Fragment, ReturnType<typeof parseExpression>>();

/** An expression written as a YAML value (a role, the score). */
function parseYamlExpression(fragment: Fragment, report: (d: DiagnosticInput) => void): A.Expr | undefined {
  let parsed = yamlExpressions.get(fragment);
  if (!parsed) {
    parsed = parseExpression(fragment.text);
    yamlExpressions.set(fragment, parsed);
  }
  for (const e of parsed.errors) report({ code: 'RB0301', message: e.message, at: fragmentSpan(fragment, e.span) });
  return parsed.value;
}

function syntaxHint(message: string): string | undefined {
  if (message.includes('after `let`')) return 'write `let name = value`';
  if (message.includes('after `for`')) return 'write `for x in list { … }`';
  if (message.includes('after `choose`')) return 'write `choose x in list { … }`';
  if (message.includes('`else` but')) return '`require` needs `else "reason"`, and a value `if … then …` needs `else …`';
  if (message.includes('expected `}`')) return 'every `{` needs a matching `}`';
  if (message.includes('`=` but')) return 'a declaration such as `fn name(x: region): number = …` needs `=` before its value';
  return undefined;
}

/** A type written in YAML (`race?`, `list<region>`) resolved against the pack's enums and kinds. */
export function resolveTypeText(d: Declared, text: string, frag: Fragment | undefined, report: (d: DiagnosticInput) => void): Type {
  const parsed = typeByText(text.trim());
  const at = (span: A.Span): FileSpan => (frag ? fragmentSpan(frag, span) : { file: 'pack.yaml', start: 0, end: 0 });
  if (!parsed.value) {
    report({ code: 'RB0206', message: `\`${text}\` is not a type`, at: at({ start: 0, end: text.length }), hint: 'write number, bool, text, an enum or kind name, `name?` for an optional one, or `list<name>`' });
    return Ty.ERROR;
  }
  return resolveTypeRef(d, parsed.value, at, report);
}

/**
 * Types as written in YAML, by text: a type's tree is read for its names only, never a key of the
 * checker's tables, so one tree may serve every place. Bounded by the texts' size.
 */
const typeTexts = new LRUCache<string, ReturnType<typeof parseType>>({ maxSize: 256 * 1024, sizeCalculation: (_t, text) => Math.max(1, text.length) });

function typeByText(text: string): ReturnType<typeof parseType> {
  let parsed = typeTexts.get(text);
  if (!parsed) {
    parsed = parseType(text);
    typeTexts.set(text, parsed);
  }
  return parsed;
}

export function resolveTypeRef(d: Declared, t: A.TypeRef, at: (s: A.Span) => FileSpan, report: (d: DiagnosticInput) => void): Type {
  let base: Type;
  if (t.name === 'list') {
    if (!t.element) {
      report({ code: 'RB0217', message: '`list` needs an element type', at: at(t.span), hint: 'write `list<region>`' });
      return Ty.ERROR;
    }
    base = Ty.listOf(resolveTypeRef(d, t.element, at, report));
  } else if (t.name === 'number' || t.name === 'bool' || t.name === 'text') base = { k: t.name };
  else if (d.enums.has(t.name)) base = { k: 'enum', name: t.name };
  else if (d.kinds.has(t.name)) base = Ty.entity(t.name);
  else {
    const guess = closest(t.name, [...typeNames, ...d.enums.keys(), ...d.kinds.keys()]);
    report({
      code: 'RB0207',
      message: `unknown type \`${t.name}\``,
      at: at(t.span),
      hint: guess ? `did you mean \`${guess}\`?` : 'types are number, bool, text, list<…>, and the pack’s enums and kinds',
      fix: guess ? { replacement: guess, safe: true } : undefined,
    });
    return Ty.ERROR;
  }
  return t.optional ? Ty.optional(base) : base;
}

export function defaultOf(t: Type): Value {
  if (t.optional) return null;
  switch (t.k) {
    case 'number':
      return 0;
    case 'bool':
      return false;
    case 'text':
      return '';
    case 'list':
      return [];
    default:
      return null;
  }
}

/**
 * What checking an entity's values found, by its YAML item: a file read again from the parse cache
 * gives back the same items (compiler/load.ts), so while the fields' types, the enums and the ids
 * stay as they were, an unchanged card's values are not checked again.
 */
const entityValues = new WeakMap<object, { file: string; types: string; values: Record<string, unknown>; diagnostics: DiagnosticInput[] }>();
/** The last `valueTypes` parts, and their text: while the parts stay the same, the text is the same string, compared at once. */
let lastParts: readonly string[] = [];
let lastTypes = '';

/**
 * Everything checking an entity's values reads besides the entity: each field's type, the enums,
 * every id and its kind. Each record is a tag and a fixed number of parts (an enum's count first),
 * so two different packs never give the same parts.
 */
function valueTypes(d: Declared): string {
  const parts = new Parts(lastParts);
  // Map.forEach, not for…of: every entity is gone over on every compile, and entries would be arrays made for nothing.
  d.kinds.forEach((k, name) => {
    parts.push('kind', name);
    k.props.forEach((sym, f) => parts.push('props', f, Ty.show(sym.type)));
    k.state.forEach((sym, f) => parts.push('state', f, Ty.show(sym.type)));
  });
  d.enums.forEach((e, name) => {
    parts.push('enum', name, String(e.values.length));
    for (const v of e.values) parts.push(v);
  });
  d.entities.forEach((e, id) => parts.push('entity', id, e.kind));
  const texts = parts.list();
  if (texts !== lastParts) {
    lastParts = texts;
    lastTypes = JSON.stringify(texts);
  }
  return lastTypes;
}

function checkedValues(d: Declared, e: EntitySym, types: string, report: (d: DiagnosticInput) => void): void {
  const item = listOf(mapOf(e.file.data).entities)[e.path[1] as number];
  const key = item !== null && typeof item === 'object' ? item : undefined;
  const known = key && entityValues.get(key);
  if (known && known.types === types && known.file === e.file.path) {
    e.values = known.values;
    for (const x of known.diagnostics) report(x);
    return;
  }
  const diagnostics: DiagnosticInput[] = [];
  // Checking writes the values it reads, as their fields' types have them: on a copy, as the item's
  // values as read are kept for the next compile (itemRead).
  e.values = { ...e.values };
  checkEntityValues(d, e, (x) => {
    diagnostics.push(x);
    report(x);
  });
  // Shared by every compile that finds the same values: frozen, so that a pass that tried to change them would fail at once.
  Object.freeze(e.values);
  if (key) entityValues.set(key, { file: e.file.path, types, values: e.values, diagnostics });
}

function checkEntityValues(d: Declared, e: EntitySym, report: (d: DiagnosticInput) => void): void {
  const kind = d.kinds.get(e.kind)!;
  for (const [key, raw] of Object.entries(e.values)) {
    const field = kind.props.get(key) ?? kind.state.get(key);
    if (!field) {
      const guess = closest(key, [...kind.props.keys(), ...kind.state.keys(), 'name', 'text', 'rules']);
      report({
        code: 'RB0208',
        message: `a ${e.kind} has no field \`${key}\``,
        at: spanAt(e.file, [...e.path, key], true),
        hint: guess ? `did you mean \`${guess}\`?` : `the fields of ${e.kind} are: ${[...kind.props.keys(), ...kind.state.keys()].join(', ') || 'none yet'}; declare new ones under kinds.${e.kind}`,
        fix: guess ? { replacement: guess, safe: false } : undefined,
      });
      continue;
    }
    e.values[key] = checkValue(d, raw, field.type, e.file, [...e.path, key], report);
  }
  for (const [name, field] of kind.props) {
    if (!(name in e.values) && !field.type.optional && field.type.k !== 'list' && field.type.k !== 'bool') {
      if (field.type.k === 'number' || field.type.k === 'text') e.values[name] = defaultOf(field.type);
      else {
        report({ code: 'RB0209', message: `the ${e.kind} \`${e.id}\` has no \`${name}\``, at: e.at, hint: `add \`${name}:\` (a ${Ty.show(field.type)}), or make the prop optional with \`${Ty.show(field.type)}?\`` });
      }
    }
  }
}

/** A YAML value as the author wrote it, short enough for a message. */
function shown(raw: unknown): string {
  const s = typeof raw === 'object' ? JSON.stringify(raw) : String(raw);
  return s.length > 40 ? `${s.slice(0, 37)}…` : s;
}

/** The field named in messages: `tokens`, or `adjacent` for an item of that list. */
function fieldIn(path: Array<string | number>): string {
  return [...path].reverse().find((p): p is string => typeof p === 'string') ?? 'this value';
}

/** A YAML value checked against a field type; ids must name entities of the right kind. */
export function checkValue(d: Declared, raw: unknown, t: Type, file: LoadedFile, path: Array<string | number>, report: (d: DiagnosticInput) => void): Value {
  if (t.k === 'error') return null;
  if (raw === null || raw === undefined) {
    if (!t.optional) report({ code: 'RB0210', message: `\`${fieldIn(path)}\` needs ${/^[aeiou]/.test(Ty.show(t)) ? 'an' : 'a'} ${Ty.show(t)}, but it is empty`, at: spanAt(file, path), hint: `write a value after \`${fieldIn(path)}:\`, or declare the field as \`${Ty.show(t)}?\` if it may be empty` });
    return null;
  }
  // A mapping where a scalar belongs (`{ toString: false }`) is reported, never turned into text.
  if (typeof raw === 'object' && t.k !== 'list') {
    report({ code: 'RB0218', message: `\`${fieldIn(path)}\` should be ${/^[aeiou]/.test(Ty.show(t)) ? 'an' : 'a'} ${Ty.show(t)}, not a ${Array.isArray(raw) ? 'list' : 'mapping'}`, at: spanAt(file, path), hint: `write one value after \`${fieldIn(path)}:\`` });
    return null;
  }
  switch (t.k) {
    case 'number':
      if (typeof raw !== 'number' || !Number.isFinite(raw)) report({ code: 'RB0218', message: `\`${fieldIn(path)}\` should be a number, not \`${shown(raw)}\``, at: spanAt(file, path), hint: `write it in digits, e.g. \`${fieldIn(path)}: 3\`` });
      return typeof raw === 'number' && Number.isFinite(raw) ? raw : 0;
    case 'bool':
      if (typeof raw !== 'boolean') report({ code: 'RB0218', message: `\`${fieldIn(path)}\` should be true or false, not \`${shown(raw)}\``, at: spanAt(file, path), hint: `write \`${fieldIn(path)}: true\` or \`${fieldIn(path)}: false\`` });
      return raw === true;
    case 'text':
      return String(raw);
    case 'enum': {
      const values = d.enums.get(t.name)?.values ?? [];
      if (!values.includes(String(raw))) {
        const guess = closest(String(raw), values);
        report({
          code: 'RB0211',
          message: `\`${shown(raw)}\` is not a ${t.name} of this pack`,
          at: spanAt(file, path),
          hint: guess ? `did you mean \`${guess}\`?` : `a ${t.name} is one of: ${values.join(', ')}`,
          fix: guess ? { replacement: guess, safe: true } : undefined,
        });
      }
      return String(raw);
    }
    case 'entity': {
      const target = d.entities.get(String(raw));
      if (!target || target.kind !== t.kind) {
        const candidates = [...d.entities.values()].filter((x) => x.kind === t.kind).map((x) => x.id);
        const guess = closest(String(raw), candidates);
        report({
          code: target ? 'RB0220' : 'RB0212',
          message: target ? `\`${shown(raw)}\` is a ${target.kind}, not a ${t.kind}` : `no ${t.kind} is called \`${shown(raw)}\``,
          at: spanAt(file, path),
          hint: guess ? `did you mean \`${guess}\`?` : undefined,
          fix: guess ? { replacement: guess, safe: true } : undefined,
        });
      }
      return String(raw);
    }
    case 'list':
      if (!Array.isArray(raw)) {
        report({ code: 'RB0219', message: `this should be a list of ${Ty.show(t.of)}`, at: spanAt(file, path), hint: 'write `[a, b]`' });
        return [];
      }
      return raw.map((x, i) => checkValue(d, x, t.of, file, [...path, i], report));
    default:
      return null;
  }
}
