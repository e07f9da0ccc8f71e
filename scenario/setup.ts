import type { CompiledPack } from '../runtime/compiled.ts';
import type { GameState, Value } from '../runtime/types.ts';
import { cloneJson } from '../runtime/clone.ts';
import type { Entry, Failure, StateCheck, Where } from './format.ts';
import { parseType, suggest, valueProblem } from './values.ts';

/** `<entityId>.<field>` split at its last dot: entity ids may hold dots, field names never do. */
export function splitKey(key: string): { entity: string; field: string } | undefined {
  const dot = key.lastIndexOf('.');
  if (dot <= 0 || dot === key.length - 1) return undefined;
  return { entity: key.slice(0, dot), field: key.slice(dot + 1) };
}

/** Why `entity.field` names nothing a scenario can read (`readProps`) or set, or null. */
export function nameProblem(pack: CompiledPack, state: GameState, key: string, readProps: boolean): { message: string; hint?: string } | null {
  const parts = splitKey(key);
  if (!parts) return { message: `\`${key}\` is not an \`<entityId>.<field>\` name`, hint: 'e.g. `p1.points` or `game.round`' };
  const { entity, field } = parts;
  const info = pack.entities[entity];
  const rec = state.e[entity];
  if (!rec && !(readProps && info)) {
    if (/^p\d+$/.test(entity)) return { message: `there is no ${entity} in a ${state.players.length}-player game`, hint: `the players are ${state.players.join(', ')}` };
    if (info) return { message: `the ${info.kind} \`${entity}\` has no state a scenario can set`, hint: `only fields declared under \`kinds.${info.kind}.state\` change during a game` };
    const guess = suggest(entity, [...Object.keys(state.e), ...(readProps ? Object.keys(pack.entities) : [])]);
    return { message: `this pack has nothing called \`${entity}\``, hint: guess ? `did you mean \`${guess}\`?` : 'name a player (p1, p2, …), `game`, or an entity id of the pack' };
  }
  if (rec && field in rec) return null;
  if (readProps && info && field in info.props) return null;
  const kind = pack.kindOf(entity) ?? 'entity';
  const fields = Object.keys(rec ?? {});
  if (info && field in info.props) {
    return { message: `\`${field}\` is a property of the ${kind} \`${entity}\`, fixed by the pack; a scenario sets only state fields`, hint: fields.length ? `the state fields of ${kind} are: ${fields.join(', ')}` : undefined };
  }
  const candidates = [...fields, ...(readProps && info ? Object.keys(info.props) : [])];
  const guess = suggest(field, candidates);
  return { message: `a ${kind} has no field \`${field}\``, hint: guess ? `did you mean \`${guess}\`?` : candidates.length ? `the fields of ${kind} are: ${candidates.join(', ')}` : undefined };
}

/**
 * Applies `setup` edits to a state, in place. Every edit is checked first: the name must be a
 * state field, the value must fit its type, and no number may be negative; then the pack's own
 * state check, when it has one. Any problem rejects the whole setup (false).
 */
export function applySetup(pack: CompiledPack, state: GameState, edits: Entry[], fail: (at: Where, message: string, extra?: Partial<Failure>) => void, validate?: StateCheck): boolean {
  let ok = true;
  for (const edit of edits) {
    const named = nameProblem(pack, state, edit.key, false);
    if (named) {
      fail(edit.keyAt, `setup: ${named.message}`, { hint: named.hint });
      ok = false;
      continue;
    }
    const { entity, field } = splitKey(edit.key)!;
    const kind = pack.kindOf(entity);
    const info = kind ? pack.kinds[kind]?.state[field] : undefined;
    const type = parseType(pack, info?.type ?? '?');
    const wrong = valueProblem(pack, state, edit.value, type);
    if (wrong) {
      fail(edit.valueAt, `setup: \`${edit.key}\` (a ${type.text}): ${wrong.message}`, { hint: wrong.hint });
      ok = false;
      continue;
    }
    state.e[entity][field] = cloneJson(edit.value as Value);
  }
  if (!ok || !edits.length) return ok;
  for (const p of validate?.(state) ?? []) {
    const edit = edits.find((e) => e.key === `${p.entity}.${p.field}`) ?? edits[0];
    fail(edit.keyAt, `setup: the pack does not allow this state: ${p.message}`);
    ok = false;
  }
  return ok;
}
