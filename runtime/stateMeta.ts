import type { CopyPlan } from './clone.ts';
import type { EntityNumbers } from './entityNumbers.ts';
import type { Kept } from './holders.ts';
import type { ActionCode, Program } from './program.ts';
import type { Value } from './types.ts';

/**
 * What the runtime keeps with a game state outside its JSON: the program it is played with, which
 * entity records it may write in place, the ids of its entity table, the choices last listed for
 * it, and what is known about its cards' holders.
 *
 * It is a private field stamped on the state (`MetaSlot`): JSON, `Object.keys`, a spread copy, a
 * structured clone and a test's deep equality leave it out, so a state's data stays what it was.
 * It used to be five weak maps keyed by the state; a playout makes a state a choice and drops it at
 * the next, and a weak map's entry for an object that dies young cost microseconds in the collector
 * each, more than the rest of a small game's choice. Then it was a property under a symbol made
 * not enumerable by `Object.defineProperty`, which V8 runs outside its fast paths: a microsecond
 * for every state made, as much as setting up a small game.
 */
export interface StateMeta {
  prog: Program | undefined;
  /**
   * The entity records this state may write in place (`clone.ts`): null when none yet, undefined
   * when it shares none with another state (a new game, a state loaded from JSON) and may write
   * every record.
   */
  owned: Set<object> | null | undefined;
  /**
   * While a choice is applied to the state itself (`applyInPlace`): each record it replaced by a
   * copy to write, as id then record, to put back should the choice be refused (unless the state
   * was its kept setup's copy, `setup`: then only a sign that a choice is under way).
   */
  replaced: Array<string | object> | undefined;
  /**
   * While a choice is applied to the state itself: each field of a record of its own written in
   * place, as record, field, value before (undefined: it had none), to put back should the choice
   * be refused (`writableRecord`); none while the state was its kept setup's copy (`setup`).
   */
  written: unknown[] | undefined;
  /** The ids of `table`, in its order, when `table` is this state's entity table. */
  ids: string[] | undefined;
  table: object | undefined;
  /** The state's entity records by number, when it has them (`recordsByNumber` in clone.ts). */
  byNumber: ByNumber | undefined;
  /** The choices last listed as legal for this state (`Listed`). */
  listed: Listed | undefined;
  kept: Kept | undefined;
  /**
   * The kept setup this state is a copy of with nothing written since (`fromSetup`): a choice
   * applied to it in place need not note its writes to put it back, it is copied from the setup
   * again (`undo.ts`). The rules write a state only in a choice applied to a copy of it (`apply`,
   * whose copy has a meta of its own) or to the state itself, or in its flow run again from its
   * start (`playoutFromStart`), each of which clears the mark until put back (`undoFor`); a program
   * attached anew clears it too (a state edited by hand: its flow is then never run again, nor its
   * records put back from the setup).
   */
  setup: KeptSetup | undefined;
}

/** A new game's state kept once set up, and how it is copied (`setupSnapshot.ts`). */
export interface KeptSetup {
  st: { e: Record<string, Record<string, Value>> };
  plan: CopyPlan;
  /** How a copy of it begins its flow again (`FlowStart`), when its flow wrote nothing before it suspended; else undefined. */
  start: FlowStart | undefined;
}

/**
 * What a kept setup's copy needs to run its flow again from its start (`playoutFromStart`): the
 * current player and the turn as they were before the flow began. Kept only when the flow, from
 * there up to the first decision, left every record, the tables of uses and the generator as they
 * were (`keepSetup`): run again on the copy, it then meets that decision with the same state.
 */
export interface FlowStart {
  current: string | null;
  turn: number;
}

/**
 * A state's entity records by number (`entityNumbers.ts`), `undefined` where an entity has none,
 * while `table` is its entity table: every record the runtime puts in that table is put here too.
 */
export interface ByNumber {
  table: object;
  numbers: EntityNumbers;
  records: Array<Record<string, Value> | undefined>;
}

/**
 * The choices listed for a state, position by position: their ids, players and actions (none for a
 * `choose` or `skip`), and from which position on they are the `anytime` actions open at the
 * prompt. Kept apart from the list handed out, which its caller may change.
 */
export interface Listed {
  ids: string[];
  players: string[];
  codes: Array<ActionCode | null>;
  /** The arguments of each choice as listing found them. */
  args: Value[][];
  standingFrom: number;
  /**
   * A playout's listing (`playoutChoices`) keeps its choices by runs instead, none of the lists
   * above: it made no choice, and its pick (`playoutApply`) reads one choice of them. `standingFrom`
   * is then a position among all the runs' choices.
   */
  runs: Run[] | null;
}

/**
 * Choices listed one after another for one player and action (none: a `choose`): the values of its
 * one parameter (or the options of the `choose`), else each choice's arguments (none for `skip`).
 * `end` is the position after its last choice among all the listing's.
 */
export interface Run {
  player: string;
  code: ActionCode | null;
  values: Value[] | null;
  args: Value[][] | null;
  end: number;
}

/** Gives back the object it is given, so that a class extending it stamps its private field on any object. */
class Stamped {
  constructor(o: object) {
    return o as Stamped;
  }
}

/** A state's meta as a private field of the state. */
class MetaSlot extends Stamped {
  #meta: StateMeta;

  constructor(st: object, m: StateMeta) {
    super(st);
    this.#meta = m;
  }

  static of(st: object): StateMeta | undefined {
    return #meta in st ? (st as MetaSlot).#meta : undefined;
  }
}

/** States that cannot take a property (frozen by their owner) keep theirs here. */
const sealed = new WeakMap<object, StateMeta>();

export function metaOf(st: object): StateMeta {
  const m = MetaSlot.of(st);
  if (m !== undefined) return m;
  const made = metaWith(undefined, undefined, undefined, undefined);
  if (Object.isExtensible(st)) new MetaSlot(st, made);
  else {
    const old = sealed.get(st);
    if (old) return old;
    sealed.set(st, made);
  }
  return made;
}

/**
 * The meta of `st`, a state the runtime has just made (`clone.ts`), made with these fields. Such a
 * state is a literal of its own, extensible and with no meta yet, so neither is asked: asking
 * whether an object is extensible is a call into V8's runtime, and one copy of a state per choice,
 * or per game of a small pack, made each pay it.
 */
export function newMeta(st: object, prog: Program | undefined, owned: Set<object> | null | undefined, ids: string[] | undefined, table: object | undefined): StateMeta {
  const m = metaWith(prog, owned, ids, table);
  new MetaSlot(st, m);
  return m;
}

function metaWith(prog: Program | undefined, owned: Set<object> | null | undefined, ids: string[] | undefined, table: object | undefined): StateMeta {
  return { prog, owned, replaced: undefined, written: undefined, ids, table, byNumber: undefined, listed: undefined, kept: undefined, setup: undefined };
}

/** The state's meta if it has one. */
export function metaIfAny(st: object): StateMeta | undefined {
  return MetaSlot.of(st) ?? sealed.get(st);
}
