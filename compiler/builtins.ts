import * as Ty from './types.ts';
import type { Type } from './types.ts';

/**
 * Every built-in function of the language in one table: its signature, its doc line and an
 * example. The checker, the lowering, completion, hover and docs/language.md all read this table.
 */
export interface Builtin {
  name: string;
  signature: string;
  doc: string;
  example: string;
  /** Arguments evaluated once per element of the first argument, with `it` bound to the element. */
  perElement?: number[];
  /** Uses the game's random number generator: allowed only where state may change. */
  random?: boolean;
  /** Needs the graph of the argument's kind. */
  graph?: boolean;
  /** Result type from argument types, or an error message. */
  type(args: Type[]): Type | string;
}

const elementOf = (t: Type): Type | undefined => (t.k === 'list' ? t.of : t.k === 'error' ? Ty.ERROR : undefined);
const needList = (t: Type, then: (el: Type) => Type | string): Type | string => {
  const el = elementOf(t);
  return el ? then(el) : `expected a list, found ${Ty.show(t)}`;
};
const needNumber = (t: Type): string | undefined => (t.k === 'number' || t.k === 'error' ? undefined : `expected a number, found ${Ty.show(t)}`);
const needEntity = (t: Type): string | undefined => (t.k === 'entity' || t.k === 'error' ? undefined : `expected an entity such as a region, found ${Ty.show(t)}`);

export const builtins: Builtin[] = [
  {
    name: 'count',
    signature: 'count(list<T>): number',
    doc: 'How many elements a list has.',
    example: 'count(regions where owner == me and terrain == swamp)',
    type: (a) => needList(a[0], () => Ty.NUMBER),
  },
  {
    name: 'sum',
    signature: 'sum(list<T>, number per element): number',
    doc: 'Adds up a number computed for each element (`it` is the element).',
    example: 'sum(regions where owner == me, it.tokens)',
    perElement: [1],
    type: (a) => needList(a[0], () => needNumber(a[1]) ?? Ty.NUMBER),
  },
  {
    name: 'any',
    signature: 'any(list<T>, bool per element): bool',
    doc: 'Whether some element satisfies the condition (`it` is the element).',
    example: 'any(neighbours(r), it.owner == me)',
    perElement: [1],
    type: (a) => needList(a[0], () => (a[1].k === 'bool' || a[1].k === 'error' ? Ty.BOOL : 'the condition must be true or false')),
  },
  {
    name: 'all',
    signature: 'all(list<T>, bool per element): bool',
    doc: 'Whether every element satisfies the condition (`it` is the element).',
    example: 'all(regions where owner == me, it.tokens >= 2)',
    perElement: [1],
    type: (a) => needList(a[0], () => (a[1].k === 'bool' || a[1].k === 'error' ? Ty.BOOL : 'the condition must be true or false')),
  },
  {
    name: 'min',
    signature: 'min(number, number): number',
    doc: 'The smaller of two numbers.',
    example: 'min(me.hand, 3)',
    type: (a) => needNumber(a[0]) ?? needNumber(a[1]) ?? Ty.NUMBER,
  },
  {
    name: 'max',
    signature: 'max(number, number): number',
    doc: 'The larger of two numbers.',
    example: 'max(0, conquestCost(r) - me.hand)',
    type: (a) => needNumber(a[0]) ?? needNumber(a[1]) ?? Ty.NUMBER,
  },
  {
    name: 'lowest',
    signature: 'lowest(list<T>, number per element): T?',
    doc: 'The element with the smallest number; ties go to the earliest element in list order. none for an empty list.',
    example: 'lowest(threatened, it.number)',
    perElement: [1],
    type: (a) => needList(a[0], (el) => needNumber(a[1]) ?? Ty.optional(el)),
  },
  {
    name: 'highest',
    signature: 'highest(list<T>, number per element): T?',
    doc: 'The element with the largest number; ties go to the earliest element in list order. none for an empty list.',
    example: 'highest(players, it.coins)',
    perElement: [1],
    type: (a) => needList(a[0], (el) => needNumber(a[1]) ?? Ty.optional(el)),
  },
  {
    name: 'first',
    signature: 'first(list<T>): T?',
    doc: 'The first element (the top of a pile), or none.',
    example: 'first(game.raceStack)',
    type: (a) => needList(a[0], (el) => Ty.optional(el)),
  },
  {
    name: 'last',
    signature: 'last(list<T>): T?',
    doc: 'The last element (the bottom of a pile), or none.',
    example: 'last(game.drawPile)',
    type: (a) => needList(a[0], (el) => Ty.optional(el)),
  },
  {
    name: 'at',
    signature: 'at(list<T>, number): T?',
    doc: 'The element at a 1-based position, or none.',
    example: 'at(game.column, 3)',
    type: (a) => needList(a[0], (el) => needNumber(a[1]) ?? Ty.optional(el)),
  },
  {
    name: 'position',
    signature: 'position(list<T>, T): number',
    doc: 'The 1-based position of an element in a list, 0 when absent.',
    example: 'position(game.column, combo)',
    type: (a) => needList(a[0], () => Ty.NUMBER),
  },
  {
    name: 'take',
    signature: 'take(list<T>, number): list<T>',
    doc: 'The first n elements of a list.',
    example: 'take(game.raceStack, 6)',
    type: (a) => needList(a[0], () => needNumber(a[1]) ?? a[0]),
  },
  {
    name: 'neighbours',
    signature: 'neighbours(T): list<T>',
    doc: "The entities linked to this one in its kind's graph (the adjacency of a board).",
    example: 'neighbours(r) where owner == me',
    graph: true,
    type: (a) => needEntity(a[0]) ?? Ty.listOf(Ty.required(a[0])),
  },
  {
    name: 'adjacent',
    signature: 'adjacent(T, T): bool',
    doc: "Whether two entities are linked in their kind's graph.",
    example: 'adjacent(r, home)',
    graph: true,
    type: (a) => needEntity(a[0]) ?? needEntity(a[1]) ?? Ty.BOOL,
  },
  {
    name: 'distance',
    signature: 'distance(T, T): number',
    doc: "The fewest graph steps between two entities; 999 when they are not connected.",
    example: 'distance(unit.region, target)',
    graph: true,
    type: (a) => needEntity(a[0]) ?? needEntity(a[1]) ?? Ty.NUMBER,
  },
  {
    name: 'stepToward',
    signature: 'stepToward(T, list<T>): T',
    doc: 'The neighbour of an entity that starts a shortest path to the nearest of the targets; ties go to the earliest neighbour. The entity itself when no target is reachable or it is a target.',
    example: 'stepToward(a.space, heroes where true)',
    graph: true,
    type: (a) => needEntity(a[0]) ?? needList(a[1], () => Ty.required(a[0])),
  },
  {
    name: 'abs',
    signature: 'abs(number): number',
    doc: 'The absolute value.',
    example: 'abs(a.coins - b.coins)',
    type: (a) => needNumber(a[0]) ?? Ty.NUMBER,
  },
  {
    name: 'roll',
    signature: 'roll(die): face',
    doc: "Rolls a die of the pack with the game's seeded random generator.",
    example: 'let bonus = roll(reinforcement)',
    random: true,
    type: (a) => (a[0].k === 'die' || a[0].k === 'error' ? Ty.ERROR : `expected a die, found ${Ty.show(a[0])}`),
  },
  {
    name: 'random',
    signature: 'random(number): number',
    doc: "A number from 1 to n, from the game's seeded random generator.",
    example: 'let side = random(2)',
    random: true,
    type: (a) => needNumber(a[0]) ?? Ty.NUMBER,
  },
];

export const builtinTable: ReadonlyMap<string, Builtin> = new Map(builtins.map((b) => [b.name, b]));
