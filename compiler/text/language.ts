/**
 * The pack's own words: its `glossary` (what a number counts, which names are game terms, which
 * events are which moments of a turn — the same in every language) and one `language` section per
 * language (how the texts say each of these, and templates to render rules). Read from the loaded
 * YAML files; every problem is a diagnostic pointing into them.
 */
import type { Declared } from '../declare.ts';
import type { DiagnosticInput } from '../diagnostic.ts';
import { spanAt, type LoadedFile, type LoadedPack } from '../load.ts';
import { closest } from '../suggest.ts';
import type { Mode } from './claim.ts';
import { compilePhrase, type Phrase } from './phrase.ts';

/** What a number counts: a unit id, and for payments between players who pays whom. */
export interface UnitRef {
  unit: string;
  from?: Party;
  to?: Party;
}
export type Party = 'you' | 'opponent';

export interface Condition {
  /** A rule working in this role (`while someRole`). */
  role?: string;
  /** `current != holder` (opponent) or `current == holder` (own). */
  turn?: 'own' | 'opponent';
  /** Fields that hold whose turn it is besides `current` (`game.leader == self`: the card's own turn). */
  by: string[];
  /** A function of a player of which the card's own holds none (`count(ownCells(me)) == 0`): "on your first move". */
  none?: string;
  /** A trigger testing it must say it: the situation does not (one player may hold several cards that take turns). */
  required: boolean;
  /** Texts may speak of it without the card's rules saying so (the core rules do). */
  free: boolean;
}

export interface Glossary {
  /** Field, pipeline, fn, `proc.param` or kind name → what its numbers count. */
  units: Map<string, UnitRef>;
  unitIds: Set<string>;
  enums: Set<string>;
  kinds: Set<string>;
  fields: Set<string>;
  dice: Set<string>;
  /** Event → timing id. */
  timing: Map<string, string>;
  timingIds: Set<string>;
  conditions: Map<string, Condition>;
  /** Field, pipeline or function → terms it stands for without naming them. */
  implies: Map<string, string[]>;
  /** Fields whose contents their player spends as they choose: what a rule adds to them is the player's to use or not. */
  choices: Set<string>;
  /**
   * Procedure, action or pipeline → the effect it has ("the square counts as empty"). A card's call
   * of it (or modifier of it) that gives no number a text must say is that effect, and a text must say it.
   * `pipeline.less`: a price less that pipeline's value (`cost(r) - travel(r)`: "as if it were adjacent").
   */
  effects: Map<string, string>;
  /**
   * `field.change` → the effect a rule has when it changes a field so (`space.set`: a thing moved,
   * `health.fill`: set to another field of its thing, `stock.clear`: `x.f -= x.f`, `hand.add`: `+= [x]`,
   * `discard.remove`: `remove x from …`): what a card does that no number says, a text must say.
   */
  changes: Map<string, string>;
  effectIds: Set<string>;
  file?: LoadedFile;
}

/**
 * How a rule changes a field, for the glossary's `effects` (`space.set`); `put`: the card itself set on
 * a thing the player picks by a `choose` that names no term (`choose x in mine { x.f = self }`); `mark`:
 * a flag of a thing raised (`x.f = true`: a thing laid there, as the card's text says it).
 */
export const CHANGES = ['set', 'fill', 'clear', 'add', 'remove', 'put', 'mark'] as const;
export type Change = (typeof CHANGES)[number];

export type Direction = 'gain' | 'lose' | 'fewer' | 'more' | 'atLeast' | 'atMost';
export const DIRECTIONS: Direction[] = ['gain', 'lose', 'fewer', 'more', 'atLeast', 'atMost'];

/** Grammatical forms: by case (`nom`, `acc`, `gen`, …), each a text or forms by plural category. */
export type Forms = Record<string, string | Record<string, string>>;

export interface WordEntry {
  read: Phrase[];
  say?: Forms;
}

export interface Language {
  lang: string;
  file?: LoadedFile;
  plural: Intl.PluralRules;
  numbers: Array<{ phrase: Phrase; value: number }>;
  /** Whole "N times" words: once, twice, raz, dwukrotnie. */
  times: Array<{ phrase: Phrase; value: number }>;
  /** The word after a number that makes it a count of times: times, razy. */
  timesWords: Phrase[];
  /** "as many … as", "tyle": one of something for each of something else. */
  each: Array<{ phrase: Phrase; value: number }>;
  /** Words that make a unit with no number before it one of them: a, an, another. */
  one: Phrase[];
  /** Words that make the unit after them none: "do not …". */
  zero: Phrase[];
  /** Words for nothing to pay: "for free". */
  free: Phrase[];
  /** Words before the normal value a card replaces: "instead of". */
  instead: Phrase[];
  /** Words that open a condition: "if", "when", "jeśli". */
  if: Phrase[];
  /** Words that join two parts of a sentence: "and", "or", "i". */
  joins: Phrase[];
  per: Array<{ phrase: Phrase; value: 'turn' | 'game' }>;
  units: Map<string, WordEntry>;
  terms: Map<string, WordEntry>;
  /** `counted`: the words after a thing a card counts at that moment ("conquered"). */
  /** `turns`: how a draft says the moment in another player's turn than yours ("At the end of each player's turn,"), by whose. */
  timing: Map<string, WordEntry & { text?: string; counted?: string; turns?: Map<'each' | 'opponent', string> }>;
  /** How long a card's effect lasts, by the moment of the turn that ends it: "this turn", "until your next turn". */
  durations: Map<string, WordEntry & { text?: string }>;
  /** Words for whether the player chooses: "may", "must", "cannot" (read longest first, so "may not" is `cannot`). */
  modes: Map<Mode, Phrase[]>;
  /** Words for every player rather than you: "each player". */
  everyone: Phrase[];
  /** Words for another player than the card's own: "an opponent". */
  opponents: Phrase[];
  /** Words for the card's own player: "you", "du"; Polish verbs of the second person too ("otrzymujesz"). */
  you: Phrase[];
  /** Verbs that, opening a clause that names no one, say it to the card's own player: the imperative ("Collect 2 coins", "otrzymaj", "erhalte"). */
  imperatives: Phrase[];
  /** Words for a player the rules name (an event's parameter, a field): `attacker` → "the attacker". */
  players: Map<string, Phrase[]>;
  /** Words for whose thing it is: "your region", "an opponent's region". */
  whose: { you: Phrase[]; opponent: Phrase[] };
  /**
   * Words for whose turn a moment is in, read inside the moment's words: "your turn", "an opponent's
   * turn", "each player's turn"; `any` a turn said without whose ("each turn"): every player's,
   * unless its sentence has the player choose, which a player does in their own turn.
   */
  turns: { you: Phrase[]; opponent: Phrase[]; each: Phrase[]; any: Phrase[] };
  /** Words offering a choice between things: "choose between", "wybierz". The terms after them in the sentence are the options. */
  choose: Phrase[];
  /** Words for another thing than the card's own: "another", "inny", "ein anderer". */
  another: Phrase[];
  /** Words for where an action's parameter must be, by the relation its `require` names: `adjacent: [connected]`. */
  relations: Map<string, Phrase[]>;
  /** Words for what a count is per, by the kind counted: `board: [for each board]`. */
  forEach: Map<string, Phrase[]>;
  /** Words naming the one a rule picks by the most or the fewest of something: "the most", "more … than any other". */
  chosen: Map<'most' | 'fewest', Phrase[]>;
  conditions: Map<string, WordEntry & { text?: string }>;
  effects: Map<string, WordEntry>;
  transfers: { in: Phrase[]; out: Phrase[] };
  directions: Map<Direction, { before: Phrase[]; after: Phrase[] }>;
  except: Phrase[];
  words: Phrase[];
  /** The forms of words put after a number, by plural category (`plurals:`): a template's `{agree:word}` takes the one for its number. */
  plurals: Map<string, Record<string, string>>;
  templates: Record<string, unknown>;
}

export interface Vocabulary {
  glossary: Glossary;
  languages: Map<string, Language>;
}

const mapOf = (x: unknown): Record<string, unknown> => (x && typeof x === 'object' && !Array.isArray(x) ? (x as Record<string, unknown>) : {});
const listOf = (x: unknown): unknown[] => (Array.isArray(x) ? x : x === undefined || x === null ? [] : [x]);
const strings = (x: unknown): string[] => listOf(x).filter((s): s is string => typeof s === 'string');

export function emptyGlossary(): Glossary {
  return { units: new Map(), unitIds: new Set(), enums: new Set(), kinds: new Set(), fields: new Set(), dice: new Set(), timing: new Map(), timingIds: new Set(), conditions: new Map(), implies: new Map(), choices: new Set(), effects: new Map(), changes: new Map(), effectIds: new Set() };
}

export function emptyLanguage(lang: string): Language {
  return {
    lang,
    plural: pluralRules(lang),
    numbers: [],
    times: [],
    timesWords: [],
    each: [],
    one: [],
    zero: [],
    free: [],
    instead: [],
    if: [],
    joins: [],
    per: [],
    units: new Map(),
    terms: new Map(),
    timing: new Map(),
    durations: new Map(),
    modes: new Map(),
    everyone: [],
    opponents: [],
    you: [],
    imperatives: [],
    players: new Map(),
    whose: { you: [], opponent: [] },
    turns: { you: [], opponent: [], each: [], any: [] },
    choose: [],
    chosen: new Map(),
    another: [],
    relations: new Map(),
    forEach: new Map(),
    conditions: new Map(),
    effects: new Map(),
    transfers: { in: [], out: [] },
    directions: new Map(),
    except: [],
    words: [],
    plurals: new Map(),
    templates: {},
  };
}

function pluralRules(lang: string): Intl.PluralRules {
  try {
    return new Intl.PluralRules(lang);
  } catch {
    return new Intl.PluralRules('en');
  }
}

/** Reads the glossary and language sections of a pack, checking every name against the pack. */
export function readVocabulary(pack: LoadedPack, d: Declared, report: (x: DiagnosticInput) => void): Vocabulary {
  const glossary = emptyGlossary();
  const languages = new Map<string, Language>();
  const fieldNames = new Set<string>();
  for (const k of d.kinds.values()) for (const f of [...k.props.keys(), ...k.state.keys()]) fieldNames.add(f);
  const pipelineNames = new Set<string>();
  const fnNames = new Set<string>();
  const doers = new Set<string>();
  const procParams = new Set<string>();
  const events = new Set<string>();
  for (const u of d.units) {
    for (const decl of u.program.decls) {
      if (decl.kind === 'pipeline') pipelineNames.add(decl.name);
      if (decl.kind === 'fn') fnNames.add(decl.name);
      if (decl.kind === 'event') events.add(decl.name);
      if (decl.kind === 'proc') for (const p of decl.params) procParams.add(`${decl.name}.${p.name}`);
      if (decl.kind === 'proc' || decl.kind === 'action') doers.add(decl.name);
    }
  }
  const roles = new Set<string>();
  for (const k of d.kinds.values()) for (const r of k.roles.keys()) roles.add(r);

  const unknown = (file: LoadedFile, path: Array<string | number>, what: string, name: string, candidates: Iterable<string>, key = true) => {
    const guess = closest(name, [...candidates]);
    report({
      code: 'TX0501',
      message: `\`${name}\` is not ${what} of this pack`,
      at: spanAt(file, path, key),
      hint: guess ? `did you mean \`${guess}\`?` : undefined,
      fix: guess ? { replacement: guess, safe: false } : undefined,
    });
  };

  const glossaryFiles = pack.files.filter((f) => mapOf(f.data).glossary !== undefined);
  for (const file of glossaryFiles) {
    const g = mapOf(mapOf(file.data).glossary);
    glossary.file ??= file;
    for (const [name, raw] of Object.entries(mapOf(g.units))) {
      const path = ['glossary', 'units', name];
      const known = fieldNames.has(name) || pipelineNames.has(name) || fnNames.has(name) || procParams.has(name) || d.kinds.has(name);
      if (!known) unknown(file, path, 'a field, pipeline, function, `proc.parameter` or kind', name, [...fieldNames, ...pipelineNames, ...fnNames, ...procParams, ...d.kinds.keys()]);
      const r = typeof raw === 'string' ? { unit: raw } : (mapOf(raw) as { unit?: unknown; from?: unknown; to?: unknown });
      if (typeof r.unit !== 'string') {
        report({ code: 'TX0501', message: `\`${name}\` needs a unit: write \`${name}: <unit>\` or \`${name}: { unit: <unit> }\``, at: spanAt(file, path) });
        continue;
      }
      const party = (p: unknown): Party | undefined => (p === 'you' || p === 'opponent' ? p : undefined);
      glossary.units.set(name, { unit: r.unit, from: party(r.from), to: party(r.to) });
      glossary.unitIds.add(r.unit);
    }
    const terms = mapOf(g.terms);
    strings(terms.enums).forEach((e, i) => (d.enums.has(e) ? glossary.enums.add(e) : unknown(file, ['glossary', 'terms', 'enums', i], 'an enum', e, d.enums.keys(), false)));
    strings(terms.kinds).forEach((k, i) => (d.kinds.has(k) ? glossary.kinds.add(k) : unknown(file, ['glossary', 'terms', 'kinds', i], 'a kind', k, d.kinds.keys(), false)));
    strings(terms.fields).forEach((f, i) => (fieldNames.has(f) ? glossary.fields.add(f) : unknown(file, ['glossary', 'terms', 'fields', i], 'a field', f, fieldNames, false)));
    strings(terms.dice).forEach((x, i) => (d.dice.has(x) ? glossary.dice.add(x) : unknown(file, ['glossary', 'terms', 'dice', i], 'a die', x, d.dice.keys(), false)));
    for (const [id, evs] of Object.entries(mapOf(g.timing))) {
      glossary.timingIds.add(id);
      strings(evs).forEach((e, i) => (events.has(e) ? glossary.timing.set(e, id) : unknown(file, ['glossary', 'timing', id, i], 'an event', e, events, false)));
    }
    for (const [name, raw] of Object.entries(mapOf(g.implies))) {
      const known = fieldNames.has(name) || pipelineNames.has(name) || fnNames.has(name);
      if (!known) unknown(file, ['glossary', 'implies', name], 'a field, pipeline or function', name, [...fieldNames, ...pipelineNames, ...fnNames]);
      const ts = strings(raw);
      ts.forEach((t, i) => {
        if (!d.members.has(t) && !d.entities.has(t) && !fieldNames.has(t)) unknown(file, ['glossary', 'implies', name, i], 'an enum member, entity or field', t, [...d.members.keys(), ...fieldNames], false);
      });
      glossary.implies.set(name, ts);
    }
    strings(g.choices).forEach((f, i) => (fieldNames.has(f) ? glossary.choices.add(f) : unknown(file, ['glossary', 'choices', i], 'a field', f, fieldNames, false)));
    for (const [id, names] of Object.entries(mapOf(g.effects))) {
      glossary.effectIds.add(id);
      strings(names).forEach((n, i) => {
        const [field, change, more] = n.split('.');
        if (change !== undefined && more === undefined && fieldNames.has(field) && (CHANGES as readonly string[]).includes(change)) glossary.changes.set(n, id);
        else if (doers.has(n) || pipelineNames.has(n) || ((change === 'less' || change === 'waived') && more === undefined && pipelineNames.has(field))) glossary.effects.set(n, id);
        else if (change !== undefined && fieldNames.has(field)) unknown(file, ['glossary', 'effects', id, i], 'a change of a field (`field.set`, `.fill`, `.clear`, `.add`, `.remove`, `.put`)', n, CHANGES.map((c) => `${field}.${c}`), false);
        else unknown(file, ['glossary', 'effects', id, i], 'a procedure, action, pipeline or `field.change`', n, [...doers, ...pipelineNames], false);
      });
    }
    for (const [id, raw] of Object.entries(mapOf(g.conditions))) {
      const c = mapOf(raw);
      const role = typeof c.role === 'string' ? c.role : undefined;
      if (role && !roles.has(role)) unknown(file, ['glossary', 'conditions', id, 'role'], 'a role', role, roles, false);
      const turn = c.turn === 'own' || c.turn === 'opponent' ? c.turn : undefined;
      const by = Array.isArray(c.by) ? c.by.filter((f): f is string => typeof f === 'string') : typeof c.by === 'string' ? [c.by] : [];
      for (const f of by) if (!fieldNames.has(f)) unknown(file, ['glossary', 'conditions', id, 'by'], 'a field', f, fieldNames, false);
      const none = typeof c.none === 'string' ? c.none : undefined;
      if (none && !fnNames.has(none)) unknown(file, ['glossary', 'conditions', id, 'none'], 'a function', none, fnNames, false);
      glossary.conditions.set(id, { role, turn, by, required: c.required === true, free: c.free === true, ...(none ? { none } : {}) });
    }
  }

  for (const file of pack.files) {
    const raw = mapOf(file.data).language;
    if (raw === undefined) continue;
    const l = mapOf(raw);
    const lang = typeof l.lang === 'string' ? l.lang : undefined;
    if (!lang) continue; // the schema reports it
    if (languages.has(lang)) {
      report({ code: 'TX0505', message: `a second language file for \`${lang}\``, at: spanAt(file, ['language', 'lang']), hint: `the first is ${languages.get(lang)!.file?.path}; merge them` });
      continue;
    }
    if (!d.manifest.languages.includes(lang)) {
      report({ code: 'TX0504', severity: 'warning', message: `the pack does not declare the language \`${lang}\``, at: spanAt(file, ['language', 'lang']), hint: `add it to \`languages\` in pack.yaml, or remove this file` });
    }
    languages.set(lang, readLanguage(file, lang, l, glossary, d, report));
  }
  return { glossary, languages };
}

function readLanguage(file: LoadedFile, lang: string, l: Record<string, unknown>, g: Glossary, d: Declared, report: (x: DiagnosticInput) => void): Language {
  const out = emptyLanguage(lang);
  out.file = file;
  const phrases = (x: unknown) => strings(x).map((s) => compilePhrase(s, lang));
  const valued = (x: unknown, path: string[]) => {
    const res: Array<{ phrase: Phrase; value: number }> = [];
    for (const [k, v] of Object.entries(mapOf(x))) {
      if (typeof v === 'number') res.push({ phrase: compilePhrase(k, lang), value: v });
      else report({ code: 'TX0502', message: `\`${k}\` should be given a number`, at: spanAt(file, [...path, k]), hint: `e.g. \`${k}: 2\`` });
    }
    return res;
  };
  out.numbers = valued(l.numbers, ['language', 'numbers']);
  out.times = valued(l.times, ['language', 'times']);
  out.timesWords = phrases(l.timesWords);
  out.each = phrases(l.each).map((phrase) => ({ phrase, value: 1 }));
  out.one = phrases(l.one);
  out.zero = phrases(l.zero);
  out.free = phrases(l.free);
  out.instead = phrases(l.instead);
  out.if = phrases(l.if);
  out.joins = phrases(l.joins);
  for (const [per, ps] of Object.entries(mapOf(l.per))) {
    if (per !== 'turn' && per !== 'game') continue;
    for (const p of phrases(ps)) out.per.push({ phrase: p, value: per });
  }
  const entry = (raw: unknown): WordEntry => {
    if (typeof raw === 'string' || Array.isArray(raw)) return { read: phrases(raw) };
    const m = mapOf(raw);
    return { read: phrases(m.read), say: m.say === undefined ? undefined : typeof m.say === 'string' ? { nom: m.say } : byCase(mapOf(m.say) as Forms) };
  };
  const section = (name: 'units' | 'terms' | 'timing' | 'durations' | 'conditions' | 'effects', known: (id: string) => boolean, what: string, candidates: () => Iterable<string>) => {
    for (const [id, raw] of Object.entries(mapOf(l[name]))) {
      if (!known(id)) {
        const guess = closest(id, [...candidates()]);
        report({ code: 'TX0502', message: `\`${id}\` is not ${what} of the glossary or the pack`, at: spanAt(file, ['language', name, id], true), hint: guess ? `did you mean \`${guess}\`?` : undefined, fix: guess ? { replacement: guess, safe: false } : undefined });
        continue;
      }
      const e = entry(raw);
      const text = typeof mapOf(raw).say === 'string' ? (mapOf(raw).say as string) : undefined;
      const counted = typeof mapOf(raw).counted === 'string' ? (mapOf(raw).counted as string) : undefined;
      const turns = new Map((['each', 'opponent'] as const).flatMap((t) => (typeof mapOf(raw)[t] === 'string' ? [[t, mapOf(raw)[t] as string] as const] : [])));
      (out[name] as Map<string, WordEntry & { text?: string; counted?: string }>).set(id, name === 'timing' ? { ...e, text, counted, ...(turns.size ? { turns } : {}) } : name === 'durations' || name === 'conditions' ? { ...e, text } : e);
    }
  };
  section('units', (id) => g.unitIds.has(id), 'a unit', () => g.unitIds);
  section('terms', (id) => isTerm(g, d, id), 'a game term', () => termIds(g, d));
  section('timing', (id) => g.timingIds.has(id), 'a timing', () => g.timingIds);
  section('durations', (id) => g.timingIds.has(id), 'a timing', () => g.timingIds);
  section('conditions', (id) => g.conditions.has(id), 'a condition', () => g.conditions.keys());
  section('effects', (id) => g.effectIds.has(id), 'an effect', () => g.effectIds);
  const tr = mapOf(l.transfers);
  out.transfers = { in: phrases(mapOf(tr.in).read ?? tr.in), out: phrases(mapOf(tr.out).read ?? tr.out) };
  for (const [dir, raw] of Object.entries(mapOf(l.directions))) {
    if (!(DIRECTIONS as string[]).includes(dir)) {
      report({ code: 'TX0502', message: `\`${dir}\` is not a direction`, at: spanAt(file, ['language', 'directions', dir], true), hint: `directions are ${DIRECTIONS.join(', ')}` });
      continue;
    }
    const m = mapOf(raw);
    out.directions.set(dir as Direction, { before: phrases(m.before), after: phrases(m.after) });
  }
  for (const [mode, raw] of Object.entries(mapOf(l.modes))) {
    if (mode !== 'may' && mode !== 'must' && mode !== 'cannot') {
      report({ code: 'TX0502', message: `\`${mode}\` is not a mode`, at: spanAt(file, ['language', 'modes', mode], true), hint: 'modes are may, must, cannot' });
      continue;
    }
    out.modes.set(mode, phrases(raw));
  }
  out.everyone = phrases(l.everyone);
  out.opponents = phrases(l.opponents);
  out.you = phrases(l.you);
  out.imperatives = phrases(l.imperatives);
  // A player the rules name is an event's parameter (`attacker`) or a field (`owner`): a word for any other name would never be read against the rules.
  const named = new Set<string>();
  for (const u of d.units) for (const decl of u.program.decls) if (decl.kind === 'event') for (const p of decl.params) named.add(p.name);
  for (const k of d.kinds.values()) for (const f of [...k.props.keys(), ...k.state.keys()]) named.add(f);
  for (const [name, raw] of Object.entries(mapOf(l.players))) {
    if (!named.has(name)) {
      const guess = closest(name, [...named]);
      report({ code: 'TX0502', message: `\`${name}\` is not a player the rules name: an event's parameter or a field`, at: spanAt(file, ['language', 'players', name], true), hint: guess ? `did you mean \`${guess}\`?` : undefined, fix: guess ? { replacement: guess, safe: false } : undefined });
      continue;
    }
    out.players.set(name, phrases(raw));
  }
  const whose = mapOf(l.whose);
  out.whose = { you: phrases(whose.you), opponent: phrases(whose.opponent) };
  const turns = mapOf(l.turns);
  out.turns = { you: phrases(turns.you), opponent: phrases(turns.opponent), each: phrases(turns.each), any: phrases(turns.any) };
  out.choose = phrases(l.choose);
  out.another = phrases(l.another);
  for (const [relation, raw] of Object.entries(mapOf(l.relations))) out.relations.set(relation, phrases(raw));
  for (const [kind, raw] of Object.entries(mapOf(l.forEach))) out.forEach.set(kind, phrases(raw));
  for (const [by, raw] of Object.entries(mapOf(l.chosen))) {
    if (by !== 'most' && by !== 'fewest') {
      report({ code: 'TX0502', message: `\`${by}\` is not a way a rule picks one thing`, at: spanAt(file, ['language', 'chosen', by], true), hint: 'say the words for the one with the `most` and the one with the `fewest`' });
      continue;
    }
    out.chosen.set(by, phrases(raw));
  }
  out.except = phrases(l.except);
  out.words = phrases(l.words);
  for (const [word, forms] of Object.entries(mapOf(l.plurals))) out.plurals.set(word, Object.fromEntries(Object.entries(mapOf(forms)).filter((e): e is [string, string] => typeof e[1] === 'string')));
  out.templates = mapOf(l.templates);
  return out;
}

const CATEGORIES = new Set(['zero', 'one', 'two', 'few', 'many', 'other']);

/** `say: { one: …, other: … }` has no cases: it is the nominative. */
function byCase(f: Forms): Forms {
  const keys = Object.keys(f);
  return keys.length && keys.every((k) => CATEGORIES.has(k)) && Object.values(f).every((v) => typeof v === 'string') ? { nom: f as Record<string, string> } : f;
}

export type TermClass = { k: 'enum'; name: string } | { k: 'entity'; kind: string } | { k: 'field' } | { k: 'die' };

/** What kind of game term a name is, when the glossary makes it one. */
export function termClass(g: Glossary, d: Declared, id: string): TermClass | undefined {
  const ent = d.entities.get(id);
  if (ent && g.kinds.has(ent.kind)) return { k: 'entity', kind: ent.kind };
  const owners = d.members.get(id)?.filter((e) => g.enums.has(e));
  if (owners?.length) return { k: 'enum', name: owners[0] };
  if (g.fields.has(id)) return { k: 'field' };
  if (g.dice.has(id)) return { k: 'die' };
  return undefined;
}

export function isTerm(g: Glossary, d: Declared, id: string): boolean {
  return termClass(g, d, id) !== undefined;
}

export function termIds(g: Glossary, d: Declared): string[] {
  const out: string[] = [];
  for (const e of g.enums) out.push(...(d.enums.get(e)?.values ?? []));
  for (const ent of d.entities.values()) if (g.kinds.has(ent.kind)) out.push(ent.id);
  out.push(...g.fields, ...g.dice);
  return [...new Set(out)];
}

/** Terms of the same class, for hints and for the mutation benchmark. */
export function sameClass(g: Glossary, d: Declared, id: string): string[] {
  const c = termClass(g, d, id);
  if (!c) return [];
  if (c.k === 'enum') return d.enums.get(c.name)?.values ?? [];
  if (c.k === 'entity') return [...d.entities.values()].filter((e) => e.kind === c.kind).map((e) => e.id);
  if (c.k === 'field') return [...g.fields];
  return [...g.dice];
}

/** How a language reads a term: its file's forms, and for entities also their name in that language. */
export function termReads(lang: Language, d: Declared, id: string): Phrase[] {
  const own = lang.terms.get(id)?.read ?? [];
  const ent = d.entities.get(id);
  const name = ent?.name[lang.lang];
  return name ? [...own, compilePhrase(name, lang.lang)] : own;
}
