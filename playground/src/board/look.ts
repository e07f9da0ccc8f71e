/**
 * What a node of the board shows, read from the pack's presentation (compiler/presentation.ts) and
 * the game state: its label, fill and owner colour, the pieces on it (counts, and the entities of
 * other kinds that stand there), and its markers. A kind the pack does not present gets a plain
 * look: its name, its owner if a state field holds a player, its number fields as badges.
 */
import type { GameState, KindLook, PackSummary, Presentation, Value } from '../engine-types.ts';

/** The playground's seat colours, for a pack that gives none. */
export const defaultSeatColours = ['#d9480f', '#1971c2', '#2f9e44', '#9c36b5', '#e8a200', '#0c8599', '#c2255c', '#5c940d'];
const NEUTRAL = '#dfe3ea';
const PIECE = '#5f6b7a';

export interface Chip {
  text: string;
  colour: string;
  /** The full words, for the tooltip. */
  title: string;
}

export interface Marker {
  text: string;
  colour?: string;
  title: string;
}

export interface NodeLook {
  label: string;
  fill: string;
  ring?: string;
  chips: Chip[];
  markers: Marker[];
  /** Every field worth reading, for the tooltip. */
  details: string[];
}

/** A seat's colour: the pack's, else the playground's. */
export function seatColour(summary: PackSummary | undefined, i: number): string {
  const given = summary?.presentation?.seats;
  const seats = given?.length ? given : defaultSeatColours;
  return seats[((i % seats.length) + seats.length) % seats.length];
}

const own = <T>(table: Record<string, T> | undefined, key: string): T | undefined => (table && Object.hasOwn(table, key) ? table[key] : undefined);

/** Reads a pack's presentation against one game state. */
export class Looks {
  readonly pres: Presentation;
  /** Pieces standing on nodes: node id → the entities there, of kinds presented with `at`. */
  private standing = new Map<string, string[]>();

  constructor(
    readonly summary: PackSummary,
    readonly state: GameState,
    readonly lang: string,
  ) {
    this.pres = summary.presentation ?? { colours: Object.create(null), kinds: Object.create(null) };
    for (const [kind, look] of Object.entries(this.pres.kinds)) {
      if (!look.at) continue;
      for (const id of own(summary.byKind, kind) ?? []) {
        if (look.when && this.value(id, look.when) !== true) continue;
        const at = this.value(id, look.at);
        if (typeof at === 'string') this.standing.set(at, [...(this.standing.get(at) ?? []), id]);
      }
    }
  }

  seatColour(i: number): string {
    return seatColour(this.summary, i);
  }

  kindOf(id: string): string | undefined {
    if (this.state.players.includes(id)) return 'player';
    if (id === 'game') return 'game';
    return own(this.summary.entities, id)?.kind;
  }

  look(kind: string | undefined): KindLook | undefined {
    return kind === undefined ? undefined : own(this.pres.kinds, kind);
  }

  /** A field of an entity, player or the game: its state, else its printed prop. */
  value(id: string, field: string): Value | undefined {
    const st = own(this.state.e, id);
    if (st && Object.hasOwn(st, field)) return st[field];
    return own(own(this.summary.entities, id)?.props, field);
  }

  name(id: string): string {
    const pi = this.state.players.indexOf(id);
    if (pi >= 0) return `P${pi + 1}`;
    const e = own(this.summary.entities, id);
    return e ? (e.name[this.lang] ?? e.name.en ?? id) : id;
  }

  /** An entity's label as its kind's presentation says. */
  label(id: string): string {
    const look = this.look(this.kindOf(id));
    if (!look || look.label === 'name') return this.name(id);
    if (look.label === 'id') return id;
    return this.show(this.value(id, look.label));
  }

  /** A value in words: names for ids, yes/no, lists joined. */
  show(v: Value | undefined): string {
    if (v === null || v === undefined) return '—';
    if (typeof v === 'string') return this.kindOf(v) || this.state.players.includes(v) ? this.name(v) : v;
    if (Array.isArray(v)) return v.length ? v.map((x) => this.show(x)).join(', ') : '—';
    if (typeof v === 'boolean') return v ? 'yes' : 'no';
    return String(v);
  }

  /**
   * The colour of a value: a player's seat colour, the pack's colour for an enum member or entity,
   * else the colour of the entity's owner or fill as its kind's presentation gives them.
   */
  colour(v: Value | undefined, depth = 0): string | undefined {
    if (typeof v !== 'string' || depth > 4) return undefined;
    const pi = this.state.players.indexOf(v);
    if (pi >= 0) return this.seatColour(pi);
    const table = own(this.pres.colours, v);
    if (table) return table;
    const look = this.look(this.kindOf(v));
    if (!look) return undefined;
    return (look.owner ? this.colour(this.value(v, look.owner), depth + 1) : undefined) ?? (look.fill ? this.colour(this.value(v, look.fill), depth + 1) : undefined) ?? look.tint;
  }

  /** Fields of a kind a player reads: those the presentation shows first, then the rest but scratch and hidden ones. */
  fields(kind: string | undefined, all: string[]): string[] {
    const look = this.look(kind);
    if (!look) return all;
    const scratch = new Set(look.scratch);
    const first = look.show.filter((f) => all.includes(f));
    return [...first, ...all.filter((f) => !first.includes(f) && !scratch.has(f))];
  }

  node(id: string): NodeLook {
    const kind = this.kindOf(id);
    const info = kind ? own(this.summary.kinds, kind) : undefined;
    const look = this.look(kind) ?? this.plainLook(id);
    const ownerValue = look.owner ? this.value(id, look.owner) : undefined;
    const ring = this.colour(ownerValue ?? undefined);
    const fill = (look.fill ? this.colour(this.value(id, look.fill)) : undefined) ?? look.tint ?? NEUTRAL;
    const chips: Chip[] = [];
    for (const p of look.pieces) {
      const v = this.value(id, p.count);
      if (typeof v === 'number' && v > 0) {
        const colour = (p.colour ? this.colour(this.value(id, p.colour)) : undefined) ?? p.tint ?? ring ?? PIECE;
        const markValue = p.mark ? this.value(id, p.mark) : undefined;
        const mark = markValue !== undefined && markValue !== null ? short(this.show(markValue)) : (p.letter ?? '');
        const title = `${markValue !== undefined && markValue !== null ? this.show(markValue) : p.letter ?? p.count}: ${v} ${p.count}`;
        if (p.as === 'pieces' && v <= 5) for (let i = 0; i < v; i++) chips.push({ text: mark, colour, title });
        else chips.push({ text: `${mark}${mark ? ' ' : ''}${v}`, colour, title });
      } else if (Array.isArray(v)) {
        const counts = new Map<string, number>();
        for (const item of v) counts.set(String(item), (counts.get(String(item)) ?? 0) + 1);
        for (const [item, n] of counts) {
          const colour = this.colour(item) ?? p.tint ?? PIECE;
          const title = `${this.show(item)}: ${n} ${p.count}`;
          if (p.as === 'pieces' && n <= 5) for (let i = 0; i < n; i++) chips.push({ text: short(this.show(item)), colour, title });
          else chips.push({ text: `${short(this.show(item))} ${n}`, colour, title });
        }
      }
    }
    for (const other of this.standing.get(id) ?? []) {
      const ol = this.look(this.kindOf(other))!;
      const colour = (ol.owner ? this.colour(this.value(other, ol.owner)) : undefined) ?? (ol.fill ? this.colour(this.value(other, ol.fill)) : undefined) ?? ol.tint ?? PIECE;
      const extra = ol.show.map((f) => `${f}: ${this.show(this.value(other, f))}`);
      const owner = ol.owner ? this.value(other, ol.owner) : undefined;
      chips.push({ text: short(this.label(other)), colour, title: [this.label(other), owner ? `(${this.show(owner)})` : '', ...extra].filter(Boolean).join(' · ') });
    }
    const markers: Marker[] = [];
    for (const m of look.markers) {
      const v = this.value(id, m.field);
      if (v === true) markers.push({ text: m.icon, colour: m.colour, title: m.field });
      else if (typeof v === 'number' && v !== 0) markers.push({ text: `${m.icon}${v}`, colour: m.colour, title: `${m.field}: ${v}` });
      else if (typeof v === 'string') markers.push({ text: `${m.icon}${short(this.label(v), 3)}`, colour: m.colour, title: `${m.field}: ${this.show(v)}` });
    }
    const scratch = new Set(look.scratch);
    const details = info ? this.fields(kind, Object.keys(info.state)).filter((f) => !scratch.has(f)).map((f) => `${f}: ${this.show(this.value(id, f))}`) : [];
    return { label: this.label(id), fill, ring, chips, markers, details };
  }

  /** The look of a kind the pack does not present: its owner, and its numbers as badges. */
  private plainLook(id: string): KindLook {
    const kind = this.kindOf(id);
    const info = kind ? own(this.summary.kinds, kind) : undefined;
    const fields = Object.entries(info?.state ?? {});
    const owner = fields.find(([, f]) => f.type === 'player' || f.type === 'player?')?.[0];
    const numbers = fields.filter(([, f]) => f.type === 'number').map(([name]) => ({ count: name, letter: name.slice(0, 2), as: 'badge' as const }));
    return { label: 'name', owner, pieces: numbers, markers: [], show: [], scratch: [] };
  }
}

/** A name shortened to fit a piece: the initials of two words, or the first letters of one. */
export function short(text: string, max = 2): string {
  if (/^-?\d+$/.test(text)) return text;
  const words = text.split(/[\s_-]+/).filter((w) => /\p{L}/u.test(w));
  if (words.length >= 2 && max >= 2) return words.slice(0, max).map((w) => [...w][0]).join('').toUpperCase();
  return [...(words[0] ?? text)].slice(0, max).join('');
}

/** Black or white, whichever reads on the colour. */
export function inkOn(colour: string): string {
  const hex = colour.replace('#', '');
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255);
  return 0.299 * r + 0.587 * g + 0.114 * b > 0.6 ? '#1c1f24' : '#ffffff';
}
