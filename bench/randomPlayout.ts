/**
 * What every way of playing a game in the bench shares: uniform picks among the legal moves from the
 * runtime's seeded generator (runtime/rng.ts), one draw per move, so that the same seed plays the
 * same game wherever the legal moves are listed in the same order; and what a game comes to.
 */
import { nextRandom, seedState } from '../runtime/rng.ts';

export class RandomPicker {
  private state: number;

  constructor(seed: number) {
    this.state = seedState(seed);
  }

  /** A position in a list of `n` legal moves. */
  index(n: number): number {
    const r = nextRandom(this.state);
    this.state = r.state;
    return Math.floor(r.value * n);
  }
}

export interface Outcome {
  /** `p1` or `p2`, or null for a draw. */
  winner: string | null;
  moves: number;
}
