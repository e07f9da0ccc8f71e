import { cloneJson, newRecord } from './clone.ts';
import type { CompiledPack } from './compiled.ts';
import type { Value } from './types.ts';

/** An entity's record at the start of a game: its fields in its kind's order, and where each starts. */
type Start = [id: string, fields: string[], values: Value[]];

interface Starts {
  entities: Start[];
  player: Start;
  game: Start;
}

/**
 * A pack's starting records, found once for the pack: a game of a small pack lasts a few choices,
 * and walking the kinds' declarations for every new game cost as much as one of them.
 */
const starts = new WeakMap<CompiledPack, Starts>();

function startOf(pack: CompiledPack, kind: string, id: string, given?: Record<string, Value>): Start {
  const fields: string[] = [];
  const values: Value[] = [];
  for (const [f, info] of Object.entries(pack.kinds[kind]?.state ?? {})) {
    fields.push(f);
    values.push(given && f in given ? given[f] : info.default);
  }
  return [id, fields, values];
}

function startsOf(pack: CompiledPack): Starts {
  let s = starts.get(pack);
  if (s) return s;
  const entities: Start[] = [];
  for (const [kind, ids] of Object.entries(pack.byKind)) {
    if (!Object.keys(pack.kinds[kind].state).length) continue;
    for (const id of ids) entities.push(startOf(pack, kind, id, pack.starts[id]));
  }
  s = { entities, player: startOf(pack, 'player', ''), game: startOf(pack, 'game', 'game') };
  starts.set(pack, s);
  return s;
}

function record(start: Start): Record<string, Value> {
  const [, fields, values] = start;
  const rec = newRecord();
  for (let i = 0; i < fields.length; i++) rec[fields[i]] = cloneJson(values[i]);
  return rec;
}

/** Every entity's record at the start of a game of `players`: the pack's entities, then the players, then `game`. */
export function startingRecords(pack: CompiledPack, players: string[], into: Record<string, Record<string, Value>>): void {
  const s = startsOf(pack);
  for (const start of s.entities) into[start[0]] = record(start);
  for (const p of players) into[p] = record(s.player);
  into.game = record(s.game);
}
