import type { Check, Expr } from './compiled.ts';
import type { ActionCode } from './program.ts';
import type { Value } from './types.ts';

/**
 * Checks that several actions share, run once per candidate in a listing, not once per action.
 *
 * Actions offered together often list the same candidates and begin with the same checks (a pack's
 * shared `check` and pipelines: is this square free, is it in reach), then differ (move there, or
 * build there). In one listing the state cannot change, so where two actions of one
 * parameter have the same domain for the same player and card and the same first checks, written
 * out the same, those checks give the same answer for each candidate: the later action takes the
 * earlier one's answers and runs only its own checks after them. A candidate refused by a shared
 * check is refused by the same check, as it would have been; only the work is not done again.
 * Which choices are legal, and the reason an illegal one is refused (`apply` runs every check),
 * stay as they were.
 *
 * Their `let`s' values are taken too, per candidate, where the earlier action computed them: those
 * among the shared checks, and, after them, a `let` written the same as one of the earlier
 * action's that reads no variable but the parameter (the same candidate gives it the same value
 * wherever it stands). A value taken is not computed again, so, as for the shared `require`s, its
 * evaluation spends no budget.
 */

/** An action's checks and domain written out: equal texts, equal answers in one state. */
interface Written {
  /** Its one parameter's domain with its card binding (`self`, `holder`); '' for another number of parameters. */
  domain: string;
  /** Each leading check: a `let` with its variable, a `require` without its reason (listing reads none). */
  checks: string[];
}

/** Written out when first listed: a pack edited in the playground is linked at each edit, and most of its actions are never compared. */
const written = new WeakMap<ActionCode, Written>();

function writtenOf(a: ActionCode): Written {
  let w = written.get(a);
  if (!w) {
    const { checks, domain } = a.lowered;
    w = { domain: domain ? `${a.card ? a.card.key : ''} ${JSON.stringify(domain)}` : '', checks: checks.map(checkKey) };
    written.set(a, w);
  }
  return w;
}

function checkKey(k: Check): string {
  return 'slot' in k ? `let ${k.slot} ${JSON.stringify(k.value)}` : `require ${JSON.stringify(k.cond)}`;
}

/** How many of `a`'s first checks are `b`'s, up to the last shared `require`: by pair, found once. */
const prefixes = new WeakMap<ActionCode, Map<ActionCode, number>>();

function samePrefix(a: ActionCode, b: ActionCode): number {
  let byOther = prefixes.get(a);
  if (!byOther) prefixes.set(a, (byOther = new Map()));
  let n = byOther.get(b);
  if (n === undefined) {
    const x = writtenOf(a).checks;
    const y = writtenOf(b).checks;
    n = 0;
    for (let i = 0; i < x.length && i < y.length && x[i] === y[i]; i++) if (x[i].startsWith('require ')) n = i + 1;
    byOther.set(b, n);
  }
  return n;
}

/**
 * The `let`s whose values a listing keeps: each at a place that fits in `holdsWith`'s mask of
 * checks not run, in a slot no other of the action's `let`s or `where`s in its checks writes (the
 * slot holds its value once the checks have run).
 */
export interface Lets {
  places: number[];
  slots: number[];
  /** Reads no variable but the action's parameter (and those its own `where`s bind). */
  free: boolean[];
  keys: string[];
}

/** Whether `holdsWith`'s mask of `let`s not run has a bit for `place` (a `let` past them is always run). */
export function maskable(place: number): boolean {
  return place <= 30;
}

const letsOfAction = new WeakMap<ActionCode, Lets>();

export function letsOf(a: ActionCode): Lets {
  let l = letsOfAction.get(a);
  if (!l) {
    const { checks } = a.lowered;
    const keys = writtenOf(a).checks;
    const count = new Map<number, number>();
    const add = (slot: number) => count.set(slot, (count.get(slot) ?? 0) + 1);
    for (const k of checks) {
      if ('slot' in k) add(k.slot);
      walk('slot' in k ? k.value : k.cond, (node) => {
        if (node.op === 'where' && (node.slot as number) >= 0) add(node.slot as number);
      });
    }
    l = { places: [], slots: [], free: [], keys: [] };
    checks.forEach((k, i) => {
      if (!('slot' in k) || !maskable(i) || count.get(k.slot) !== 1) return;
      l!.places.push(i);
      l!.slots.push(k.slot);
      l!.free.push(readsOnly(k.value, a.params.length));
      l!.keys.push(keys[i]);
    });
    letsOfAction.set(a, l);
  }
  return l;
}

/** Whether `e` reads no variable but the first `params` slots and those its own `where`s bind. */
function readsOnly(e: Expr, params: number): boolean {
  const bound = new Set<number>();
  const read: number[] = [];
  walk(e, (node) => {
    if (node.op === 'local') read.push(node.slot as number);
    if (node.op === 'where' && (node.slot as number) >= 0) bound.add(node.slot as number);
  });
  return read.every((s) => s < params || bound.has(s));
}

/** Each node of `e`, not looking into constants. */
function walk(e: unknown, visit: (node: { op?: unknown; slot?: unknown }) => void): void {
  if (Array.isArray(e)) for (const x of e) walk(x, visit);
  else if (e !== null && typeof e === 'object') {
    const node = e as { op?: unknown; slot?: unknown };
    if (node.op === 'const') return;
    visit(node);
    for (const v of Object.values(e)) walk(v, visit);
  }
}

/**
 * Which of `a`'s `let`s take their values from `b`'s (`from` checks being shared): for each, `a`'s
 * slot and mask bit, the index among `b`'s kept `let`s, and `b`'s place that a candidate must have
 * passed in `b` for it to be known. By pair, found once.
 */
export interface Carry {
  slots: number[];
  bits: number[];
  source: number[];
  at: number[];
}

const carries = new WeakMap<ActionCode, Map<ActionCode, Carry>>();

function carryOf(a: ActionCode, b: ActionCode, from: number): Carry {
  let byOther = carries.get(a);
  if (!byOther) carries.set(a, (byOther = new Map()));
  let c = byOther.get(b);
  if (!c) {
    const mine = letsOf(a);
    const theirs = letsOf(b);
    c = { slots: [], bits: [], source: [], at: [] };
    for (let k = 0; k < mine.places.length; k++) {
      const place = mine.places[k];
      // Among the shared checks, the same `let` at the same place; after them, one that reads no other variable, wherever it stands.
      const s = place < from ? theirs.places.indexOf(place) : mine.free[k] ? theirs.keys.indexOf(mine.keys[k]) : -1;
      if (s < 0 || theirs.keys[s] !== mine.keys[k]) continue;
      c.slots.push(mine.slots[k]);
      c.bits.push(1 << place);
      c.source.push(s);
      c.at.push(theirs.places[s]);
    }
    byOther.set(b, c);
  }
  return c;
}

/**
 * What a listing knows of an action's candidates for one player: its domain, where each
 * candidate's checks failed (-1: none), its kept `let`s' values (`letsOf`, candidate after
 * candidate) and, per candidate, the place before which those are known (0 when its checks were
 * not run).
 */
interface Answers {
  a: ActionCode;
  domain: string;
  actor: string;
  values: Value[];
  failedAt: number[];
  lets: Value[];
  known: number[];
}

/** The answers an action may take: another action's, its first `from` checks being the same, and which of its `let`s' values it takes. */
export interface Shared {
  values: Value[];
  failedAt: number[];
  from: number;
  lets: Value[];
  stride: number;
  known: number[];
  carry: Carry;
}

/** The answers of one listing (`legalChoices`, `playoutChoices`), action after action. */
export class ListingChecks {
  private readonly answers: Answers[] = [];

  /** Whether an action listed before kept its answers: else none can be taken. */
  none(): boolean {
    return this.answers.length === 0;
  }

  /** The answers `a`, listed for `actor`, may take: those of the action sharing the most checks with it. */
  sharedWith(a: ActionCode, actor: string): Shared | undefined {
    if (!this.answers.length) return undefined;
    const domain = writtenOf(a).domain;
    if (domain === '') return undefined;
    let best: Answers | undefined;
    let bestFrom = 0;
    for (let i = 0; i < this.answers.length; i++) {
      const x = this.answers[i];
      if (x.actor !== actor || x.domain !== domain || x.a === a) continue;
      const from = samePrefix(a, x.a);
      if (from > bestFrom) {
        best = x;
        bestFrom = from;
      }
    }
    if (!best) return undefined;
    const { values, failedAt, lets, known } = best;
    return { values, failedAt, from: bestFrom, lets, stride: letsOf(best.a).places.length, known, carry: carryOf(a, best.a, bestFrom) };
  }

  /** `a`'s answers for `actor` (its domain's `values`, its kept `let`s' values), for the actions listed after it. */
  keep(a: ActionCode, actor: string, values: Value[], failedAt: number[], lets: Value[], known: number[]): void {
    const domain = writtenOf(a).domain;
    if (domain !== '') this.answers.push({ a, domain, actor, values, failedAt, lets, known });
  }
}
