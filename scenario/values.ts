import type { CompiledPack } from '../runtime/compiled.ts';
import type { GameState, Value } from '../runtime/types.ts';
import { closest } from '../compiler/suggest.ts';
import type { Plain } from './format.ts';

/** A field type as the compiled pack spells it: `number`, `player?`, `list<region>`, `terrain`. */
export type FieldType = ({ k: 'number' | 'bool' | 'text' | 'die' | 'any' } | { k: 'enum'; name: string } | { k: 'entity'; kind: string } | { k: 'list'; of: FieldType }) & { optional?: boolean; text: string };

export function parseType(pack: CompiledPack, text: string): FieldType {
  const t = text.trim();
  if (t.endsWith('?')) return { ...parseType(pack, t.slice(0, -1)), optional: true, text: t };
  const list = t.match(/^list<(.*)>$/);
  if (list) return { k: 'list', of: parseType(pack, list[1]), text: t };
  if (t === 'number' || t === 'bool' || t === 'text' || t === 'die') return { k: t, text: t };
  if (pack.enums[t]) return { k: 'enum', name: t, text: t };
  if (pack.kinds[t]) return { k: 'entity', kind: t, text: t };
  return { k: 'any', text: t };
}

/** Why `value` cannot be stored in a field of type `type`, or null when it can. */
export function valueProblem(pack: CompiledPack, state: GameState, value: Plain, type: FieldType): { message: string; hint?: string } | null {
  if (value === null) {
    return type.optional || type.k === 'any' ? null : { message: `this field holds a ${type.text}; it cannot be none` };
  }
  switch (type.k) {
    case 'any':
      return null;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return { message: `${show(value)} should be a number` };
      if (value < 0) return { message: `${show(value)} is negative, which no game state can hold`, hint: 'set a number of 0 or more' };
      return null;
    case 'bool':
      return typeof value === 'boolean' ? null : { message: `${show(value)} should be true or false` };
    case 'text':
      return typeof value === 'string' ? null : { message: `${show(value)} should be a text` };
    case 'die': {
      const dice = Object.keys(pack.dice);
      return typeof value === 'string' && dice.includes(value) ? null : { message: `${show(value)} is not a die of this pack`, hint: dice.length ? `the dice are: ${dice.join(', ')}` : undefined };
    }
    case 'enum': {
      const members = pack.enums[type.name] ?? [];
      if (typeof value === 'string' && members.includes(value)) return null;
      const guess = typeof value === 'string' ? suggest(value, members) : undefined;
      return { message: `${show(value)} is not a ${type.name} of this pack`, hint: guess ? `did you mean \`${guess}\`?` : `a ${type.name} is one of: ${members.join(', ')}` };
    }
    case 'entity': {
      const candidates = type.kind === 'player' ? state.players : pack.byKind[type.kind] ?? [];
      if (typeof value === 'string' && candidates.includes(value)) return null;
      if (value === 'none' && type.optional) return { message: `no ${type.kind} is called \`none\``, hint: 'write `~` (or `null`) for none' };
      const other = typeof value === 'string' ? pack.kindOf(value) : undefined;
      if (type.kind === 'player' && typeof value === 'string' && /^p\d+$/.test(value)) {
        return { message: `there is no ${value} in a ${state.players.length}-player game`, hint: `the players are ${state.players.join(', ')}` };
      }
      const guess = typeof value === 'string' ? suggest(value, candidates) : undefined;
      const message = other && other !== type.kind ? `\`${String(value)}\` is a ${other}, not a ${type.kind}` : `no ${type.kind} is called ${show(value)}`;
      return { message, hint: guess ? `did you mean \`${guess}\`?` : undefined };
    }
    case 'list': {
      if (!Array.isArray(value)) return { message: `${show(value)} should be a list of ${type.of.text}`, hint: 'write `[a, b]`, or `[]` for an empty list' };
      for (const item of value) {
        const p = valueProblem(pack, state, item, type.of);
        if (p) return { message: `in the list: ${p.message}`, hint: p.hint };
      }
      return null;
    }
  }
}

/** A "did you mean" for names long enough that a close one is likely meant (`d` is not a typo of `a`). */
export function suggest(name: string, candidates: Iterable<string>): string | undefined {
  return name.length >= 3 ? closest(name, candidates) : undefined;
}

/** Deep equality of what the author wrote and what the game holds. */
export function same(expected: Plain, found: Value | Plain | undefined): boolean {
  if (expected === found) return true;
  if (Array.isArray(expected) && Array.isArray(found)) return expected.length === found.length && expected.every((x, i) => same(x, found[i]));
  if (expected && found && typeof expected === 'object' && typeof found === 'object' && !Array.isArray(expected) && !Array.isArray(found)) {
    const a = Object.keys(expected);
    const b = Object.keys(found);
    return a.length === b.length && a.every((k) => same(expected[k], (found as Record<string, Plain>)[k]));
  }
  return false;
}

/** A value as an author would write it in the scenario: `p2`, `[claim c, pass]`, `none`. */
export function show(v: Plain | Value | undefined): string {
  if (v === undefined || v === null) return 'none';
  if (Array.isArray(v)) return `[${v.map((x) => show(x)).join(', ')}]`;
  if (typeof v === 'string') return /^[\w.-][\w .:<>?-]*$/.test(v) && v.trim() === v && !['none', 'true', 'false', 'null'].includes(v) ? v : JSON.stringify(v);
  if (typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${k}: ${show(x)}`).join(', ')}}`;
  return String(v);
}
