import { putRecord, recopiedFromSetup } from './clone.ts';
import type { Kept } from './holders.ts';
import { shareHolders } from './holders.ts';
import { metaOf, type KeptSetup, type Listed, type StateMeta } from './stateMeta.ts';
import type { GameState, Value } from './types.ts';

/**
 * What applying a choice to a state itself (`applyInPlace`) may change, kept to put the state back
 * as it was should the choice be refused. The rules change a state only through its fields below:
 * an entity record of the state's own is written where it is, each field's value before noted, and
 * one it shares with another state is replaced by a copy before it is written (`writableRecord`
 * notes both), unless the state is still a copy of a kept setup (`setup` below); the log and the
 * choices only grow, the tables of uses and the forced results are replaced, not written, while a
 * choice is applied in place.
 */
export interface Undo extends Pick<GameState, 'rng' | 'current' | 'turn' | 'used' | 'usedGame' | 'prompt' | 'over' | 'forced'> {
  /** How long the log and the choices were: they only grow. */
  log: number;
  choices: number;
  kept: Kept | undefined;
  listed: Listed | undefined;
  /**
   * The kept setup the state was a copy of, nothing written since (`StateMeta.setup`): its records
   * are put back by copying the setup's again, and no write is noted. A random game is played whole
   * within its first choice, applied in place to a new game, or within its flow run again from its
   * start (`playoutFromStart`, `drivenPlayout.ts`): noting the first
   * value of every field it wrote was work for a refusal that seldom comes, which copying the setup
   * again answers at the cost of a new game.
   */
  setup: KeptSetup | undefined;
}

/** Makes `st` ready to be changed by a choice in place, and says how to put it back. */
export function undoFor(st: GameState): Undo {
  const m = metaOf(st);
  const u: Undo = {
    rng: st.rng,
    current: st.current,
    turn: st.turn,
    used: st.used,
    usedGame: st.usedGame,
    prompt: st.prompt,
    over: st.over,
    forced: st.forced,
    log: st.log.length,
    choices: st.choices.length,
    kept: m.kept,
    listed: m.listed,
    setup: m.setup,
  };
  if (st.forced) st.forced = st.forced.slice();
  // A kept setup's copy notes nothing: `writableRecord` notes a write only while `written` is a
  // list. `replaced` is one either way, for the state to be known to be amid a choice (`fromSetup`),
  // and read back only without `setup`.
  m.setup = undefined;
  m.written = u.setup !== undefined ? undefined : [];
  m.replaced = [];
  // What is known of the cards' holders is shared with the state as it was, as with a copy.
  shareHolders(st, st);
  m.listed = undefined;
  return u;
}

/**
 * How a long undo is kept short: a driven playout's, one for the whole drive (`drivenPlayout.ts`),
 * would note every write of the game, and a list's note is a copy of it. `putBack` puts the notes
 * back last first, so the first note of each field leaves the state as it was, and the later ones
 * may go. Past `ALL_NOTED` notes or `ALL_COPIED` list elements copied, the notes are cut to the
 * first of each field and only a field's first write is noted from then on; a short drive (a small
 * game's whole playout) never looks a write up.
 */
export interface FirstWrites {
  meta: StateMeta;
  /** The undo's notes the counts and fields below are of: a new undo's notes hold none of them. */
  written: unknown[] | undefined;
  /** The list elements copied into the notes. */
  copied: number;
  /** The fields noted, once only the first write of each is. */
  fields: Map<object, Set<string>> | null;
}

const ALL_NOTED = 256;
const ALL_COPIED = 1 << 16;

let firstWrites: FirstWrites | null = null;

/** Keeps `meta`'s undo short from now (null: notes every write, as by default), giving back what was so before. */
export function noteFirstWritesOf(meta: StateMeta | null): FirstWrites | null {
  const outer = firstWrites;
  firstWrites = meta === null ? null : { meta, written: undefined, copied: 0, fields: null };
  return outer;
}

/** Puts back what `noteFirstWritesOf` gave back. */
export function restoreFirstWrites(outer: FirstWrites | null): void {
  firstWrites = outer;
}

/** Notes the value of `rec`'s `field` before it is written in place, into `m`'s undo (`written`), to put back should the choice be refused (a list as a copy: piles are changed in place). */
export function noteWrite(m: StateMeta, written: unknown[], rec: Record<string, Value>, field: string): void {
  const old = rec[field];
  const f = firstWrites;
  if (f !== null && f.meta === m) {
    if (f.written !== written) {
      f.written = written;
      f.copied = 0;
      f.fields = null;
    }
    if (f.fields === null && (written.length >= 3 * ALL_NOTED || f.copied >= ALL_COPIED)) f.fields = firstNotes(written);
    if (f.fields !== null) {
      if (!firstNote(f.fields, rec, field)) return;
    } else if (Array.isArray(old)) f.copied += old.length;
  }
  written.push(rec, field, Array.isArray(old) ? old.slice() : old);
}

/** Whether `rec`'s `field` is noted for the first time in `fields` (and notes it). */
function firstNote(fields: Map<object, Set<string>>, rec: object, field: string): boolean {
  const noted = fields.get(rec);
  if (noted === undefined) {
    fields.set(rec, new Set([field]));
    return true;
  }
  if (noted.has(field)) return false;
  noted.add(field);
  return true;
}

/** `written` cut, in place and in order, to the first note of each field; the fields it notes. */
function firstNotes(written: unknown[]): Map<object, Set<string>> {
  const fields = new Map<object, Set<string>>();
  let to = 0;
  for (let i = 0; i < written.length; i += 3) {
    const rec = written[i] as object;
    const field = written[i + 1] as string;
    if (!firstNote(fields, rec, field)) continue;
    written[to] = rec;
    written[to + 1] = field;
    written[to + 2] = written[i + 2];
    to += 3;
  }
  written.length = to;
  return fields;
}

/** The choice was applied: nothing is to be put back. */
export function settled(st: GameState): void {
  const m = metaOf(st);
  m.written = undefined;
  m.replaced = undefined;
}

/** The choice was refused: `st` is put back as it was. */
export function putBack(st: GameState, u: Undo): void {
  const m = metaOf(st);
  if (u.setup !== undefined) {
    recopiedFromSetup(st, m, u.setup);
    m.setup = u.setup;
    m.replaced = undefined;
  } else putNotesBack(st, m);
  m.kept = u.kept;
  m.listed = u.listed;
  st.rng = u.rng;
  st.current = u.current;
  st.turn = u.turn;
  st.used = u.used;
  st.usedGame = u.usedGame;
  st.prompt = u.prompt;
  st.over = u.over;
  if (u.forced) st.forced = u.forced;
  else if ('forced' in st) delete st.forced;
  st.log.length = u.log;
  st.choices.length = u.choices;
}

/** Puts back what the notes of a choice's undo say it wrote, last first, and the records it replaced. */
function putNotesBack(st: GameState, m: StateMeta): void {
  const written = m.written ?? [];
  for (let i = written.length - 3; i >= 0; i -= 3) {
    const rec = written[i] as Record<string, Value>;
    const field = written[i + 1] as string;
    const old = written[i + 2] as Value | undefined;
    if (old === undefined) delete rec[field];
    else rec[field] = old;
  }
  const replaced = m.replaced ?? [];
  for (let i = replaced.length - 2; i >= 0; i -= 2) putRecord(st, m, replaced[i] as string, replaced[i + 1] as Record<string, Value>);
  m.written = undefined;
  m.replaced = undefined;
  // The copies made for the choice were dropped: the state owns none of its records for sure.
  m.owned = null;
}
