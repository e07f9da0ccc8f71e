/**
 * Claims: what a card says, in a form both its rules and its texts can be read into. A number and
 * what it counts, a game term, a moment of the turn, a limit, a condition, who pays whom.
 */
import type * as A from '../../dsl/ast.ts';
import type { Direction, Party } from './language.ts';

export type Transfer = 'in' | 'out';

export type ClaimBody =
  | {
      k: 'number';
      value: number;
      /** What it counts (a unit id of the glossary), when known. */
      unit?: string;
      dir?: Direction;
      /** A payment between players: `in` an opponent pays you, `out` you pay an opponent. */
      transfer?: Transfer;
      /** The normal value a card replaces ("instead of 1"): the pipeline's own value. */
      normal?: boolean;
      /** What an effect's number counts is unknown (the glossary does not say): any unit of the text will do. */
      anyUnit?: boolean;
      /** In the rules: a threshold a condition compares with. In a text: said in a condition ("when … 1 stone"). */
      cond?: boolean;
    }
  | { k: 'term'; term: string }
  /** `turn`: whose turn the moment is in, when the rules or the text tell (`on turnEnded(p) when p == holder`: yours). */
  | { k: 'timing'; timing: string; turn?: TurnOf }
  | { k: 'limit'; times: number; per: 'turn' | 'game' }
  | { k: 'condition'; cond: string }
  /** What a rule does, named by the glossary (`empty` → "the square counts as empty"): required of a text when no number the rule gives says it. */
  | { k: 'effect'; effect: string }
  /** Whether the player chooses (`may`), has no choice (`must`), or is barred (`cannot`). */
  | { k: 'mode'; mode: Mode }
  /** How long what a card keeps lasts: until the moment of the turn (a timing id) that clears it. */
  | { k: 'duration'; until: string }
  /** Every player, not only you: a rule that walks all players. In a text, also whom a clause names: you, an opponent, a player the rules name (`name`: "the attacker"). */
  | { k: 'who'; who: Who; name?: string }
  /** Whose thing a condition tests (`r.owner == holder`: your region) or a text names ("an opponent's region"). */
  | { k: 'whose'; whose: Party }
  /** What a choice offers: the game terms of one list a player picks from (`choose form in [human, wolf]`). */
  | { k: 'options'; terms: string[] }
  /**
   * Who gets it is the one a rule picks by a condition (`let lead = highest(xs, it.score)`, then `if
   * lead.side == p.side { … }`): the one with the most, with the fewest, the first that qualifies.
   * `key` is what the pick goes by (a field or function), for the template that names it.
   */
  | { k: 'chosen'; by: Pick; key?: string }
  /** Another thing of this kind than the card's own (`require x != self`): "another piece". */
  | { k: 'another'; kind: string }
  /** Where an action's parameter must be, by a relation to the card's own (`require adjacent(self.space, target)`): "a space connected to yours". */
  | { k: 'relation'; relation: string; kind: string }
  /** What a count is per: one for each thing of this kind (`for b in game.boards { holder.coins += 1 }`: "for each board"). */
  | { k: 'per'; kind: string };

/** Whose turn a moment of the turn is in: the card's own player's, an opponent's, or every player's. */
export type TurnOf = 'you' | 'opponent' | 'each';

/** How a rule picks one thing among many: by the highest value, the lowest, or the first that qualifies. */
export type Pick = 'most' | 'fewest' | 'first';

export type Mode = 'may' | 'must' | 'cannot';
/** `each`: every player, not only you; `opponent`: another player than the card's own; `you`: the card's own; `named`: a player the rules name. */
export type Who = 'each' | 'opponent' | 'you' | 'named';

/** How a rule produces a number: its role in the rule, for messages and rendering. */
export type How =
  | 'amount' // what an effect adds, takes or sets
  | 'per' // one per element counted
  | 'condition' // compared in a condition
  | 'floor' // max(N, …)
  | 'cap' // min(N, …)
  | 'base' // the normal value of a pipeline a card replaces
  | 'min' // a pipeline's `min`
  | 'count' // how many things a rule places or picks
  | 'limit';

export interface RuleClaim {
  body: ClaimBody;
  /** Must the text say it? Otherwise it only supports what the text says. */
  required: boolean;
  how?: How;
  /** The declaration it comes from, and the span of the words in the rules text. */
  decl: A.Decl;
  span: A.Span;
  /** Syntax nodes this claim is read from: a number literal, a name, an action's limit. */
  sites: object[];
  /** For rendering: who gains or loses (`you`, `opponent`), what is counted per element, where. */
  party?: Party;
  per?: string[];
  perKind?: string;
  /** What a card counts in a field of its own: the moment each is counted at, and the moment the count is cleared. */
  perEvent?: string;
  perUntil?: string;
  /** The pipeline whose normal value a `base` claim is: what a text speaking of that value is about. */
  pipeline?: string;
  /** What a condition compares its number with (a function, field or parameter name), for its template `compare.<of>.<direction>`. */
  of?: string;
  /** The procedure parameter an amount is passed to (`proc.param`), for its template. */
  via?: string;
  /** A number held back from a count the rule gives or takes (`r.stones - 1`: all the stones but 1): what is done with the rest. */
  rest?: Direction | 'set';
  /** Whom the rules give it or take it from by their own name, when not the card's own player: an event's parameter (`attacker`), a field (`owner`), `each` (every player in turn). */
  player?: string;
  /** What a rule sets a count to (`r.stones = 1`), not what it adds or takes: "discard 1" does not say it. */
  sets?: boolean;
  /** A term of an `else` branch: what happens when the rule's case does not hold, which a draft leaves to the designer. */
  otherwise?: boolean;
  /** The field of a thing (not a player's) whose number the rule changes, for its template. */
  field?: string;
  /** What the rule acts on is another thing of this kind than the card's own (`require x != self`), for its templates' `{another}`. */
  another?: string;
  /**
   * What the rule acts on stands in this relation to the card's own (`require adjacent(self.space, x)`),
   * for its templates' `{relation}`; `each` when it acts on every such thing (a `for` over `f(a)`),
   * `withOwn` on the card's own too (`[a] + f(a)`), `picked` with the thing a player picks instead; `terms` what a thing so related must be, when a
   * count's `where any(f(it), …)` asks it of them, not of the things counted ("each cell next to a red one").
   */
  relation?: { relation: string; kind: string; each?: true; withOwn?: true; terms?: string[]; picked?: true };
  /** Done only if a player says yes (`choose yes in [true, false] … if yes { … }`): an effect a template says with "may". */
  optional?: boolean;
  /** Given to the one a rule picks by a condition (`highest`, `lowest`, `first(… where …)`), not to a player it names. */
  chosen?: { by: Pick; key: string };
  /** Inside a `for` over things of this kind: what the rule changes, it changes in each ("each piece gains 2 points"). */
  eachKind?: string;
  /**
   * One side of a choice the player makes by picking something or not (`choose optional x … if x
   * != none { … } else { … }`; `chosen`: the side where something was picked): the claims of its
   * two sides are said as alternatives ("… or …").
   */
  alt?: { of: object; chosen: boolean };
  /** A thing the rule places (`r.flag = true` of a field the glossary counts), one in each `perKind` inside a `for`. */
  placed?: boolean;
  /** A mode said only of the rule's own numbers (a bonus a modifier adds): judged in their clause of a text, not across the card. */
  ownNumbers?: boolean;
  /** A relation the things a `choose` offers stand in to a thing of the rule (`xs where f == a.f`: "on the same grid"). */
  ofChoice?: boolean;
  /** An effect that puts the card where its player chooses (`<field>.put`): where the rest of the rule happens, said first. */
  puts?: boolean;
  /** An effect of an action that asks less of its target than the game action it is offered with (`<pipeline>.waived`): said of the target ("a cell on any grid"). */
  waives?: boolean;
  /** A term the rule's condition compares its parameter with: what the rule is about. */
  subject?: boolean;
  /** A term the rule's condition compares a thing of the card's own player with (`holder.side == red`): what that player has. */
  own?: boolean;
  /** A term the rule's condition asks a thing not to be (`x.side != red`): said only by a template that says so. */
  not?: boolean;
  /** The pipeline or field whose numbers count no unit of the glossary, for a warning. */
  uncounted?: string;
  /**
   * The game terms the condition around this claim requires (`if form == human { … }`, `when
   * r.terrain == forest`, an action's `require … == place`): a text must say the number with one of
   * them, not with another term of their class.
   */
  guards?: string[];
}

export interface TextClaim {
  body: ClaimBody;
  /** Offsets in the text. */
  start: number;
  end: number;
  words: string;
  /** Read from a weak cue ("an extra …", a unit in its singular form): it may satisfy the rules but is never reported. */
  implicit?: boolean;
  /** "As many … as": one for each of something, which says what a count pays per element, not an amount. */
  each?: boolean;
  /** "You do not discard any token": what normally happens does not, which only a rule changing it (a `modify`) says. */
  none?: boolean;
  /** May satisfy the rules but is never reported as unsupported: a condition the core rules give every card. */
  unchecked?: boolean;
  /** Named as left alone ("except …"): neither checked nor satisfying anything. */
  negated?: boolean;
  /** Which sentence of the text it is in (0, 1, …), and which part of it (split at punctuation and at `joins` words). */
  sentence?: number;
  part?: number;
}

const SIGN: Record<Direction, string> = { gain: '+', more: '+', lose: '-', fewer: '-', atLeast: '>=', atMost: '<=' };

/** Can the text's claim and the rule's claim be the same claim? */
export function compatible(t: ClaimBody, r: ClaimBody): boolean {
  if (t.k !== r.k) return false;
  switch (t.k) {
    case 'number': {
      const b = r as Extract<ClaimBody, { k: 'number' }>;
      if (t.value !== b.value) return false;
      if (t.unit !== undefined && t.unit !== b.unit && !b.anyUnit) return false;
      if (t.normal && !b.normal) return false;
      // A threshold is said in a condition ("when … 1 stone") or as "at least 2".
      if (b.cond && !t.cond && t.dir !== 'atLeast' && t.dir !== 'atMost') return false;
      if (t.transfer && b.transfer) return t.transfer === b.transfer;
      // "You pay 1 coin" is no payment to you, nor "you receive 1 coin" one you make.
      if (b.transfer && t.dir) return SIGN[t.dir] !== (b.transfer === 'in' ? '-' : '+');
      if (t.transfer || b.transfer) return true;
      if (t.dir && b.dir) return SIGN[t.dir] === SIGN[b.dir];
      return true;
    }
    case 'term':
      return t.term === (r as typeof t).term;
    case 'timing': {
      const b = r as typeof t;
      return t.timing === b.timing && (!t.turn || !b.turn || t.turn === b.turn);
    }
    case 'limit':
      return t.times === (r as typeof t).times && t.per === (r as typeof t).per;
    case 'condition':
      return t.cond === (r as typeof t).cond;
    case 'effect':
      return t.effect === (r as typeof t).effect;
    case 'mode':
      return t.mode === (r as typeof t).mode;
    case 'duration':
      return t.until === (r as typeof t).until;
    case 'who':
      return t.who === (r as typeof t).who && t.name === (r as typeof t).name;
    case 'whose':
      return t.whose === (r as typeof t).whose;
    case 'options': {
      const b = (r as typeof t).terms;
      return t.terms.length === b.length && t.terms.every((x) => b.includes(x));
    }
    case 'chosen':
      return t.by === (r as typeof t).by;
    case 'another':
      return !t.kind || t.kind === (r as typeof t).kind;
    case 'relation':
      return t.relation === (r as typeof t).relation;
    case 'per':
      return t.kind === (r as typeof t).kind;
  }
}

/** Two claims about the same thing that disagree: the same unit or term class, another value. */
export function sameSubject(t: ClaimBody, r: ClaimBody): boolean {
  if (t.k !== r.k) return false;
  if (t.k === 'number') {
    const b = r as Extract<ClaimBody, { k: 'number' }>;
    return t.unit !== undefined && (t.unit === b.unit || !!b.anyUnit);
  }
  if (t.k === 'limit') return t.per === (r as typeof t).per;
  return t.k === 'timing' || t.k === 'duration';
}

export function describeClaim(c: ClaimBody): string {
  switch (c.k) {
    case 'number':
      return `${c.value}${c.unit ? ` ${c.unit}` : ''}${c.dir ? ` (${c.dir})` : ''}${c.transfer ? ` (paid ${c.transfer === 'in' ? 'to you' : 'by you'})` : ''}`;
    case 'term':
      return `\`${c.term}\``;
    case 'timing':
      return `timing \`${c.timing}\`${c.turn ? ` of ${c.turn === 'you' ? 'your turn' : c.turn === 'opponent' ? "an opponent's turn" : "every player's turn"}` : ''}`;
    case 'limit':
      return `${c.times} per ${c.per}`;
    case 'condition':
      return `condition \`${c.cond}\``;
    case 'effect':
      return `effect \`${c.effect}\``;
    case 'mode':
      return c.mode === 'may' ? 'the player may choose' : c.mode === 'must' ? 'it happens without a choice' : 'the player cannot';
    case 'duration':
      return `lasting until \`${c.until}\``;
    case 'who':
      return c.who === 'each' ? 'every player' : c.who === 'you' ? 'you' : c.who === 'named' ? `\`${c.name}\`` : 'an opponent';
    case 'whose':
      return c.whose === 'you' ? 'yours' : "an opponent's";
    case 'options':
      return c.terms.map((t) => `\`${t}\``).join(' or ');
    case 'another':
      return `another \`${c.kind}\` than the card's own`;
    case 'relation':
      return `a \`${c.kind}\` that must be \`${c.relation}\` to the card's own`;
    case 'per':
      return `one for each \`${c.kind}\``;
    case 'chosen':
      return `${c.by === 'first' ? 'the first that qualifies by' : `the one with the ${c.by}`}${c.key ? ` \`${c.key}\`` : ''}`;
  }
}
