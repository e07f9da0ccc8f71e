import type { CompiledPack } from './compiled.ts';
import type { GameState, Value } from './types.ts';
import { isPlayerId, seatOf } from './players.ts';
import { nextRandom } from './rng.ts';
import { refuse } from './budget.ts';

/** A value as a player reads it: entities by their name, lists comma-separated. */
export function display(pack: CompiledPack, v: Value, lang = displayLanguage(pack)): string {
  if (v === null) return 'none';
  if (Array.isArray(v)) return v.map((x) => display(pack, x, lang)).join(', ');
  if (typeof v === 'string') {
    const e = pack.entities[v];
    if (e) return e.name[lang] ?? Object.values(e.name)[0] ?? v;
    if (isPlayerId(v)) return `Player ${seatOf(v)}`;
  }
  return String(v);
}

export function displayLanguage(pack: CompiledPack): string {
  return pack.languages.includes('en') ? 'en' : pack.languages[0];
}

/**
 * A value in a choice id: plain words and numbers as they are, anything else as JSON — the texts
 * `true`, `false` and `none` too, which `decodeArg` would read as another value, so that a recorded
 * game's ids replay it.
 */
export function encodeArg(v: Value): string {
  if (typeof v === 'number' || (typeof v === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(v) && v !== 'true' && v !== 'false' && v !== 'none')) return String(v);
  return JSON.stringify(v);
}

export function decodeArg(s: string): Value {
  if (/^-?\d+(\.\d+)?$/.test(s)) return Number(s);
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(s)) return s === 'true' ? true : s === 'false' ? false : s === 'none' ? null : s;
  try {
    return JSON.parse(s) as Value;
  } catch {
    return s;
  }
}

export function randomInt(st: GameState, n: number): number {
  const r = nextRandom(st.rng);
  st.rng = r.state;
  return Math.floor(r.value * n);
}

export function shuffleInPlace(st: GameState, xs: Value[]): void {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = randomInt(st, i + 1);
    const t = xs[i];
    xs[i] = xs[j];
    xs[j] = t;
  }
}

/**
 * The next result a scenario forced (`rolls:`), if one is queued; `fits` says whether this draw can
 * have it. A forced result the draw cannot have refuses the choice, naming what it could be.
 */
export function takeForced(st: GameState, fits: (v: Value) => boolean, what: string): Value | undefined {
  const queue = st.forced;
  if (!queue?.length) return undefined;
  const v = queue.shift()!;
  if (!queue.length) delete st.forced;
  if (!fits(v)) refuse(`the forced result ${JSON.stringify(v)} is not ${what}`);
  return v;
}
