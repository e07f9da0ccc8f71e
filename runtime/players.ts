/** Players are `p1`…`pN` in seat order: ids no pack entity can take, since they are made here. */
export function playerId(seat: number): string {
  return `p${seat}`;
}

export function isPlayerId(id: string): boolean {
  return /^p\d+$/.test(id);
}

/** The seat of a player id, from 1. */
export function seatOf(id: string): number {
  return Number(id.slice(1));
}
