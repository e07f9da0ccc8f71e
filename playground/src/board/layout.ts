/**
 * Where each node of a board goes so that no node and no label overlaps another: the pack's own
 * `x`,`y` when every node has them (scaled so that neighbours sit a label's width apart), else a
 * force layout from the links (the same every time: d3-force jiggles with its own seeded generator);
 * then overlapping boxes (the disc with its markers, label and pieces) are pushed apart until none
 * touches another.
 */
import { forceCollide, forceLink, forceManyBody, forceSimulation, type SimulationNodeDatum } from 'd3-force';

/** A node's extent around its centre, in screen pixels at zoom 1. */
export interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export interface Placed {
  id: string;
  x: number;
  y: number;
}

/** Room kept between two nodes' boxes. */
export const GAP = 8;

export function place(ids: string[], coords: (id: string) => { x: number; y: number } | undefined, links: (id: string) => string[], box: (id: string) => Box): Placed[] {
  if (!ids.length) return [];
  const given = ids.map((id) => coords(id));
  const nodes = given.every((c) => c) ? scaled(ids, given as Array<{ x: number; y: number }>, links, box) : forced(ids, links, box);
  separate(nodes, box);
  return nodes;
}

/** The pack's coordinates, scaled so that the typical link is as long as a typical box is wide. */
function scaled(ids: string[], given: Array<{ x: number; y: number }>, links: (id: string) => string[], box: (id: string) => Box): Placed[] {
  const at = new Map(ids.map((id, i) => [id, given[i]]));
  const lengths: number[] = [];
  for (const a of ids) for (const b of links(a)) if (a < b && at.has(b)) lengths.push(Math.hypot(at.get(a)!.x - at.get(b)!.x, at.get(a)!.y - at.get(b)!.y));
  lengths.sort((p, q) => p - q);
  const widths = ids.map((id) => box(id).right - box(id).left).sort((p, q) => p - q);
  const typicalLink = lengths.length ? lengths[Math.floor(lengths.length / 2)] : 1;
  const typicalWidth = widths[Math.floor(widths.length / 2)];
  const k = typicalLink > 0 ? (typicalWidth + GAP * 2) / typicalLink : 1;
  return ids.map((id, i) => ({ id, x: given[i].x * k, y: given[i].y * k }));
}

/** A link's end: an id until d3-force replaces it by its node. */
const idOf = (end: string | Placed): string => (typeof end === 'string' ? end : end.id);

function forced(ids: string[], links: (id: string) => string[], box: (id: string) => Box): Placed[] {
  const sorted = [...ids].sort();
  const radius = (id: string) => {
    const b = box(id);
    return Math.max(b.right - b.left, b.bottom - b.top) / 2 + GAP;
  };
  const r0 = Math.max(120, sorted.length * 22);
  const nodes: Array<Placed & SimulationNodeDatum> = sorted.map((id, i) => ({ id, x: r0 * Math.cos((2 * Math.PI * i) / sorted.length - Math.PI / 2), y: r0 * Math.sin((2 * Math.PI * i) / sorted.length - Math.PI / 2) }));
  const inGroup = new Set(sorted);
  const edges = sorted.flatMap((a) => links(a).filter((b) => inGroup.has(b) && a < b).map((b) => ({ source: a, target: b })));
  const sim = forceSimulation(nodes)
    .force('link', forceLink<Placed & SimulationNodeDatum, { source: string; target: string }>(edges).id((n) => n.id).distance((e) => (radius(idOf(e.source)) + radius(idOf(e.target))) * 0.7))
    .force('charge', forceManyBody().strength(-60))
    .force('collide', forceCollide<Placed & SimulationNodeDatum>((n) => radius(n.id)).iterations(3))
    .stop();
  sim.tick(400);
  return nodes.map((n) => ({ id: n.id, x: n.x!, y: n.y! }));
}

/**
 * Pushes apart every two boxes that overlap, each by half the overlap along the axis where it is
 * smallest, until none does. Pairs are taken in a fixed order, so the result is the same every time.
 */
export function separate(nodes: Placed[], box: (id: string) => Box, rounds = 400): void {
  const boxes = nodes.map((n) => box(n.id));
  for (let round = 0; round < rounds; round++) {
    let moved = false;
    for (let i = 0; i < nodes.length; i++) {
      for (let j = i + 1; j < nodes.length; j++) {
        const a = nodes[i];
        const b = nodes[j];
        const A = boxes[i];
        const B = boxes[j];
        const dx = Math.min(a.x + A.right, b.x + B.right) - Math.max(a.x + A.left, b.x + B.left) + GAP;
        const dy = Math.min(a.y + A.bottom, b.y + B.bottom) - Math.max(a.y + A.top, b.y + B.top) + GAP;
        if (dx <= 0 || dy <= 0) continue;
        moved = true;
        // A little more than the overlap, so that the pair does not meet again at the next round.
        if (dx < dy) {
          const s = (a.x + (A.left + A.right) / 2 <= b.x + (B.left + B.right) / 2 ? 1 : -1) * (dx / 2 + 0.5);
          a.x -= s;
          b.x += s;
        } else {
          const s = (a.y + (A.top + A.bottom) / 2 <= b.y + (B.top + B.bottom) / 2 ? 1 : -1) * (dy / 2 + 0.5);
          a.y -= s;
          b.y += s;
        }
      }
    }
    if (!moved) return;
  }
}

/**
 * Spreads the nodes along one axis so that the board's shape comes near `aspect` (width / height),
 * filling the space it is drawn in: distances only grow along that axis, so nothing comes to
 * overlap. At most `cap` times as far apart, so a drawn map keeps its likeness.
 */
export function stretch(nodes: Placed[], box: (id: string) => Box, aspect: number, cap = 2.5): void {
  if (nodes.length < 2) return;
  const e = extent(nodes, box);
  const xs = nodes.map((n) => n.x);
  const ys = nodes.map((n) => n.y);
  const pw = Math.max(...xs) - Math.min(...xs);
  const ph = Math.max(...ys) - Math.min(...ys);
  const w = e.maxX - e.minX;
  const h = e.maxY - e.minY;
  if (w / h < aspect && pw > 0) {
    const f = Math.min(cap, (aspect * h - (w - pw)) / pw);
    if (f > 1) for (const n of nodes) n.x *= f;
  } else if (w / h > aspect && ph > 0) {
    const f = Math.min(cap, (w / aspect - (h - ph)) / ph);
    if (f > 1) for (const n of nodes) n.y *= f;
  }
}

/** The box around all nodes. */
export function extent(nodes: Placed[], box: (id: string) => Box): { minX: number; minY: number; maxX: number; maxY: number } {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const n of nodes) {
    const b = box(n.id);
    minX = Math.min(minX, n.x + b.left);
    maxX = Math.max(maxX, n.x + b.right);
    minY = Math.min(minY, n.y + b.top);
    maxY = Math.max(maxY, n.y + b.bottom);
  }
  return { minX, minY, maxX, maxY };
}
