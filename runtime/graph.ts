import type { Table } from './table.ts';

/** Steps between two entities of a graph kind; 999 when no path joins them. */
export function distance(links: Table<string[]>, from: string, to: string): number {
  if (from === to) return 0;
  const seen = new Set([from]);
  let frontier = [from];
  for (let d = 1; frontier.length; d++) {
    const next: string[] = [];
    for (const x of frontier) {
      for (const y of links[x] ?? []) {
        if (y === to) return d;
        if (!seen.has(y)) {
          seen.add(y);
          next.push(y);
        }
      }
    }
    frontier = next;
  }
  return 999;
}

/** The neighbour of `from` nearest to any of `targets` (the first of equals); `from` itself when none is nearer. */
export function stepToward(links: Table<string[]>, from: string, targets: string[]): string {
  if (!targets.length || targets.includes(from)) return from;
  let best = from;
  let bestD = Infinity;
  for (const n of links[from] ?? []) {
    const d = Math.min(...targets.map((t) => distance(links, n, t)));
    if (d < bestD) {
      best = n;
      bestD = d;
    }
  }
  return bestD >= 999 ? from : best;
}
