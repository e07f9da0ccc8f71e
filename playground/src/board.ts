/**
 * The board: every entity of a kind that has a graph is a node, drawn as the pack's presentation
 * says (board/look.ts): fill, owner's colour, pieces, markers, label. Nodes are placed so that none
 * overlaps another (board/layout.ts); edges come from the graph prop. Nodes named by a legal choice
 * can be clicked to make it. Wheel zooms, dragging pans, a double click or the reset button goes
 * back to the whole board.
 */
import type { Choice, GameState, PackSummary, Value } from './engine-types.ts';
import { s } from './dom.ts';
import { CHIP_FONT, CHIP_H, glyph, LABEL_FONT, MARKER_FONT, R, type Glyph, type Measure } from './board/glyph.ts';
import { extent, place, stretch, type Placed } from './board/layout.ts';
import { inkOn, Looks, type NodeLook } from './board/look.ts';

/** Ids named by a choice's arguments (deeply), so a choice can be made by clicking what it names. */
export function idsIn(v: Value | undefined): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(idsIn);
  return [];
}

/** What a board is drawn from: the state, and the choices the viewer may make by clicking its nodes. */
export interface BoardOf {
  summary: PackSummary;
  state: GameState;
  lang: string;
  choices: Choice[];
  /** Choices the viewer may make by clicking (human seats only). */
  clickable: boolean;
}

/** Where and how a board planned (planBoard) is drawn. */
export interface BoardInput {
  summary: PackSummary;
  lang: string;
  onPick(entity: string, choices: Choice[], at: { x: number; y: number }): void;
  /** Width / height of the space the board is drawn in, to arrange several boards. */
  aspect: number;
  /** Zoom and pan kept across redraws: a factor and a centre in board coordinates. */
  zoom?: { k: number; cx: number; cy: number };
  onZoom(z: { k: number; cx: number; cy: number } | undefined): void;
}

/** Text widths from a canvas with the page's font, the font the board's texts are drawn in. */
function measurer(): Measure {
  const ctx = document.createElement('canvas').getContext('2d');
  const family = getComputedStyle(document.body).fontFamily || 'sans-serif';
  const cache = new Map<string, number>();
  return (text, px, bold) => {
    const key = `${px}|${bold ? 1 : 0}|${text}`;
    let w = cache.get(key);
    if (w === undefined) {
      if (ctx) {
        ctx.font = `${bold ? 600 : 400} ${px}px ${family}`;
        w = ctx.measureText(text).width;
      } else w = text.length * px * 0.62;
      cache.set(key, w);
    }
    return w;
  };
}

/** Groups of nodes with their own coordinates: one per graph kind, split by a prop naming another entity (a region's `board`). */
function groupsOf(summary: PackSummary, state: GameState): Array<{ kind: string; ids: string[] }> {
  // Groups that the game state names (`game.boards`) are the ones in play; when none is named, all are drawn.
  const referenced = new Set<string>();
  for (const rec of Object.values(state.e)) for (const v of Object.values(rec)) for (const id of idsIn(v)) referenced.add(id);
  const groups: Array<{ kind: string; ids: string[] }> = [];
  for (const kind of Object.values(summary.kinds).filter((k) => k.graph)) {
    const ids = (Object.hasOwn(summary.byKind, kind.name) ? summary.byKind[kind.name] : undefined) ?? Object.keys(summary.entities).filter((id) => summary.entities[id].kind === kind.name);
    const container = Object.entries(kind.props).find(([, f]) => Object.hasOwn(summary.kinds, f.type) && f.type !== kind.name)?.[0];
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
  return groups;
}

/** What the board draws of a state: its groups of nodes, each node's look, and the choices each node makes. */
export interface BoardPlan {
  groups: Array<{ kind: string; ids: string[] }>;
  looks: Map<string, NodeLook>;
  picks: Map<string, Choice[]>;
  /**
   * All of it in a text: equal texts draw equal boards (for the same pack, language and space). It
   * leaves out the text measuring, layout and SVG that cost the most of a draw, so a redraw for new
   * rules that changed what no node shows (a player's coins) can keep the board drawn.
   */
  drawn: string;
}

/** What the board would draw of a state, worked out once: `renderBoard` draws it, as often as the space it is drawn in changes. */
export function planBoard(input: BoardOf): BoardPlan {
  const groups = groupsOf(input.summary, input.state);
  const of = new Looks(input.summary, input.state, input.lang);
  const looks = new Map<string, NodeLook>();
  for (const g of groups) for (const id of g.ids) looks.set(id, of.node(id));
  const picks = picksOf(input);
  const drawn = JSON.stringify(groups.map((g) => [g.kind, g.ids.map((id) => [id, looks.get(id), picks.get(id)?.map((c) => [c.id, c.player, c.label, c.args]) ?? null])]));
  return { groups, looks, picks, drawn };
}

/** The legal choices naming each node, when the viewer may make them by clicking. */
function picksOf(input: BoardOf): Map<string, Choice[]> {
  const byEntity = new Map<string, Choice[]>();
  if (input.clickable) {
    for (const c of input.choices) for (const id of new Set(c.args.flatMap(idsIn))) if (Object.hasOwn(input.summary.entities, id)) byEntity.set(id, [...(byEntity.get(id) ?? []), c]);
  }
  return byEntity;
}

/** Draws the board `plan` says (planBoard of the same input); returns null when the pack has no kind with a graph. */
export function renderBoard(input: BoardInput, plan: BoardPlan): SVGSVGElement | null {
  const { summary } = input;
  const { groups } = plan;
  if (!groups.length) return null;
  const measure = measurer();
  const glyphs = new Map<string, Glyph>();
  for (const g of groups) for (const id of g.ids) glyphs.set(id, glyph(plan.looks.get(id)!, measure));
  const box = (id: string) => glyphs.get(id)!.box;
  const linksOf = (kind: string) => (id: string) => {
    const graph = summary.kinds[kind]?.graph;
    return graph ? idsIn(summary.entities[id]?.props[graph]) : [];
  };

  const laid = groups.map((g) => {
    const nodes = place(g.ids, (id) => {
      const x = summary.entities[id]?.props.x;
      const y = summary.entities[id]?.props.y;
      return typeof x === 'number' && typeof y === 'number' ? { x, y } : undefined;
    }, linksOf(g.kind), box);
    // A board alone fills the space it has.
    if (groups.length === 1) stretch(nodes, box, input.aspect);
    const e = extent(nodes, box);
    return { g, nodes, minX: e.minX, minY: e.minY, w: e.maxX - e.minX, h: e.maxY - e.minY };
  });

  // Boards in a grid: each column as wide as its widest board, each row as tall as its tallest;
  // as many columns as make the boards largest in the space there is.
  const gap = 40;
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
  const all: Array<Placed & { kind: string }> = [];
  laid.forEach((l, i) => {
    const c = i % cols;
    const r = Math.floor(i / cols);
    // Centred in its cell.
    const ox = colW.slice(0, c).reduce((a, b) => a + b, 0) + (colW[c] - l.w) / 2;
    const oy = rowH.slice(0, r).reduce((a, b) => a + b, 0) + (rowH[r] - l.h) / 2;
    for (const n of l.nodes) all.push({ id: n.id, x: n.x - l.minX + ox, y: n.y - l.minY + oy, kind: l.g.kind });
  });
  const pos = new Map(all.map((n) => [n.id, n]));
  const seen = new Set<string>();
  const edges: Array<[string, string]> = [];
  for (const n of all) {
    for (const other of linksOf(n.kind)(n.id)) {
      const key = n.id < other ? `${n.id}|${other}` : `${other}|${n.id}`;
      if (seen.has(key) || !pos.has(other)) continue;
      seen.add(key);
      edges.push([n.id, other]);
    }
  }
  const e = extent(all, box);
  const pad = 6;
  const full = { x: e.minX - pad, y: e.minY - pad, w: e.maxX - e.minX + 2 * pad, h: e.maxY - e.minY + 2 * pad };
  const z = input.zoom;
  const view = z ? { w: full.w / z.k, h: full.h / z.k, x: z.cx - full.w / z.k / 2, y: z.cy - full.h / z.k / 2 } : full;
  const svg = s('svg', { viewBox: `${view.x} ${view.y} ${view.w} ${view.h}`, class: 'board', 'data-testid': 'board', preserveAspectRatio: 'xMidYMid meet', role: 'img', 'aria-label': 'game board' });
  const edgeLayer = s('g', { class: 'edges' });
  for (const [a, b] of edges) {
    const pa = pos.get(a)!;
    const pb = pos.get(b)!;
    edgeLayer.append(s('line', { x1: pa.x, y1: pa.y, x2: pb.x, y2: pb.y }));
  }
  svg.append(edgeLayer);

  for (const n of all) svg.append(drawNode(n, glyphs.get(n.id)!, plan.picks.get(n.id), input));
  enableZoom(svg, full, input);
  return svg;
}

function drawNode(n: Placed, gl: Glyph, picks: Choice[] | undefined, input: BoardInput): SVGGElement {
  const { look } = gl;
  const title = [`${look.label} (${n.id})`, ...look.markers.map((m) => m.title), ...[...new Set(look.chips.map((c) => c.title))], ...look.details].join('\n');
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
    s('circle', { r: R, fill: look.fill, class: 'body', stroke: look.ring ?? '#ffffff', 'stroke-width': look.ring ? 4.5 : 1.5 }),
    gl.markers.map((m, i) =>
      s('text', { class: 'mark', x: m.x + m.w / 2, y: gl.markerY + MARKER_FONT, 'font-size': MARKER_FONT, fill: look.markers[i].colour ?? '#3a3f4a' }, look.markers[i].text),
    ),
    gl.lines.map((line, i) => s('text', { class: 'label', y: gl.lineY[i], 'font-size': LABEL_FONT }, line)),
    gl.chips.map((c, i) => {
      const chip = look.chips[i];
      return s('g', { class: 'chip' },
        chip.text
          ? s('rect', { x: c.x, y: c.y, width: c.w, height: CHIP_H, rx: CHIP_H / 2, fill: chip.colour })
          : s('circle', { cx: c.x + c.w / 2, cy: c.y + CHIP_H / 2, r: c.w / 2, fill: chip.colour }),
        chip.text ? s('text', { x: c.x + c.w / 2, y: c.y + CHIP_H / 2 + CHIP_FONT * 0.36, 'font-size': CHIP_FONT, fill: inkOn(chip.colour) }, chip.text) : null,
      );
    }),
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
  return g;
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
  let drag: { x: number; y: number } | undefined;
  svg.addEventListener('pointerdown', (ev) => {
    if (z.k === 1 || (ev.target as Element).closest('.pickable')) return;
    drag = toBoard(ev);
    svg.setPointerCapture(ev.pointerId);
  });
  svg.addEventListener('pointermove', (ev) => {
    if (!drag) return;
    const p = toBoard(ev);
    z = { ...z, cx: z.cx - (p.x - drag.x), cy: z.cy - (p.y - drag.y) };
    apply();
    drag = toBoard(ev);
  });
  svg.addEventListener('pointerup', () => (drag = undefined));
  svg.addEventListener('dblclick', () => {
    z = { k: 1, cx: full.x + full.w / 2, cy: full.y + full.h / 2 };
    apply();
  });
}
