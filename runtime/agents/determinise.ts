import { cloneState, writableRecord } from '../clone.ts';
import type { CompiledPack } from '../compiled.ts';
import { keptKinds, roleWritten, shareHolders, type Stale } from '../holders.ts';
import { attachProgram, programFor } from '../stateProgram.ts';
import type { GameState, Value } from '../types.ts';

/**
 * Hidden list fields of one type, dealt from one pool: each field's place and length, and what its
 * write makes stale of what is known of the cards' holders; the pool's items in the fields' order.
 */
interface Pool {
  slots: Array<{ id: string; field: string; length: number; stale: Stale | undefined }>;
  items: Value[];
}

/** Hidden fields of another type, one field of one kind: the entities hiding one, and their values in that order. */
interface Trade {
  field: string;
  stale: Stale | undefined;
  ids: string[];
  values: Value[];
}

/**
 * The worlds of `state` for `observers`, each dealt by the `random` it is given, as many as a search
 * wants of the one state it decides at: what is hidden and where is found once, not for every world
 * (walking every field of every entity cost as much as dealing them, in a pack of a few hundred
 * entities). The state must not change while worlds are dealt from it.
 *
 * A world is one the observers cannot tell from the real one: what they do not see (`viewFor`)
 * dealt anew, and the generator that will roll every future die and shuffle reseeded. A hidden list
 * field holds things (cards in a hand, a deck): the items of every hidden list field of one type are
 * pooled, shuffled and dealt back, each field keeping its length (how many cards a hand or a deck
 * holds is known at the table, which cards is not). A hidden field of another type (a face-down
 * token) trades values with the same field of the other entities hiding one: that there is a token
 * is seen, its face is not, so a field that is none stays none. A search that looked at the real
 * hidden values, or at the real generator, would know the deck's next card and the next roll. What
 * the values are, as a whole, is taken as known (the cards of the game, its tokens): one hidden
 * value with nothing to trade with, such as the only opponent's hidden number, stays as it is.
 *
 * `observers` see their own hidden player fields: one player, or a whole team sharing its hands.
 */
export function dealer(pack: CompiledPack, state: GameState, observers: readonly string[]): (random: () => number) => GameState {
  const { roleFields } = keptKinds(pack);
  const lists = new Map<string, Pool>();
  const scalars = new Map<string, Trade>();
  for (const id of Object.keys(state.e)) {
    const kind = pack.kindOf(id);
    const hidden = kind ? pack.hidden[kind] : undefined;
    if (!kind || !hidden?.length || (kind === 'player' && observers.includes(id))) continue;
    for (const field of hidden) {
      const value = state.e[id][field];
      if (Array.isArray(value)) {
        const type = pack.kinds[kind]?.state[field]?.type ?? field;
        let pool = lists.get(type);
        if (pool === undefined) lists.set(type, (pool = { slots: [], items: [] }));
        pool.slots.push({ id, field, length: value.length, stale: roleFields.get(field)?.get(kind) });
        for (const x of value) pool.items.push(x);
      } else if (value !== null) {
        const key = `${kind}.${field}`;
        let trade = scalars.get(key);
        if (trade === undefined) scalars.set(key, (trade = { field, stale: roleFields.get(field)?.get(kind), ids: [], values: [] }));
        trade.ids.push(id);
        trade.values.push(value);
      }
    }
  }
  const pools = [...lists.values()];
  const trades = [...scalars.values()].filter((t) => t.ids.length >= 2);
  // The engine the state plays on: a world is the state's, dealt anew.
  const prog = programFor(state);
  return (random) => {
    const world = cloneState(state);
    // What is known of the cards' holders holds in the world but where a dealt field changes it,
    // made stale as a rule's write of that field makes it (`roleWritten`); found anew in every
    // world, it was most of what dealing one cost. Its records by number are kept in step by
    // `writableRecord`, as a rule's writes keep them.
    shareHolders(state, world);
    world.rng = Math.floor(random() * 4294967296) >>> 0;
    for (const { slots, items } of pools) {
      const pool = items.slice();
      shuffle(pool, random);
      let at = 0;
      for (const s of slots) {
        dealt(world, s.id, s.field, s.stale, pool.slice(at, at + s.length));
        at += s.length;
      }
    }
    for (const { field, stale, ids, values } of trades) {
      const traded = values.slice();
      shuffle(traded, random);
      ids.forEach((id, i) => dealt(world, id, field, stale, traded[i]));
    }
    return attachProgram(prog, world);
  };
}

/** `id`'s `field` in `world` written `value`, what that makes stale of its holders (`stale`) first. */
function dealt(world: GameState, id: string, field: string, stale: Stale | undefined, value: Value): void {
  const rec = writableRecord(world, id)!;
  if (stale !== undefined) roleWritten(world, stale, rec);
  rec[field] = value;
}

function shuffle<T>(xs: T[], random: () => number): void {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
}
