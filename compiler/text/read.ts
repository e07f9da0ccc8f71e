/**
 * What a card's text claims, read with the words of its language file: numbers and what they
 * count (the nearest unit after them), game terms, moments of the turn, limits ("twice per turn"),
 * conditions, who pays whom, and the direction of a number (receive, pay, fewer, at least).
 * Translators phrase freely: whatever the reader does not recognise is simply not a claim — except
 * capitalised words that look like game terms and are nowhere in the glossary, which are reported.
 */
import type { Declared } from '../declare.ts';
import type { Mode, TextClaim, TurnOf, Who } from './claim.ts';
import { type Direction, type Glossary, type Language, termIds, termReads } from './language.ts';
import { findAll, matchAt, tokenize, GAP, type Phrase, type Token } from './phrase.ts';

export interface TextReading {
  tokens: Token[];
  claims: TextClaim[];
  /** Capitalised words that are no word of the pack's glossary. */
  unknown: Array<{ start: number; end: number; word: string }>;
  /** Numbers and game terms as written, for the mutation benchmark: every place a translator could slip. */
  sites: Array<{ start: number; end: number; k: 'number' | 'term'; value: number | string }>;
}

interface NumberAt {
  value: number;
  to: number;
}

/** Compiled phrase tables of a language, built once per language and reused for every card. */
export interface Reader {
  lang: Language;
  terms: Array<{ phrase: Phrase; value: string }>;
  units: Array<{ phrase: Phrase; value: string }>;
  numbers: Array<{ phrase: Phrase; value: number }>;
  times: Array<{ phrase: Phrase; value: number }>;
  each: Array<{ phrase: Phrase; value: number }>;
  free: Array<{ phrase: Phrase; value: true }>;
  instead: Array<{ phrase: Phrase; value: true }>;
  if: Array<{ phrase: Phrase; value: true }>;
  one: Array<{ phrase: Phrase; value: true }>;
  timing: Array<{ phrase: Phrase; value: string }>;
  durations: Array<{ phrase: Phrase; value: string }>;
  modes: Array<{ phrase: Phrase; value: Mode }>;
  everyone: Array<{ phrase: Phrase; value: { who: Who; name?: string } }>;
  imperatives: Array<{ phrase: Phrase; value: true }>;
  whose: Array<{ phrase: Phrase; value: 'you' | 'opponent' }>;
  choose: Array<{ phrase: Phrase; value: true }>;
  turns: Array<{ phrase: Phrase; value: TurnOf | 'any' }>;
  chosen: Array<{ phrase: Phrase; value: 'most' | 'fewest' }>;
  another: Array<{ phrase: Phrase; value: true }>;
  /** By relation: a phrase several relations list says each of them. */
  relations: Array<Array<{ phrase: Phrase; value: string }>>;
  forEach: Array<{ phrase: Phrase; value: string }>;
  conditions: Array<{ phrase: Phrase; value: string }>;
  effects: Array<{ phrase: Phrase; value: string }>;
  transfers: Array<{ phrase: Phrase; value: 'in' | 'out' }>;
  before: Array<{ phrase: Phrase; value: Direction }>;
  after: Array<{ phrase: Phrase; value: Direction }>;
  words: Array<{ phrase: Phrase; value: true }>;
  zero: Array<{ phrase: Phrase; value: true }>;
  /** Unit → its singular forms in every case, lower-cased: such a form with no number is one. */
  singular: Map<string, Set<string>>;
  /** Conditions texts may mention whatever the card's rules say. */
  freeConditions: Set<string>;
}

/** How far after "do not" a unit may come and still be "none". */
const ZERO_REACH = 6;

export function makeReader(lang: Language, g: Glossary, d: Declared): Reader {
  const terms = termIds(g, d).flatMap((id) => termReads(lang, d, id).map((phrase) => ({ phrase, value: id })));
  // Every card's own name is a word of the pack, even of kinds that are no game terms.
  const named = new Set(terms.map((t) => t.value));
  for (const e of d.entities.values()) {
    if (Object.keys(e.text).length && !named.has(e.id)) terms.push(...termReads(lang, d, e.id).map((phrase) => ({ phrase, value: e.id })));
  }
  const units = [...lang.units].flatMap(([id, w]) => w.read.map((phrase) => ({ phrase, value: id })));
  const dir = (side: 'before' | 'after') => [...lang.directions].flatMap(([d, w]) => w[side].map((phrase) => ({ phrase, value: d })));
  const freeConditions = new Set([...g.conditions].filter(([, c]) => c.free).map(([id]) => id));
  return {
    lang,
    terms,
    units,
    numbers: lang.numbers,
    times: lang.times,
    each: lang.each,
    free: lang.free.map((phrase) => ({ phrase, value: true as const })),
    instead: lang.instead.map((phrase) => ({ phrase, value: true as const })),
    if: lang.if.map((phrase) => ({ phrase, value: true as const })),
    one: lang.one.map((phrase) => ({ phrase, value: true as const })),
    timing: [...lang.timing].flatMap(([id, w]) => w.read.map((phrase) => ({ phrase, value: id }))),
    durations: [...lang.durations].flatMap(([id, w]) => w.read.map((phrase) => ({ phrase, value: id }))),
    modes: [...lang.modes].flatMap(([mode, ps]) => ps.map((phrase) => ({ phrase, value: mode }))),
    everyone: [
      ...lang.everyone.map((phrase) => ({ phrase, value: { who: 'each' as const } })),
      ...lang.opponents.map((phrase) => ({ phrase, value: { who: 'opponent' as const } })),
      ...lang.you.map((phrase) => ({ phrase, value: { who: 'you' as const } })),
      ...[...lang.players].flatMap(([name, ps]) => ps.map((phrase) => ({ phrase, value: { who: 'named' as const, name } }))),
    ],
    imperatives: lang.imperatives.map((phrase) => ({ phrase, value: true as const })),
    whose: [...lang.whose.you.map((phrase) => ({ phrase, value: 'you' as const })), ...lang.whose.opponent.map((phrase) => ({ phrase, value: 'opponent' as const }))],
    choose: lang.choose.map((phrase) => ({ phrase, value: true as const })),
    turns: (['you', 'opponent', 'each', 'any'] as const).flatMap((value) => lang.turns[value].map((phrase) => ({ phrase, value }))),
    another: lang.another.map((phrase) => ({ phrase, value: true as const })),
    relations: [...lang.relations].map(([relation, ps]) => ps.map((phrase) => ({ phrase, value: relation }))),
    forEach: [...lang.forEach].flatMap(([kind, ps]) => ps.map((phrase) => ({ phrase, value: kind }))),
    chosen: [...lang.chosen].flatMap(([by, ps]) => ps.map((phrase) => ({ phrase, value: by }))),
    conditions: [...lang.conditions].flatMap(([id, w]) => w.read.map((phrase) => ({ phrase, value: id }))),
    effects: [...lang.effects].flatMap(([id, w]) => w.read.map((phrase) => ({ phrase, value: id }))),
    transfers: [...lang.transfers.in.map((phrase) => ({ phrase, value: 'in' as const })), ...lang.transfers.out.map((phrase) => ({ phrase, value: 'out' as const }))],
    before: dir('before'),
    after: dir('after'),
    words: lang.words.map((phrase) => ({ phrase, value: true as const })),
    zero: lang.zero.map((phrase) => ({ phrase, value: true as const })),
    singular: new Map(
      [...lang.units].map(([id, w]) => [
        id,
        new Set(
          Object.values(w.say ?? {})
            .map((f) => (typeof f === 'string' ? undefined : f.one))
            .filter((x): x is string => !!x)
            .map((x) => tokenize(x, lang.lang).map((t) => t.lower).join(' ')),
        ),
      ]),
    ),
    freeConditions,
  };
}

export function readText(text: string, r: Reader, self: string): TextReading {
  const lang = r.lang.lang;
  const tokens = tokenize(text, lang);
  const known = new Array<boolean>(tokens.length).fill(false);
  const cover = (from: number, to: number) => {
    for (let i = from; i < to; i++) known[i] = true;
  };
  const claims: TextClaim[] = [];
  const sites: TextReading['sites'] = [];
  const span = (from: number, to: number) => ({ start: tokens[from].start, end: tokens[to - 1].end, words: text.slice(tokens[from].start, tokens[to - 1].end) });

  // Numbers: digits and number words, longest first.
  const numbers = new Map<number, NumberAt>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.punct) continue;
    if (/^\d+$/.test(t.text)) {
      numbers.set(i, { value: Number(t.text), to: i + 1 });
      continue;
    }
    let best: NumberAt | undefined;
    for (const n of r.numbers) {
      const m = matchAt(n.phrase, tokens, i);
      if (m && (!best || m.to > best.to)) best = { value: n.value, to: m.to };
    }
    // "One of the spaces": a word for one that opens a longer `one` phrase is no count, but "a".
    if (best && !r.one.some((o) => (matchAt(o.phrase, tokens, i)?.to ?? 0) > best.to)) numbers.set(i, best);
  }
  // "except …" up to the closing parenthesis or the end of the sentence: not claims about the card.
  const excepted = new Array<boolean>(tokens.length).fill(false);
  for (let i = 0; i < tokens.length; i++) {
    for (const p of r.lang.except) {
      const m = matchAt(p, tokens, i);
      if (!m) continue;
      cover(m.from, m.to);
      for (let j = m.to; j < tokens.length && !(tokens[j].punct && ').;'.includes(tokens[j].text)); j++) excepted[j] = true;
    }
  }

  // Limits and counts of times: "twice per turn", "3 razy na turę", "once".
  const consumed = new Set<number>();
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i].punct || consumed.has(i)) continue;
    let times: { value: number; to: number; numberAt?: number } | undefined;
    for (const t of r.times) {
      const m = matchAt(t.phrase, tokens, i);
      if (m && (!times || m.to > times.to)) times = { value: t.value, to: m.to };
    }
    const n = numbers.get(i);
    if (!times && n && n.to < tokens.length && r.lang.timesWords.some((w) => matchAt(w, tokens, n.to))) {
      const w = r.lang.timesWords.map((p) => matchAt(p, tokens, n.to)).find(Boolean)!;
      times = { value: n.value, to: w.to, numberAt: i };
    }
    if (!times) continue;
    let per: { value: 'turn' | 'game'; to: number } | undefined;
    for (const p of r.lang.per) {
      const m = times.to < tokens.length ? matchAt(p.phrase, tokens, times.to) : undefined;
      if (m && (!per || m.to > per.to)) per = { value: p.value, to: m.to };
    }
    // "Once it is revealed": a word for times opening a sentence, with no "per turn", is no count.
    if (!per && times.numberAt === undefined && tokens[i].sentenceStart) {
      cover(i, times.to);
      continue;
    }
    for (let j = i; j < times.to; j++) consumed.add(j);
    cover(i, times.to);
    sites.push({ ...span(i, times.to), k: 'number', value: times.value });
    if (per) {
      cover(times.to, per.to);
      claims.push({ body: { k: 'limit', times: times.value, per: per.value }, ...span(i, per.to) });
    } else claims.push({ body: { k: 'number', value: times.value }, ...span(i, times.to) });
  }

  // Game terms, the card's own name among them.
  const termAt = new Map<number, { from: number; to: number; value: string }>();
  for (const m of findAll(tokens, r.terms)) {
    termAt.set(m.from, m);
    cover(m.from, m.to);
    if (m.value === self) continue;
    sites.push({ ...span(m.from, m.to), k: 'term', value: m.value });
    claims.push({ body: { k: 'term', term: m.value }, ...span(m.from, m.to), negated: excepted[m.from] || undefined });
  }

  // Units, each to the number just before it; a unit with no number may be a weak "a …" or "an extra …".
  const unitMatches = findAll(tokens, r.units);
  const unitAt = new Map(unitMatches.map((u) => [u.from, u]));
  for (const u of unitMatches) cover(u.from, u.to);
  const usedUnits = new Set<number>();
  const transfers = findAll(tokens, r.transfers);
  for (const t of transfers) cover(t.from, t.to);
  const befores = findAll(tokens, r.before);
  const afters = findAll(tokens, r.after);
  for (const m of [...befores, ...afters]) cover(m.from, m.to);
  const clauseBetween = (a: number, b: number) => {
    for (let k = a; k < b; k++) if (tokens[k].punct && tokens[k].text !== '-' && tokens[k].text !== '+') return false;
    return true;
  };
  const insteads = findAll(tokens, r.instead);
  for (const m of insteads) cover(m.from, m.to);
  const ifs = findAll(tokens, r.if);
  for (const m of ifs) cover(m.from, m.to);
  // "Not" inside a relation's words ("not next to a water cell") turns the relation round; it says no count of zero.
  const relationWords = r.relations.flatMap((ps) => findAll(tokens, ps));
  const zeros = findAll(tokens, r.zero).filter((z) => !relationWords.some((m) => m.from <= z.from && z.to <= m.to && m.to - m.from > z.to - z.from));
  for (const z of zeros) cover(z.from, z.to);
  let lastUnit: string | undefined;
  for (const [i, n] of [...numbers].sort((a, b) => a[0] - b[0])) {
    if (tokens[i].sentenceStart) lastUnit = undefined;
    if (consumed.has(i)) continue;
    cover(i, n.to);
    sites.push({ ...span(i, n.to), k: 'number', value: n.value });
    let unit: { from: number; to: number; value: string } | undefined;
    for (let j = n.to, words = 0; j < tokens.length && words <= GAP - 1; j++) {
      if (tokens[j].punct || numbers.has(j)) break;
      const u = unitAt.get(j);
      if (u) {
        unit = u;
        break;
      }
      words++;
    }
    // "6 duds": a number right before a game term that is no unit counts that term.
    const termAfter = unit ? undefined : termAt.get(n.to);
    if (termAfter) unit = termAfter;
    if (unit) usedUnits.add(unit.from);
    const end = unit ? unit.to : n.to;
    // The nearest direction word before the number, in the same clause; or one just after the unit.
    let dir: Direction | undefined;
    let dirDistance = Infinity;
    for (const b of befores) {
      if (b.to <= i && i - b.to <= GAP && clauseBetween(b.to, i) && i - b.to < dirDistance) (dir = b.value), (dirDistance = i - b.to);
    }
    // "1 more gem", "2 stones fewer": after the number, before or just after its unit.
    for (const a of afters) if ((a.from >= end && a.from - end <= 1 && clauseBetween(end, a.from)) || (unit && a.from >= n.to && a.to <= unit.from)) dir = a.value;
    let transfer: 'in' | 'out' | undefined;
    for (const t of transfers) {
      if ((t.to <= i && i - t.to <= GAP && clauseBetween(t.to, i)) || (t.from >= end && t.from - end <= GAP && clauseBetween(end, t.from))) transfer = t.value;
    }
    const cond = ifs.some((m) => m.to <= i && clauseBetween(m.to, i)) || undefined;
    // "instead of 1", "you do not have to pay 1 token": the normal value the rule replaces (not "until … does not pay 2").
    const normal = insteads.some((m) => m.to === i) || (!cond && zeros.some((z) => z.to <= i && i - z.to <= ZERO_REACH && clauseBetween(z.to, i))) || undefined;
    claims.push({ body: { k: 'number', value: n.value, unit: unit?.value ?? (normal ? lastUnit : undefined), dir: transfer || normal ? undefined : dir, transfer, normal, cond }, ...span(i, end) });
    if (unit) lastUnit = unit.value;
  }
  // A unit with no number: none after "do not"/"nie" in its clause; one after "a"/"an", or in a singular form of the unit.
  const noNumberBetween = (a: number, b: number) => ![...numbers.keys()].some((k) => k >= a && k < b);
  for (const u of unitMatches) {
    if (usedUnits.has(u.from)) continue;
    const zero = zeros.some((z) => z.to <= u.from && u.from - z.to <= ZERO_REACH && clauseBetween(z.to, u.from) && noNumberBetween(z.to, u.from));
    if (zero) {
      const cond = ifs.some((m) => m.to <= u.from && clauseBetween(m.to, u.from)) || undefined;
      claims.push({ body: { k: 'number', value: 0, unit: u.value, cond }, ...span(u.from, u.to), none: true });
      continue;
    }
    const marked = r.one.some((o) => {
      for (let j = Math.max(0, u.from - 3); j < u.from; j++) {
        const m = matchAt(o.phrase, tokens, j);
        if (m && m.to <= u.from && clauseBetween(m.to, u.from) && noNumberBetween(m.to, u.from)) return true;
      }
      return false;
    });
    const words = tokens.slice(u.from, u.to).map((t) => t.lower).join(' ');
    if (marked || r.singular.get(u.value)?.has(words)) claims.push({ body: { k: 'number', value: 1, unit: u.value }, ...span(u.from, u.to), implicit: true });
  }
  // "for free": nothing to pay, whatever comes after it.
  for (const m of findAll(tokens, r.free)) {
    cover(m.from, m.to);
    sites.push({ ...span(m.from, m.to), k: 'number', value: 0 });
    claims.push({ body: { k: 'number', value: 0 }, ...span(m.from, m.to) });
  }
  // "as many … as", "tyle, ile": one for each.
  for (const m of findAll(tokens, r.each)) {
    cover(m.from, m.to);
    claims.push({ body: { k: 'number', value: m.value }, ...span(m.from, m.to), implicit: true, each: true });
  }

  const turns = findAll(tokens, r.turns);
  const chooses = findAll(tokens, r.choose);
  const sentenceOf = (i: number) => tokens.slice(0, i + 1).filter((t, j) => t.sentenceStart && j > 0).length;
  for (const m of findAll(tokens, r.timing)) {
    cover(m.from, m.to);
    const said = turns.find((t) => m.from <= t.from && t.from < m.to)?.value;
    const turn = said === 'any' ? (chooses.some((c) => sentenceOf(c.from) === sentenceOf(m.from)) ? undefined : 'each') : said;
    claims.push({ body: { k: 'timing', timing: m.value, ...(turn ? { turn } : {}) }, ...span(m.from, m.to) });
  }
  // How long it lasts, whether the player chooses, and whether it is every player's: read wherever they are said.
  for (const m of findAll(tokens, r.durations)) {
    cover(m.from, m.to);
    claims.push({ body: { k: 'duration', until: m.value }, ...span(m.from, m.to) });
  }
  for (const m of findAll(tokens, r.modes)) {
    cover(m.from, m.to);
    claims.push({ body: { k: 'mode', mode: m.value }, ...span(m.from, m.to) });
  }
  // "Your region", "an opponent's region": whose thing it is, read before who does something.
  const whose = findAll(tokens, r.whose);
  for (const m of whose) {
    cover(m.from, m.to);
    claims.push({ body: { k: 'whose', whose: m.value }, ...span(m.from, m.to), negated: excepted[m.from] || undefined });
  }
  for (const m of findAll(tokens, r.everyone)) {
    // "From an opponent", "pay an opponent", "pays you": a payment between players, read as one.
    if (m.value.who !== 'each' && transfers.some((t) => t.from <= m.from && m.to <= t.to)) continue;
    // "Each player's turn" says whose turn a moment is in, not who does something.
    if ([...whose, ...turns].some((w) => w.from < m.to && m.from < w.to)) continue;
    cover(m.from, m.to);
    claims.push({ body: { k: 'who', ...m.value }, ...span(m.from, m.to) });
  }
  // "Choose between human form … or wolf form": the terms after the word, to the end of the sentence, are what it offers.
  for (const m of findAll(tokens, r.choose)) {
    cover(m.from, m.to);
    const terms: string[] = [];
    for (let j = m.to; j < tokens.length && !(tokens[j].sentenceStart && j > m.to); j++) {
      const t = termAt.get(j);
      if (t && t.value !== self && !excepted[j] && !terms.includes(t.value)) terms.push(t.value);
    }
    claims.push({ body: { k: 'options', terms }, ...span(m.from, m.to) });
  }
  // "The side with the most pieces around it": the one a rule picks, named by the most or the fewest.
  for (const m of findAll(tokens, r.chosen)) {
    cover(m.from, m.to);
    claims.push({ body: { k: 'chosen', by: m.value }, ...span(m.from, m.to) });
  }
  // "Another piece": says a rule's `x != self`, and is never itself a finding ("move 1 token to another square").
  for (const m of findAll(tokens, r.another)) claims.push({ body: { k: 'another', kind: '' }, ...span(m.from, m.to), unchecked: true });
  // "A connected space": says a rule's `require adjacent(…, x)`, and is never itself a finding ("move them to a connected space").
  // Words two relations list ("any connected space": one of them, or every one) say both; words inside a
  // longer phrase of another relation ("each connected space") say only that one.
  // Words of an effect say the effect: "as if it were connected" treats a cell so, it asks no relation of it.
  const effects = findAll(tokens, r.effects);
  const related = r.relations.flatMap((ps) => findAll(tokens, ps));
  for (const m of related) {
    if (related.some((o) => o.value !== m.value && o.from <= m.from && m.to <= o.to && o.to - o.from > m.to - m.from)) continue;
    if (effects.some((o) => o.from <= m.from && m.to <= o.to)) continue;
    claims.push({ body: { k: 'relation', relation: m.value, kind: '' }, ...span(m.from, m.to), unchecked: true });
  }
  // "For each board": what a count is per, by the kind counted.
  for (const m of findAll(tokens, r.forEach)) claims.push({ body: { k: 'per', kind: m.value }, ...span(m.from, m.to) });
  // What the text says happens ("counts as empty"): paired with the terms around it, never reported on its own.
  for (const m of effects) {
    cover(m.from, m.to);
    claims.push({ body: { k: 'effect', effect: m.value }, ...span(m.from, m.to), unchecked: true });
  }
  for (const m of findAll(tokens, r.conditions)) {
    cover(m.from, m.to);
    claims.push({ body: { k: 'condition', cond: m.value }, ...span(m.from, m.to), unchecked: r.freeConditions.has(m.value) || undefined });
  }
  for (const m of findAll(tokens, [...r.words, ...r.one, ...r.lang.per.map((p) => ({ phrase: p.phrase, value: true as const })), ...r.lang.timesWords.map((phrase) => ({ phrase, value: true as const }))])) cover(m.from, m.to);

  let sentence = 0;
  let part = 0;
  const joins = new Set(findAll(tokens, r.lang.joins.map((phrase) => ({ phrase, value: true as const }))).flatMap((m) => Array.from({ length: m.to - m.from }, (_, k) => m.from + k)));
  const placeOf = new Map<number, { sentence: number; part: number }>();
  tokens.forEach((t, i) => {
    if (t.sentenceStart && i > 0) sentence++;
    if (t.sentenceStart || (t.punct && t.text !== '-' && t.text !== '+') || joins.has(i)) part++;
    placeOf.set(t.start, { sentence, part });
  });
  for (const c of claims) Object.assign(c, placeOf.get(c.start));
  // "At the end of your turn, collect 2 coins": a verb opening a clause that names no one says it to the card's own player.
  for (const m of findAll(tokens, r.imperatives)) {
    const opens = m.from === 0 || tokens[m.from].sentenceStart || tokens[m.from - 1].punct || joins.has(m.from - 1);
    const at = placeOf.get(tokens[m.from].start)!;
    if (!opens || claims.some((c) => c.body.k === 'who' && c.sentence === at.sentence && c.part === at.part)) continue;
    claims.push({ body: { k: 'who', who: 'you' }, ...span(m.from, m.to), ...at });
  }

  const unknown: TextReading['unknown'] = [];
  tokens.forEach((t, i) => {
    if (known[i] || t.punct || t.sentenceStart || /^\d/.test(t.text)) return;
    const first = t.text[0];
    if (first !== first.toLocaleUpperCase(lang) || first === first.toLocaleLowerCase(lang)) return;
    unknown.push({ start: t.start, end: t.end, word: t.text });
  });
  return { tokens, claims, unknown, sites };
}
