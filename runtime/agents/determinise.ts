import { cloneState, writableRecord } from '../clone.ts';
import type { CompiledPack } from '../compiled.ts';
import { attach } from '../index.ts';
import type { GameState, Value } from '../types.ts';

/**
 * One world the observers cannot tell from the real one: what they do not see (`viewFor`) dealt
 * anew, and the generator that will roll every future die and shuffle reseeded.
 *
 * A hidden list field holds things (cards in a hand, a deck): the items of every hidden list field
 * of one type are pooled, shuffled and dealt back, each field keeping its length (how many cards a
 * hand or a deck holds is known at the table, which cards is not). A hidden field of another type
 * (a face-down token) trades values with the same field of the other entities hiding one: that
 * there is a token is seen, its face is not, so a field that is none stays none. A search that
 * looked at the real hidden values, or at the real generator, would know the deck's next card and
 * the next roll. What the values are, as a whole, is taken as known (the cards of the game, its
 * tokens): one hidden value with nothing to trade with, such as the only opponent's hidden
 * number, stays as it is.
 *
 * `observers` see their own hidden player fields: one player, or a whole team sharing its hands.
 */
export function determinise(pack: CompiledPack, state: GameState, observers: readonly string[], random: () => number): GameState {
  const world = cloneState(state);
  world.rng = Math.floor(random() * 4294967296) >>> 0;
  const lists = new Map<string, Array<{ id: string; field: string; length: number }>>();
  const scalars = new Map<string, string[]>();
  for (const id of Object.keys(state.e)) {
    const kind = pack.kindOf(id);
    const hidden = kind ? pack.hidden[kind] : undefined;
    if (!kind || !hidden?.length || (kind === 'player' && observers.includes(id))) continue;
    for (const field of hidden) {
      const value = state.e[id][field];
      if (Array.isArray(value)) {
        const type = pack.kinds[kind]?.state[field]?.type ?? field;
        const slots = lists.get(type) ?? [];
        slots.push({ id, field, length: value.length });
        lists.set(type, slots);
      } else if (value !== null) {
        const key = `${kind}.${field}`;
        const ids = scalars.get(key) ?? [];
        ids.push(id);
        scalars.set(key, ids);
      }
    }
  }
  for (const slots of lists.values()) {
    const pool: Value[] = slots.flatMap((s) => state.e[s.id][s.field] as Value[]);
    shuffle(pool, random);
    let at = 0;
    for (const s of slots) {
      writableRecord(world, s.id)![s.field] = pool.slice(at, at + s.length);
      at += s.length;
    }
  }
  for (const [key, ids] of scalars) {
    if (ids.length < 2) continue;
    const field = key.slice(key.indexOf('.') + 1);
    const values = ids.map((id) => state.e[id][field]);
    shuffle(values, random);
    ids.forEach((id, i) => (writableRecord(world, id)![field] = values[i]));
  }
  return attach(pack, world);
}

function shuffle<T>(xs: T[], random: () => number): void {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
}
