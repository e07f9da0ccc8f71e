import { createHash } from 'node:crypto';
import type { CompiledPack } from '../../compiler/index.ts';
import { apply, legalChoices, newGame } from '../../runtime/index.ts';
import { nextRandom, seedState } from '../../runtime/rng.ts';

/** The runtime's seeded generator, for picking edits and moves: `pick(n)` is in 0..n-1. */
export function picker(seed: string): (n: number) => number {
  let state = seedState(seed);
  return (n: number) => {
    const r = nextRandom(state);
    state = r.state;
    return Math.floor(r.value * n);
  };
}

/** A seeded random game of up to `steps` choices, its states and legal choices hashed: two packs that play alike give the same digest. */
export function playedDigest(pack: CompiledPack, seed: number, steps: number): string {
  const h = createHash('sha256');
  const pick = picker(`game${seed}`);
  let st = newGame(pack, { players: Math.min(pack.players.max, Math.max(pack.players.min, 3)), seed });
  h.update(JSON.stringify(st));
  for (let step = 0; step < steps && !st.over; step++) {
    const legal = legalChoices(st, { labels: false });
    h.update(JSON.stringify(legal));
    if (!legal.length) break;
    const r = apply(st, legal[pick(legal.length)]);
    if (!r.ok) return `refused at ${step}: ${r.reason}`;
    st = r.state;
    h.update(JSON.stringify(st));
  }
  return h.digest('hex');
}
