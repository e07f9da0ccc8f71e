/**
 * A pack's presentation: how the playground draws its things, read from the `presentation:`
 * sections of its files (schemas/presentation.schema.json gives their shape) and checked against
 * the pack's kinds and fields, so that a misspelt field is reported where it was written instead of
 * drawing nothing. The presentation never changes how a game plays.
 */
import type { Declared, FieldSym, KindSym } from './declare.ts';
import type { DiagnosticInput } from './diagnostic.ts';
import { spanAt, type LoadedFile, type LoadedPack } from './load.ts';
import { closest } from './suggest.ts';
import { show, type Type } from './types.ts';

export interface PieceLook {
  /** A number field (that many pieces) or a list field (one group per value in it). */
  count: string;
  colour?: string;
  mark?: string;
  tint?: string;
  letter?: string;
  as: 'pieces' | 'badge';
}

export interface MarkerLook {
  field: string;
  icon: string;
  colour?: string;
}

export interface KindLook {
  /** `name`, `id`, or a field. */
  label: string;
  fill?: string;
  owner?: string;
  at?: string;
  /** With `at`: a bool field, the piece drawn only while it holds. */
  when?: string;
  tint?: string;
  pieces: PieceLook[];
  markers: MarkerLook[];
  show: string[];
  scratch: string[];
}

/** Tables keyed by the pack's names have no prototype (packs are untrusted). */
export interface Presentation {
  colours: Record<string, string>;
  seats?: string[];
  kinds: Record<string, KindLook>;
}

type Report = (d: DiagnosticInput) => void;

const mapOf = (x: unknown): Record<string, unknown> => (x && typeof x === 'object' && !Array.isArray(x) ? (x as Record<string, unknown>) : {});
const listOf = (x: unknown): unknown[] => (Array.isArray(x) ? x : []);
const textOf = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);

/**
 * Every `presentation:` of the pack merged (a base pack's first, so an extending pack's entries
 * replace them key by key), with each name checked. Shapes were checked by the schema stage; here a
 * value of the wrong shape reads as absent.
 */
export function readPresentation(pack: LoadedPack, d: Declared, report: Report): Presentation {
  const out: Presentation = { colours: Object.create(null), kinds: Object.create(null) };
  const given = new Map<string, Partial<KindLook>>();
  for (const file of pack.files) {
    const section = mapOf(mapOf(file.data).presentation);
    if (!Object.keys(section).length) continue;
    for (const [name, colour] of Object.entries(mapOf(section.colours))) {
      if (typeof colour !== 'string') continue;
      if (!d.members.has(name) && !d.entities.has(name)) {
        const guess = closest(name, [...d.members.keys(), ...d.entities.keys()]);
        report({
          code: 'RB0604',
          severity: 'warning',
          message: `the colour of \`${name}\` is never used: it is no enum member or entity of this pack`,
          at: spanAt(file, ['presentation', 'colours', name], true),
          hint: guess ? `did you mean \`${guess}\`?` : 'a colour is given to an enum member (a terrain) or an entity (a faction)',
          fix: guess ? { replacement: guess, safe: false } : undefined,
        });
      }
      out.colours[name] = colour;
    }
    const seats = listOf(section.seats).filter((c): c is string => typeof c === 'string');
    if (seats.length) out.seats = seats;
    for (const [kindName, raw] of Object.entries(mapOf(section.kinds))) {
      const kind = d.kinds.get(kindName);
      if (!kind) {
        const guess = closest(kindName, d.kinds.keys());
        report({
          code: 'RB0601',
          message: `the presentation names the kind \`${kindName}\`, which this pack does not declare`,
          at: spanAt(file, ['presentation', 'kinds', kindName], true),
          hint: guess ? `did you mean \`${guess}\`?` : `the kinds are: ${[...d.kinds.keys()].join(', ')}`,
          fix: guess ? { replacement: guess, safe: false } : undefined,
        });
        continue;
      }
      given.set(kindName, { ...given.get(kindName), ...readKind(file, d, kind, mapOf(raw), report) });
    }
  }
  for (const [kindName, look] of given) out.kinds[kindName] = { label: 'name', pieces: [], markers: [], show: [], scratch: [], ...look };
  return out;
}

/** What each use of a field accepts, and the words for it in a message. */
const uses = {
  label: { ok: (_t: Type) => true, needs: 'any value' },
  fill: { ok: (t: Type) => t.k === 'enum' || t.k === 'entity' || t.k === 'text', needs: 'an enum, an entity or a text' },
  owner: { ok: (t: Type) => t.k === 'entity', needs: 'a player or an entity' },
  count: { ok: (t: Type) => t.k === 'number' || t.k === 'list', needs: 'a number or a list' },
  colour: { ok: (t: Type) => t.k === 'enum' || t.k === 'entity' || t.k === 'text', needs: 'an enum, an entity or a text' },
  mark: { ok: (t: Type) => t.k === 'enum' || t.k === 'entity' || t.k === 'text' || t.k === 'number', needs: 'an enum, an entity, a text or a number' },
  when: { ok: (t: Type) => t.k === 'bool', needs: 'a bool' },
  marker: { ok: (t: Type) => t.k === 'bool' || t.k === 'number' || !!t.optional, needs: 'a bool, a number or an optional value' },
  listed: { ok: (_t: Type) => true, needs: 'any value' },
} satisfies Record<string, { ok: (t: Type) => boolean; needs: string }>;

function readKind(file: LoadedFile, d: Declared, kind: KindSym, raw: Record<string, unknown>, report: Report): Partial<KindLook> {
  const base = ['presentation', 'kinds', kind.name];
  /** The field named at `path`, if the kind has it and its type fits the use; reported otherwise. */
  const field = (name: string | undefined, path: Array<string | number>, use: keyof typeof uses): string | undefined => {
    if (name === undefined) return undefined;
    // Where the field is named, looked up only for a report: most names are right.
    const at = () => spanAt(file, [...base, ...path]);
    const sym: FieldSym | undefined = kind.props.get(name) ?? kind.state.get(name);
    if (!sym) {
      const guess = closest(name, [...kind.props.keys(), ...kind.state.keys()]);
      report({
        code: 'RB0602',
        message: `a ${kind.name} has no field \`${name}\` to present`,
        at: at(),
        hint: guess ? `did you mean \`${guess}\`?` : `its fields are: ${[...kind.props.keys(), ...kind.state.keys()].join(', ') || 'none'}`,
        fix: guess ? { replacement: guess, safe: false } : undefined,
      });
      return undefined;
    }
    if (sym.type.k !== 'error' && !uses[use].ok(sym.type)) {
      report({ code: 'RB0603', message: `\`${kind.name}.${name}\` is ${show(sym.type)}, but this place needs ${uses[use].needs}`, at: at(), hint: 'name a field of the type this place needs' });
      return undefined;
    }
    return name;
  };
  const look: Partial<KindLook> = {};
  const label = textOf(raw.label);
  if (label !== undefined) look.label = label === 'name' || label === 'id' ? label : field(label, ['label'], 'label') ?? 'name';
  if (raw.fill !== undefined) look.fill = field(textOf(raw.fill), ['fill'], 'fill');
  if (raw.owner !== undefined) look.owner = field(textOf(raw.owner), ['owner'], 'owner');
  if (raw.at !== undefined) {
    const at = field(textOf(raw.at), ['at'], 'owner');
    const t = at ? (kind.props.get(at) ?? kind.state.get(at))!.type : undefined;
    if (at && t?.k === 'entity' && !d.kinds.get(t.kind)?.graph) {
      report({ code: 'RB0603', message: `\`${kind.name}.${at}\` is ${show(t)}, but this place needs an entity of a kind with a graph (a node of the board)`, at: spanAt(file, [...base, 'at']), hint: 'name the field that holds where the piece stands' });
    } else look.at = at;
  }
  if (raw.when !== undefined) look.when = field(textOf(raw.when), ['when'], 'when');
  if (raw.tint !== undefined) look.tint = textOf(raw.tint);
  if (raw.pieces !== undefined) {
    look.pieces = listOf(raw.pieces).flatMap((p, i) => {
      const m = mapOf(p);
      const count = field(textOf(m.count), ['pieces', i, 'count'], 'count');
      if (!count) return [];
      return [{
        count,
        colour: field(textOf(m.colour), ['pieces', i, 'colour'], 'colour'),
        mark: field(textOf(m.mark), ['pieces', i, 'mark'], 'mark'),
        tint: textOf(m.tint),
        letter: textOf(m.letter),
        as: m.as === 'pieces' ? 'pieces' : 'badge',
      } satisfies PieceLook];
    });
  }
  if (raw.markers !== undefined) {
    look.markers = listOf(raw.markers).flatMap((p, i) => {
      const m = mapOf(p);
      const f = field(textOf(m.field), ['markers', i, 'field'], 'marker');
      const icon = textOf(m.icon);
      return f && icon ? [{ field: f, icon, colour: textOf(m.colour) }] : [];
    });
  }
  for (const key of ['show', 'scratch'] as const) {
    if (raw[key] !== undefined) look[key] = listOf(raw[key]).flatMap((f, i) => field(textOf(f), [key, i], 'listed') ?? []);
  }
  return look;
}
