import type { PipelineCode } from './program.ts';
import type { GameState, Value } from './types.ts';

/**
 * What is known while a state cannot change. Listing the legal choices runs every candidate's
 * checks on one state, and they ask the same card holders and the same pipelines with the same
 * arguments again and again: the answers are kept until the listing ends.
 */
interface Frozen {
  /** Holders by card and roles, for the kinds whose holders are not kept with the state. */
  holders: Map<string, string[]>;
  /** The state the values were found in: the first one a pipeline is run on. */
  st: GameState | null;
  /** Values of the pipelines that may be remembered (`PipelineCode.remembered`), by arguments. */
  values: Map<PipelineCode, Map<string, Value>>;
}

let frozen: Frozen | null = null;

export function withFrozenState<T>(run: () => T): T {
  const outer = frozen;
  frozen = outer ?? { holders: new Map(), st: null, values: new Map() };
  try {
    return run();
  } finally {
    frozen = outer;
  }
}

export function frozenHolders(): Map<string, string[]> | null {
  return frozen && frozen.holders;
}

/** The values of `p` known in `st`, while `st` cannot change; undefined otherwise. */
export function frozenValues(st: GameState, p: PipelineCode): Map<string, Value> | undefined {
  if (!frozen) return undefined;
  if (frozen.st === null) frozen.st = st;
  else if (frozen.st !== st) return undefined;
  let values = frozen.values.get(p);
  if (!values) {
    values = new Map();
    frozen.values.set(p, values);
  }
  return values;
}

/** A pipeline's call as a key: the player it is computed for and its `n` arguments. */
export function callKey(me: string | null, args: Value[], n: number): string {
  let key = me === null ? '' : me;
  for (let i = 0; i < n; i++) {
    const v = args[i];
    key += typeof v === 'number' ? `\u0000${v}` : typeof v === 'string' && !v.includes('\u0000') ? `\u0000"${v}` : `\u0000'${JSON.stringify(v)}`;
  }
  return key;
}
