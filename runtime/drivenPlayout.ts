import { watching } from './engine.ts';
import { drivable, drivenListing, drivenListingOf, drivenPick, flowStartOf, keepListing, playoutApply, playoutApplyListed, playoutChoices, playoutChoicesInto, playoutFromStart, type DrivenListing } from './index.ts';
import { drivePromptsWith, NOT_DRIVEN, offerPrompt, reuseOffersOf, type PromptDriver } from './prompts.ts';
import type { BudgetName } from './refusal.ts';
import { metaOf, type FlowStart } from './stateMeta.ts';
import { noteFirstWritesOf, restoreFirstWrites } from './undo.ts';
import type { ApplyResult, GameState } from './types.ts';

/**
 * A playout driven: a game in playout mode played on its own state, in place, by a picker, without
 * suspending at each prompt. Stepping a playout (`playoutChoices`, then `playoutApply`) makes every
 * prompt write its frames as the rule that asked unwinds, and every choice resume them; nobody
 * reads them between two choices of a playout. Driven, a prompt the flow reaches is listed, its
 * choice picked and made where it was asked (`drivenPick`), and the rule that asked goes on from
 * there, the state the same byte for byte as stepping makes it (test/playout-driven.test.ts).
 *
 * Each choice gets a choice's budget, counted as stepping counts it: its listing one, its making and
 * the rules up to the next prompt another. A drive runs inside the `playoutApply` of the choice that
 * began it, whose undo puts the state back where it began, whatever the drive wrote. A new game
 * still its kept setup's copy is driven from its flow's start instead (`playoutFromStart`): its
 * first prompt is met under the drive as any other, where a drive begun at it lists it outside and
 * resumes the frames its setup left, the rest of that round through the interpreter; its undo puts
 * it back at that prompt, its setup's copy again. Where driving
 * cannot do what stepping does, it stops and that undo puts the state back, and the same picks are
 * made again by stepping, from where the drive began:
 * - a choice refused (a `require`, a budget, any `Refusal`): stepping then gives the refusal with its
 *   reason and rule, or its listing throws, as it would;
 * - the picker stops, or nothing may be chosen: the frames of the prompt the game then waits at are
 *   stepping's own. (Stepping resumes each frame with a copy of the locals it kept; the blocks of a
 *   driven rule share theirs, so a block's frame written where a drive stops would keep the values
 *   its inner blocks left in their locals, which stepping's does not: never read, but not the same
 *   bytes.)
 * - the picker or `stopBefore` throws: thrown again once stepping gets to where it was thrown;
 * - the stack runs out (`driven`).
 * A pack with an `anytime` action is stepped: its choice asks the prompt again from a frame.
 */

/**
 * The place of the choice to make among `n` listed for `player` (`playoutChoices`' order), or -1 to
 * stop before it. The state and its `prompt` are valid only during the call: a drive reuses one
 * prompt object for the offers it meets and plays the state on in place, so a picker that keeps
 * either past its call must copy it.
 */
export type Picker = (n: number, player: string) => number;

/** How a driven playout ended, and how many choices it made: over, stopped by the picker, at a prompt with no choice, or refused. */
export type DrivenEnd =
  | { ok: true; made: number; end: 'over' | 'stopped' | 'none' }
  | { ok: false; made: number; reason: string; rule?: string; budget?: BudgetName };

interface Drive {
  state: GameState;
  pick: Picker;
  asked: boolean;
  stopBefore: ((player: string) => boolean) | undefined;
  /** Whether a stop puts the drive back and steps to where it stopped (else the game suspends where it stopped). */
  exact: boolean;
  /** The picks made while driven, the first the one that began the drive. */
  picks: number[];
  /** Whether a prompt was listed while driven: a refusal may then be one that stepping meets elsewhere. */
  listed: boolean;
  /** The listing of the prompt the drive began at (`playoutChoicesInto`), its first pick made of it; null for a drive begun at the flow's start (`playoutFromStart`), which lists its first prompt as any other. */
  first: DrivenListing | null;
  /** The listing of the prompt asked now. */
  listing: DrivenListing;
  /** Whether `stopBefore` was asked already at the prompt met next: the first of a drive from the flow's start, asked before it began. */
  beforeAsked: boolean;
  /** Why the drive stopped at a prompt (`before`: before listing it), or null. */
  end: 'before' | 'stopped' | 'none' | null;
  /** What the picker or `stopBefore` threw, to throw again once the game is where it was asked (`listed`: by the picker, the prompt listed). */
  thrown: { error: unknown; listed: boolean } | null;
}

let drive: Drive | null = null;

/** Thrown to end a drive at a prompt: past every frame of the rules, to the undo of the choice that began it. */
const STOP = new Error('a driven playout stops');

const atPrompt: PromptDriver = (c, body, slot) => {
  const d = drive;
  const st = c.st;
  if (d === null || st !== d.state) return NOT_DRIVEN;
  const player = st.prompt!.player;
  let before = false;
  if (d.beforeAsked) d.beforeAsked = false;
  else {
    try {
      before = d.stopBefore !== undefined && d.stopBefore(player);
    } catch (e) {
      return thrown(d, e, false);
    }
  }
  if (before) {
    d.end = 'before';
    return stop(d);
  }
  d.listed = true;
  const n = drivenListing(st, d.asked, d.listing, c.prog);
  let k: number;
  try {
    k = n === 0 ? -1 : d.pick(n, player);
  } catch (e) {
    return thrown(d, e, true);
  }
  if (k < 0) {
    d.end = n === 0 ? 'none' : 'stopped';
    return stop(d);
  }
  d.picks.push(k);
  return drivenPick(st, k, c, body, slot, d.listing);
};

/**
 * What the picker or `stopBefore` threw at the prompt asked now, kept to be thrown once the drive is
 * put back and stepped to that prompt, `exact` or not: thrown through the rules, it would be taken
 * for the choice's refusal (a `Refusal`), or leave the game as the drive began (anything else).
 * `stopBefore` run out of stack under the drive's rules is asked again when stepping gets there (see
 * `driven`); the picker is not asked twice for one prompt.
 */
function thrown(d: Drive, error: unknown, listed: boolean): never {
  if (listed || !(error instanceof RangeError)) d.thrown = { error, listed };
  throw STOP;
}

/** A drive's end at the prompt asked now: put back to be stepped there, or, not `exact`, suspended there. */
function stop(d: Drive): typeof NOT_DRIVEN {
  if (d.exact) throw STOP;
  keepListing(d.state, d.listing);
  return NOT_DRIVEN;
}

/**
 * Plays `state` (in playout mode, at a prompt or over) on, in place, each choice the picker's
 * (`asked`: among the asked player's choices only, as `playoutChoices(state, true)`), until the game
 * is over, the picker stops (the choices open then listed, as `playoutChoices` lists them) or
 * `stopBefore` does, asked at each prompt before it is listed with the player asked there, no
 * choice is open, or a choice is refused (the state then as it was before that choice, as
 * `playoutApply` leaves it). Internal, as playout mode is.
 *
 * `exact: false` is for a caller that reads a stopped game's records, not its frames, or plays on
 * from it (a search's rollout cut at a depth or at a turn's end): a stop then suspends the game
 * where it stopped, with no stepping again. Its frames may keep values that the blocks that ran
 * last left in their locals where stepping's hold others: the locals that differ are never read
 * before they are written (test/playout-driven.test.ts plays such games on to stepping's end).
 * What the picker or `stopBefore` throws is thrown with the game where stepping leaves it, exact or
 * not.
 *
 * `stepped` is for a caller that looks at the game between its choices (an observer told of each):
 * each choice is then stepped (`playoutChoices`, `playoutApply`), never driven, and `stepped` told
 * once it is made.
 */
export function playDriven(state: GameState, pick: Picker, options: { asked?: boolean; stopBefore?: (player: string) => boolean; exact?: boolean; stepped?: () => void } = {}): DrivenEnd {
  const asked = options.asked ?? false;
  const stopBefore = options.stopBefore;
  const exact = options.exact ?? true;
  const each = options.stepped;
  const drives = each === undefined && drivable(state);
  // The prompt a drive begins at is listed as the drive lists those it meets; a game that stops
  // there is left its listing (`keepListing`), as `playoutChoices` leaves it.
  const first = drives ? drivenListingOf() : null;
  // A new game still its kept setup's copy runs its flow from its start under the drive, which meets
  // the first decision as any other (`playoutFromStart`); the picker and `stopBefore` are asked as
  // they would be there.
  let start = first !== null && !watching() ? flowStartOf(state) : undefined;
  let made = 0;
  while (!state.over) {
    if (!state.prompt) return { ok: true, made, end: 'none' };
    if (stopBefore?.(state.prompt.player)) return { ok: true, made, end: 'stopped' };
    let d: Drive | null = null;
    let r: ApplyResult | null = null;
    if (start !== undefined) {
      d = { state, pick, asked, stopBefore, exact, picks: [], listed: false, first: null, listing: drivenListingOf(), beforeAsked: true, end: null, thrown: null };
      r = driven(d, start);
      start = undefined;
      // Put back before the picker was asked (run out of stack, or the first decision's listing
      // refused): that decision is listed and picked as below, its listing thrown again if refused.
      if ((r === null || !r.ok) && d.picks.length === 0 && d.end === null && d.thrown === null) d = null;
    }
    if (d === null) {
      const n = first !== null ? playoutChoicesInto(state, asked, first) : playoutChoices(state, asked);
      let k: number;
      try {
        k = n === 0 ? -1 : pick(n, state.prompt.player);
      } catch (e) {
        if (first !== null) keepListing(state, first);
        throw e;
      }
      if (k < 0) {
        if (first !== null) keepListing(state, first);
        return { ok: true, made, end: n === 0 ? 'none' : 'stopped' };
      }
      if (first === null) {
        const r = playoutApply(state, k);
        if (!r.ok) return refused(made, r);
        made++;
        each?.();
        continue;
      }
      d = { state, pick, asked, stopBefore, exact, picks: [k], listed: false, first, listing: drivenListingOf(), beforeAsked: false, end: null, thrown: null };
      r = driven(d, k);
    }
    if (r !== null && r.ok) {
      made += d.picks.length;
      if (d.end === 'before') return { ok: true, made, end: 'stopped' };
      if (d.end !== null) return { ok: true, made, end: d.end };
      continue;
    }
    // Put back at the prompt it began at, whose listing is then the state's: begun at the flow's
    // start, that prompt is listed anew, as stepping lists it, where its pick is to be made again.
    if (d.first !== null) keepListing(state, d.first);
    else if (d.picks.length > 0) playoutChoices(state, asked);
    if (r !== null && !d.listed) return refused(made, r);
    const again = stepped(state, d.picks, asked);
    made += again.made;
    if (again.refused) return refused(made, again.refused);
    if (d.thrown !== null) {
      if (d.thrown.listed) playoutChoices(state, asked);
      throw d.thrown.error;
    }
    if (d.end === 'before') return { ok: true, made, end: 'stopped' };
    if (d.end !== null) {
      playoutChoices(state, asked);
      return { ok: true, made, end: d.end };
    }
  }
  return { ok: true, made, end: 'over' };
}

/**
 * The `k`-th choice listed for `d.state` made (a `FlowStart`: the flow run from its start, its first
 * prompt met as any other), and the prompts after it driven; null when the drive stopped, put back
 * to be stepped. Its undo is kept short (`noteFirstWritesOf`): one undo for the
 * whole drive would otherwise keep every write of the game, each list written a copy.
 * A drive runs a choice's rules on top of the rules that asked for it, still on the call stack,
 * where stepping runs them once those have unwound into frames: run out of stack (`RangeError`),
 * it stops as at a prompt and its picks are stepped, which makes at least the first, so a game as
 * deep as stepping plays is played. (Were the stack too short for stepping, stepping throws it again.)
 */
function driven(d: Drive, k: number | FlowStart): ApplyResult | null {
  const outer = drive;
  const outerDriver = drivePromptsWith(watching() ? null : atPrompt);
  const outerWrites = noteFirstWritesOf(metaOf(d.state));
  const outerOffers = reuseOffersOf({ st: d.state, prompt: offerPrompt() });
  drive = d;
  try {
    return typeof k === 'number' ? playoutApplyListed(d.state, k, d.first!) : playoutFromStart(d.state, k);
  } catch (e) {
    if (e === STOP || e instanceof RangeError) return null;
    throw e;
  } finally {
    drive = outer;
    drivePromptsWith(outerDriver);
    reuseOffersOf(outerOffers);
    restoreFirstWrites(outerWrites);
  }
}

/** `picks` made again by stepping, from the prompt whose listing is the state's. */
function stepped(state: GameState, picks: number[], asked: boolean): { made: number; refused?: ApplyResult & { ok: false } } {
  for (let j = 0; j < picks.length; j++) {
    if (j > 0) playoutChoices(state, asked);
    const r = playoutApply(state, picks[j]);
    if (!r.ok) return { made: j, refused: r };
  }
  return { made: picks.length };
}

function refused(made: number, r: ApplyResult & { ok: false }): DrivenEnd {
  return { ok: false, made, reason: r.reason, ...(r.rule !== undefined && { rule: r.rule }), ...(r.budget !== undefined && { budget: r.budget }) };
}
