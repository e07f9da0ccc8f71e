import type { CompiledPack } from '../compiled.ts';
import { cloneState } from '../clone.ts';
import { estimates, preferences } from '../estimate.ts';
import { playDriven, playoutApplyChoice, standings } from '../index.ts';
import type { Choice, GameState } from '../types.ts';
import { choicesOfAsked, decisionRandom } from './decision.ts';
import { dealer } from './determinise.ts';
import { preferred } from './prefer.ts';
import type { Agent, AgentKind } from './index.ts';

export interface MctsOptions {
  /** Searches (one world, one path down the tree, one playout) per decision. */
  iterations: number;
  /** Every seat plays for the table: one reward, the mean of the players' scores, and shared hands. */
  team: boolean;
  /**
   * Keeps the subtree under its pick for its next decision when that comes straight after it. The
   * pick then also depends on the search before it: a bot taking over a game in the middle of such
   * a run of decisions may pick otherwise than one that played it from the start.
   */
  reuse: boolean;
  /** With a pack's `scoring: estimate`, a playout stops after this many choices and is valued by it. */
  depth: number;
  /**
   * Values a leaf as if the turn of the decision had ended, so that a state before that end is not
   * valued above the one after it only because what the end brings (a draw, the others' or the
   * game's moves) has not come yet. `turn`: a playout first plays on at random to the start of the
   * next turn, then its `depth` choices. `learned` (with a pack's estimate): every leaf is moved to
   * the end of the decision's turn by the mean change the search has seen a turn's end make (leaves
   * first reached just past one, against their parents); no playout is longer.
   */
  horizon?: 'turn' | 'learned';
  /**
   * How a playout picks (with a pack's estimate): `random` (the default), or `greedy`: at each of its
   * `depth` choices every legal choice is tried on a copy and the one whose state the estimate
   * values best for the player asked (the table, in team mode) is taken; one in ten (`noise`) is
   * picked at random, so that the search sees more than one line. A choice of a greedy playout costs as many
   * choices and estimates as there are legal choices: a playout that plays as a player might,
   * rather than one whose random moves and wasted turns lose whatever the tree chose. `prefer` (with
   * a pack's `scoring: prefer`): each choice is the one the pack's preference likes most, one in ten
   * (`noise`) at random; no state is copied, so a playout costs about what a random one does.
   */
  policy?: 'greedy' | 'prefer';
  /**
   * The percentage of a greedy or preferred playout's choices picked at random (default 10). At 0
   * a preferred playout is the preference's own game, its ties aside: what the worlds dealt anew
   * and the reseeded dice make of it is then all that differs between playouts. An explicit 10
   * plays other games than the default: the bot's generator is seeded by its name.
   */
  noise?: number;
  /**
   * With a pack's `scoring: prefer`: the tree considers at each decision only the choices the
   * preference ranks among its `prune` best (those tied with the last of them too), so that few
   * iterations are spent on the choices the pack's plan would not make; a game decided by many
   * small choices is then searched where the plan hesitates.
   */
  prune?: number;
  /**
   * With a pack's `scoring: prefer`: the preference as a prior (PUCT). A choice's share of the
   * search's attention starts as exp((its preference − the best's) / `prior`), so `prior` is how
   * many of the preference's points make a choice e times less likely to be looked at; the
   * choices are then visited by their value plus that share, and the pick is the one visited most
   * (ties to the preference). With few iterations, or values that do not tell the choices apart
   * (every playout lost), the search plays as the preference does; it leaves it where the values
   * disagree clearly. Without it, every legal choice is tried once before any twice (UCT).
   */
  prior?: number;
  /**
   * How a leaf is valued: `estimate` (the default) by the pack's `scoring: estimate` at the cut
   * (`depth`), or `end`: the playout goes on to the game's end and the leaf is worth its score
   * there, not the estimate (which a greedy playout still reads to pick its choices). With
   * `policy=prefer` a leaf is then worth what the preference makes of it, a real outcome.
   */
  value?: 'estimate' | 'end';
  /**
   * With a pack's `scoring: prefer`: searches only where the preference hesitates. When its best
   * choice is more than `close` points above every other the bot plays it without a search;
   * otherwise the search considers the choices within `close` points of the best (and `prune`
   * still applies). A game of many choices then spends its iterations on the few that are close.
   * At the decision only: below it the tree considers every legal choice, or `prune`'s.
   */
  close?: number;
  /**
   * Stops searching after this many milliseconds even if iterations are left. The pick then depends
   * on the machine's speed: for a person's opponent, never for figures that must replay.
   */
  ms?: number;
}

/** A playout that reaches this many choices without an end or an estimate is counted as a draw. */
export const PLAYOUT_CAP = 3000;
/** UCT's exploration weight, for rewards scaled to 0..1. */
const EXPLORE = 0.7;
/** PUCT's weight of a choice's prior share (`prior`), for rewards scaled to 0..1. */
const EXPLORE_PRIOR = 1.5;
/** How often a greedy or preferred playout's choice is picked at random instead, unless `noise` says. */
const EPSILON = 0.1;

/** A node of the search: the choice that led here, by whom, and what came of it. */
interface Node {
  by: string | null;
  visits: number;
  /** Sum of the rewards of `by` over the visits. */
  total: number;
  /** How many of the visits to the parent this choice was legal in (worlds differ in what is legal). */
  avail: number;
  children: Map<string, Node>;
  /**
   * The preference's points for each choice seen legal here, by id, read in the first world that
   * listed it (at the decision, in the real state): a visit reads only the choices no earlier
   * visit listed, not the whole list again.
   */
  prefs?: Map<string, number>;
  /** With `horizon: learned`, the state's turn and the estimates of the world it was first reached in. */
  turn?: number;
  estimate?: Map<string, number>;
}

const node = (by: string | null): Node => ({ by, visits: 0, total: 0, avail: 0, children: new Map() });

/** With `horizon: learned`: the decision's turn, and the change a turn's end made, summed by player over `seen` leaves. */
interface TurnEnd {
  turn: number;
  change: Map<string, number>;
  seen: number;
}

/**
 * Information-set Monte Carlo tree search (single observer) through `legalChoices` and `apply` (in
 * playout mode on the worlds it deals, `playoutApplyChoice`: in place, no log line, no record read)
 * alone. Each iteration deals a world consistent with what the player sees (`dealer`), walks
 * the tree among the choices legal in that world (counting how often each was available) by UCT,
 * or by PUCT with the pack's preference as the prior (`prior`), adds one node, plays on (at random,
 * or by `policy`) to the end, or to `depth` choices when the pack declares an estimate and
 * `value` is not `end`, and backs the reward up: each node is scored for the player who made its
 * choice. The pick is the most visited of the legal choices (ties to the preference under
 * `prior`, then to the better mean). All randomness comes from a generator seeded by the game's
 * seed, the bot's name, the player and the step, so the pick depends on those and the state alone.
 *
 * The reward of a player is their score's lead over the best other player (a draw is 0), by the
 * pack's `scoring` at the end or its `estimate` at the cut; in team mode (or alone at the table)
 * it is the mean score of the table. Rewards are scaled to 0..1 by the range the search has seen.
 */
export function mctsAgent(pack: CompiledPack, seed: number | string, player: string, o: MctsOptions, kind: AgentKind = `mcts:${o.iterations}`): Agent {
  let kept: { choices: string[]; root: Node } | undefined;
  return {
    kind,
    choose(state, legal, who) {
      if (legal.length === 1) return legal[0];
      const random = decisionRandom(seed, kind, player, state);
      const root = (o.reuse && kept && continues(kept.choices, state.choices) && kept.root) || node(null);
      // A kept root's points were read in one of the last search's worlds, whose dice and hidden
      // cards were its own: what this decision skips (`close`), prunes or breaks ties by is read anew.
      root.prefs = undefined;
      const observers = o.team ? state.players : [who];
      const range = { lo: Infinity, hi: -Infinity };
      const end: TurnEnd | undefined = o.horizon === 'learned' ? { turn: state.turn, change: new Map(), seen: 0 } : undefined;
      if (end) root.turn = state.turn;
      const started = o.ms === undefined ? 0 : performance.now();
      const offered = considered(pack, state, root, legal, o, o.close);
      if (offered.length === 1) return offered[0];
      // The prior at the decision is read here, in the real state, as `close` and `prune` read it:
      // read in the first world dealt, it would be of that world's hidden cards.
      if (o.prior !== undefined) preferenceAt(pack, state, root, offered);
      const deal = dealer(pack, state, observers);
      for (let i = 0; i < o.iterations; i++) {
        if (o.ms !== undefined && performance.now() - started > o.ms) break;
        iterate(pack, deal(random), root, offered, o, random, range, end);
      }
      const pick = best(root, offered, o.prior !== undefined) ?? offered[Math.floor(random() * offered.length)];
      kept = o.reuse ? { choices: [...state.choices, pick.id], root: root.children.get(pick.id) ?? node(who) } : undefined;
      return pick;
    },
  };
}

/**
 * The choices of `legal` the search considers at `at`: with `close`, those within `close` points of
 * the preference's best; of those, with `prune`, the ones it ranks among its `prune` best, ties with
 * the last kept included. All of them without either or without a preference.
 */
function considered(pack: CompiledPack, st: GameState, at: Node, legal: Choice[], o: MctsOptions, close: number | undefined): Choice[] {
  if (close === undefined && (o.prune === undefined || legal.length <= o.prune)) return legal;
  const values = preferenceAt(pack, st, at, legal);
  if (!values) return legal;
  const sorted = [...values].sort((a, b) => b - a);
  let bar = close === undefined ? -Infinity : sorted[0] - close;
  if (o.prune !== undefined && sorted.length > o.prune) bar = Math.max(bar, sorted[o.prune - 1]);
  return legal.filter((_, i) => values[i] >= bar);
}

/** The preference's points for each of `legal` at `at`, read once per choice and node (`Node.prefs`); undefined without a preference. */
function preferenceAt(pack: CompiledPack, st: GameState, at: Node, legal: Choice[]): number[] | undefined {
  if (!pack.rules.prefer) return undefined;
  const known = (at.prefs ??= new Map());
  const unread = legal.filter((c) => !known.has(c.id));
  if (unread.length) {
    const values = preferences(pack, st, unread)!;
    unread.forEach((c, i) => known.set(c.id, values[i]));
  }
  return legal.map((c) => known.get(c.id)!);
}

/** Whether `now` is `before` and one more choice: the game went on straight from the kept pick. */
function continues(before: string[], now: string[]): boolean {
  return now.length === before.length && now.every((c, i) => c === before[i]);
}

/** The legal choice searched most, then (`byPreference`) the one the preference likes more, then with the best mean; undefined when none was searched. */
function best(root: Node, legal: Choice[], byPreference: boolean): Choice | undefined {
  let top: Choice | undefined;
  let visits = 0;
  let liked = -Infinity;
  let mean = -Infinity;
  for (const c of legal) {
    const n = root.children.get(c.id);
    if (!n?.visits) continue;
    const m = n.total / n.visits;
    const l = byPreference ? (root.prefs?.get(c.id) ?? 0) : 0;
    if (n.visits > visits || (n.visits === visits && (l > liked || (l === liked && m > mean)))) (top = c), (visits = n.visits), (liked = l), (mean = m);
  }
  return top;
}

/**
 * One iteration in `world`. At the root the choices are `offered`, the real state's, in every world:
 * the player is shown what they may do, so that is part of what they see, and listing it again in
 * each world was the dearest part of a shallow iteration. A world in which one of them is refused
 * (legality read from a field dealt anew) ends the iteration there. The world is this iteration's
 * own (`dealer` deals a copy), so its choices are applied to it in place, in playout mode: no
 * log line is written, nobody reads one.
 */
function iterate(pack: CompiledPack, world: GameState, root: Node, offered: Choice[], o: MctsOptions, random: () => number, range: { lo: number; hi: number }, end?: TurnEnd): void {
  let st = world;
  let at = root;
  let parent: Node | undefined;
  if (end && !root.estimate) root.estimate = estimated(pack, world);
  const path: Node[] = [];
  while (!st.over) {
    const asked = st.prompt?.player;
    if (!asked) break;
    const legal = at === root ? offered : considered(pack, st, at, choicesOfAsked(st), o, undefined);
    if (!legal.length) break;
    const untried: Choice[] = [];
    for (const c of legal) {
      const child = at.children.get(c.id);
      if (child) child.avail++;
      else untried.push(c);
    }
    const led = o.prior !== undefined && legal.length > 1 ? ledPick(pack, st, at, legal, o.prior, range) : undefined;
    let pick: Choice;
    if (led) pick = led;
    else if (untried.length) pick = untried[Math.floor(random() * untried.length)];
    else {
      pick = legal[0];
      let top = -Infinity;
      for (const c of legal) {
        const n = at.children.get(c.id)!;
        const u = scaled(n.total / n.visits, range) + EXPLORE * Math.sqrt(Math.log(n.avail) / n.visits);
        if (u > top) (top = u), (pick = c);
      }
    }
    let next = at.children.get(pick.id);
    const expanded = !next;
    if (!next) {
      next = node(asked);
      next.avail = 1;
      at.children.set(pick.id, next);
    }
    const r = playoutApplyChoice(st, pick);
    if (!r.ok) {
      // Refused in this world only: a choice searched in others keeps what they found.
      if (!next.visits) at.children.delete(pick.id);
      break;
    }
    st = r.state;
    path.push(next);
    parent = at;
    at = next;
    if (expanded) break;
  }
  const reward = playout(pack, st, o, random, end && ((guessed, leaf) => learnTurnEnd(end, leaf, at, parent, guessed)));
  root.visits++;
  for (const n of path) {
    const v = reward(n.by!);
    n.visits++;
    n.total += v;
    if (v < range.lo) range.lo = v;
    if (v > range.hi) range.hi = v;
  }
}

/**
 * PUCT's pick at `at` with the preference as the prior (`MctsOptions.prior`): each choice's scaled
 * mean (a choice not yet visited counts its visited siblings' mean, 0.5 before any) plus its prior
 * share times √(visits here + 1) / (its visits + 1).
 */
function ledPick(pack: CompiledPack, st: GameState, at: Node, legal: Choice[], temperature: number, range: { lo: number; hi: number }): Choice | undefined {
  const values = preferenceAt(pack, st, at, legal);
  if (!values) return undefined;
  // A loop, not a spread: a spread of a pack's hundred thousand choices overflows the call stack.
  let top = -Infinity;
  for (const v of values) if (v > top) top = v;
  const weights = values.map((v) => Math.exp((v - top) / temperature));
  const sum = weights.reduce((a, b) => a + b, 0);
  let visits = 0;
  let total = 0;
  for (const c of legal) {
    const n = at.children.get(c.id);
    if (n) (visits += n.visits), (total += n.total);
  }
  const unvisited = visits ? scaled(total / visits, range) : 0.5;
  const reach = Math.sqrt(visits + 1);
  let pick: Choice | undefined;
  let best = -Infinity;
  legal.forEach((c, i) => {
    const n = at.children.get(c.id);
    const q = n?.visits ? scaled(n.total / n.visits, range) : unvisited;
    const u = q + (EXPLORE_PRIOR * weights[i] * reach) / sum / (1 + (n?.visits ?? 0));
    if (u > best) (best = u), (pick = c);
  });
  return pick;
}

function scaled(v: number, range: { lo: number; hi: number }): number {
  return range.hi > range.lo ? (v - range.lo) / (range.hi - range.lo) : 0.5;
}

/**
 * With `horizon: learned`, at the leaf `at` (reached from `parent`), its playout ended in `st`, valued
 * `guessed`. A leaf first reached just past a turn's end tells how much that end changed the
 * estimates; every leaf is then moved to the end of the decision's turn by the mean change seen so
 * far: one turn's end added to a leaf still in that turn, one taken off a leaf a turn further on.
 */
function learnTurnEnd(end: TurnEnd, st: GameState, at: Node, parent: Node | undefined, guessed: Map<string, number>): void {
  const first = !at.estimate;
  if (first) (at.turn = st.turn), (at.estimate = new Map(guessed));
  if (st.over) return;
  if (first && parent?.estimate && parent.turn === st.turn - 1) {
    for (const [p, v] of guessed) end.change.set(p, (end.change.get(p) ?? 0) + v - (parent.estimate.get(p) ?? v));
    end.seen++;
  }
  const ends = 1 - (st.turn - end.turn);
  if (end.seen && ends) for (const [p, v] of guessed) guessed.set(p, v + (ends * (end.change.get(p) ?? 0)) / end.seen);
}

/** Plays on from `st` (at random, or greedily by `policy`) and gives each player's reward where it stopped (at the end with `value: end`); `valued` may adjust the estimates there. */
function playout(pack: CompiledPack, st: GameState, o: MctsOptions, random: () => number, valued?: (guessed: Map<string, number>, st: GameState) => void): (player: string) => number {
  const turn = st.turn;
  let steps = 0;
  const greedy = o.policy === 'greedy' && pack.rules.estimate;
  const preferring = o.policy === 'prefer' && pack.rules.prefer;
  const noise = o.noise === undefined ? EPSILON : o.noise / 100;
  const play = (from: GameState, at: number, cut: number, going: Going) =>
    greedy ? playGreedily(pack, from, random, at, cut, going, o.team, noise) : preferring ? playPreferred(pack, from, random, at, cut, going, noise) : playOn(from, random, at, cut, going);
  const cut = o.value !== 'end' && pack.rules.estimate;
  if (cut && o.horizon === 'turn') ({ st, steps } = play(st, 0, PLAYOUT_CAP, (s) => s.turn === turn));
  ({ st } = play(st, steps, cut ? steps + o.depth : PLAYOUT_CAP, () => true));
  // With an estimate every leaf is valued by it, the game's end too: a reward then has one unit
  // whether the playout ended or was cut, and an estimate may grade what the score only counts
  // as won or lost.
  const guessed = cut ? estimated(pack, st) : undefined;
  if (guessed) {
    valued?.(guessed, st);
    return rewards(st, guessed, o.team);
  }
  if (st.over) return rewards(st, scoresAtEnd(st), o.team);
  return o.team || st.players.length === 1 ? rewards(st, scoresAtEnd(st), true) : () => 0;
}

type Going = (st: GameState) => boolean;

/** Random choices from `st` while `going` holds, the game is on and fewer than `cut` steps were played. */
function playOn(st: GameState, random: () => number, steps: number, cut: number, going: Going): { st: GameState; steps: number } {
  // In playout mode, driven: a rollout's record is never read, only the records of the state it
  // ends in, or the game played on from it (`horizon=turn`): the locals its frames may hold apart
  // from stepping's are never read before they are written (`exact: false`).
  const from = st.choices.length - steps;
  const end = playDriven(st, (n) => Math.floor(random() * n), { asked: true, exact: false, stopBefore: () => st.choices.length - from >= cut || !going(st) });
  return { st, steps: steps + end.made };
}

/** Choices from `st` by the pack's preference (`preferred`), with chance `noise` a random one, while `going` holds, the game is on and fewer than `cut` steps were played. */
function playPreferred(pack: CompiledPack, st: GameState, random: () => number, steps: number, cut: number, going: Going, noise: number): { st: GameState; steps: number } {
  for (; !st.over && steps < cut && going(st); steps++) {
    const legal = choicesOfAsked(st);
    if (!legal.length) break;
    const pick = legal.length === 1 || random() < noise ? legal[Math.floor(random() * legal.length)] : preferred(pack, st, legal, random);
    const r = playoutApplyChoice(st, pick);
    if (!r.ok) break;
    st = r.state;
  }
  return { st, steps };
}

/**
 * Choices from `st` while `going` holds and fewer than `cut` steps were played, each the legal
 * choice after which the estimate is best for the player asked (the table's mean in team mode,
 * else their lead over the best other), ties broken at random, or with chance `noise` a random one.
 */
function playGreedily(pack: CompiledPack, st: GameState, random: () => number, steps: number, cut: number, going: Going, team: boolean, noise: number): { st: GameState; steps: number } {
  for (; !st.over && steps < cut && going(st); steps++) {
    const asked = st.prompt?.player;
    const legal = asked ? choicesOfAsked(st) : [];
    if (!legal.length) break;
    if (legal.length === 1 || random() < noise) {
      const r = playoutApplyChoice(st, legal[Math.floor(random() * legal.length)]);
      if (!r.ok) break;
      st = r.state;
      continue;
    }
    let pick: Choice | undefined;
    let top = -Infinity;
    let ties = 0;
    for (const c of legal) {
      const r = playoutApplyChoice(cloneState(st), c);
      if (!r.ok) continue;
      const guessed = estimated(pack, r.state);
      if (!guessed) return { st, steps };
      const v = rewards(r.state, guessed, team)(asked!);
      if (v > top) (top = v), (pick = c), (ties = 1);
      else if (v === top && random() * ++ties < 1) pick = c;
    }
    if (!pick) break;
    // The pick's own dice are rolled anew: each choice was tried with one roll, and keeping the
    // roll that made the best choice look best would make every risk in a playout come off.
    st.rng = Math.floor(random() * 4294967296) >>> 0;
    const r = playoutApplyChoice(st, pick);
    if (!r.ok) break;
    st = r.state;
  }
  return { st, steps };
}

function scoresAtEnd(st: GameState): Map<string, number> {
  return new Map(standings(st).map((r) => [r.player, r.score]));
}

/** The pack's estimates, or undefined when it declares none or one cannot be computed here. */
function estimated(pack: CompiledPack, st: GameState): Map<string, number> | undefined {
  try {
    const values = estimates(pack, st);
    return values && new Map(st.players.map((p, i) => [p, values[i]]));
  } catch {
    return undefined;
  }
}

function rewards(st: GameState, scores: Map<string, number>, team: boolean): (player: string) => number {
  if (team || st.players.length === 1) {
    let sum = 0;
    for (const v of scores.values()) sum += v;
    const table = sum / Math.max(1, scores.size);
    return () => table;
  }
  return (p) => {
    let other = -Infinity;
    for (const [q, v] of scores) if (q !== p && v > other) other = v;
    return (scores.get(p) ?? 0) - other;
  };
}
