/**
 * Players are `p1`…`pN` in seat order: ids no pack entity can take, since they are made here. Each is
 * V8's own copy of its text (an object's key), not a text of its own: the generated code compares
 * ids (an optional player field with `me`) by pointer then (codegen/emit.ts, a field that may be none).
 */
export function playerId(seat: number): string {
  return Object.keys({ [`p${seat}`]: 0 })[0];
}

export function isPlayerId(id: string): boolean {
  return /^p\d+$/.test(id);
}

/** The seat of a player id, from 1. */
export function seatOf(id: string): number {
  return Number(id.slice(1));
}
