/**
 * The board: every entity of a kind that has a graph is a node, at its `x`,`y` props when it has
 * them and laid out by its links otherwise (a force layout, the same every time); edges come from
 * the graph prop; nodes are coloured by a `terrain`
 * prop when there is one, and labelled with their state fields. Nodes named by a legal choice can
 * be clicked to make it.
 */
import type { Choice, GameState, PackSummary, Value } from './engine-types.ts';
import { forceCollide, forceLink, forceManyBody, forceSimulation, type SimulationNodeDatum } from 'd3-force';
import { s } from './dom.ts';

const terrainColours: Record<string, string> = {
  forest: '#4f8f4a',
  hills: '#b9a66a',
  mountains: '#8d8f94',
  mountain: '#8d8f94',
  swamp: '#6f7d4f',
  fields: '#d8c85a',
  farmland: '#d8c85a',
  grass: '#8fc46a',
  caves: '#6e5a7e',
  sea: '#5b8fc9',
  lake: '#8cbde6',
  water: '#5b8fc9',
  desert: '#e3c48f',
};
const fallbackColours = ['#c9a27e', '#9cc0a0', '#b7a8d6', '#e0b2a0', '#a7c7d9', '#d6cf9a', '#c4a3b9', '#a9b8a0'];
export const playerColours = ['#d9480f', '#1971c2', '#2f9e44', '#9c36b5', '#e8a200', '#0c8599', '#c2255c', '#5c940d'];

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}
export function terrainColour(t: string): string {
  return terrainColours[t] ?? fallbackColours[hash(t) % fallbackColours.length];
}

/** Ids named by a choice's arguments (deeply), so a choice can be made by clicking what it names. */
export function idsIn(v: Value | undefined): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(idsIn);
  return [];
}

export interface BoardInput {
  summary: PackSummary;
  state: GameState;
  lang: string;
  choices: Choice[];
  /** Choices the viewer may make by clicking (human seats only). */
  clickable: boolean;
  onPick(entity: string, choices: Choice[], at: { x: number; y: number }): void;
  /** Width / height of the space the board is drawn in, to arrange several boards. */
  aspect: number;
  /** Zoom and pan kept across redraws: a factor and a centre in board coordinates. */
  zoom?: { k: number; cx: number; cy: number };
  onZoom(z: { k: number; cx: number; cy: number } | undefined): void;
}

interface Node {
  id: string;
  x: number;
  y: number;
}

function layout(ids: string[], props: (id: string) => Record<string, Value>, links: (id: string) => string[]): Node[] {
  const withXY = ids.every((id) => typeof props(id).x === 'number' && typeof props(id).y === 'number');
  if (withXY && ids.length) return ids.map((id) => ({ id, x: props(id).x as number, y: props(id).y as number }));
  // No coordinates: linked nodes pulled together, all pushed apart, from a circle in id order.
  // d3-force jiggles with its own seeded generator, so the board is the same at every visit.
  const sorted = [...ids].sort();
  const r = Math.max(120, sorted.length * 14);
  const nodes: Array<Node & SimulationNodeDatum> = sorted.map((id, i) => ({ id, x: r + r * Math.cos((2 * Math.PI * i) / sorted.length - Math.PI / 2), y: r + r * Math.sin((2 * Math.PI * i) / sorted.length - Math.PI / 2) }));
  const inGroup = new Set(sorted);
  const edges = sorted.flatMap((a) => links(a).filter((b) => inGroup.has(b) && a < b).map((b) => ({ source: a, target: b })));
  if (!edges.length) return nodes;
  const sim = forceSimulation(nodes)
    .force('link', forceLink<Node & SimulationNodeDatum, { source: string; target: string }>(edges).id((n) => n.id).distance(110))
    .force('charge', forceManyBody().strength(-700))
    .force('collide', forceCollide(62))
    .stop();
  sim.tick(400);
  return nodes.map((n) => ({ id: n.id, x: n.x!, y: n.y! }));
}

function shortValue(v: Value, summary: PackSummary, lang: string, state: GameState): string {
  if (Array.isArray(v)) return `${v.length}`;
  if (typeof v === 'string') {
    const pi = state.players.indexOf(v);
    if (pi >= 0) return `P${pi + 1}`;
    const e = summary.entities[v];
    return e ? e.name[lang] ?? e.name.en ?? v : v;
  }
  if (typeof v === 'boolean') return v ? '✓' : '';
  return String(v);
}

/** Draws the board; returns null when the pack has no kind with a graph. */
export function renderBoard(input: BoardInput): SVGSVGElement | null {
  const { summary, state, lang } = input;
  const graphKinds = Object.values(summary.kinds).filter((k) => k.graph);
  if (!graphKinds.length) return null;
  const byEntity = new Map<string, Choice[]>();
  if (input.clickable) {
    for (const c of input.choices) for (const id of new Set(c.args.flatMap(idsIn))) if (summary.entities[id]) byEntity.set(id, [...(byEntity.get(id) ?? []), c]);
  }

  // Nodes fall into groups: one per graph kind, split further by a prop naming another entity
  // (a region's `board`), since each group has its own coordinates. Groups that the game state
  // names (`game.boards`) are the ones in play; when none is named, all are drawn.
  const referenced = new Set<string>();
  for (const rec of Object.values(state.e)) for (const v of Object.values(rec)) for (const id of idsIn(v)) referenced.add(id);
  const groups: Array<{ kind: string; ids: string[] }> = [];
  for (const kind of graphKinds) {
    const ids = summary.byKind[kind.name] ?? Object.keys(summary.entities).filter((id) => summary.entities[id].kind === kind.name);
    const container = Object.entries(kind.props).find(([, f]) => summary.kinds[f.type] && f.type !== kind.name)?.[0];
    if (!container) {
      groups.push({ kind: kind.name, ids });
      continue;
    }
    const byOwner = new Map<string, string[]>();
    for (const id of ids) {
      const owner = String(summary.entities[id]?.props[container] ?? '');
      byOwner.set(owner, [...(byOwner.get(owner) ?? []), id]);
    }
    const inPlay = [...byOwner.keys()].filter((o) => referenced.has(o));
    for (const [owner, members] of byOwner) if (!inPlay.length || inPlay.includes(owner)) groups.push({ kind: kind.name, ids: members });
  }
  const allNodes: Array<Node & { kind: string }> = [];
  const edges: Array<[string, string]> = [];
  const laid = groups.map((g) => {
    const graph = summary.kinds[g.kind]?.graph;
    const nodes = layout(g.ids, (id) => summary.entities[id]?.props ?? {}, (id) => (graph ? idsIn(summary.entities[id]?.props[graph]) : []));
    const xs0 = nodes.map((n) => n.x);
    const ys0 = nodes.map((n) => n.y);
    return { g, nodes, minX: Math.min(...xs0), minY: Math.min(...ys0), w: Math.max(...xs0) - Math.min(...xs0), h: Math.max(...ys0) - Math.min(...ys0) };
  });
  // Boards in a grid: each column as wide as its widest board, each row as tall as its tallest;
  // as many columns as make the boards largest in the space there is.
  const gap = 120;
  const grid = (cols: number) => {
    const colW: number[] = [];
    const rowH: number[] = [];
    laid.forEach((l, i) => {
      const c = i % cols;
      const r = Math.floor(i / cols);
      colW[c] = Math.max(colW[c] ?? 0, l.w + gap);
      rowH[r] = Math.max(rowH[r] ?? 0, l.h + gap);
    });
    return { colW, rowH, W: colW.reduce((a, b) => a + b, 0), H: rowH.reduce((a, b) => a + b, 0) };
  };
  let cols = 1;
  let best = 0;
  for (let c = 1; c <= laid.length; c++) {
    const { W, H } = grid(c);
    const scale = Math.min(input.aspect / W, 1 / H);
    if (scale > best * 1.0001) {
      best = scale;
      cols = c;
    }
  }
  const { colW, rowH } = grid(cols);
  const drawn = new Set<string>();
  laid.forEach((l, i) => {
    const c = i % cols;
    const r = Math.floor(i / cols);
    // Centred in its cell.
    const ox = colW.slice(0, c).reduce((a, b) => a + b, 0) + (colW[c] - gap - l.w) / 2;
    const oy = rowH.slice(0, r).reduce((a, b) => a + b, 0) + (rowH[r] - gap - l.h) / 2;
    for (const n of l.nodes) {
      allNodes.push({ id: n.id, x: n.x - l.minX + ox, y: n.y - l.minY + oy, kind: l.g.kind });
      drawn.add(n.id);
    }
  });
  const seen = new Set<string>();
  for (const n of allNodes) {
    const graph = summary.kinds[n.kind]?.graph;
    const adj = graph ? summary.entities[n.id]?.props[graph] : undefined;
    for (const other of idsIn(adj)) {
      const key = n.id < other ? `${n.id}|${other}` : `${other}|${n.id}`;
      if (seen.has(key) || !drawn.has(other)) continue;
      seen.add(key);
      edges.push([n.id, other]);
    }
  }
  const pos = new Map(allNodes.map((n) => [n.id, n]));
  const xs = allNodes.map((n) => n.x);
  const ys = allNodes.map((n) => n.y);
  // Node size from the typical distance between neighbours.
  const dists = edges.map(([a, b]) => Math.hypot(pos.get(a)!.x - pos.get(b)!.x, pos.get(a)!.y - pos.get(b)!.y)).sort((a, b) => a - b);
  const typical = dists.length ? dists[Math.floor(dists.length / 4)] : 80;
  const r = Math.max(10, Math.min(40, typical * 0.42));
  const pad = r * 1.6;
  const minX = Math.min(...xs) - pad;
  const minY = Math.min(...ys) - pad;
  const w = Math.max(...xs) - Math.min(...xs) + 2 * pad;
  const h = Math.max(...ys) - Math.min(...ys) + 2 * pad;
  const font = r * 0.44;

  const z = input.zoom;
  const view = z ? { w: w / z.k, h: h / z.k, x: z.cx - w / z.k / 2, y: z.cy - h / z.k / 2 } : { x: minX, y: minY, w, h };
  const svg = s('svg', { viewBox: `${view.x} ${view.y} ${view.w} ${view.h}`, class: 'board', 'data-testid': 'board', preserveAspectRatio: 'xMidYMid meet', role: 'img', 'aria-label': 'game board' });
  const edgeLayer = s('g', { class: 'edges' });
  for (const [a, b] of edges) {
    const pa = pos.get(a)!;
    const pb = pos.get(b)!;
    edgeLayer.append(s('line', { x1: pa.x, y1: pa.y, x2: pb.x, y2: pb.y }));
  }
  svg.append(edgeLayer);

  for (const n of allNodes) {
    const ent = summary.entities[n.id];
    const kind = summary.kinds[n.kind];
    const fields = state.e[n.id] ?? {};
    const terrain = ent?.props.terrain;
    const fill = typeof terrain === 'string' ? terrainColour(terrain) : '#dfe3ea';
    // A state field holding a player id colours the node's ring.
    const ownerField = Object.entries(fields).find(([, v]) => typeof v === 'string' && state.players.includes(v));
    const owner = ownerField ? state.players.indexOf(ownerField[1] as string) : -1;
    const picks = byEntity.get(n.id);
    const label = ent?.name[input.lang] ?? ent?.name.en ?? n.id;
    const stateBits = Object.entries(fields)
      .filter(([k, v]) => kind?.state[k] && v !== null && v !== false && v !== 0 && !(Array.isArray(v) && !v.length) && k !== ownerField?.[0])
      .map(([k, v]) => (typeof v === 'number' ? `${k} ${v}` : typeof v === 'boolean' ? k : shortValue(v, summary, lang, state)));
    const flags = Object.entries(ent?.props ?? {})
      .filter(([k, v]) => v === true && kind?.props[k]?.type === 'bool')
      .map(([k]) => k);
    const title = [`${label} (${n.id})`, typeof terrain === 'string' ? terrain : '', flags.join(', '), ...Object.entries(fields).map(([k, v]) => `${k}: ${JSON.stringify(v)}`)].filter(Boolean).join('\n');
    const g = s(
      'g',
      {
        class: `node${picks ? ' pickable' : ''}`,
        transform: `translate(${n.x} ${n.y})`,
        'data-testid': `node-${n.id}`,
        'data-entity': n.id,
        tabindex: picks ? 0 : undefined,
        role: picks ? 'button' : undefined,
      },
      s('title', null, title),
      s('circle', { r, fill, class: 'body', stroke: owner >= 0 ? playerColours[owner % playerColours.length] : '#ffffff', 'stroke-width': owner >= 0 ? r * 0.22 : r * 0.08 }),
      flags.includes('mountain') ? s('path', { d: `M${-r * 0.45} ${-r * 0.2} L0 ${-r * 0.75} L${r * 0.45} ${-r * 0.2} Z`, class: 'marker' }) : null,
      flags.includes('magic') ? s('circle', { cx: r * 0.62, cy: -r * 0.62, r: r * 0.2, class: 'magic' }) : null,
      s('text', { class: 'label', y: stateBits.length ? -font * 0.1 : font * 0.35, 'font-size': font }, label.length > 13 ? `${label.slice(0, 12)}…` : label),
      stateBits.length ? s('text', { class: 'state', y: font * 1.05, 'font-size': font * 0.9 }, stateBits.slice(0, 2).join(' · ')) : null,
    );
    if (picks) {
      const pick = (ev: Event) => {
        const rect = (ev.currentTarget as SVGGElement).getBoundingClientRect();
        input.onPick(n.id, picks, { x: rect.left + rect.width / 2, y: rect.bottom });
      };
      g.addEventListener('click', pick);
      g.addEventListener('keydown', (ev) => {
        if ((ev as KeyboardEvent).key === 'Enter' || (ev as KeyboardEvent).key === ' ') pick(ev);
      });
    }
    svg.append(g);
  }
  enableZoom(svg, { x: minX, y: minY, w, h }, input);
  return svg;
}

/** Wheel zooms around the pointer, dragging pans, double-click resets. */
function enableZoom(svg: SVGSVGElement, full: { x: number; y: number; w: number; h: number }, input: BoardInput) {
  let z = input.zoom ?? { k: 1, cx: full.x + full.w / 2, cy: full.y + full.h / 2 };
  const apply = () => {
    const w = full.w / z.k;
    const h = full.h / z.k;
    svg.setAttribute('viewBox', `${z.cx - w / 2} ${z.cy - h / 2} ${w} ${h}`);
    input.onZoom(z.k === 1 ? undefined : z);
  };
  const toBoard = (ev: MouseEvent) => {
    const pt = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(svg.getScreenCTM()!.inverse());
    return { x: pt.x, y: pt.y };
  };
  svg.addEventListener('wheel', (ev) => {
    ev.preventDefault();
    const p = toBoard(ev);
    const k = Math.min(6, Math.max(1, z.k * Math.exp(-ev.deltaY * 0.0015)));
    const f = z.k / k;
    z = k === 1 ? { k, cx: full.x + full.w / 2, cy: full.y + full.h / 2 } : { k, cx: p.x + (z.cx - p.x) * f, cy: p.y + (z.cy - p.y) * f };
    apply();
  }, { passive: false });
  let drag: { x: number; y: number; cx: number; cy: number } | undefined;
  svg.addEventListener('pointerdown', (ev) => {
    if (z.k === 1 || (ev.target as Element).closest('.pickable')) return;
    const p = toBoard(ev);
    drag = { x: p.x, y: p.y, cx: z.cx, cy: z.cy };
    svg.setPointerCapture(ev.pointerId);
  });
  svg.addEventListener('pointermove', (ev) => {
    if (!drag) return;
    const p = toBoard(ev);
    z = { ...z, cx: z.cx - (p.x - drag.x), cy: z.cy - (p.y - drag.y) };
    apply();
    const q = toBoard(ev);
    drag = { ...drag, x: q.x, y: q.y };
  });
  svg.addEventListener('pointerup', () => (drag = undefined));
  svg.addEventListener('dblclick', () => {
    z = { k: 1, cx: full.x + full.w / 2, cy: full.y + full.h / 2 };
    apply();
  });
}
