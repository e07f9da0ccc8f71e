/**
 * A node drawn: its markers above a disc (filled, ringed in its owner's colour), its label below in
 * at most two lines (shortened with "…", the whole name in the tooltip), and its pieces as chips
 * under the label. Sizes are in screen pixels at zoom 1, and every text is measured with the font it
 * is drawn in, so the box a node takes is known before it is placed.
 */
import type { Box } from './layout.ts';
import type { NodeLook } from './look.ts';

export const R = 15;
export const LABEL_FONT = 12;
const LINE_H = 14;
const LABEL_MAX_W = 104;
export const CHIP_FONT = 10;
export const CHIP_H = 14;
const CHIP_GAP = 3;
const ROW_GAP = 2;
const ROW_MAX_W = 112;
export const MARKER_FONT = 11;
const MARKER_H = 13;
const MARKER_GAP = 2;

export type Measure = (text: string, px: number, bold?: boolean) => number;

export interface ChipAt {
  x: number;
  y: number;
  w: number;
}

export interface Glyph {
  look: NodeLook;
  lines: string[];
  /** Baselines of the label's lines. */
  lineY: number[];
  chips: ChipAt[];
  markers: Array<{ x: number; w: number }>;
  markerY: number;
  box: Box;
}

/** Lines of at most `max` pixels, at most two; what does not fit ends in "…". */
export function wrap(text: string, max: number, measure: (t: string) => number, maxLines = 2): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let current = '';
  for (const w of words) {
    const next = current ? `${current} ${w}` : w;
    if (measure(next) <= max || !current) current = next;
    else {
      lines.push(current);
      current = w;
    }
  }
  if (current) lines.push(current);
  if (lines.length > maxLines) {
    lines.length = maxLines;
    lines[maxLines - 1] += '…';
  }
  return lines.map((l) => fit(l, max, measure));
}

function fit(line: string, max: number, measure: (t: string) => number): string {
  if (measure(line) <= max) return line;
  const chars = [...line.replace(/…$/, '')];
  while (chars.length > 1 && measure(`${chars.join('')}…`) > max) chars.pop();
  return `${chars.join('')}…`;
}

export function glyph(look: NodeLook, measure: Measure): Glyph {
  const lines = wrap(look.label, LABEL_MAX_W, (t) => measure(t, LABEL_FONT, true));
  const labelW = Math.max(0, ...lines.map((l) => measure(l, LABEL_FONT, true)));
  const labelTop = R + 2;
  const lineY = lines.map((_, i) => labelTop + LINE_H * (i + 1) - 3);
  // Chips in rows under the label, each row centred.
  const widths = look.chips.map((c) => (c.text ? Math.max(CHIP_H, measure(c.text, CHIP_FONT, true) + 8) : CHIP_H - 2));
  const rows: number[][] = [];
  let row: number[] = [];
  let rowW = 0;
  widths.forEach((w, i) => {
    if (row.length && rowW + CHIP_GAP + w > ROW_MAX_W) {
      rows.push(row);
      row = [];
      rowW = 0;
    }
    rowW += (row.length ? CHIP_GAP : 0) + w;
    row.push(i);
  });
  if (row.length) rows.push(row);
  const chipsTop = labelTop + LINE_H * lines.length + ROW_GAP;
  const chips: ChipAt[] = new Array(widths.length);
  let widest = 0;
  rows.forEach((r, ri) => {
    const total = r.reduce((sum, i) => sum + widths[i], 0) + CHIP_GAP * (r.length - 1);
    widest = Math.max(widest, total);
    let x = -total / 2;
    for (const i of r) {
      chips[i] = { x, y: chipsTop + ri * (CHIP_H + ROW_GAP), w: widths[i] };
      x += widths[i] + CHIP_GAP;
    }
  });
  const mWidths = look.markers.map((m) => measure(m.text, MARKER_FONT, true) + 2);
  const mTotal = mWidths.reduce((a, b) => a + b, 0) + MARKER_GAP * Math.max(0, mWidths.length - 1);
  let mx = -mTotal / 2;
  const markers = mWidths.map((w) => {
    const at = { x: mx, w };
    mx += w + MARKER_GAP;
    return at;
  });
  const half = Math.max(R + 2, labelW / 2 + 2, widest / 2, mTotal / 2);
  const bottom = rows.length ? chipsTop + rows.length * (CHIP_H + ROW_GAP) : labelTop + LINE_H * lines.length + 1;
  return {
    look,
    lines,
    lineY,
    chips,
    markers,
    markerY: -R - MARKER_H - 1,
    box: { left: -half, right: half, top: markers.length ? -R - MARKER_H - 2 : -R - 2, bottom },
  };
}
