/** Types of the rules language. A pack adds its own: each enum and each entity kind is a type. */
export type Type = (
  | { k: 'number' }
  | { k: 'bool' }
  | { k: 'text' }
  | { k: 'none' }
  | { k: 'die' }
  | { k: 'enum'; name: string }
  | { k: 'entity'; kind: string }
  | { k: 'list'; of: Type }
  /** Already reported; suppresses follow-on errors. */
  | { k: 'error' }
) & { optional?: boolean };

export const NUMBER: Type = { k: 'number' };
export const BOOL: Type = { k: 'bool' };
export const TEXT: Type = { k: 'text' };
export const NONE: Type = { k: 'none' };
export const ERROR: Type = { k: 'error' };
export const entity = (kind: string): Type => ({ k: 'entity', kind });
export const listOf = (of: Type): Type => ({ k: 'list', of });
export const optional = (t: Type): Type => (t.k === 'none' || t.k === 'error' ? t : { ...t, optional: true });
export const required = (t: Type): Type => {
  const { optional: _drop, ...rest } = t;
  return rest as Type;
};

export function show(t: Type): string {
  const base =
    t.k === 'enum' ? t.name : t.k === 'entity' ? t.kind : t.k === 'list' ? `list<${show(t.of)}>` : t.k === 'error' ? '?' : t.k;
  return t.optional ? `${base}?` : base;
}

export function sameBase(a: Type, b: Type): boolean {
  if (a.k !== b.k) return false;
  if (a.k === 'enum' && b.k === 'enum') return a.name === b.name;
  if (a.k === 'entity' && b.k === 'entity') return a.kind === b.kind;
  if (a.k === 'list' && b.k === 'list') return sameBase(a.of, b.of) || a.of.k === 'error' || b.of.k === 'error' || a.of.k === 'none' || b.of.k === 'none';
  return true;
}

/** Can a value of type `from` go where `to` is expected? `none` fits any optional; `T` fits `T?`. */
export function assignable(from: Type, to: Type): boolean {
  if (from.k === 'error' || to.k === 'error') return true;
  if (from.k === 'none') return !!to.optional;
  if (from.optional && !to.optional) return false;
  return sameBase(from, to);
}

/** Types that can be compared with `==`: same base, either side may be optional or none. */
export function comparable(a: Type, b: Type): boolean {
  if (a.k === 'error' || b.k === 'error') return true;
  // Testing against none is always allowed, even where the value is known to be there already.
  if (a.k === 'none' || b.k === 'none') return true;
  return sameBase(a, b);
}
