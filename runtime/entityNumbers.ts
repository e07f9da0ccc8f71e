import type { CompiledPack } from './compiled.ts';
import { playerId } from './players.ts';

/**
 * Every entity a game of a pack can hold a record of, numbered: the pack's entities in its order,
 * then `game`, then the players `p1`… up to the most the pack is played by. The numbers are the
 * same in every game of the pack, whatever its players, so code made from the pack's rules may
 * read a record by a number found when it is made (`recordsByNumber` in clone.ts) instead of
 * looking its id up in the state's table, which V8 keeps as a hash table past a few dozen ids.
 */
export interface EntityNumbers {
  of: ReadonlyMap<string, number>;
  /** How many numbers there are: the length of a state's records by number. */
  count: number;
  /** Records by number with none in them, to copy: an array of `count` undefined (no holes, which V8 would look up on its prototype). */
  none: ReadonlyArray<undefined>;
  /**
   * Whether a game of the pack has asked for its records by number (`recordsByNumber`): a new game
   * from a kept setup is then given them as its records are copied, else not (what a pack whose
   * code neither reads a record by number nor writes an entity its rules name would pay for
   * nothing: 2% of a small game's playout).
   */
  asked: boolean;
}

const numbered = new WeakMap<CompiledPack, EntityNumbers>();

export function entityNumbers(pack: CompiledPack): EntityNumbers {
  let n = numbered.get(pack);
  if (n !== undefined) return n;
  const of = new Map<string, number>();
  for (const id of Object.keys(pack.entities)) of.set(id, of.size);
  of.set('game', of.size);
  for (let seat = 1; seat <= pack.players.max; seat++) of.set(playerId(seat), of.size);
  n = { of, count: of.size, none: new Array<undefined>(of.size).fill(undefined), asked: false };
  numbered.set(pack, n);
  return n;
}
