import * as Ty from './types.ts';
import type { Type } from './types.ts';

/**
 * Every built-in function of the language in one table: its signature, its doc line and an
 * example. The checker, the lowering, completion, hover and docs/language.md all read this table.
 */
export interface BuiltinParam {
  /** As docs write types: `list<T>`, `number`, `T` for the element type of the first argument. */
  type: string;
  /** Evaluated once per element of the first argument, with `it` bound to the element. */
  perElement?: boolean;
}

export interface BuiltinSpec {
  name: string;
  params: BuiltinParam[];
  returns: string;
  doc: string;
  example: string;
  /** Uses the game's random number generator: allowed only where state may change. */
  random?: boolean;
  /** Needs the graph of the argument's kind. */
  graph?: boolean;
  /** Result type from argument types, or what is wrong with them. */
  type(args: Type[]): Type | string;
}

/** A built-in with what its data implies: how many arguments it takes, which are per element, its signature. */
export interface Builtin extends BuiltinSpec {
  arity: number;
  /** Positions of the arguments evaluated per element. */
  perElement: number[];
  /** `sum(list<T>, number per element): number`, for messages, hover and docs. */
  signature: string;
}

function complete(b: BuiltinSpec): Builtin {
  const params = b.params.map((p) => (p.perElement ? `${p.type} per element` : p.type));
  return {
    ...b,
    arity: b.params.length,
    perElement: b.params.flatMap((p, i) => (p.perElement ? [i] : [])),
    signature: `${b.name}(${params.join(', ')}): ${b.returns}`,
  };
}

const elementOf = (t: Type): Type | undefined => (t.k === 'list' ? t.of : t.k === 'error' ? Ty.ERROR : undefined);
const needList = (t: Type, then: (el: Type) => Type | string): Type | string => {
  const el = elementOf(t);
  return el ? then(el) : `expected a list, found ${Ty.show(t)}`;
};
const needNumber = (t: Type): string | undefined => (t.k === 'number' || t.k === 'error' ? undefined : `expected a number, found ${Ty.show(t)}`);
const needEntity = (t: Type): string | undefined => (t.k === 'entity' || t.k === 'error' ? undefined : `expected an entity such as a region, found ${Ty.show(t)}`);

const specs: BuiltinSpec[] = [
  {
    name: 'count',
    params: [{ type: 'list<T>' }],
    returns: 'number',
    doc: 'How many elements a list has.',
    example: 'count(regions where owner == me and terrain == swamp)',
    type: (a) => needList(a[0], () => Ty.NUMBER),
  },
  {
    name: 'sum',
    params: [{ type: 'list<T>' }, { type: 'number', perElement: true }],
    returns: 'number',
    doc: 'Adds up a number computed for each element (`it` is the element).',
    example: 'sum(regions where owner == me, it.tokens)',
    type: (a) => needList(a[0], () => needNumber(a[1]) ?? Ty.NUMBER),
  },
  {
    name: 'any',
    params: [{ type: 'list<T>' }, { type: 'bool', perElement: true }],
    returns: 'bool',
    doc: 'Whether some element satisfies the condition (`it` is the element).',
    example: 'any(neighbours(r), it.owner == me)',
    type: (a) => needList(a[0], () => (a[1].k === 'bool' || a[1].k === 'error' ? Ty.BOOL : 'the condition must be true or false')),
  },
  {
    name: 'all',
    params: [{ type: 'list<T>' }, { type: 'bool', perElement: true }],
    returns: 'bool',
    doc: 'Whether every element satisfies the condition (`it` is the element).',
    example: 'all(regions where owner == me, it.tokens >= 2)',
    type: (a) => needList(a[0], () => (a[1].k === 'bool' || a[1].k === 'error' ? Ty.BOOL : 'the condition must be true or false')),
  },
  {
    name: 'min',
    params: [{ type: 'number' }, { type: 'number' }],
    returns: 'number',
    doc: 'The smaller of two numbers.',
    example: 'min(me.hand, 3)',
    type: (a) => needNumber(a[0]) ?? needNumber(a[1]) ?? Ty.NUMBER,
  },
  {
    name: 'max',
    params: [{ type: 'number' }, { type: 'number' }],
    returns: 'number',
    doc: 'The larger of two numbers.',
    example: 'max(0, conquestCost(r) - me.hand)',
    type: (a) => needNumber(a[0]) ?? needNumber(a[1]) ?? Ty.NUMBER,
  },
  {
    name: 'lowest',
    params: [{ type: 'list<T>' }, { type: 'number', perElement: true }],
    returns: 'T?',
    doc: 'The element with the smallest number; ties go to the earliest element in list order. none for an empty list.',
    example: 'lowest(threatened, it.number)',
    type: (a) => needList(a[0], (el) => needNumber(a[1]) ?? Ty.optional(el)),
  },
  {
    name: 'highest',
    params: [{ type: 'list<T>' }, { type: 'number', perElement: true }],
    returns: 'T?',
    doc: 'The element with the largest number; ties go to the earliest element in list order. none for an empty list.',
    example: 'highest(players, it.coins)',
    type: (a) => needList(a[0], (el) => needNumber(a[1]) ?? Ty.optional(el)),
  },
  {
    name: 'first',
    params: [{ type: 'list<T>' }],
    returns: 'T?',
    doc: 'The first element (the top of a pile), or none.',
    example: 'first(game.queue)',
    type: (a) => needList(a[0], (el) => Ty.optional(el)),
  },
  {
    name: 'last',
    params: [{ type: 'list<T>' }],
    returns: 'T?',
    doc: 'The last element (the bottom of a pile), or none.',
    example: 'last(game.drawPile)',
    type: (a) => needList(a[0], (el) => Ty.optional(el)),
  },
  {
    name: 'at',
    params: [{ type: 'list<T>' }, { type: 'number' }],
    returns: 'T?',
    doc: 'The element at a 1-based position, or none.',
    example: 'at(game.column, 3)',
    type: (a) => needList(a[0], (el) => needNumber(a[1]) ?? Ty.optional(el)),
  },
  {
    name: 'position',
    params: [{ type: 'list<T>' }, { type: 'T' }],
    returns: 'number',
    doc: 'The 1-based position of an element in a list, 0 when absent.',
    example: 'position(game.column, combo)',
    type: (a) => needList(a[0], () => Ty.NUMBER),
  },
  {
    name: 'take',
    params: [{ type: 'list<T>' }, { type: 'number' }],
    returns: 'list<T>',
    doc: 'The first n elements of a list.',
    example: 'take(game.queue, 6)',
    type: (a) => needList(a[0], () => needNumber(a[1]) ?? a[0]),
  },
  {
    name: 'neighbours',
    params: [{ type: 'T' }],
    returns: 'list<T>',
    doc: "The entities linked to this one in its kind's graph (the adjacency of a board).",
    example: 'neighbours(r) where owner == me',
    graph: true,
    type: (a) => needEntity(a[0]) ?? Ty.listOf(Ty.required(a[0])),
  },
  {
    name: 'adjacent',
    params: [{ type: 'T' }, { type: 'T' }],
    returns: 'bool',
    doc: "Whether two entities are linked in their kind's graph.",
    example: 'adjacent(r, home)',
    graph: true,
    type: (a) => needEntity(a[0]) ?? needEntity(a[1]) ?? Ty.BOOL,
  },
  {
    name: 'distance',
    params: [{ type: 'T' }, { type: 'T' }],
    returns: 'number',
    doc: "The fewest graph steps between two entities; 999 when they are not connected.",
    example: 'distance(unit.region, target)',
    graph: true,
    type: (a) => needEntity(a[0]) ?? needEntity(a[1]) ?? Ty.NUMBER,
  },
  {
    name: 'stepToward',
    params: [{ type: 'T' }, { type: 'list<T>' }],
    returns: 'T',
    doc: 'The neighbour of an entity that starts a shortest path to the nearest of the targets; ties go to the earliest neighbour. The entity itself when no target is reachable or it is a target.',
    example: 'stepToward(a.space, heroes where true)',
    graph: true,
    type: (a) => needEntity(a[0]) ?? needList(a[1], () => Ty.required(a[0])),
  },
  {
    name: 'abs',
    params: [{ type: 'number' }],
    returns: 'number',
    doc: 'The absolute value.',
    example: 'abs(a.coins - b.coins)',
    type: (a) => needNumber(a[0]) ?? Ty.NUMBER,
  },
  {
    name: 'roll',
    params: [{ type: 'die' }],
    returns: 'face',
    doc: "Rolls a die of the pack with the game's seeded random generator.",
    example: 'let bonus = roll(reinforcement)',
    random: true,
    type: (a) => (a[0].k === 'die' || a[0].k === 'error' ? Ty.ERROR : `expected a die, found ${Ty.show(a[0])}`),
  },
  {
    name: 'random',
    params: [{ type: 'number' }],
    returns: 'number',
    doc: "A number from 1 to n, from the game's seeded random generator.",
    example: 'let side = random(2)',
    random: true,
    type: (a) => needNumber(a[0]) ?? Ty.NUMBER,
  },
];

export const builtins: readonly Builtin[] = specs.map(complete);

export const builtinTable: ReadonlyMap<string, Builtin> = new Map(builtins.map((b) => [b.name, b]));
