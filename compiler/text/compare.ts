/**
 * A card's text against its rules, claim by claim. Not string equality: every claim the text
 * makes must be one the rules support, and every claim the rules make that a text must state
 * (what an effect gives or costs, a limit, the roles it works in) must be in the text. A text claim
 * and a rule claim about the same thing with different values are one finding, not two.
 */
import { compatible, sameSubject, type ClaimBody, type RuleClaim, type TextClaim } from './claim.ts';

export type FindingCode =
  | 'TX0101' // a number (or limit) differs
  | 'TX0102' // a term differs
  | 'TX0103' // a moment of the turn differs
  | 'TX0104' // a number is said with another term than the one the rules give it with
  | 'TX0105' // whether the player chooses differs: may, must, cannot
  | 'TX0106' // who it is for differs: you, an opponent, every player, a player the rules name; whose thing it is
  | 'TX0107' // how long it lasts differs, or goes unsaid
  | 'TX0108' // what a choice offers differs
  | 'TX0109' // what a count is per differs, or goes unsaid
  | 'TX0201' // the text claims what the rules do not do
  | 'TX0202'; // the rules do what the text does not say

export interface Mismatch {
  code: FindingCode;
  text?: TextClaim;
  rule?: RuleClaim;
  /** For TX0201: what the rules do say about the same subject. */
  others?: RuleClaim[];
  /** For TX0104: the term the text says the number with; for TX0102 without a rule: where the text says the term it also excepts. */
  term?: TextClaim;
}

/**
 * `sameClass(a, b)`: two terms of one kind (two members of one enum), so that one named where the
 * rules name the other is one finding. `waived(effect)`: the pipelines whose price an effect's words
 * say is not paid (the glossary's `pipeline.less` and `pipeline.waived`).
 */
export function compareClaims(allRules: RuleClaim[], allText: TextClaim[], sameClass: (a: string, b: string) => boolean, waived: (effect: string) => string[] = () => []): Mismatch[] {
  const rule = allRules.filter((r) => !ASPECTS.has(r.body.k));
  const text = allText.filter((t) => !ASPECTS.has(t.body.k));
  const checked = text.filter((t) => !t.negated);
  // "(You must pay at least 1 token)" where the rules put a floor under a price of that unit speaks of
  // that floor, not of a condition that happens to compare with the same number.
  const floorOf = (t: TextClaim) => (t.body.k === 'number' && t.body.dir === 'atLeast' && !t.body.cond ? rule.filter((r) => r.how === 'floor' && r.body.k === 'number' && r.body.unit === (t.body as { unit?: string }).unit) : []);
  const supports = (t: TextClaim) => {
    const floors = floorOf(t);
    return (floors.length ? floors : rule).some((r) => compatible(t.body, r.body));
  };
  const unsupported = checked.filter((t) => !t.implicit && !t.unchecked && !supports(t) && !boundsWhatIsSaid(t, rule, checked, allText, waived));
  const missing: RuleClaim[] = [];
  const seen = new Set<string>();
  for (const r of rule) {
    if (!r.required) continue;
    if (checked.some((t) => satisfies(t, r))) continue;
    const key = JSON.stringify(r.body);
    if (seen.has(key)) continue;
    seen.add(key);
    missing.push(r);
  }
  missing.push(...unmatched(rule.filter((r) => r.required && r.body.k === 'number' && !r.body.anyUnit && !missing.includes(r)), checked));
  const out: Mismatch[] = [];
  for (const t of unsupported) {
    const i = missing.findIndex((r) => sameSubject(t.body, r.body) || (t.body.k === 'term' && r.body.k === 'term' && sameClass(t.body.term, r.body.term)));
    if (i >= 0) {
      const r = missing.splice(i, 1)[0];
      out.push({ code: t.body.k === 'term' ? 'TX0102' : t.body.k === 'timing' ? 'TX0103' : 'TX0101', text: t, rule: r });
      continue;
    }
    // A moment of the turn the rules do not use: the finding names a moment they do use.
    const others = rule.filter((r) => related(t.body, r.body));
    if (t.body.k === 'timing' && others.length) out.push({ code: 'TX0103', text: t, rule: others[0], others });
    else out.push({ code: 'TX0201', text: t, others });
  }
  for (const r of missing) out.push({ code: 'TX0202', rule: r });
  // "all cards, Bonuses included (except … Bonus markers)": a term both said and excepted.
  for (const t of text) {
    if (!t.negated || t.body.k !== 'term') continue;
    const term = t.body.term;
    const said = checked.find((x) => x.body.k === 'term' && x.body.term === term);
    if (said) out.push({ code: 'TX0102', text: t, term: said });
  }
  out.push(...pairings(rule, checked, sameClass));
  out.push(...aspects(allRules, allText));
  out.push(...options(allRules, allText, sameClass));
  out.push(...perThings(allRules, allText));
  out.push(...relationWords(rule, allText.filter((t) => !t.negated)));
  return out;
}

/**
 * A condition no rule asks is no finding where it bounds a sentence whose price another sentence,
 * with no condition, already says is waived in every case: "… as if it were next to yours. On your
 * first move you may start there without the crossing fee" (a rule waiving the fee always; the first
 * sentence's words say so, the second names one case of it). A condition bounding a price no other
 * sentence waives narrows the card, and stays a finding.
 */
function boundsWhatIsSaid(t: TextClaim, rule: RuleClaim[], text: TextClaim[], allText: TextClaim[], waived: (effect: string) => string[]): boolean {
  if (t.body.k !== 'condition' || t.sentence === undefined) return false;
  const conditioned = new Set(allText.filter((c) => c.body.k === 'condition').map((c) => c.sentence));
  const spoken = new Set<string>();
  for (const c of text) {
    if (c.sentence !== t.sentence || c.implicit) continue;
    for (const r of rule) if (r.how === 'base' && r.pipeline && compatible(c.body, r.body)) spoken.add(r.pipeline);
  }
  if (!spoken.size) return false;
  return allText.some((e) => e.body.k === 'effect' && !e.negated && e.sentence !== t.sentence && !conditioned.has(e.sentence) && waived(e.body.effect).some((p) => spoken.has(p)));
}

/**
 * Relation words ("connected", "on the same grid") only support the rules, since a text may say what
 * the game's own rules already ask; they are a finding where the card's rules decide the other way:
 * the opposite of a relation the rules ask (`not f`: "a connected cell" where the normal value
 * applies to cells not connected, or the reverse), or a relation said in the sentence of what a count
 * counts ("for each cell next to …"; German and Polish put it after a comma) when the rules
 * count every such thing, with no relation.
 */
function relationWords(rule: RuleClaim[], text: TextClaim[]): Mismatch[] {
  const held = rule.filter((r) => r.body.k === 'relation');
  const named = (rel: string) => held.filter((r) => (r.body as { relation: string }).relation === rel);
  const opposite = (rel: string) => (rel.startsWith('not.') ? rel.slice(4) : `not.${rel}`);
  const counts = rule.filter((r) => r.body.k === 'number' && r.how === 'per' && r.perKind);
  const countsRelated = counts.some((r) => r.relation);
  const out: Mismatch[] = [];
  const flagged = new Set<number>();
  for (const t of text) {
    if (t.body.k !== 'relation' || flagged.has(t.start) || named(t.body.relation).length) continue;
    const against = named(opposite(t.body.relation));
    if (against.length) {
      out.push({ code: 'TX0201', text: t, rule: against[0], others: against });
      flagged.add(t.start);
      continue;
    }
    if (countsRelated) continue;
    const per = text.find((p) => p.body.k === 'per' && p.sentence === t.sentence && counts.some((r) => r.perKind === (p.body as { kind: string }).kind));
    if (!per) continue;
    out.push({ code: 'TX0109', text: t, rule: counts.find((r) => r.perKind === (per.body as { kind: string }).kind), others: counts });
    flagged.add(t.start);
  }
  return out;
}

/**
 * What a count is per ("for each board"): a kind the text counts by must be one the rules count by,
 * and each kind the rules count by (where the text's language has words for it) must be said.
 */
function perThings(rule: RuleClaim[], text: TextClaim[]): Mismatch[] {
  const counts = rule.filter((r) => r.body.k === 'per');
  const said = text.filter((t) => t.body.k === 'per' && !t.negated);
  const out: Mismatch[] = [];
  for (const t of said) {
    if (counts.some((r) => compatible(t.body, r.body))) continue;
    out.push({ code: 'TX0109', text: t, rule: counts.find((r) => r.required) ?? counts[0], others: counts });
  }
  if (out.length) return out;
  const wanted = counts.filter((r) => r.required);
  for (const r of wanted.filter((x, i) => wanted.findIndex((y) => compatible(y.body, x.body)) === i)) {
    if (!said.some((t) => compatible(t.body, r.body))) out.push({ code: 'TX0109', rule: r });
  }
  return out;
}

/** Claims about what a player does with an effect rather than what it is: compared by `aspects`. */
const ASPECTS = new Set<ClaimBody['k']>(['mode', 'who', 'whose', 'duration', 'options', 'chosen', 'per']);

/**
 * What a choice offers: the terms a text names after its word for choosing ("choose between human
 * form … or wolf form"), of the classes the rules' lists are made of, must be one list the rules
 * offer, no more and no fewer.
 */
function options(rule: RuleClaim[], text: TextClaim[], sameClass: (a: string, b: string) => boolean): Mismatch[] {
  const lists = rule.filter((r) => r.body.k === 'options');
  if (!lists.length) return [];
  const offered = lists.flatMap((r) => (r.body as { terms: string[] }).terms);
  // A term the condition around the offered terms requires says when the choice is made ("… for a square of a grey piece"), not what it offers.
  const conditions = new Set(rule.filter((r) => r.body.k === 'term' && offered.includes(r.body.term) && lists.some((l) => l.decl === r.decl)).flatMap((r) => r.guards ?? []).filter((t) => !offered.includes(t)));
  const out: Mismatch[] = [];
  for (const t of text) {
    if (t.body.k !== 'options' || t.negated) continue;
    const terms = [...new Set(t.body.terms.filter((x) => !conditions.has(x) && offered.some((o) => o === x || sameClass(o, x))))];
    if (terms.length < 2) continue;
    if (lists.some((r) => compatible({ k: 'options', terms }, r.body))) continue;
    out.push({ code: 'TX0108', text: { ...t, body: { k: 'options', terms } }, rule: lists[0], others: lists });
  }
  return out;
}

/**
 * Whether the player chooses, who it is for, how long it lasts. Texts word these loosely ("you may
 * conquer … for 1 fewer" of a modifier that always applies), so a text's word is a finding only
 * where the rules say the opposite and nothing of the rules backs the word; a duration the rules
 * give (a card's field cleared at a moment of the turn) must be said.
 */
function aspects(rule: RuleClaim[], text: TextClaim[]): Mismatch[] {
  const out: Mismatch[] = [];
  const modes = (m: string) => rule.filter((r) => r.body.k === 'mode' && r.body.mode === m && !r.ownNumbers);
  // "(You must pay at least 1 token)" is about a floor, not about a choice, and so is the "must" of
  // its own part of the sentence only; the "must" after a threshold ("when a region with at least 1
  // token falls, you must …") is what happens then, not judged here.
  const thresholds = text.filter((t) => t.body.k === 'number' && t.body.dir === 'atLeast');
  const floor = (t: TextClaim) => thresholds.some((x) => x.sentence === t.sentence && x.part! <= t.part!);
  const said = (m: string) => text.filter((t) => t.body.k === 'mode' && t.body.mode === m && !t.negated && !(m === 'must' && floor(t)));
  // "You must use Frostmourne" of an action: the rules leave it to the player, and the text says no "may".
  for (const [word, against] of [['may', 'must'], ['must', 'may'], ['cannot', 'may']] as const) {
    const words = said(word);
    if (!words.length || modes(word).length || !modes(against).length) continue;
    if (word !== 'may' && said('may').length) continue;
    out.push({ code: 'TX0105', text: words[0], rule: modes(against)[0] });
  }
  // "When you fight, you may roll 1 more block" of a bonus the rules always give: a "may" in the
  // clause of a number speaks of that number, whatever else of the card the player chooses.
  if (!out.length) out.push(...optionalBonus(rule, text, said('may')));
  const everyone = rule.filter((r) => r.body.k === 'who');
  for (const t of text) {
    if (t.body.k === 'who' && t.body.who === 'each' && !t.negated && !everyone.length) out.push({ code: 'TX0106', text: t });
  }
  // "An opponent receives 2 points" where the rules give the 2 points to the card's own player, "you
  // receive" what they give another, "the attacker" what they give someone else: a gain or loss said in
  // the clause of a word for a player must be one the rules give that player.
  const gains = rule.filter((r) => r.body.k === 'number' && (r.body.dir === 'gain' || r.body.dir === 'lose' || r.body.transfer) && r.party);
  for (const w of text) {
    if (w.body.k !== 'who' || w.negated) continue;
    const who = w.body;
    const names = (r: RuleClaim) =>
      who.who === 'you' ? r.party === 'you' : who.who === 'opponent' ? r.party === 'opponent' : who.who === 'each' ? r.player === 'each' : r.player === who.name;
    for (const t of text) {
      if (t.body.k !== 'number' || t.sentence !== w.sentence || t.part !== w.part || t.body.transfer || t.body.cond) continue;
      if (!t.body.dir || t.body.dir === 'atLeast' || t.body.dir === 'atMost') continue;
      const support = gains.filter((r) => compatible(t.body, r.body));
      // "Each player" with no rule going through every player is the finding above, said once.
      if (!support.length || support.some(names) || (who.who === 'each' && !everyone.length)) continue;
      out.push({ code: 'TX0106', text: w, rule: support[0], others: support });
      break;
    }
  }
  // "Your region" of a region the rules test is another player's, or the reverse: read against the
  // rules that give the numbers of its own clause, else against the card's.
  const whose = rule.filter((r) => r.body.k === 'whose' && !r.puts);
  for (const t of text) {
    if (t.body.k !== 'whose' || t.negated || !whose.length) continue;
    // Its own part of the sentence, else the sentence ("za każdy region, który zajmujesz" puts a comma in the clause).
    const inSentence = text.filter((n) => n.body.k === 'number' && !n.implicit && n.sentence === t.sentence);
    const inPart = inSentence.filter((n) => n.part === t.part);
    const numbers = inPart.length ? inPart : inSentence;
    const decls = new Set(numbers.flatMap((n) => rule.filter((r) => r.body.k === 'number' && r.required && compatible(n.body, r.body)).map((r) => r.decl)));
    const own = whose.filter((r) => decls.has(r.decl));
    const against = own.length ? own : whose;
    if (against.some((r) => compatible(t.body, r.body))) continue;
    out.push({ code: 'TX0106', text: t, rule: against[0], others: against });
  }
  // "Put it in a cell" of the card put where its player picks among their own: "1 of yours" must be said
  // (a text that does not say the card is put at all is told so once, by the effect left out).
  const putSaid = rule.some((r) => r.puts && r.body.k === 'effect' && text.some((t) => compatible(t.body, r.body)));
  for (const r of rule.filter((x) => x.body.k === 'whose' && x.required && x.puts && putSaid).slice(0, 1)) {
    if (!text.some((t) => t.body.k === 'whose' && !t.negated && compatible(t.body, r.body))) out.push({ code: 'TX0106', rule: r });
  }
  // "The side with the fewest pieces around it", or no word for the pick at all, of what the rules give the one with the most.
  const picks = rule.filter((r) => r.body.k === 'chosen');
  const named = text.filter((t) => t.body.k === 'chosen' && !t.negated);
  for (const r of picks.filter((x, i) => picks.findIndex((y) => compatible(y.body, x.body)) === i)) {
    if (named.some((t) => compatible(t.body, r.body))) continue;
    if (named.length) out.push({ code: 'TX0106', text: named[0], rule: r });
    else if (r.required) out.push({ code: 'TX0106', rule: r });
  }
  const lasts = rule.filter((r) => r.body.k === 'duration');
  const durations = text.filter((t) => t.body.k === 'duration' && !t.negated);
  for (const r of lasts.filter((x, i) => lasts.findIndex((y) => compatible(y.body, x.body)) === i)) {
    if (durations.some((t) => compatible(t.body, r.body))) continue;
    const wrong = durations.find((t) => !lasts.some((x) => compatible(t.body, x.body)));
    if (wrong) out.push({ code: 'TX0107', text: wrong, rule: r });
    else if (r.required) out.push({ code: 'TX0107', rule: r });
  }
  return out;
}

/** A "may" in the clause of a number that every rule giving it gives without a choice. */
function optionalBonus(rule: RuleClaim[], text: TextClaim[], mays: TextClaim[]): Mismatch[] {
  const modesOf = (r: RuleClaim) => rule.filter((x) => x.decl === r.decl && x.body.k === 'mode');
  const forced = (r: RuleClaim) => modesOf(r).length > 0 && modesOf(r).every((x) => x.body.k === 'mode' && x.body.mode === 'must');
  for (const w of mays) {
    for (const t of text) {
      if (t.body.k !== 'number' || t.body.cond || t.negated || t.sentence !== w.sentence || t.part !== w.part) continue;
      // Only what is added or taken: "you may use the bonus twice" of `value * 2` speaks of the use, not of an amount.
      const compatibles = rule.filter((r) => r.body.k === 'number' && r.body.dir && r.required && (r.how === 'amount' || r.how === 'per') && compatible(t.body, r.body));
      // "1 more coin" is the bonus's, not the 1 coin an action gives.
      const same = compatibles.filter((r) => r.body.k === 'number' && t.body.k === 'number' && r.body.dir === t.body.dir);
      const support = same.length ? same : compatibles;
      if (support.length && support.every(forced)) return [{ code: 'TX0105', text: w, rule: modesOf(support[0])[0] }];
    }
  }
  return [];
}

/**
 * A number the rules give under a condition on a term (`if form == human { points += 2 }`) is said,
 * in the text, with that term: a term of the same class in the number's own part of the sentence
 * ("2 points for each forest cell"), else the nearest one before it in the sentence ("human form
 * (you receive 2 points)"), must be one the rules give it with. A number with no such term is not judged.
 */
function pairings(rule: RuleClaim[], text: TextClaim[], sameClass: (a: string, b: string) => boolean): Mismatch[] {
  const out: Mismatch[] = [];
  const terms = text.filter((t) => t.body.k === 'term');
  for (const t of text) {
    if ((t.body.k !== 'number' && t.body.k !== 'term' && t.body.k !== 'effect') || t.implicit || t.negated) continue;
    const support = rule.filter((r) => compatible(t.body, r.body));
    if (!support.length) continue;
    let wrong: { term: TextClaim; rule: RuleClaim } | undefined;
    const fits = support.some((r) => {
      if (!r.guards?.length) return true;
      // Terms the rules give under the same condition are said side by side ("the red side or the blue side").
      const siblings = new Set(rule.filter((o) => o.body.k === 'term' && o.guards?.join() === r.guards!.join()).map((o) => (o.body as { term: string }).term));
      const termOf = (x: TextClaim) => (x.body as { term: string }).term;
      const kin = terms.filter((x) => x !== t && x.sentence === t.sentence && (!siblings.has(termOf(x)) || r.guards!.includes(termOf(x))) && r.guards!.some((g) => sameClass(g, termOf(x)) || g === termOf(x)));
      const distance = (x: TextClaim) => Math.abs(x.start - t.start);
      const own = kin.filter((x) => x.part === t.part).sort((a, b) => distance(a) - distance(b));
      const nearest = own[0] ?? kin.filter((x) => x.end <= t.start).sort((a, b) => b.start - a.start)[0];
      if (!nearest || r.guards.includes((nearest.body as { term: string }).term)) return true;
      wrong ??= { term: nearest, rule: r };
      return false;
    });
    if (!fits && wrong) out.push({ code: 'TX0104', text: t, rule: wrong.rule, term: wrong.term });
  }
  return out;
}

/**
 * Does the text say what a required rule claim says? A number the text says in a condition
 * ("when … at least 1 stone") does not say what an effect gives or sets.
 */
function satisfies(t: TextClaim, r: RuleClaim): boolean {
  if (!compatible(t.body, r.body)) return false;
  if (t.body.k !== 'number' || r.body.k !== 'number') return true;
  // "As many as there are regions" says one per region, not that an effect gives or sets 1.
  if (t.each && r.how !== 'per') return false;
  // "A region" says one region, not one of whatever a rule's uncounted number counts.
  if (t.implicit && r.body.anyUnit) return false;
  // "You do not discard any token" cancels what normally happens; it does not say an effect's price is 0.
  if (t.none && r.decl.kind !== 'modify') return false;
  // "Discard 1 stone" takes one away, and "an extra token" gives one: neither says that a rule
  // leaves exactly 1.
  if (r.sets && (t.body.dir === 'gain' || t.body.dir === 'lose' || t.implicit)) return false;
  const effect = (r.how === 'amount' || r.how === 'count' || r.how === 'per') && !r.body.dir && !r.body.transfer;
  return !(effect && (t.body.cond || t.body.dir === 'atLeast' || t.body.dir === 'atMost'));
}

/**
 * Two different numbers the rules give need two numbers in the text: "counts as 1 stone" says
 * the piece's 1 in defence, and cannot also say what its move costs. Each number the rules
 * give (one per distinct claim, of a known unit) that the text says outright is matched with a
 * number of the text of its own; those left over are not said.
 */
function unmatched(required: RuleClaim[], all: TextClaim[]): RuleClaim[] {
  // Weak cues ("like a normal stone") are not counted: a number said outright is.
  const text = all.filter((t) => !t.implicit && t.body.k === 'number');
  const distinct = required.filter((r, i) => required.findIndex((x) => JSON.stringify(x.body) === JSON.stringify(r.body)) === i && text.some((t) => satisfies(t, r)));
  const owner = new Map<TextClaim, RuleClaim>();
  const match = (r: RuleClaim, seen: Set<TextClaim>): boolean => {
    for (const t of text) {
      if (seen.has(t) || !satisfies(t, r)) continue;
      seen.add(t);
      const other = owner.get(t);
      if (!other || match(other, seen)) {
        owner.set(t, r);
        return true;
      }
    }
    return false;
  };
  return distinct.filter((r) => !match(r, new Set()));
}

function related(t: ClaimBody, r: ClaimBody): boolean {
  if (t.k !== r.k) return false;
  if (t.k === 'number') return t.unit !== undefined && t.unit === (r as typeof t).unit;
  return t.k === 'timing' || t.k === 'limit';
}
