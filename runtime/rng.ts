/**
 * Mulberry32: a small, fast generator whose whole state is one 32-bit number, so it lives in the
 * game state and a game replays from its seed alone.
 */
export function nextRandom(state: number): { value: number; state: number } {
  const s = (state + 0x6d2b79f5) | 0;
  let t = s;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return { value: ((t ^ (t >>> 14)) >>> 0) / 4294967296, state: s >>> 0 };
}

/** A seed given as a number or a word becomes the generator's first state. */
export function seedState(seed: number | string): number {
  if (typeof seed === 'number' && Number.isInteger(seed)) return seed >>> 0;
  let h = 2166136261;
  for (const ch of String(seed)) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}
