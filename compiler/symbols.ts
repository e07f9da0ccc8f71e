/**
 * The symbol index of a pack: every name it declares (kinds, fields, roles, enums and their members,
 * dice, entities, and the events, functions, pipelines, procedures, actions and locals of its rules),
 * where each is declared, every place it is used, what hovering it says, and each file's outline.
 *
 * Built from the compiler's own stages (the loaded YAML, the declarations and the checker's name
 * resolution), with the one source map of `load.ts` from rules text to YAML positions, so an editor
 * shows exactly what the compiler understood. It is plain data (Maps, arrays, strings), so it
 * crosses from a worker to a page as it is; the queries below answer an editor's questions.
 */
import type * as A from '../dsl/ast.ts';
import { parseType } from '../dsl/parser.ts';
import { stmtBlocks, stmtExprs } from '../dsl/walk.ts';
import { cardFnKey, type Checked, type Resolution } from './check.ts';
import type { Declared, RulesUnit } from './declare.ts';
import type { FileSpan } from './diagnostic.ts';
import { fragmentSpan, type LoadedFile, type LoadedPack } from './load.ts';
import { endOf, entriesOf, entryNamed, itemsOf, partAt, rootOf, scalarOf, spanOfPart, type Part } from './yamlParts.ts';
import { LineIndex, type Fragment } from './source.ts';
import * as Ty from './types.ts';
import type { Type } from './types.ts';

export type SymbolKind = 'kind' | 'field' | 'role' | 'enum' | 'member' | 'die' | 'entity' | 'event' | 'fn' | 'pipeline' | 'check' | 'proc' | 'action' | 'guard' | 'local';

/** A span of a pack file: offsets into the file as the author wrote it. */
export type Place = FileSpan;

export interface SymbolInfo {
  /** Unique in the index: `entity:orcs`, `field:region.terrain`, `local:rules.yaml:120`. */
  key: string;
  name: string;
  kind: SymbolKind;
  /** One line: a signature, a type, or what the name is. */
  detail: string;
  /** Markdown for a hover. */
  hover: string;
  /** Where it is declared (an action may be declared by the game and by several cards). */
  defs: Place[];
}

/** One written occurrence of a name, its declaration or a use. */
export interface Occurrence extends Place {
  key: string;
  def: boolean;
}

export interface OutlineItem {
  name: string;
  detail: string;
  kind: SymbolKind | 'on' | 'modify' | 'setup' | 'flow' | 'invariant';
  /** The name. */
  at: Place;
  /** The whole declaration (contains `at`). */
  range: Place;
  children: OutlineItem[];
}

export interface SymbolIndex {
  symbols: Map<string, SymbolInfo>;
  /** Per file, sorted by offset. */
  occurrences: Map<string, Occurrence[]>;
  outline: Map<string, OutlineItem[]>;
  /** Where rules text (not plain YAML) is written, per file. */
  rules: Map<string, Place[]>;
  languages: string[];
}

export function emptySymbolIndex(): SymbolIndex {
  return { symbols: new Map(), occurrences: new Map(), outline: new Map(), rules: new Map(), languages: [] };
}

// ─── Queries ─────────────────────────────────────────────────────────────────

/** The occurrence of a name at an offset of a file (its start to its end, both included). */
export function occurrenceAt(idx: SymbolIndex, file: string, offset: number): Occurrence | undefined {
  const list = idx.occurrences.get(file) ?? [];
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].end < offset) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < list.length && list[i].start <= offset; i++) if (offset <= list[i].end) return list[i];
  return undefined;
}

export function symbolAt(idx: SymbolIndex, file: string, offset: number): SymbolInfo | undefined {
  const o = occurrenceAt(idx, file, offset);
  return o && idx.symbols.get(o.key);
}

/** Where the name at an offset is declared. */
export function definitionsAt(idx: SymbolIndex, file: string, offset: number): Place[] {
  return symbolAt(idx, file, offset)?.defs ?? [];
}

/** Every occurrence of the name at an offset, its declarations included, across the pack. */
export function referencesAt(idx: SymbolIndex, file: string, offset: number): Occurrence[] {
  const key = occurrenceAt(idx, file, offset)?.key;
  return key ? occurrencesOf(idx, key) : [];
}

/** Every occurrence of a symbol, by its key. */
export function occurrencesOf(idx: SymbolIndex, key: string): Occurrence[] {
  return [...idx.occurrences.values()].flatMap((list) => list.filter((o) => o.key === key));
}

/** The hover of the name at an offset, and the span it covers. */
export function hoverAt(idx: SymbolIndex, file: string, offset: number): { text: string; at: Place } | undefined {
  const o = occurrenceAt(idx, file, offset);
  const s = o && idx.symbols.get(o.key);
  return s && o ? { text: s.hover, at: { file: o.file, start: o.start, end: o.end } } : undefined;
}

/** Is this offset of a file inside rules text? */
export function inRules(idx: SymbolIndex, file: string, offset: number): boolean {
  return (idx.rules.get(file) ?? []).some((p) => offset >= p.start && offset <= p.end);
}

// ─── Building ────────────────────────────────────────────────────────────────

interface Stages {
  loaded?: LoadedPack;
  declared?: Declared;
  checked?: Checked;
}

/** The index of a pack at whatever stage it reached; a pack with errors gets the names that were understood. */
export function buildSymbols({ loaded, declared, checked }: Stages): SymbolIndex {
  const b = new Builder(declared, checked);
  if (declared) {
    b.idx.languages = [...declared.manifest.languages];
    for (const file of loaded?.files ?? []) b.yamlFile(file);
    b.entities();
    for (const unit of declared.units) b.declarations(unit);
    for (const unit of declared.units) b.unit(unit);
    if (checked) {
      for (const roles of checked.roles.values()) for (const r of roles.values()) b.standalone(r.fragment, r.expr, []);
      if (checked.scoring && declared.scoring) {
        b.standalone(declared.scoring.score, checked.scoring.score, [Ty.entity('player')]);
        if (checked.scoring.tiebreak && declared.scoring.tiebreak) b.standalone(declared.scoring.tiebreak, checked.scoring.tiebreak, [Ty.entity('player')]);
        if (checked.scoring.estimate && declared.scoring.estimate) b.standalone(declared.scoring.estimate, checked.scoring.estimate, [Ty.entity('player')]);
      }
    }
  }
  return b.finish();
}

/** The locals of one declaration: definitions by slot, uses waiting for them. */
interface Scope {
  unit: RulesUnit;
  defs: Map<number, string>;
  uses: Array<{ slot: number; at: Place }>;
  /** The element types of the enclosing `where`s and per-element arguments, innermost last. */
  where: Type[];
}

class Builder {
  readonly idx = emptySymbolIndex();
  private lines = new Map<string, LineIndex>();

  constructor(
    private readonly d: Declared | undefined,
    private readonly c: Checked | undefined,
  ) {}

  finish(): SymbolIndex {
    for (const list of this.idx.occurrences.values()) list.sort((a, b) => a.start - b.start || a.end - b.end);
    for (const list of this.idx.outline.values()) list.sort((a, b) => a.range.start - b.range.start);
    return this.idx;
  }

  // ─── recording ─────────────────────────────────────────────────────────────

  private symbol(key: string, make: () => Omit<SymbolInfo, 'key' | 'defs'>): SymbolInfo {
    let s = this.idx.symbols.get(key);
    if (!s) {
      s = { key, defs: [], ...make() };
      this.idx.symbols.set(key, s);
    }
    return s;
  }

  private occur(key: string, at: Place, def: boolean): void {
    const list = this.idx.occurrences.get(at.file) ?? [];
    list.push({ key, file: at.file, start: at.start, end: at.end, def });
    this.idx.occurrences.set(at.file, list);
    if (def) {
      const s = this.idx.symbols.get(key);
      if (s && !s.defs.some((p) => p.file === at.file && p.start === at.start)) s.defs.push(at);
    }
  }

  private outline(file: string, item: OutlineItem): void {
    const list = this.idx.outline.get(file) ?? [];
    list.push(item);
    this.idx.outline.set(file, list);
  }

  private where(at: Place): string {
    let li = this.lines.get(at.file);
    if (!li) {
      li = new LineIndex(this.d?.texts.get(at.file) ?? '');
      this.lines.set(at.file, li);
    }
    return `${at.file}:${li.position(at.start).line}`;
  }

  // ─── symbols of the pack's names ───────────────────────────────────────────

  private kindKey(name: string): string {
    const k = this.d?.kinds.get(name);
    return this.symbol(`kind:${name}`, () => {
      const fields = (m: Map<string, { type: Type }> | undefined) => [...(m ?? [])].map(([n, f]) => `\`${n}: ${Ty.show(f.type)}\``).join(', ') || '—';
      return {
        name,
        kind: 'kind',
        detail: 'kind',
        hover: `**kind** \`${name}\`${k?.graph ? ` · graph by \`${k.graph}\`` : ''}\n\nprops: ${fields(k?.props)}\n\nstate: ${fields(k?.state)}`,
      };
    }).key;
  }

  private fieldKey(kind: string, name: string): string {
    const k = this.d?.kinds.get(kind);
    const f = k?.props.get(name) ?? k?.state.get(name);
    const prop = !!k?.props.has(name);
    return this.symbol(`field:${kind}.${name}`, () => ({
      name,
      kind: 'field',
      detail: `${kind}.${name}: ${f ? Ty.show(f.type) : '?'}`,
      hover: `\`${kind}.${name}: ${f ? Ty.show(f.type) : '?'}\` — ${prop ? 'property, fixed per entity' : 'state, changes during play'}${f?.hidden ? ' · hidden from other players' : ''}`,
    })).key;
  }

  private roleKey(kind: string, name: string): string {
    return this.symbol(`role:${kind}.${name}`, () => ({ name, kind: 'role', detail: `role of ${kind}`, hover: `**role** \`${name}\` of ${kind}: the players for whom a ${kind}'s rules work` })).key;
  }

  private enumKey(name: string): string {
    const values = this.d?.enums.get(name)?.values ?? [];
    return this.symbol(`enum:${name}`, () => ({ name, kind: 'enum', detail: `enum: ${values.join(' | ')}`, hover: `**enum** \`${name}\`: ${values.map((m) => `\`${m}\``).join(' | ')}` })).key;
  }

  private memberKey(name: string): string {
    const owners = this.d?.members.get(name) ?? [];
    return this.symbol(`member:${name}`, () => ({ name, kind: 'member', detail: `member of ${owners.join(', ')}`, hover: `\`${name}\`: member of enum ${owners.map((e) => `\`${e}\``).join(', ')}` })).key;
  }

  private dieKey(name: string): string {
    const die = this.d?.dice.get(name);
    return this.symbol(`die:${name}`, () => ({ name, kind: 'die', detail: `die of ${die ? Ty.show(die.face) : '?'}`, hover: `**die** \`${name}\`: faces ${(die?.faces ?? []).map((f) => `\`${String(f)}\``).join(', ')}` })).key;
  }

  private entityKey(id: string): string {
    const e = this.d?.entities.get(id);
    return this.symbol(`entity:${id}`, () => {
      // Of the wrong shape when the schema check already complained: read as no names.
      const name: Record<string, unknown> = e?.name && typeof e.name === 'object' ? e.name : {};
      const text: Record<string, unknown> = e?.text && typeof e.text === 'object' ? e.text : {};
      const langs = this.d?.manifest.languages.length ? this.d.manifest.languages : Object.keys({ ...name, ...text });
      const title = [name.en, name[langs[0]]].find((x) => typeof x === 'string') ?? id;
      const lines = [`**${plain(String(title))}** · \`${id}\`${e ? ` · ${e.kind}` : ''}`];
      for (const l of langs) {
        const n = typeof name[l] === 'string' ? name[l] : undefined;
        const t = typeof text[l] === 'string' ? text[l] : undefined;
        if (n || t) lines.push(`*${plain(l)}*: ${n ? `**${plain(n)}**` : ''}${n && t ? ' — ' : ''}${plain(t ?? '')}`);
      }
      const shown = [name.en, ...Object.values(name)].find((x) => typeof x === 'string') ?? '';
      return { name: id, kind: 'entity', detail: `${e?.kind ?? 'entity'} · ${shown}`, hover: lines.join('\n\n') };
    }).key;
  }

  private declKey(kind: 'event' | 'fn' | 'pipeline' | 'check' | 'proc' | 'action' | 'guard', name: string, decl?: A.Decl, unit?: RulesUnit): string {
    return this.symbol(`${kind}:${name}`, () => {
      const sig = decl ? signature(decl) : `${kind} ${name}`;
      const at = decl && unit ? this.where(fragmentSpan(unit.fragment, decl.nameSpan)) : undefined;
      return { name, kind, detail: sig, hover: `\`\`\`\n${sig}\n\`\`\`\n*${kind}*${at ? ` declared at \`${at}\`` : ''}` };
    }).key;
  }

  private localKey(name: string, at: Place, type: string): string {
    return this.symbol(`local:${at.file}:${at.start}`, () => ({ name, kind: 'local', detail: `${name}: ${type}`, hover: `\`${name}: ${type}\` — a name of this rule` })).key;
  }

  // ─── YAML ──────────────────────────────────────────────────────────────────

  /** The names a YAML file declares: kinds (with fields and roles), enums, dice. */
  yamlFile(file: LoadedFile): void {
    const root = rootOf(file);
    if (!entriesOf(root)) return;
    const named = (part: Part | undefined) => {
      const s = scalarOf(part);
      return s && String(s.value);
    };
    const kinds = entriesOf(entryNamed(root, 'kinds')?.value);
    for (const pair of kinds ?? []) {
      const kind = named(pair.key);
      if (kind === undefined || !this.d?.kinds.has(kind)) continue;
      const at = spanOfPart(file, pair.key);
      const key = this.kindKey(kind);
      // A kind may be declared again elsewhere to add state or roles: the first is its declaration.
      const first = this.d.kinds.get(kind)!.at;
      this.occur(key, at, first.file === file.path && first.start === at.start);
      const item: OutlineItem = { name: kind, detail: 'kind', kind: 'kind', at, range: rangeOf(file, pair.key, pair.value), children: [] };
      for (const section of ['props', 'state'] as const) {
        for (const f of entriesOf(entryNamed(pair.value, section)?.value) ?? []) {
          const field = named(f.key);
          if (field === undefined) continue;
          const fat = spanOfPart(file, f.key);
          const fkey = this.fieldKey(kind, field);
          this.occur(fkey, fat, true);
          item.children.push({ name: field, detail: this.idx.symbols.get(fkey)!.detail, kind: 'field', at: fat, range: rangeOf(file, f.key, f.value), children: [] });
          this.typeText(file, entriesOf(f.value) ? entryNamed(f.value, 'type')?.value : f.value);
        }
      }
      const graph = entryNamed(pair.value, 'graph')?.value;
      const graphField = named(graph);
      if (graphField !== undefined && this.hasField(kind, graphField)) this.occur(this.fieldKey(kind, graphField), spanOfPart(file, graph), false);
      for (const r of entriesOf(entryNamed(pair.value, 'roles')?.value) ?? []) {
        const role = named(r.key);
        if (role === undefined) continue;
        const rat = spanOfPart(file, r.key);
        this.occur(this.roleKey(kind, role), rat, true);
        item.children.push({ name: role, detail: `role of ${kind}`, kind: 'role', at: rat, range: rangeOf(file, r.key, r.value), children: [] });
      }
      const dflt = entryNamed(pair.value, 'defaultRole')?.value;
      const dfltRole = named(dflt);
      if (dfltRole !== undefined && this.d.kinds.get(kind)?.roles.has(dfltRole)) this.occur(this.roleKey(kind, dfltRole), spanOfPart(file, dflt), false);
      this.outline(file.path, item);
    }
    for (const pair of entriesOf(entryNamed(root, 'enums')?.value) ?? []) {
      const name = named(pair.key);
      if (name === undefined || !this.d?.enums.has(name)) continue;
      const at = spanOfPart(file, pair.key);
      const key = this.enumKey(name);
      const declared = this.d.enums.get(name)!.at;
      this.occur(key, at, declared.file === file.path && declared.start === at.start);
      const item: OutlineItem = { name, detail: this.idx.symbols.get(key)!.detail, kind: 'enum', at, range: rangeOf(file, pair.key, pair.value), children: [] };
      for (const m of itemsOf(pair.value) ?? []) {
        const member = named(m);
        if (member === undefined) continue;
        const mat = spanOfPart(file, m);
        this.occur(this.memberKey(member), mat, true);
        item.children.push({ name: member, detail: `member of ${name}`, kind: 'member', at: mat, range: mat, children: [] });
      }
      this.outline(file.path, item);
    }
    for (const pair of entriesOf(entryNamed(root, 'dice')?.value) ?? []) {
      const name = named(pair.key);
      if (name === undefined || !this.d?.dice.has(name)) continue;
      const at = spanOfPart(file, pair.key);
      const key = this.dieKey(name);
      this.occur(key, at, true);
      this.outline(file.path, { name, detail: this.idx.symbols.get(key)!.detail, kind: 'die', at, range: rangeOf(file, pair.key, pair.value), children: [] });
      for (const f of itemsOf(pair.value) ?? []) {
        const face = named(f);
        if (face !== undefined && this.d.members.has(face)) this.occur(this.memberKey(face), spanOfPart(file, f), false);
      }
    }
  }

  private hasField(kind: string, field: string): boolean {
    const k = this.d?.kinds.get(kind);
    return !!(k?.props.has(field) || k?.state.has(field));
  }

  /** The kinds and enums a type written in YAML (`list<region>`, `race?`) names. */
  private typeText(file: LoadedFile, part: Part | undefined): void {
    const node = scalarOf(part);
    if (!node || typeof node.value !== 'string') return;
    const parsed = parseType(node.value.trim());
    if (!parsed.value) return;
    const lead = node.value.length - node.value.trimStart().length;
    const base = node.start + (node.quoted ? 1 : 0) + lead;
    this.typeRef(parsed.value, (s) => ({ file: file.path, start: base + s.start, end: base + s.end }));
  }

  private typeRef(t: A.TypeRef, at: (s: A.Span) => Place): void {
    if (t.element) this.typeRef(t.element, at);
    const place = at({ start: t.span.start, end: t.span.start + t.name.length });
    if (this.d?.kinds.has(t.name)) this.occur(this.kindKey(t.name), place, false);
    else if (this.d?.enums.has(t.name)) this.occur(this.enumKey(t.name), place, false);
  }

  /** Each entity: its id (the declaration), its kind, its fields and the names its values hold. */
  entities(): void {
    for (const e of this.d?.entities.values() ?? []) {
      const key = this.entityKey(e.id);
      this.occur(key, e.at, true);
      const item = partAt(e.file, e.path);
      const entries = entriesOf(item);
      if (entries) {
        const first = entries[0];
        if (first && scalarOf(first.key)) this.occur(this.kindKey(e.kind), spanOfPart(e.file, first.key), false);
        for (const pair of entries.slice(1)) {
          const key = scalarOf(pair.key);
          if (!key) continue;
          const field = String(key.value);
          if (!this.hasField(e.kind, field)) continue;
          this.occur(this.fieldKey(e.kind, field), spanOfPart(e.file, pair.key), false);
          const kind = this.d!.kinds.get(e.kind)!;
          this.yamlValue(e.file, pair.value, (kind.props.get(field) ?? kind.state.get(field))!.type);
        }
      }
      const range = entries?.length ? rangeOf(e.file, entries[0].key, item) : e.at;
      this.outline(e.file.path, { name: e.id, detail: this.idx.symbols.get(key)!.detail, kind: 'entity', at: e.at, range, children: [] });
    }
  }

  /** Ids and enum members written as a field's value in YAML. */
  private yamlValue(file: LoadedFile, part: Part | undefined, t: Type): void {
    if (t.k === 'list') {
      for (const x of itemsOf(part) ?? []) this.yamlValue(file, x, t.of);
      return;
    }
    const node = scalarOf(part);
    if (!node || node.value === null || node.value === undefined) return;
    const v = String(node.value);
    if (t.k === 'entity' && this.d?.entities.get(v)?.kind === t.kind) this.occur(this.entityKey(v), spanOfPart(file, part), false);
    else if (t.k === 'enum' && this.d?.enums.get(t.name)?.values.includes(v)) this.occur(this.memberKey(v), spanOfPart(file, part), false);
  }

  // ─── rules ─────────────────────────────────────────────────────────────────

  private rulesPlace(f: Fragment): void {
    const list = this.idx.rules.get(f.file) ?? [];
    list.push({ file: f.file, start: f.toFile(0), end: f.toFile(f.text.length) });
    this.idx.rules.set(f.file, list);
  }

  /** Whether the checker set the declaration aside (a duplicate, a card's `proc`, one overridden): never checked. */
  private setAside(unit: RulesUnit, decl: A.Decl): boolean {
    return !!this.c?.setAside.get(unit)?.has(decl);
  }

  /** The symbols of a rules text's declarations, before any use of them is recorded: the live ones', so a hover shows what runs. */
  declarations(unit: RulesUnit): void {
    for (const decl of unit.program.decls) {
      if (this.setAside(unit, decl)) continue;
      if (decl.kind === 'event' || decl.kind === 'fn' || decl.kind === 'pipeline' || decl.kind === 'check' || decl.kind === 'proc' || decl.kind === 'action' || decl.kind === 'guard') this.declKey(decl.kind, ownName(decl, unit), decl, unit);
    }
  }

  unit(unit: RulesUnit): void {
    this.rulesPlace(unit.fragment);
    const at = (s: A.Span) => fragmentSpan(unit.fragment, s);
    for (const decl of unit.program.decls) {
      const name = at(decl.nameSpan);
      const range = at(decl.span);
      this.outline(unit.fragment.file, { name: decl.kind === 'setup' || decl.kind === 'flow' || decl.kind === 'invariant' ? decl.kind : decl.name, detail: signature(decl), kind: decl.kind, at: name, range: range.end > name.end ? range : name, children: [] });
      if (this.setAside(unit, decl)) {
        // Its name is a use of the symbol it would have declared, if another declares it; its body
        // is not read: the tables may hold entries for its tree from where it was checked before
        // (a compile session's) or from the same text checked in another of the game's files.
        const key = NAMED.has(decl.kind) ? `${decl.kind}:${ownName(decl, unit)}` : undefined;
        if (key && this.idx.symbols.has(key)) this.occur(key, name, false);
        continue;
      }
      const scope: Scope = { unit, defs: new Map(), uses: [], where: [] };
      switch (decl.kind) {
        case 'event':
        case 'fn':
        case 'pipeline':
        case 'check':
        case 'proc':
        case 'action':
        case 'guard':
          this.occur(this.declKey(decl.kind, ownName(decl, unit), decl, unit), name, true);
          break;
        case 'on':
          if (this.c?.events.has(decl.name)) this.occur(this.declKey('event', decl.name), name, false);
          break;
        case 'modify':
          if (this.c?.pipelines.has(decl.name)) this.occur(this.declKey('pipeline', decl.name), name, false);
          break;
      }
      if (this.c) this.declBody(scope, decl);
      for (const use of scope.uses) {
        const def = scope.defs.get(use.slot);
        if (def) this.occur(def, use.at, false);
      }
    }
  }

  /** A rules expression outside a declaration: a kind's role, the scoring. */
  standalone(fragment: Fragment, e: A.Expr, where: Type[]): void {
    this.rulesPlace(fragment);
    const scope: Scope = { unit: { program: { decls: [] }, fragment }, defs: new Map(), uses: [], where: [...where] };
    this.expr(scope, e);
    for (const use of scope.uses) {
      const def = scope.defs.get(use.slot);
      if (def) this.occur(def, use.at, false);
    }
  }

  private at(scope: Scope, s: A.Span): Place {
    return fragmentSpan(scope.unit.fragment, s);
  }

  private defineLocal(scope: Scope, slot: number | undefined, name: string, span: A.Span, type: string): void {
    if (slot === undefined) return;
    const at = this.at(scope, span);
    const key = this.localKey(name, at, type);
    this.occur(key, at, true);
    scope.defs.set(slot, key);
  }

  private params(scope: Scope, params: A.Param[], unit: RulesUnit): void {
    for (const p of params) {
      this.typeRef(p.type, (s) => fragmentSpan(unit.fragment, s));
      if (p.domain) this.expr(scope, p.domain);
      this.defineLocal(scope, this.c!.slots.get(p), p.name, { start: p.span.start, end: p.span.start + p.name.length }, showRef(p.type));
    }
  }

  private declBody(scope: Scope, decl: A.Decl): void {
    const c = this.c!;
    const unit = scope.unit;
    switch (decl.kind) {
      case 'event':
        for (const p of decl.params) this.typeRef(p.type, (s) => fragmentSpan(unit.fragment, s));
        return;
      case 'fn':
        this.params(scope, decl.params, unit);
        this.typeRef(decl.returns, (s) => fragmentSpan(unit.fragment, s));
        this.expr(scope, decl.body);
        return;
      case 'pipeline':
        this.params(scope, decl.params, unit);
        this.typeRef(decl.returns, (s) => fragmentSpan(unit.fragment, s));
        if (decl.min) this.expr(scope, decl.min);
        if (decl.max) this.expr(scope, decl.max);
        this.expr(scope, decl.body);
        return;
      case 'proc':
      case 'check':
        this.params(scope, decl.params, unit);
        this.block(scope, decl.body);
        return;
      case 'guard':
        this.params(scope, decl.params, unit);
        if (decl.when) this.expr(scope, decl.when);
        this.block(scope, decl.body);
        return;
      case 'action':
        this.params(scope, decl.params, unit);
        if (decl.label) this.expr(scope, decl.label);
        if (decl.with && c.actions.has(decl.with.name)) this.occur(this.declKey('action', decl.with.name), this.at(scope, decl.with.span), false);
        this.roles(scope, decl.roles);
        this.block(scope, decl.body);
        return;
      case 'on':
      case 'modify': {
        const target = decl.kind === 'on' ? c.events.get(decl.name) : c.pipelines.get(decl.name);
        decl.binds.forEach((b, i) => {
          const param = target?.decl.params[i];
          if (param) this.defineLocal(scope, i, b.name, b.span, showRef(param.type));
        });
        this.roles(scope, decl.roles);
        if (decl.when) this.expr(scope, decl.when);
        if (decl.kind === 'on') this.block(scope, decl.body);
        else this.expr(scope, decl.value);
        return;
      }
      case 'invariant':
        this.expr(scope, decl.message);
        this.expr(scope, decl.cond);
        return;
      case 'setup':
      case 'flow':
        this.block(scope, decl.body);
        return;
    }
  }

  private roles(scope: Scope, roles: A.RoleList): void {
    const owner = scope.unit.owner;
    if (!owner) return;
    for (const r of roles.names) if (this.d?.kinds.get(owner.kind)?.roles.has(r.name)) this.occur(this.roleKey(owner.kind, r.name), this.at(scope, r.span), false);
  }

  private block(scope: Scope, b: A.Block): void {
    for (const s of b.stmts) this.stmt(scope, s);
  }

  private typeOf(e: A.Expr): string {
    const t = this.c?.types.get(e);
    return t ? Ty.show(t) : '?';
  }

  private elementOf(e: A.Expr): string {
    const t = this.c?.types.get(e);
    return t?.k === 'list' ? Ty.show(t.of) : '?';
  }

  /** A statement's expressions, then the name it binds, if any, then its nested blocks, which see that name. */
  private stmt(scope: Scope, s: A.Stmt): void {
    const c = this.c!;
    for (const e of stmtExprs(s)) this.expr(scope, e);
    switch (s.kind) {
      case 'let':
        this.defineLocal(scope, c.slots.get(s), s.name, s.nameSpan, this.typeOf(s.value));
        break;
      case 'for':
        this.defineLocal(scope, c.slots.get(s), s.name, s.nameSpan, this.elementOf(s.source));
        break;
      case 'choose':
        this.defineLocal(scope, c.slots.get(s), s.name, s.nameSpan, `${this.elementOf(s.source)}${s.optional ? '?' : ''}`);
        break;
      case 'draw':
        this.defineLocal(scope, c.slots.get(s), s.name, s.nameSpan, this.elementOf(s.from));
        break;
      case 'offer':
        for (const a of s.actions) if (c.actions.has(a.name)) this.occur(this.declKey('action', a.name), this.at(scope, a.span), false);
        break;
      case 'emit':
        if (c.events.has(s.event)) this.occur(this.declKey('event', s.event), this.at(scope, s.eventSpan), false);
        break;
    }
    for (const b of stmtBlocks(s)) this.block(scope, b);
  }

  private expr(scope: Scope, e: A.Expr): void {
    const c = this.c!;
    switch (e.kind) {
      case 'name':
        return this.name(scope, e, c.names.get(e));
      case 'field': {
        this.expr(scope, e.target);
        const f = c.fields.get(e);
        if (f) this.occur(this.fieldKey(f.kind, e.field), this.at(scope, e.fieldSpan), false);
        return;
      }
      case 'call': {
        const t = c.calls.get(e);
        if (t && t.k !== 'builtin') this.occur(this.declKey(t.k, t.name), this.at(scope, e.calleeSpan), false);
        const b = t?.k === 'builtin' ? t.b : undefined;
        e.args.forEach((a, i) => {
          if (b?.perElement?.includes(i)) {
            const src = c.types.get(e.args[0]);
            scope.where.push(src?.k === 'list' ? src.of : Ty.ERROR);
            this.expr(scope, a);
            scope.where.pop();
          } else this.expr(scope, a);
        });
        return;
      }
      case 'string':
        for (const p of e.parts) if (typeof p !== 'string') this.expr(scope, p);
        return;
      case 'unary':
        return this.expr(scope, e.operand);
      case 'binary':
        this.expr(scope, e.left);
        return this.expr(scope, e.right);
      case 'if':
        this.expr(scope, e.cond);
        this.expr(scope, e.then);
        return this.expr(scope, e.else);
      case 'where': {
        this.expr(scope, e.source);
        const src = c.types.get(e.source);
        scope.where.push(src?.k === 'list' ? src.of : Ty.ERROR);
        if (e.name && e.nameSpan) this.defineLocal(scope, c.slots.get(e), e.name, e.nameSpan, this.elementOf(e.source));
        this.expr(scope, e.cond);
        scope.where.pop();
        return;
      }
      case 'list':
        return e.items.forEach((x) => this.expr(scope, x));
      case 'range':
        this.expr(scope, e.from);
        return this.expr(scope, e.to);
      case 'number':
      case 'bool':
      case 'none':
        return;
    }
  }

  private name(scope: Scope, e: A.NameExpr, r: Resolution | undefined): void {
    if (!r) return;
    const at = this.at(scope, e.span);
    switch (r.k) {
      case 'local':
        scope.uses.push({ slot: r.slot, at });
        return;
      case 'itField': {
        const it = scope.where[scope.where.length - 1];
        if (it?.k === 'entity') this.occur(this.fieldKey(it.kind, r.field), at, false);
        return;
      }
      case 'all':
        this.occur(this.kindKey(r.kind), at, false);
        return;
      case 'const': {
        const v = String(r.value);
        if (this.d?.entities.has(v)) this.occur(this.entityKey(v), at, false);
        else if (this.d?.members.has(v)) this.occur(this.memberKey(v), at, false);
        else if (this.d?.dice.has(v)) this.occur(this.dieKey(v), at, false);
        return;
      }
      default:
        return;
    }
  }
}

/** A key and its value as one span of a file (an outline item's range), to the value's last scalar. */
function rangeOf(file: LoadedFile, key: Part, value: Part | undefined): Place {
  const start = scalarOf(key)?.start ?? 0;
  return { file: file.path, start, end: Math.max(endOf(value) ?? endOf(key) ?? start, start + 1) };
}

function showRef(t: A.TypeRef): string {
  return `${t.name}${t.element ? `<${showRef(t.element)}>` : ''}${t.optional ? '?' : ''}`;
}

/** A declaration's head as written: `pipeline conquestCost(r: region): number`. */
function signature(d: A.Decl): string {
  const params = 'params' in d ? `(${d.params.map((p) => `${p.name}: ${showRef(p.type)}`).join(', ')})` : '';
  const binds = 'binds' in d ? `(${d.binds.map((b) => b.name).join(', ')})` : '';
  const returns = 'returns' in d ? `: ${showRef(d.returns)}` : '';
  if (d.kind === 'setup' || d.kind === 'flow' || d.kind === 'invariant') return d.kind;
  return `${d.kind} ${d.name}${params || binds}${returns}`;
}

/** The declarations that name a symbol of their own (`declKey`). */
const NAMED = new Set<A.Decl['kind']>(['event', 'fn', 'pipeline', 'check', 'proc', 'action', 'guard']);

/** A card's own function is known by its card and name, as calls to it are recorded (`luck.bonus`). */
function ownName(decl: A.Decl, unit: RulesUnit): string {
  return decl.kind === 'fn' && unit.owner ? cardFnKey(unit.owner.id, decl.name) : decl.name;
}

/**
 * A pack's own words, shown in Markdown as the words they are: an author's `![x](https://…)` in a
 * card name must not make an editor fetch an image, nor `<b>` or `[a](b)` become markup.
 */
export function plain(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (c) => `\\${c}`);
}
