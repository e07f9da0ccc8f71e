import type { Check } from './compiled.ts';
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

/** How many of `a`'s first checks are `b`'s, up to the last shared `require` (the `let`s are run again anyway): by pair, found once. */
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

/** What a listing knows of an action's candidates for one player: its domain, and where each candidate's checks failed (-1: none). */
interface Answers {
  a: ActionCode;
  domain: string;
  actor: string;
  values: Value[];
  failedAt: Int32Array;
}

/** The answers an action may take: another action's, its first `from` checks being the same. */
export interface Shared {
  values: Value[];
  failedAt: Int32Array;
  from: number;
}

/** The answers of one listing (`legalChoices`, `playoutChoices`), action after action. */
export class ListingChecks {
  private readonly answers: Answers[] = [];

  /** The answers `a`, listed for `actor`, may take: those of the action sharing the most checks with it. */
  sharedWith(a: ActionCode, actor: string): Shared | undefined {
    if (!this.answers.length) return undefined;
    const domain = writtenOf(a).domain;
    if (domain === '') return undefined;
    let best: Shared | undefined;
    for (let i = 0; i < this.answers.length; i++) {
      const x = this.answers[i];
      if (x.actor !== actor || x.domain !== domain || x.a === a) continue;
      const from = samePrefix(a, x.a);
      if (from > 0 && (!best || from > best.from)) best = { values: x.values, failedAt: x.failedAt, from };
    }
    return best;
  }

  /** `a`'s answers for `actor` (its domain's `values`), for the actions listed after it. */
  keep(a: ActionCode, actor: string, values: Value[], failedAt: Int32Array): void {
    const domain = writtenOf(a).domain;
    if (domain !== '') this.answers.push({ a, domain, actor, values, failedAt });
  }
}
