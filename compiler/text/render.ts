/**
 * Canonical card text from a card's rules, in one language: each rule becomes a sentence built
 * from its claims with the templates of the pack's language file (`templates:`), the unit and term
 * forms of that file, and the language's plural categories (`Intl.PluralRules`: Polish has
 * one, few and many forms). A template that is missing is reported once and replaced by a
 * plain rendering, so a draft is always produced.
 */
import type * as A from '../../dsl/ast.ts';
import type { Declared, EntitySym } from '../declare.ts';
import type { RuleClaim, TurnOf } from './claim.ts';
import { termClass, type Forms, type Glossary, type Language } from './language.ts';
import { walkExpr, walkStmts } from '../../dsl/walk.ts';
import { findAll, tokenize } from './phrase.ts';

export interface Rendering {
  /** The whole card. */
  text: string;
  /** One sentence per rule that says something. */
  sentences: Map<A.Decl, string>;
  /** Templates the language file lacks: key (`templates.modify.conquestCost.fewer`) and the rule that needed it. */
  missing: Array<{ key: string; decl: A.Decl; span: A.Span }>;
}

/** The form of a word for a number: by case, then by plural category (`one`, `few`, `many`, `other`). */
export function formOf(forms: Forms | undefined, n: number | string | undefined, grammaticalCase: string, lang: Language): string | undefined {
  if (!forms) return undefined;
  const byCase = forms[grammaticalCase] ?? forms.nom ?? Object.values(forms)[0];
  if (byCase === undefined) return undefined;
  if (typeof byCase === 'string') return byCase;
  // A number picks its plural category; a template may name one (`{where:acc:few}`: "regiony Gór").
  const cat = n === undefined ? 'one' : typeof n === 'string' ? n : lang.plural.select(n);
  return byCase[cat] ?? byCase.other ?? byCase.many ?? byCase.one ?? Object.values(byCase)[0];
}

/** A number with its unit, in a grammatical case and the plural form the number takes. */
export function formatAmount(n: number, unit: string | undefined, lang: Language, grammaticalCase = 'nom'): string {
  const word = unitWord(n, unit, lang, grammaticalCase);
  return word ? `${n} ${word}` : String(n);
}

/** The word for a unit after a number: "1 more block" puts a word between them (`{count} more {unit}`). */
function unitWord(n: number, unit: string | undefined, lang: Language, grammaticalCase: string): string | undefined {
  // A number of game terms ("6 duds") takes the term's `count` forms.
  const term = unit && !lang.units.has(unit) ? lang.terms.get(unit)?.say : undefined;
  return unit ? ((term && formOf(term, n, term.count ? 'count' : 'bare', lang)) ?? formOf(lang.units.get(unit)?.say, n, grammaticalCase, lang) ?? unit) : undefined;
}

export class Renderer {
  private readonly missing: Rendering['missing'] = [];
  /** Whether the sentence being rendered opens with a moment or a limit, for templates with `timed` and `plain` forms. */
  private opened = false;
  /** Whether the last action rendered said the rule it switches on inside its frame. */
  private framed = false;
  /** Rendering what a payment buys: a template's `purpose` form, where the language has one ("zapłać 3 Korry, aby zadać …"). */
  private purpose = false;

  constructor(
    private readonly lang: Language,
    private readonly g: Glossary,
    private readonly d: Declared,
    /** The kind of entity a rule is about (its pipeline's or action's first parameter), for "a …" when the rule names no term. */
    private readonly subjectOf: (decl: A.Decl) => string | undefined = () => undefined,
  ) {}

  /** A template by its path under `templates:`, e.g. `modify.conquestCost.fewer`. */
  private template(path: string, decl: A.Decl, span: A.Span, report = true): string | undefined {
    let node: unknown = this.lang.templates;
    for (const part of path.split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
    // A clause after an opening moment may take another word order ("Am Ende deines Zuges zahlt dir ein Gegner …");
    // one a payment buys, the language's form for a purpose (an infinitive), else its plain one.
    const o = node && typeof node === 'object' ? (node as Record<string, unknown>) : undefined;
    const form = o && ((this.purpose ? o.purpose : undefined) ?? o[this.opened ? 'timed' : 'plain'] ?? (o.purpose !== undefined ? o.plain : undefined));
    if (typeof form === 'string') return form;
    if (typeof node === 'string') return node;
    if (report && !this.missing.some((m) => m.key === `templates.${path}`)) this.missing.push({ key: `templates.${path}`, decl, span });
    return undefined;
  }

  /** A template that is one text, or one by grammatical case (`{ nom: inny bohater, acc: innego bohatera }`): the form for `grammaticalCase`, else its nominative. */
  private cased(path: string, grammaticalCase: string, decl: A.Decl, span: A.Span): string | undefined {
    return this.template(`${path}.${grammaticalCase}`, decl, span, false) ?? this.template(`${path}.nom`, decl, span, false) ?? this.template(path, decl, span);
  }

  /** `{name}`, `{name:case}` or `{name:case:category}` filled from the slots; `{agree:word}` is a word of the language's `plurals`. */
  private fill(t: string, slots: Record<string, (grammaticalCase: string, category?: string) => string>): string {
    return t.replace(/\{(\w+)(?::([^:{}]+))?(?::(\w+))?\}/gu, (all, name: string, c?: string, cat?: string) => (slots[name] ? slots[name](c ?? 'nom', cat) : all));
  }

  /** A word that agrees with a number ("5 obrażeń rozdzielonych", "3 obrażenia rozdzielone"), by the forms `plurals` gives it. */
  private agree(word: string, n: number): string {
    const forms = this.lang.plurals.get(word);
    if (!forms) return word;
    const cat = this.lang.plural.select(n);
    return forms[cat] ?? forms.other ?? forms.many ?? word;
  }

  term(id: string, grammaticalCase: string, category?: string): string {
    const say = formOf(this.lang.terms.get(id)?.say, category ?? 1, grammaticalCase, this.lang);
    if (say) return say;
    const ent = this.d.entities.get(id);
    return ent?.name[this.lang.lang] ?? this.lang.terms.get(id)?.read[0]?.source ?? id;
  }

  private terms(ids: string[], grammaticalCase: string, decl: A.Decl, span: A.Span, category?: string): string {
    const and = this.template('list', decl, span, false) ?? this.template('and', decl, span, false) ?? ' & ';
    return this.series(ids.map((t) => this.term(t, grammaticalCase, category)), and, decl, span);
  }

  /**
   * Terms a rule is about: members of one enum, said of one thing, are alternatives (a square has one
   * colour: "each red or blue square"); of many things ("red squares and blue squares") or of other
   * classes, a list.
   */
  private someOf(ids: string[], grammaticalCase: string, decl: A.Decl, span: A.Span, category?: string): string {
    const classes = new Set(ids.map((t) => JSON.stringify(termClass(this.g, this.d, t) ?? null)));
    const one = category === undefined || category === 'one';
    return one && classes.size === 1 && termClass(this.g, this.d, ids[0])?.k === 'enum' ? this.anyOf(ids, grammaticalCase, decl, span, category) : this.terms(ids, grammaticalCase, decl, span, category);
  }

  /** Terms the rules test one of ("a red square or a blue square"): joined by the language's `or`. */
  private anyOf(ids: string[], grammaticalCase: string, decl: A.Decl, span: A.Span, category?: string): string {
    const or = this.template('or', decl, span, false) ?? this.template('list', decl, span, false) ?? ' / ';
    // Members of one enum that name the same kind of thing share its noun, as a printed card does
    // ("a red or blue square", "pole czerwone lub niebieskie"): `any.<enum>.<case>` around each one's `mod` form.
    const cls = ids.length > 1 ? termClass(this.g, this.d, ids[0]) : undefined;
    const same = cls?.k === 'enum' && ids.every((t) => JSON.stringify(termClass(this.g, this.d, t)) === JSON.stringify(cls));
    const shared = same && (category === undefined || category === 'one') ? this.template(`any.${(cls as { name: string }).name}.${grammaticalCase}`, decl, span, false) : undefined;
    const mods = ids.map((t) => {
      const say = this.lang.terms.get(t)?.say;
      return say?.mod !== undefined ? formOf(say, 1, 'mod', this.lang) : undefined;
    });
    // A language that writes the shared noun into each word marks the parts before the last (`cut`: German "Hand- oder Fußball" for "handball or football").
    const cut = shared ? (this.template(`any.${(cls as { name: string }).name}.cut`, decl, span, false) ?? '') : '';
    if (shared && mods.every((m) => m !== undefined)) return shared.replace('{terms}', this.series(mods.map((m, i) => (i < mods.length - 1 ? `${m}${cut}` : m!)), or, decl, span));
    return this.series(ids.map((t) => this.term(t, grammaticalCase, category)), or, decl, span);
  }

  /** "A, B and C": the last two joined by `last`, the others by the language's `comma` (", "), never "A and B and C". */
  private series(items: string[], last: string, decl: A.Decl, span: A.Span): string {
    if (items.length < 3) return items.join(last);
    const comma = this.template('comma', decl, span, false) ?? ', ';
    return `${items.slice(0, -1).join(comma)}${last}${items[items.length - 1]}`;
  }

  private kindWord(kind: string | undefined, grammaticalCase: string, category?: string): string {
    const unit = kind ? this.g.units.get(kind)?.unit : undefined;
    return (unit && formOf(this.lang.units.get(unit)?.say, category ?? 1, grammaticalCase, this.lang)) ?? kind ?? '';
  }

  /** A number of times; `form` another wording a template asks for where the language has one (`{times:adv}`: "dwukrotnie"). */
  times(n: number, decl: A.Decl, span: A.Span, form?: string): string {
    const other = form && form !== 'nom' ? this.template(`times.${form}.${n}`, decl, span, false) : undefined;
    const t = other ?? this.template(`times.${n}`, decl, span, false) ?? this.template('times.other', decl, span);
    return t ? t.replace('{n}', String(n)) : `${n}×`;
  }

  /** One claim on its own, for a finding. `siblings`: the card's claims, for what the rule is about. */
  claim(c: RuleClaim, siblings: RuleClaim[] = []): string {
    const b = c.body;
    switch (b.k) {
      case 'number': {
        const where = c.decl.kind === 'modify' ? [...new Set(siblings.filter((s) => s.decl === c.decl && s.subject && s.body.k === 'term').map((s) => (s.body as { term: string }).term))] : undefined;
        return this.clause(c, where) ?? formatAmount(b.value, b.unit, this.lang);
      }
      case 'term':
        return this.term(b.term, 'nom');
      case 'timing':
        return this.lang.timing.get(b.timing)?.text ?? b.timing;
      case 'condition':
        return this.lang.conditions.get(b.cond)?.text ?? b.cond;
      case 'effect':
        // As a draft says it where the language has its template ("put this stone on …"), else by its first words.
        return (this.template(`effect.${b.effect}.do`, c.decl, c.span, false) !== undefined ? this.effect(c) : undefined) ?? this.lang.effects.get(b.effect)?.read[0]?.source ?? b.effect;
      case 'limit': {
        const t = this.template(`limit.${b.per}`, c.decl, c.span);
        return t ? t.replace('{times}', this.times(b.times, c.decl, c.span)) : `${b.times}× / ${b.per}`;
      }
      case 'mode':
        return this.lang.modes.get(b.mode)?.[0]?.source ?? b.mode;
      case 'duration':
        return this.lang.durations.get(b.until)?.text ?? b.until;
      case 'who':
        return (b.who === 'each' ? this.lang.everyone : b.who === 'you' ? this.lang.you : b.who === 'opponent' ? this.lang.opponents : this.lang.players.get(b.name ?? ''))?.[0]?.source ?? b.name ?? b.who;
      case 'whose':
        return this.lang.whose[b.whose][0]?.source ?? b.whose;
      case 'options':
        return this.terms(b.terms, 'nom', c.decl, c.span);
      case 'another':
        return this.cased(`another.${b.kind}`, 'nom', c.decl, c.span) ?? b.kind;
      case 'relation':
        return (c.relation?.terms ? this.relation(c, 'nom') : this.cased(`relation.${b.relation}.${b.kind}`, 'nom', c.decl, c.span)) || b.relation;
      case 'per':
        return this.kindWord(b.kind, 'nom');
      case 'chosen':
        return (b.key && this.cased(`chosen.${b.key}.${b.by}`, 'nom', c.decl, c.span)) || this.lang.chosen.get(b.by as 'most')?.[0]?.source || b.by;
    }
  }

  /** Does a clause say the effect, by the language's words for it? */
  private says(clause: string, effect: string): boolean {
    const read = this.lang.effects.get(effect)?.read ?? [];
    return findAll(tokenize(clause, this.lang.lang), read.map((phrase) => ({ phrase, value: true }))).length > 0;
  }

  /** Does the clause name the term, by the language's words for it? */
  private names(clause: string, term: string): boolean {
    const read = this.lang.terms.get(term)?.read ?? [];
    return findAll(tokenize(clause, this.lang.lang), read.map((phrase) => ({ phrase, value: true }))).length > 0;
  }

  /** What a rule does that no number says, by the template `effect.<id>.do` ("move any piece to any space"). */
  private effect(c: RuleClaim): string {
    const id = (c.body as { effect: string }).effect;
    // Done only if the player says yes: "that player may then draw a card", where the language says so.
    const related = c.relation && this.template(`effect.${id}.related`, c.decl, c.span, false);
    if (related) return this.fill(related, { relation: (k) => this.relation(c, k) });
    return (c.optional && this.template(`effect.${id}.may`, c.decl, c.span, false)) || (this.template(`effect.${id}.do`, c.decl, c.span) ?? `(${id})`);
  }

  /**
   * Where the thing a rule acts on must be, by the template `relation.<relation>.<kind>` in the case
   * asked for ("a space connected to yours"); every such thing by `relation.<relation>.each.<kind>`
   * ("each connected space"), or `eachWithOwn.<kind>` with the card's own ("your space and each connected space").
   */
  private relation(c: RuleClaim, grammaticalCase: string): string {
    const r = c.relation;
    if (!r) return '';
    const group = r.withOwn ? (r.picked ? 'eachWithPicked.' : 'eachWithOwn.') : r.each ? 'each.' : '';
    const t = this.cased(`relation.${r.relation}.${group}${r.kind}`, grammaticalCase, c.decl, c.span) ?? '';
    // What the related things must be, in the case the template asks for ("cell next to {terms:indef}").
    const terms = r.terms;
    return terms?.length ? this.fill(t, { terms: (k, cat) => this.someOf(terms, k, c.decl, c.span, cat) }) : t;
  }

  /** The clause of a number the rules give, by the template of its pipeline, its direction or its kind. */
  private clause(c: RuleClaim, where?: string[]): string | undefined {
    const b = c.body;
    if (b.k !== 'number') return undefined;
    const decl = c.decl;
    const pipeline = decl.kind === 'modify' ? decl.name : undefined;
    // What a `for` over things gives a player, it gives once for each of them ("1 coin for each board").
    const perThing = !c.per?.length && !c.perKind && c.party && c.eachKind && c.eachKind !== 'player' ? c.eachKind : undefined;
    const perKind = c.perKind ?? perThing;
    const perEach = (c.how === 'per' || !!perThing) && (c.per?.length || perKind);
    // Added to or taken from a thing rather than a player: placed, removed.
    const thing = !c.party && !perEach && (b.dir === 'gain' || b.dir === 'lose') ? (b.dir === 'gain' ? 'placed' : 'removed') : undefined;
    const kind = c.rest ? `${c.rest}But` : b.transfer === 'in' ? 'transferIn' : b.transfer === 'out' ? 'transferOut' : thing ?? (perEach && b.dir ? `${b.dir}Per` : (b.dir ?? 'set'));
    const whereTerms = where ?? [];
    const slots = {
      // A count compared with has the unit of what it is compared with ("guarded by at least 2 pieces").
      amount: (k: string) => formatAmount(b.value, b.unit ?? (c.of ? this.g.units.get(c.of)?.unit : undefined), this.lang, k),
      // The number and its unit apart, for a language that puts a word between them ("{count} more {unit}").
      count: () => String(b.value),
      unit: (k: string) => unitWord(b.value, b.unit ?? (c.of ? this.g.units.get(c.of)?.unit : undefined), this.lang, k) ?? '',
      per: (k: string, cat?: string) => {
        // The other things of the same kind as one of the card's own ("other cell of the same colour as …"), by `relation.same.<field>.<kind>`.
        // Each thing with another in a relation to it that is so ("cell next to a red one"), by the relation's template with its `{terms}`.
        const what = c.relation?.terms ? this.relation(c, k) : c.per?.length ? this.someOf(c.per, k, decl, c.span, cat) : (c.relation && this.relation(c, k)) || this.kindWord(perKind, k, cat);
        // What the card counts in a field of its own: "each forest cell claimed this turn".
        const counted = c.perEvent ? this.lang.timing.get(c.perEvent)?.counted : undefined;
        const until = c.perUntil ? this.lang.durations.get(c.perUntil)?.text : undefined;
        return [what, counted, until].filter(Boolean).join(' ');
      },
      where: (k: string, cat?: string) => (whereTerms.length ? this.someOf(whereTerms, k, decl, c.span, cat) : this.kindWord(this.bindKind(decl), k, cat)),
      // Another player, by the language's word for the one the rules name ("the attacker"), else its word for a player.
      // The one a rule picks by the most or the fewest of something, by its template ("the side with the most pieces around it").
      who: (k: string) => (c.chosen && this.cased(`chosen.${c.chosen.key}.${c.chosen.by}`, k, decl, c.span)) || (c.player && this.lang.players.get(c.player)?.[0]?.source) || this.template('player', decl, c.span, false) || '',
      // A number of times ("twice"): a doubled bonus, a repeated step.
      times: (k: string) => this.times(b.value, decl, c.span, k),
      // Another thing than the card's own, in the case the template asks for ("move another piece up to 2 squares").
      another: (k: string) => (c.another ? (this.cased(`another.${c.another}`, k, decl, c.span) ?? '') : ''),
      relation: (k: string) => this.relation(c, k),
      // A word after the number that takes its form ("5 obrażeń rozdzielonych").
      agree: (word: string) => this.agree(word, b.value),
    };
    const specific = pipeline ? `modify.${pipeline}` : (c.via ?? (c.of ? `compare.${c.of}` : c.field ? `field.${c.field}` : undefined));
    // A value, a difference or a bound of a pipeline, or of a compared count of no known unit, is said
    // only by its own template: the direction's alone ("2.", "1 more.", "up to 4.") names no verb and no thing.
    const relative = kind === 'set' || kind === 'more' || kind === 'fewer' || kind === 'atLeast' || kind === 'atMost';
    const own = relative && (!!pipeline || (!c.via && !!c.of && !b.unit));
    const t =
      (specific && b.value === 0 && this.template(`${specific}.none`, decl, c.span, false)) ||
      // Done to each of the things a `for` walks: "each piece gains 2 points".
      (specific && c.eachKind && this.template(`${specific}.${kind}Each`, decl, c.span, false)) ||
      // Done where a relation to the card's own says ("remove 2 pieces from a space next to yours").
      (specific && c.relation && this.template(`${specific}.${kind}Related`, decl, c.span, false)) ||
      // Done to another thing than the card's own, where the language words it apart from the card's own doing ("przesuń innego bohatera" / "przenieś się").
      (specific && c.another && this.template(`${specific}.${kind}Another`, decl, c.span, false)) ||
      (specific && this.template(`${specific}.${kind}`, decl, c.span, own)) ||
      // What a language words by the kind counted (its gender: "za każdą planszę", "für jeden Spielplan").
      // …and for each one in a relation ("for each grid on which you hold at least 1 cell").
      (perEach && !c.per?.length && perKind && c.relation && this.template(`per.${perKind}.${kind}Related`, decl, c.span, false)) ||
      (perEach && !c.per?.length && perKind && this.template(`per.${perKind}.${kind}`, decl, c.span, false)) ||
      // Paid by each of the players a `for` walks: "each opponent pays you 1 coin".
      (!own && c.eachKind === 'player' && c.relation && this.template(`${kind}EachRelated`, decl, c.span, false)) ||
      (!own && c.eachKind === 'player' && this.template(`${kind}Each`, decl, c.span, false)) ||
      (!own && (c.party === 'opponent' || c.chosen) && this.template(`${kind}Other`, decl, c.span, false)) ||
      (own ? undefined : this.template(kind, decl, c.span));
    if (!t) {
      // A plain, language-neutral rendering: sign, amount, unit, per what, and the pipeline it changes.
      const sign = b.transfer === 'in' || b.dir === 'gain' || b.dir === 'more' ? '+' : b.transfer === 'out' || b.dir === 'lose' || b.dir === 'fewer' ? '−' : b.dir === 'atLeast' ? '≥ ' : b.dir === 'atMost' ? '≤ ' : '';
      const per = perEach ? ` / ${c.per?.length ? c.per.join(', ') : perKind}` : '';
      return `${sign}${formatAmount(b.value, b.unit, this.lang)}${per}${pipeline ? ` (${pipeline})` : ''}`;
    }
    return this.fill(t, slots);
  }

  /** Terms by the class the glossary makes them (an enum's name, an entity's kind, `field`, `die`), in the order given. */
  private aboutGroups(terms: string[]): Array<[string, string[]]> {
    const groups = new Map<string, string[]>();
    for (const t of terms) {
      const c = termClass(this.g, this.d, t);
      const key = !c ? 'other' : c.k === 'enum' ? c.name : c.k === 'entity' ? c.kind : c.k;
      groups.set(key, [...(groups.get(key) ?? []), t]);
    }
    return [...groups];
  }

  /**
   * Terms a rule is about, by the template `about.<class>.<form>` (else `about.<class>`, `about.other.<form>`,
   * `about.other`, a plain `about`): `with` qualifies a clause ("with a Bonus"), `alone` is the clause ("move it to a
   * red square or a blue square"), `put` is the clause when the rule also sets fields the glossary makes
   * terms (`{things}`: "place a Tower on a red square"); `not` qualifies a clause with terms the condition asks a thing
   * not to be (`x.side != red`: "unless it is red"), with no fallback but `about.other.not`.
   */
  private about(cls: string, form: 'with' | 'alone' | 'put' | 'not', terms: string[], things: string[], decl: A.Decl, span: A.Span, related = ''): string {
    // What a thing must not be has no other form to fall back on: said as `with`, it would say the opposite.
    const keys = form === 'not' ? [`about.${cls}.not`, 'about.other.not'] : [cls, 'other'].flatMap((k) => [...(form === 'put' ? [`about.${k}.put`] : []), `about.${k}.${form === 'put' ? 'alone' : form}`, `about.${k}`]);
    if (form !== 'not') keys.push('about');
    const t = keys.map((k) => this.template(k, decl, span, false)).find((x) => x !== undefined) ?? this.template(`about.${cls}.${form}`, decl, span);
    if (!t) return `(${this.anyOf(terms, 'nom', decl, span)})`;
    return this.fill(t, { terms: (k, cat) => this.anyOf(terms, k, decl, span, cat), things: (k, cat) => this.terms(things, k, decl, span, cat), relation: () => related });
  }

  /**
   * What a rule places, when nothing of the card a text must say says anything: "place 1 Fortress in
   * each region" (by `placedEach`, else `placed`).
   */
  private placements(decl: A.Decl, cs: RuleClaim[]): string[] {
    const out: string[] = [];
    const seen = new Set<string>();
    for (const c of cs) {
      const b = c.body;
      if (!c.placed || b.k !== 'number' || seen.has(b.unit ?? '')) continue;
      seen.add(b.unit ?? '');
      // "In each region": only of a kind the glossary counts, so the language has its word.
      const each = c.perKind && this.g.units.has(c.perKind);
      const t = (each && this.template('placedEach', decl, c.span)) || this.template('placed', decl, c.span);
      if (t) out.push(this.fill(t, { amount: (k) => formatAmount(b.value, b.unit, this.lang, k), per: (k, cat) => this.kindWord(c.perKind, k, cat) }));
    }
    return out;
  }

  /**
   * The fields an action that says nothing else switches on, that the glossary neither counts nor
   * names (`game.calm = true`), by the template `sets.<field>` ("skip the night's attack this turn").
   * The card's own fields (`self.used`) are its books, not what it does.
   */
  private switches(decl: A.Decl): string[] {
    const out: string[] = [];
    if (decl.kind !== 'action') return out;
    walkStmts(decl.body.stmts, (s) => {
      if (s.kind !== 'assign' || s.op !== '=' || s.value.kind !== 'bool' || !s.value.value) return;
      const field = s.target.field;
      const own = s.target.target.kind === 'name' && s.target.target.name === 'self';
      if (own || this.g.fields.has(field) || this.g.units.has(field)) return;
      const t = this.template(`sets.${field}`, decl, s.span);
      if (t && !out.includes(t)) out.push(t);
    });
    return out;
  }

  /**
   * A card with no rules of its own is what the game's rules read of it: the things its fields name
   * (the card of a space is that space: "The Nexus").
   */
  private named(entity: EntitySym): string {
    const ids = Object.values(entity.values).filter((v): v is string => typeof v === 'string' && this.d.entities.has(v) && v !== entity.id);
    const and = (this.lang.templates as Record<string, unknown>).list;
    return ids.map((id) => this.term(id, 'nom')).join(typeof and === 'string' ? and : ', ');
  }

  /** What a rule is about when its condition names no term: the kind of its first parameter. */
  private bindKind(decl: A.Decl): string | undefined {
    return this.subjectOf(decl);
  }

  /** The card: a sentence per rule, from the rule's claims; a card with no rules at all, by what it names. */
  card(claims: RuleClaim[], entity?: EntitySym): Rendering {
    if (!claims.length && entity) return { text: this.named(entity), sentences: new Map(), missing: [] };
    const byDecl = new Map<A.Decl, RuleClaim[]>();
    // Whether a rule asks, whose it is and how long it lasts go with what it does; alone they say nothing.
    for (const c of claims) byDecl.set(c.decl, [...(byDecl.get(c.decl) ?? []), c]);
    // A switch a modifier turns says something by its own template ("no one may rest there"), and an
    // action what it is ("Play this card at any time").
    const mute = [...byDecl].filter(([decl, cs]) => !(decl.kind === 'modify' && decl.value.kind === 'bool') && cs.every((c) => c.body.k === 'mode' || c.body.k === 'who' || (c.body.k === 'duration' && !c.required)));
    for (const [decl] of mute) if (decl.kind !== 'action') byDecl.delete(decl);
    const said = new Map(
      [...byDecl].map(([decl, cs]) => {
        this.opened = cs.some((c) => c.body.k === 'timing' || c.body.k === 'limit');
        return [decl, this.numberClauses(decl, cs)];
      }),
    );
    const all = [...said.values()].flat();
    const sentences = new Map<A.Decl, string>();
    const kept = new Map<A.Decl, Said[]>();
    for (const [decl, cs] of byDecl) {
      const own = said.get(decl)!;
      // A clause another clause of the card says in full ("1 damage" beside "deal 1 damage", the two
      // branches of one `if`) is said once; so is a rule with no moment of its own that only repeats another.
      const unsaid = !cs.some((c) => c.body.k === 'timing' || c.body.k === 'limit') && decl.kind === 'on';
      const k = own.filter((x) => !all.some((y) => y !== x && y.key === x.key && (y.decl === decl || unsaid) && (y.text !== x.text ? within(y.text, x.text) : y.decl !== decl)));
      if (own.length && !k.length && unsaid) continue;
      kept.set(decl, k);
    }
    // What an action switches on (a field of the card it sets, that a rule with no moment of its own reads) is what it does.
    const switchedBy = new Map<A.Decl, A.Decl>();
    for (const [decl] of kept) {
      if (decl.kind !== 'action') continue;
      const sets = selfFieldsSet(decl);
      const other = [...kept.keys()].find((o) => o !== decl && o.kind === 'modify' && !switchedBy.has(o) && selfFieldsRead(o).some((f) => sets.has(f)));
      if (other) switchedBy.set(other, decl);
    }
    const absorbed = new Set<A.Decl>();
    for (const [decl, k] of kept) {
      const partner = [...switchedBy].find(([, action]) => action === decl)?.[0];
      const within = partner && this.sentence(partner, byDecl.get(partner)!, kept.get(partner)!, false, true);
      this.framed = false;
      const s = this.sentence(decl, byDecl.get(decl)!, k, false, false, within);
      if (partner && this.framed) absorbed.add(partner);
      if (s) sentences.set(decl, s);
    }
    for (const decl of absorbed) sentences.delete(decl);
    // A card that says nothing else says what its rules place.
    if (!sentences.size) {
      for (const [decl, cs] of byDecl) {
        const s = this.sentence(decl, cs, [], true);
        if (s) sentences.set(decl, s);
      }
    }
    return { text: [...sentences.values()].join(' '), sentences, missing: [...this.missing] };
  }

  /** What a rule gives, takes or sets, a clause per number; a modifier's `= 0` ("you do not pay …") too, though no text must say it. */
  private numberClauses(decl: A.Decl, cs: RuleClaim[]): Said[] {
    const whenTerms = this.whenTerms(cs);
    // What a rule does that no number says ("move any piece to any space"), unless its count says it ("take up to 2 cards …").
    const numbers = cs.filter((c) => (c.body.k === 'number' && (c.required || (c.how === 'amount' && decl.kind === 'modify'))) || (c.body.k === 'effect' && c.required && !cs.some((o) => o.required && o.via === `effect.${(c.body as { effect: string }).effect}`)));
    const seen = new Set<string>();
    // "Up to 3" of an unknown count said beside "up to 3 stones" is one clause.
    const counted = (c: RuleClaim) => {
      const b = c.body as Extract<RuleClaim['body'], { k: 'number' }>;
      return b.anyUnit && numbers.some((o) => o !== c && o.body.k === 'number' && o.body.unit && o.body.value === b.value && o.body.dir === b.dir);
    };
    // `p.kept = drawn` beside `p.hand += drawn`: the same count kept in a second field is said once.
    const recorded = (c: RuleClaim) =>
      c.how === 'per' && c.body.k === 'number' && !c.body.dir && numbers.some((o) => o !== c && o.how === 'per' && o.body.k === 'number' && !!o.body.dir && o.body.value === (c.body as { value: number }).value && (o.per ?? []).join() === (c.per ?? []).join());
    const out: Said[] = [];
    // Only a sentence's first clause follows its opening moment ("Am Ende deines Zuges zahlst du …
    // und du erhältst …"); a choice or an action said first takes that place.
    if (decl.kind === 'action' || cs.some((c) => c.body.k === 'options' && c.body.terms.length > 1)) this.opened = false;
    // A floor said in the closing words of the price it holds up is no clause of its own.
    const lowered = (c: RuleClaim) => c.body.k === 'number' && c.body.dir === 'fewer';
    const floorSaid = (c: RuleClaim) => c.how === 'floor' && numbers.some((o) => lowered(o) && (o.body as { unit?: string }).unit === (c.body as { unit?: string }).unit);
    for (const c of numbers) {
      if (decl.kind !== 'modify' && floorSaid(c) && this.template('min', decl, c.span, false)) continue;
      const key = JSON.stringify(c.body) + (c.per ?? []).join() + (c.party ?? '') + (c.rest ?? '');
      if (seen.has(key + (c.via ?? '')) || counted(c) || recorded(c)) continue;
      seen.add(key + (c.via ?? ''));
      const where = decl.kind === 'modify' ? whenTerms : [];
      const head = c.body.k === 'effect' ? this.effect(c) : this.clause(c, where)!;
      // "(you must pay at least 1 token)": a cost the card lowers keeps its pipeline's minimum.
      const b = c.body as Extract<RuleClaim['body'], { k: 'number' }>;
      let tail: string | undefined;
      if (b.dir === 'fewer') {
        // A minimum of none goes unsaid: no count goes below it anyway. A modifier's is its pipeline's; an action's, the floor it puts under the price.
        const min = cs.find((m) => (decl.kind === 'modify' ? m.how === 'min' : m.how === 'floor' && m.required && (m.body as { unit?: string }).unit === b.unit) && (m.body as { value: number }).value !== 0);
        const t = min && this.template('min', decl, min.span);
        if (min && t) tail = this.fill(t, { amount: (k) => formatAmount((min.body as { value: number }).value, b.unit, this.lang, k) });
      }
      out.push({ c, decl, key, head, tail, text: tail ? `${head} ${tail}` : head });
      this.opened = false;
    }
    return out;
  }

  private whenTerms(cs: RuleClaim[]): string[] {
    return [...new Set(cs.filter((c) => c.body.k === 'term' && c.subject).map((c) => (c.body as { term: string }).term))];
  }

  /** The words of a moment, in the turn the rules say: yours by its `say`, another player's by its words for that turn. */
  private moment(b: { timing: string; turn?: TurnOf }): string | undefined {
    const entry = this.lang.timing.get(b.timing);
    return b.turn === 'each' || b.turn === 'opponent' ? entry?.turns?.get(b.turn) : entry?.text;
  }

  /**
   * A rule's sentence; `bare`: its body alone, to be said inside another's frame; `within`: what an
   * action's frame says when the action does nothing else (the body of the rule it switches on).
   */
  private sentence(decl: A.Decl, cs: RuleClaim[], said: Said[], places = false, bare = false, within?: string): string | undefined {
    this.opened = cs.some((c) => c.body.k === 'timing' || c.body.k === 'limit');
    const whenTerms = this.whenTerms(cs);
    const timing = cs.find((c) => c.body.k === 'timing');
    const limit = cs.find((c) => c.body.k === 'limit');
    const used = new Set<string>();
    const how: string[] = [];
    const clauses: string[] = [];
    const numbers = said.map((x) => x.c);
    // What a rule does when its case does not hold ("if there is none, draw another …") is not what it
    // is about, unless it is the other side of that case (the other face of a token).
    const classOf = (t: string) => JSON.stringify(termClass(this.g, this.d, t) ?? null);
    const terms = cs.filter((c): c is RuleClaim & { body: { k: 'term'; term: string } } => c.body.k === 'term' && c.required);
    const main = new Set(terms.filter((c) => !c.otherwise).map((c) => classOf(c.body.term)));
    const required = new Set(terms.filter((c) => !c.otherwise || !main.size || main.has(classOf(c.body.term))).map((c) => c.body.term));
    for (const x of said) for (const t of [...(x.c.per ?? []), ...(decl.kind === 'modify' ? whenTerms : [])]) used.add(t);
    // A moment whose words name what the rule is about says those terms itself ("When you play {terms},").
    const moment = timing ? this.moment(timing.body as { timing: string; turn?: TurnOf }) : undefined;
    const momentTerms = moment?.includes('{terms') ? [...required].filter((t) => !used.has(t)) : [];
    momentTerms.forEach((t) => used.add(t));
    // The terms the condition around a number requires are said with that number ("you receive 2
    // victory coins in human form and you pay 1 in Worgen form"), each once.
    const texts = new Map<Said, string>();
    // A term the rule asks a thing not to be is said only as such ("unless it is red"), never as the thing it is.
    const negated = (t: string) => terms.some((c) => c.body.term === t && c.not) && terms.every((c) => c.body.term !== t || c.not);
    // What a rule does that no number says follows what the rule is about and gives ("turn each card
    // over: a win or a loss, and a loss empties the square"), so it takes no terms of its own.
    // An effect said as part of an action's price ("as if it were adjacent") goes with that price.
    const template = decl.kind === 'action' ? this.template(`action.${decl.with?.name ?? decl.name}`, decl, decl.nameSpan, false) : undefined;
    // What an action asks less of its target than the game's own is said of the target, where the action's
    // template puts what the rule is about (`effect.<id>.about` into `{about}`: "claim a cell on any grid").
    const ofTarget = (x: Said) => (x.c.waives && x.c.body.k === 'effect' && template?.includes('{about}') ? this.template(`effect.${x.c.body.effect}.about`, decl, x.c.span) : undefined);
    const targets = said.filter((x) => ofTarget(x) !== undefined);
    said = said.filter((x) => !targets.includes(x));
    const effects = said.filter((x) => x.c.body.k === 'effect' && !(decl.kind === 'action' && x.c.via && !x.c.via.startsWith('effect.')));
    // What an action's own price is said with, where the action's template places it (`{about}`: "claim a cell with a tower for 2 … fewer").
    const priceAbout: string[] = targets.map((x) => ofTarget(x)!);
    for (const x of said) {
      const guards = x.c.body.k === 'effect' ? [] : [...new Set(x.c.guards ?? [])].filter((t) => required.has(t) && !used.has(t));
      guards.forEach((t) => used.add(t));
      const abouts = this.aboutGroups(guards).map(([cls, ts]) => this.about(cls, ts.every(negated) ? 'not' : 'with', ts, [], decl, x.c.span));
      const price = decl.kind === 'action' && x.c.via && !x.c.via.startsWith('effect.') && template?.includes('{about}');
      if (price) priceAbout.push(...abouts);
      texts.set(x, [x.head, ...(price ? [] : abouts), x.tail ?? ''].join(' '));
    }
    // An effect another clause of the rule already says ("move up to 4 spaces" of a move) is not said again.
    const sayer = (x: Said) => said.some((y) => y !== x && y.c.body.k !== 'effect' && this.says(y.head, (x.c.body as { effect: string }).effect));
    const saidEffects = effects.filter((x) => !sayer(x));
    said = said.filter((x) => !effects.includes(x));
    // What closes an action's own cost ("(you must pay at least 1 token)") closes its clause where the action's template puts the cost before its verb.
    const closing: string[] = [];
    for (const x of said) {
      // An action's own cost ("for 2 … fewer") goes with the action, not after "and".
      const own = decl.kind === 'action' && x.c.via && !x.c.via.startsWith('effect.');
      // An effect of the price a language says after the action's verb (`effect.<id>.after`: ", als wäre sie angrenzend").
      const after = own && x.c.body.k === 'effect' ? this.template(`effect.${x.c.body.effect}.after`, decl, x.c.span, false) : undefined;
      if (after) closing.push(after);
      else if (own && x.tail) {
        how.push(texts.get(x)!.replace(x.tail, ''));
        closing.push(x.tail);
      } else (own ? how : clauses).push(texts.get(x)!);
    }
    if (decl.kind === 'modify' && !numbers.length) {
      // A switch (`= true`) allows or denies; any other value the rules give ("the side you chose") is the pipeline's `value`.
      const key = decl.value.kind === 'bool' ? (decl.value.value ? 'allow' : 'deny') : 'value';
      const t = this.template(`modify.${decl.name}.${key}`, decl, decl.nameSpan);
      const where = whenTerms.length ? whenTerms : [...required].filter((x) => !used.has(x));
      for (const t2 of where) used.add(t2);
      const plain = `${decl.name} = ${decl.value.kind === 'bool' ? decl.value.value : '…'}${where.length ? ` (${where.join(', ')})` : ''}`;
      clauses.push(t ? this.fill(t, { where: (k, cat) => (where.length ? this.someOf(where, k, decl, decl.nameSpan, cat) : this.kindWord(this.bindKind(decl), k, cat)) }) : plain);
    }
    // An action's template either opens the sentence ("you may conquer a region") or frames it ("Action: {clauses}").
    let frame: string | undefined;
    const verb = decl.kind === 'action' && saidEffects.length ? this.template('may', decl, decl.nameSpan, false) : undefined;
    if (decl.kind === 'action') {
      const w = decl.with?.name ?? decl.name;
      const t = this.template(`action.${w}`, decl, decl.nameSpan) ?? w;
      if (t.includes('{clauses}')) {
        frame = t;
        // In a frame the amounts are what the action does, each a clause of its own, in the order the
        // rules do them ("pay 3 coins and place 1 stone").
        const inOrder = [...said].sort((a, b) => a.c.span.start - b.c.span.start);
        clauses.splice(0, clauses.length, ...inOrder.map((x) => texts.get(x)!));
        // What the player pays first buys the rest, where the language says so (`payment`: "pay 3 coins to draw 1 card").
        const first = inOrder[0]?.c.body;
        const buys = inOrder.length > 1 && first.k === 'number' && first.dir === 'lose' && !first.transfer && inOrder[0].c.party !== 'opponent' && this.template('payment', decl, decl.nameSpan, false);
        if (buys) {
          // What it buys, in the language's form for a purpose where it has one ("aby zadać 1 punkt Obrażeń").
          this.purpose = true;
          const rest = inOrder.slice(1).map((x) => texts.get(x)!.replace(x.head, x.c.body.k === 'effect' ? this.effect(x.c) : (this.clause(x.c, []) ?? x.head)));
          this.purpose = false;
          clauses.splice(0, clauses.length, this.fill(buys, { payment: () => clauses[0], clauses: () => this.series(rest, this.template('list', decl, decl.nameSpan, false) ?? ' & ', decl, decl.nameSpan) }));
        }
      } else if (verb) {
        // An action that does what the glossary names an effect is said by it ("you may swap two cards"),
        // not by the action its `with` offers it beside, which it need not do.
        const done = this.fill(verb, { effects: () => this.series(saidEffects.map((x) => texts.get(x)!), this.template('list', decl, decl.nameSpan, false) ?? ' & ', decl, decl.nameSpan) });
        clauses.unshift([done, ...how, ...closing].join(' '));
        // A term the effect's own words name ("take a gold stone") is said there, not again after it.
        for (const t of required) if (this.names(done, t)) used.add(t);
      } else {
        const at = priceAbout.length ? t.replace('{about}', ` ${priceAbout.join(' ')}{about}`) : t;
        clauses.unshift(at.includes('{how}') ? [at.replace('{how}', [...how, '{how}'].join(' ')), ...closing].join(' ') : [at, ...how, ...closing].join(' '));
      }
    }
    // What a choice offers ("choose human form or Worgen form"), after the action it is part of.
    const offered = cs.filter((c) => c.body.k === 'options').map((c) => (c.body as { terms: string[] }).terms);
    const options = offered.sort((a, b) => b.length - a.length)[0];
    if (options && options.length > 1) {
      options.forEach((t) => used.add(t));
      const t = this.template('choose', decl, decl.nameSpan);
      const said = t ? this.fill(t, { options: (k, cat) => this.anyOf(options, k, decl, decl.nameSpan, cat) }) : options.join(' / ');
      clauses.splice(decl.kind === 'action' && !frame ? 1 : 0, 0, said);
    }
    // The terms a rule is about that no clause says: by their class's template, the first opening the
    // sentence when nothing else does ("place a Tower on a red square"), the others qualifying
    // its last clause ("… for each square with a Bonus or a Tower").
    const about = [...required].filter((t) => !used.has(t));
    // Where the things a choice offers must stand, in the `{relation}` of the clause that is about them ("move it to a red cell on the same grid").
    // Asked only of a clause that is about them: an effect that says where ("lay a mine in each connected cell") needs none.
    const chosenWhere = () =>
      cs
        .filter((c) => c.body.k === 'relation' && c.ofChoice)
        .map((c) => this.cased(`relation.${(c.body as { relation: string }).relation}.${(c.body as { kind: string }).kind}`, 'nom', decl, c.span) ?? '')
        .join('');
    const things = [...new Set(cs.filter((c) => c.body.k === 'term' && !c.required && termClass(this.g, this.d, c.body.term)?.k === 'field').map((c) => (c.body as { term: string }).term))].filter((t) => !about.includes(t));
    for (const [cls, ts] of this.aboutGroups(about)) {
      // What the card's own player has opens the sentence's clauses ("if you play the red side, …").
      const own = ts.every((t) => cs.some((c) => c.body.k === 'term' && c.body.term === t && c.own));
      const opener = own && clauses.length ? this.template(`about.${cls}.own`, decl, cs[0].span, false) : undefined;
      if (opener) {
        clauses[0] = `${this.fill(opener, { terms: (k, cat) => this.anyOf(ts, k, decl, cs[0].span, cat) })} ${clauses[0]}`;
        continue;
      }
      const last = clauses[clauses.length - 1];
      // An action's template may say where what the rule is about goes (`{about}`: "claim a cell{about}", before
      // its price), else where what qualifies it goes (`{how}`: "eine Zelle {how} besetzen").
      const named = last !== undefined && this.about(cls, ts.every(negated) ? 'not' : 'with', ts, things, decl, cs[0].span);
      if (named) clauses[clauses.length - 1] = last.includes('{about}') ? last.replace('{about}', ` ${named}{about}`) : last.includes('{how}') ? last.replace('{how}', `${named} {how}`) : `${last} ${named}`;
      else clauses.push(this.about(cls, things.length ? 'put' : 'alone', ts, things, decl, cs[0].span, chosenWhere()));
    }
    // What the rule does when its case does not hold, where the language says it by the class's
    // `otherwise` form after the clause it stands in for ("(if there is none, take another …)").
    const otherwise = [...new Set(terms.filter((c) => !required.has(c.body.term)).map((c) => c.body.term))];
    for (const [cls, ts] of this.aboutGroups(otherwise)) {
      const t = clauses.length ? this.template(`about.${cls}.otherwise`, decl, cs[0].span, false) : undefined;
      if (t) clauses[clauses.length - 1] += ` ${this.fill(t, { terms: (k, cat) => this.anyOf(ts, k, decl, cs[0].span, cat) })}`;
    }
    // An about template may say where what the rule does goes (`{effects}`: "turn each card over: {effects}").
    const effectClauses = verb && !frame ? [] : saidEffects.map((x) => texts.get(x)!);
    const holds = clauses.findIndex((x) => x.includes('{effects}'));
    // The card put where its player chooses is where the rest happens: said first ("put this stone …, and each opponent …").
    const puts = verb && !frame ? [] : saidEffects.filter((x) => x.c.puts).map((x) => texts.get(x)!);
    const rest = effectClauses.filter((x) => !puts.includes(x));
    if (holds >= 0 && rest.length) clauses[holds] = clauses[holds].replace('{effects}', this.series(rest, this.template('list', decl, decl.nameSpan, false) ?? ' & ', decl, decl.nameSpan));
    else clauses.push(...rest);
    clauses.unshift(...puts);
    clauses.forEach((x, i) => (clauses[i] = x.replace('{effects}', '')));
    said = [...said, ...saidEffects, ...targets];
    if (!clauses.length) clauses.push(...(places ? this.placements(decl, cs) : this.switches(decl)));
    clauses.forEach((x, i) => (clauses[i] = x.replace('{how}', '').replace('{about}', '')));
    // An action that only sets up what another rule does says that rule in its frame ("Action, once per
    // turn: pieces are kept off your square until your next turn"); with none, its frame alone ("Action").
    if (!clauses.length && frame && within) {
      clauses.push(within);
      this.framed = true;
    }
    if (!clauses.length && frame) [clauses[0], frame] = [frame.replace(/[\s:,;]*\{clauses\}\s*/, ''), undefined];
    if (!clauses.length) return undefined;
    // How long what the rule keeps lasts: "this turn", "until your next turn".
    for (const c of cs) {
      if (c.body.k !== 'duration' || !c.required) continue;
      const say = this.lang.durations.get(c.body.until)?.text;
      // A template may say where it goes (`{until}`: "du darfst {until} nicht … schicken"), else it closes the clause.
      if (say) clauses[clauses.length - 1] = clauses[clauses.length - 1].includes('{until}') ? clauses[clauses.length - 1].replace('{until}', say) : `${clauses[clauses.length - 1]} ${say}`;
    }
    clauses.forEach((x, i) => (clauses[i] = x.replace('{until}', '')));
    // Two clauses are joined as a list's last two ("A and B"), three or more with the language's `and`
    // (", and "); the two sides of a player's choice with its `either` (", or ").
    const alts = said.map((x) => x.c.alt);
    const either = clauses.length === 2 && said.length === 2 && alts[0] && alts[1] && alts[0].of === alts[1].of && alts[0].chosen !== alts[1].chosen && this.template('either', decl, decl.nameSpan);
    const and = either || (clauses.length === 2 && this.template('list', decl, decl.nameSpan, false)) || (this.template('and', decl, decl.nameSpan, false) ?? ', ');
    let body = this.series(clauses, and, decl, decl.nameSpan);
    // Conditions go where the moment's words put them ("When you play a card {condition},"), else close the sentence: "(this works in decline too)".
    const conditions: string[] = [];
    for (const c of cs) {
      if (c.body.k !== 'condition' || !c.required) continue;
      const say = this.lang.conditions.get(c.body.cond)?.text;
      if (say) conditions.push(say);
      else if (!this.missing.some((m) => m.key === `conditions.${(c.body as { cond: string }).cond}`)) this.missing.push({ key: `conditions.${c.body.cond}`, decl, span: c.span });
    }
    if (conditions.length && !moment?.includes('{condition}')) body += ` ${conditions.join(' ')}`;
    if (frame) body = frame.replace('{clauses}', body);
    // A frame may say the limit itself, where its `{limit}` stands ("Action, once per turn: …", "Once per game, in your turn: …"): said once, not twice.
    const limitSaid = limit && this.claim(limit);
    if (limitSaid && body.includes('{limit}')) body = body.replace('{limit}', limitSaid);
    else if (limitSaid && !body.toLocaleLowerCase(this.lang.lang).includes(limitSaid.toLocaleLowerCase(this.lang.lang))) {
      body = (this.template('sentence.limited', decl, decl.nameSpan, false) ?? '{limit} {clauses}').replace('{limit}', limitSaid).replace('{clauses}', body);
    }
    body = body.replace('{limit}', '');
    // Said inside another rule's frame (an action that only switches on what this rule does).
    if (bare) return tidy(body);
    let text: string;
    if (timing) {
      const { timing: id, turn } = timing.body as { timing: string; turn?: TurnOf };
      const key = turn === 'each' || turn === 'opponent' ? `timing.${id}.${turn}` : `timing.${id}`;
      if (!moment && !this.missing.some((m) => m.key === key)) this.missing.push({ key, decl, span: timing.span });
      const say = moment && this.fill(moment, { terms: (k, cat) => this.anyOf(momentTerms, k, decl, timing.span, cat), condition: () => conditions.join(' ') });
      const t = this.template('sentence.timed', decl, decl.nameSpan, false) ?? '{timing} {clauses}.';
      text = t.replace('{timing}', say ?? `[${id}]`).replace('{clauses}', body);
    } else {
      const t = this.template('sentence.plain', decl, decl.nameSpan, false) ?? '{clauses}.';
      text = t.replace('{clauses}', body);
    }
    return capitalize(tidy(text), this.lang.lang);
  }
}

/** One space between words, none before punctuation nor opening the text: what an empty slot or an opening clause's comma leaves behind. */
function tidy(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/ ([,.;:)])/g, '$1').replace(/^[,;:]\s*/, '').trim();
}

/** A number's clause, rendered once for the card so that one clause another says in full is dropped. */
interface Said {
  c: RuleClaim;
  decl: A.Decl;
  /** The claim, whatever its verb: two clauses of one key say the same number of the same thing. */
  key: string;
  /** The clause, and what closes it after any terms said with it ("(you must pay at least 1 token)"). */
  head: string;
  tail?: string;
  text: string;
}

/** The card's own fields an action sets (`self.f = …`). */
function selfFieldsSet(decl: A.ActionDecl): Set<string> {
  const out = new Set<string>();
  walkStmts(decl.body.stmts, (s) => {
    if (s.kind === 'assign' && s.target.target.kind === 'name' && s.target.target.name === 'self') out.add(s.target.field);
  });
  return out;
}

/** The card's own fields a modifier's condition or value reads (`self.f`). */
function selfFieldsRead(decl: A.Decl): string[] {
  const out: string[] = [];
  if (decl.kind !== 'modify') return out;
  for (const e of [...(decl.when ? [decl.when] : []), decl.value]) {
    walkExpr(e, (x) => {
      if (x.kind === 'field' && x.target.kind === 'name' && x.target.name === 'self') out.push(x.field);
    });
  }
  return out;
}

/** Does `whole` say `part`, word for word? */
function within(whole: string, part: string): boolean {
  return ` ${whole} `.includes(` ${part} `);
}

function capitalize(s: string, lang: string): string {
  return s ? s[0].toLocaleUpperCase(lang) + s.slice(1) : s;
}
