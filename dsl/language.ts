/**
 * The rules language in one table: its keywords, the declarations and statements they start, the
 * names with a meaning of their own (`me`, `holder`, `value` …) and the built-in type names. The
 * lexer makes its keyword tokens from it, the parser names what it expected from it, the compiler
 * reserves and resolves names from it, the editor completes and explains with it, and
 * test/language-table.test.ts holds docs/language.md to it.
 *
 * Built-in functions are a table of their own (compiler/builtins.ts): their types need the
 * compiler's type system, which the syntax does not know.
 */

/** A declaration of a `rules:` text, started by its keyword. */
export interface DeclarationForm {
  keyword: DeclarationKeyword;
  /** The grammar, as docs/language.md writes it. */
  form: string;
  doc: string;
  /**
   * Names a thing declared once per pack (a function, a procedure, a game action), which `override`
   * may replace; `on` and `modify` name what they attach to.
   */
  named: boolean;
  /** May be written in a card's `rules` (else only in the game's own rules). */
  onCards: boolean;
  /** A declaration of this form as a pack writes it; test/language-table.test.ts parses it. */
  example: string;
}

/** A statement of a block, started by its keyword. */
export interface StatementForm {
  keyword: StatementKeyword;
  form: string;
  doc: string;
  /** A statement of this form, as written inside a block; test/language-table.test.ts parses it. */
  example: string;
}

export const declarations = [
  { keyword: 'event', form: 'event name(params)', doc: 'declares an event that rules can `emit` and react to with `on`', named: true, onCards: false, example: 'event captured(r: cell, attacker: player, loser: player?)' },
  { keyword: 'fn', form: 'fn name(params): T = expr', doc: 'declares a pure function: `fn name(params): type = expression`; on a card, one only that card’s rules see', named: true, onCards: true, example: 'fn ownCells(p: player): list<cell> = cells where owner == p and not resting' },
  { keyword: 'pipeline', form: 'pipeline name(params): T [min e] [max e] = expr', doc: 'declares a value that cards can adjust with `modify`', named: true, onCards: false, example: 'pipeline captureCost(r: cell): number min 1 max 20 = 2 + r.stones' },
  { keyword: 'check', form: 'check name(params) { let … require … }', doc: 'declares a shared legality check: `let`s and `require`s that `require name(args)` puts in place, each keeping its reason', named: true, onCards: false, example: 'check canAttack(r: cell) { let cost = 2 + r.stones\n require me.hand >= cost else "attacking {r} takes {cost} stones" }' },
  { keyword: 'proc', form: 'proc name(params) { … }', doc: 'declares a procedure: a named block of statements', named: true, onCards: false, example: 'proc scoreCells(p: player) { p.points += count(cells where owner == p) }' },
  { keyword: 'action', form: 'action name(params) ["label"] [limit N per turn|game] [with action | anytime] [while roles] { … }', doc: 'declares something a player may do when offered: `action name(params) { … }`', named: true, onCards: true, example: 'action raid(r: cell in (cells where owner != me)) "Raid on {r}" limit 1 per turn with capture while playing { me.hand -= 1 }' },
  { keyword: 'on', form: 'on event(binds) [when cond] [while roles] { … }', doc: 'reacts to an event: `on event(args) when condition { … }`', named: false, onCards: true, example: 'on captured(r, attacker) when attacker == holder while playing, rest { holder.points += 1 }' },
  { keyword: 'modify', form: 'modify pipeline(binds) [by anyone] [while roles] [when cond] = expr', doc: 'adjusts a pipeline value: `modify pipeline(args) when condition = value`', named: false, onCards: true, example: 'modify captureCost(r) by anyone when r.height == high = value - 2' },
  { keyword: 'setup', form: 'setup { … }', doc: 'the statements that prepare a new game', named: false, onCards: false, example: 'setup { game.round = 1 }' },
  { keyword: 'flow', form: 'flow { … }', doc: 'the turn structure of the game (one per pack)', named: false, onCards: false, example: 'flow { loop max 20 { for p in players { turn p { offer p: capture } } } finish }' },
  { keyword: 'guard', form: 'guard name(x: kind) [of field, field] [when cond] { require … else "…" … }', doc: 'protects the entities of a kind from every card: a card that changes one (its listed fields, or any state field) must `reach` it first, which applies the guard (its leading requires refuse, the rest runs once per choice); `name(x)` tells whether it may be reached', named: true, onCards: false, example: 'guard inReach(r: cell) of stones, owner when r.owner != none and r.owner != me {\n require not r.resting else "{r} is resting"\n me.points -= 1 }' },
  { keyword: 'invariant', form: 'invariant "message" = cond', doc: 'a state no game may reach: `invariant "message" = condition`', named: false, onCards: false, example: 'invariant "no cell holds more than 9 stones" = all(cells, it.stones <= 9)' },
] as const satisfies readonly DeclarationForm[];

export const statements = [
  { keyword: 'let', form: 'let x = e', doc: 'names a value: `let x = expression`', example: 'let cost = captureCost(r)' },
  { keyword: 'if', form: 'if c { } else if c { } else { }', doc: 'runs a block when a condition holds (also a value: `if c then a else b`)', example: 'if r.owner == none { r.stones = 0 } else if r.stones > 1 { r.stones -= 1 } else { r.resting = true }' },
  { keyword: 'for', form: 'for x in list { }', doc: 'runs a block for each element of a list: `for x in list { … }`', example: 'for r in ownCells(me) { r.resting = true }' },
  { keyword: 'repeat', form: 'repeat n { }', doc: 'runs a block n times: `repeat 3 { … }`', example: 'repeat 6 { refillColumn() }' },
  { keyword: 'loop', form: 'loop max n { … break … }', doc: 'runs a block until `break`, at most n times: `loop max 200 { … }`', example: 'loop max 200 { if p.passed { break } offer p: capture, pass }' },
  { keyword: 'break', form: 'break', doc: 'leaves the innermost `for`, `repeat` or `loop`', example: 'break' },
  { keyword: 'require', form: 'require c else "reason" | require check(args)', doc: 'stops an action unless the condition holds: `require cond else "reason"`; `require name(args)` applies a shared `check`', example: 'require me.hand >= cost else "capturing {r} takes {cost} stones"' },
  { keyword: 'choose', form: 'choose [optional] x in list [by player] ["prompt"] { }', doc: 'asks a player to pick one of a set: `choose x in set by player "prompt" { … }`', example: 'choose optional card in game.hand by p "Pick a card to discard" { remove card from game.hand }' },
  { keyword: 'offer', form: 'offer player: action, action', doc: 'offers actions to a player: `offer player: action1, action2`', example: 'offer p: move, capture, pass' },
  { keyword: 'emit', form: 'emit event(args)', doc: 'raises an event: `emit event(args)`', example: 'emit captured(r, p, loser)' },
  { keyword: 'log', form: 'log "text"', doc: 'writes a line in the game log', example: 'log "{p} captures {r}"' },
  { keyword: 'turn', form: 'turn p { }', doc: "runs a block as a player's turn", example: 'turn p { playTurn(p) }' },
  { keyword: 'resolving', form: 'resolving { }', doc: 'a card being resolved: no `anytime` action may be taken inside', example: 'resolving { applyCard(card) }' },
  { keyword: 'shuffle', form: 'shuffle field', doc: 'shuffles a list field', example: 'shuffle game.discards' },
  { keyword: 'draw', form: 'draw x from [top of|bottom of] field', doc: 'takes the top (or bottom) item of a list field', example: 'draw card from bottom of game.deck' },
  { keyword: 'put', form: 'put e on top|bottom of field', doc: 'puts an item on the top or bottom of a list field', example: 'put card on top of game.discards' },
  { keyword: 'remove', form: 'remove e from field', doc: 'removes an item from a list field', example: 'remove card from game.hand' },
  { keyword: 'finish', form: 'finish', doc: 'ends the game', example: 'finish' },
  { keyword: 'reach', form: 'reach x', doc: 'applies the guard of `x`’s kind before a card changes `x`: its requires refuse, its effects run once per choice; among an action’s first statements, its requires also decide which choices are listed', example: 'reach r' },
] as const satisfies readonly StatementForm[];

/**
 * Keywords inside declarations, statements and expressions, with what each means there and rules
 * that use it (test/language-table.test.ts parses them).
 */
export const clauseKeywords = [
  { keyword: 'override', doc: 'in a pack that extends another: replaces the base pack’s declaration of that name', example: 'override fn bonus(): number = 2' },
  { keyword: 'then', doc: 'a value chosen by a condition: `if c then a else b`', example: 'fn f(x: number): number = if x > 0 then x else 0' },
  { keyword: 'else', doc: 'what happens (or the value) when the condition does not hold; the reason after `require`', example: 'fn f(x: number): number = if x > 0 then x else 0' },
  { keyword: 'in', doc: 'the list walked, chosen from or looked into: `for x in xs`, `x in xs`', example: 'fn f(x: number): bool = x in [1, 2]' },
  { keyword: 'max', doc: 'the bound of a `loop`, or a pipeline’s maximum (also the built-in `max(a, b)`)', example: 'flow { loop max 3 { break } }' },
  { keyword: 'min', doc: 'a pipeline’s minimum (also the built-in `min(a, b)`)', example: 'pipeline cost(): number min 1 = 2' },
  { keyword: 'optional', doc: 'a `choose` the player may rest: the chosen value is then none', example: 'flow { choose optional r in cells { r.stones = 0 } }' },
  { keyword: 'by', doc: 'who chooses (`choose … by p`), or `modify … by anyone`', example: 'flow { choose r in cells by current { r.stones = 0 } }' },
  { keyword: 'top', doc: 'the first element of a pile (`draw x from top of …`, `put x on top of …`)', example: 'flow { draw c from top of game.deck }' },
  { keyword: 'bottom', doc: 'the last element of a pile', example: 'flow { put c on bottom of game.deck }' },
  { keyword: 'of', doc: 'names the pile after `top` or `bottom`, or the fields a `guard` protects', example: 'flow { put c on top of game.deck }' },
  { keyword: 'where', doc: 'filters a list: `cells where it.stones > 0`', example: 'fn mine(): list<cell> = cells where owner == me' },
  { keyword: 'and', doc: 'both conditions hold', example: 'fn f(a: bool, b: bool): bool = a and b' },
  { keyword: 'or', doc: 'at least one condition holds', example: 'fn f(a: bool, b: bool): bool = a or b' },
  { keyword: 'not', doc: 'the condition does not hold', example: 'fn f(a: bool): bool = not a' },
  { keyword: 'true', doc: 'the value true', example: 'fn f(): bool = true' },
  { keyword: 'false', doc: 'the value false', example: 'fn f(): bool = false' },
  { keyword: 'none', doc: 'no value: what an optional (`T?`) holds when empty', example: 'fn f(r: cell): bool = r.owner == none' },
  { keyword: 'when', doc: 'a condition for a rule to apply', example: 'on captured(r) when r.stones > 0 { r.stones -= 1 }' },
  { keyword: 'while', doc: 'the roles in which a card rule works: `while playing, rest`', example: 'on captured(r) while playing { holder.points += 1 }' },
  { keyword: 'limit', doc: 'limits how often an action may be used: `limit 1 per turn`', example: 'action extra limit 1 per game { me.points += 1 }' },
  { keyword: 'per', doc: 'what a limit is counted over: `per turn` or `per game`', example: 'action extra limit 1 per turn { me.points += 1 }' },
  { keyword: 'with', doc: 'a card action offered beside a game action: `with capture`', example: 'action raid(r: cell) with capture { r.stones = 0 }' },
  { keyword: 'anytime', doc: 'a card action offered at every offer and choice', example: 'action play "Play" anytime { me.points += 1 }' },
] as const satisfies ReadonlyArray<{ keyword: string; doc: string; example: string }>;

export type DeclarationKeyword = 'event' | 'fn' | 'pipeline' | 'check' | 'proc' | 'action' | 'on' | 'modify' | 'setup' | 'flow' | 'guard' | 'invariant';
export type StatementKeyword =
  | 'let' | 'if' | 'for' | 'repeat' | 'loop' | 'break' | 'require' | 'choose' | 'offer' | 'emit' | 'log'
  | 'turn' | 'resolving' | 'shuffle' | 'draw' | 'put' | 'remove' | 'finish' | 'reach';
export type Keyword = DeclarationKeyword | StatementKeyword | (typeof clauseKeywords)[number]['keyword'];

/** Every reserved word of the language, each once (`turn` starts a statement and follows `per`). */
export const keywordNames: readonly Keyword[] = [...new Set<Keyword>([...declarations.map((d) => d.keyword), ...statements.map((s) => s.keyword), ...clauseKeywords.map((c) => c.keyword)])];
export const keywordSet: ReadonlySet<string> = new Set(keywordNames);

/** What a keyword means, for hover and completion. */
export const keywordDocs: ReadonlyMap<string, string> = new Map<string, string>([
  ...clauseKeywords.map((c) => [c.keyword, c.doc] as const),
  ...statements.map((s) => [s.keyword, s.doc] as const),
  ...declarations.map((d) => [d.keyword, d.doc] as const),
]);

/**
 * Words that mean something only in one place and stay ordinary names elsewhere (a parameter may be
 * called `from`): the parser checks them where they belong.
 */
export const contextualWords = {
  /** `draw c from deck`, `remove c from pile` */
  from: 'from',
  /** `modify cost(r) by anyone = …` */
  anyone: 'anyone',
  /** `limit 1 per turn`, `limit 1 per game` (`turn` is a keyword, `game` a special name). */
  limitPer: ['turn', 'game'],
} as const;

/** Names with a meaning of their own, decided by where a rule is written. */
export interface SpecialName {
  name: SpecialNameWord;
  doc: string;
  /** Its type, as a pack writes types. */
  type: string;
  /** Where it means something: everywhere, in a card's rules, inside `where` or per-element arguments, in `modify`. */
  scope: 'everywhere' | 'card' | 'element' | 'modify';
}
export type SpecialNameWord = 'me' | 'current' | 'players' | 'game' | 'self' | 'holder' | 'it' | 'value';

export const specialNames = [
  { name: 'me', doc: "the player the rule acts for: the one choosing an action, the card's holder in a card's trigger, the one asking for a pipeline's value", type: 'player', scope: 'everywhere' },
  { name: 'current', doc: 'the player whose `turn` it is', type: 'player', scope: 'everywhere' },
  { name: 'players', doc: 'all players, `p1` … `pN`, in seat order', type: 'list<player>', scope: 'everywhere' },
  { name: 'game', doc: 'the game entity (`game.round`)', type: 'game', scope: 'everywhere' },
  { name: 'self', doc: 'the card a rule is written on', type: 'the card’s kind', scope: 'card' },
  { name: 'holder', doc: "the player for whom the card's rule works now (by its role)", type: 'player', scope: 'card' },
  { name: 'it', doc: 'the element, in `where` and per-element arguments', type: 'the element’s type', scope: 'element' },
  { name: 'value', doc: 'in `modify`: the pipeline’s value so far', type: 'the pipeline’s type', scope: 'modify' },
] as const satisfies readonly SpecialName[];

export const specialNameSet: ReadonlySet<string> = new Set(specialNames.map((s) => s.name));

/** Types every pack has; a pack adds its enums and kinds. */
export const typeNames = ['number', 'bool', 'text', 'list'] as const;

/** Kinds every pack has without declaring them: the players and the game. */
export const builtinKinds = ['player', 'game'] as const;

/** Names a pack may not give an entity: keywords and special names (`me`, `holder` …). */
export function isReservedName(name: string): boolean {
  return keywordSet.has(name) || specialNameSet.has(name);
}

/** What the parser says it expected where a declaration should start: `fn, proc, action …`. */
export function declarationList(): string {
  const ks = declarations.map((d) => d.keyword);
  return `${ks.slice(0, -1).join(', ')} or ${ks[ks.length - 1]}`;
}
