/**
 * Stage 5: every checked rule becomes a tree of the runtime's operations (`runtime/compiled.ts`),
 * and the pack's data tables.
 *
 * Why a tree of data rather than closures: the closures are how rules run, and running belongs to
 * the runtime. Had lowering built them from constructors the runtime exports, the compiler would
 * still import (and hand out) code that runs rules, and a step budget or a faster engine would
 * have to reach into both. As data, the lowering only translates: each checked construct becomes
 * one operation with its resolved slots, names and types; the runtime links the tree into
 * handlers once per pack (`runtime/link.ts`). From the runtime the compiler imports types, and
 * two pure helpers on names: null-prototype tables (`runtime/table.ts`) and the kind of an id
 * (`runtime/kindOf.ts`).
 */
import type * as A from '../dsl/ast.ts';
import { walkExpr } from '../dsl/walk.ts';
import type { Checked, Placed } from './check.ts';
import type { RulesUnit } from './declare.ts';
import { compileExpression } from './expression.ts';
import { LineIndex } from './source.ts';
import * as Ty from './types.ts';
import type { Type } from './types.ts';
import type { ActionDef, Block, CardBinding, Check, CompiledPack, Expr, ListRef, ModifierDef, Origin, RecordRef, Stmt } from '../runtime/compiled.ts';
import { kindLookup } from '../runtime/kindOf.ts';
import { table, type Table } from '../runtime/table.ts';
import type { EntityInfo, FieldInfo, KindInfo, Value } from '../runtime/types.ts';

export function lower(c: Checked): CompiledPack {
  const lowering = new Lowering(c);
  // Tools compile expressions later (a scenario's `eval:`), against the same checked declarations.
  lowering.pack.expression = (source) => compileExpression(c, source, (e) => lowering.standalone(e));
  return lowering.pack;
}

class Lowering {
  readonly pack: CompiledPack;
  private readonly lines = new Map<string, LineIndex>();
  /** The rules text being lowered, so log entries can name the line that made them. */
  private unit?: RulesUnit;
  /** Blocks are numbered in the order they are lowered; a saved game's frames name them so. */
  private blocks = 0;
  /** Where the locals of an applied `check` start among its caller's slots (0 outside a check). */
  private base = 0;

  constructor(private readonly c: Checked) {
    const d = c.declared;
    const kinds = table<KindInfo>();
    const hidden = table<string[]>();
    for (const [name, k] of d.kinds) {
      const fields = (m: Map<string, { name: string; type: Type; default: Value; hidden: boolean }>) =>
        table<FieldInfo>([...m].map(([f, s]) => [f, { name: f, type: Ty.show(s.type), default: s.default, hidden: s.hidden }]));
      // The default role comes first: a card rule naming no role works in it.
      const roles = [...k.roles.keys()];
      if (k.defaultRole && roles.includes(k.defaultRole.name)) roles.sort((a, b) => (a === k.defaultRole!.name ? -1 : b === k.defaultRole!.name ? 1 : 0));
      kinds[name] = { name, plural: k.plural, props: fields(k.props), state: fields(k.state), graph: k.graph, roles };
      hidden[name] = [...k.state.values()].filter((f) => f.hidden).map((f) => f.name);
    }
    const entities = table<EntityInfo>();
    const starts = table<Table<Value>>();
    const byKind = table<string[]>([...d.kinds.keys()].map((k) => [k, [] as string[]]));
    for (const [id, e] of d.entities) {
      const kind = d.kinds.get(e.kind)!;
      const props = table<Value>();
      for (const [f, sym] of kind.props) props[f] = (e.values[f] as Value) ?? sym.default;
      entities[id] = { id, kind: e.kind, name: table(Object.entries(e.name)), text: table(Object.entries(e.text)), props };
      const given = [...kind.state.keys()].filter((f) => f in e.values);
      if (given.length) starts[id] = table(given.map((f) => [f, e.values[f] as Value]));
      byKind[e.kind].push(id);
    }
    const links = table<string[]>();
    for (const [name, k] of d.kinds) {
      if (!k.graph) continue;
      for (const id of byKind[name]) links[id] ??= [];
      for (const id of byKind[name]) {
        for (const other of (entities[id].props[k.graph] as string[] | null) ?? []) {
          if (!links[id].includes(other)) links[id].push(other);
          links[other] ??= [];
          if (!links[other].includes(id)) links[other].push(id);
        }
      }
    }
    this.pack = {
      id: d.manifest.id,
      version: d.manifest.version,
      name: d.manifest.name,
      languages: d.manifest.languages,
      players: d.manifest.players,
      kinds,
      entities,
      starts,
      byKind,
      enums: table([...d.enums].map(([n, e]) => [n, e.values])),
      dice: table([...d.dice].map(([n, x]) => [n, x.faces])),
      links,
      hidden,
      kindOf: kindLookup(entities),
      rules: { roles: table(), actions: table(), triggers: table(), pipelines: table(), procs: table(), fns: table(), setups: [], invariants: [] },
    };
    this.lowerAll();
  }

  private lowerAll(): void {
    const c = this.c;
    const rules = this.pack.rules;
    for (const [name, p] of c.fns) {
      this.unit = p.unit;
      rules.fns[name] = { slots: p.slots, body: this.expr(p.decl.body) };
    }
    for (const [name, p] of c.pipelines) {
      this.unit = p.unit;
      rules.pipelines[name] = {
        slots: p.slots,
        params: p.decl.params.length,
        base: this.expr(p.decl.body),
        min: p.decl.min && this.expr(p.decl.min),
        max: p.decl.max && this.expr(p.decl.max),
        modifiers: (c.modifiers.get(name) ?? []).map((m): ModifierDef => ({
          origin: this.origin(m.unit, m.decl, `modify ${name}`),
          card: this.card(m.unit, m.decl.roles),
          anyone: m.decl.anyone,
          slots: m.slots,
          when: m.decl.when && this.expr(m.decl.when),
          value: this.expr(m.decl.value),
        })),
      };
    }
    for (const [name, p] of c.procs) {
      this.unit = p.unit;
      rules.procs[name] = { slots: p.slots, body: this.block(p.decl.body) };
    }
    // A guard as a value (`inReach(r)`): whether its condition spares the entity or its requires all hold.
    for (const [name, p] of c.guards) {
      this.unit = p.unit;
      const holds = this.guardConditions(p).map((r) => this.expr(r.cond));
      const all = holds.reduce<Expr>((a, b) => ({ op: 'and', left: a, right: b }), { op: 'const', value: true });
      rules.fns[name] = { slots: p.slots, body: p.decl.when ? { op: 'or', left: { op: 'not', operand: this.expr(p.decl.when) }, right: all } : all };
    }
    for (const [name, list] of c.actions) rules.actions[name] = list.map((p) => this.action(p));
    for (const [name, list] of c.triggers) {
      const code = list.filter(() => c.events.has(name)).map((p) => ({
        origin: this.origin(p.unit, p.decl, `on ${name}`),
        card: this.card(p.unit, p.decl.roles),
        slots: p.slots,
        when: p.decl.when && this.expr(p.decl.when),
        body: this.block(p.decl.body),
      }));
      // The game's own triggers run before the cards' ones, so cards react to a settled state.
      rules.triggers[name] = [...code.filter((t) => !t.card), ...code.filter((t) => t.card)];
    }
    for (const [kind, roles] of c.roles) rules.roles[kind] = table([...roles].map(([role, r]) => [role, { expr: this.expr(r.expr), single: r.single }]));
    for (const inv of c.invariants) {
      const origin = this.origin(inv.unit, inv.decl, 'invariant');
      rules.invariants.push({ message: this.expr(inv.decl.message), holds: this.expr(inv.decl.cond), slots: inv.slots, rule: origin.where });
    }
    for (const s of c.setups) {
      this.unit = s.unit;
      rules.setups.push({ body: this.block(s.decl.body), slots: s.slots });
    }
    if (c.flow) {
      this.unit = c.flow.unit;
      rules.flow = { body: this.block(c.flow.decl.body), slots: c.flow.slots };
    }
    if (c.scoring) {
      rules.score = this.expr(c.scoring.score);
      rules.tiebreak = c.scoring.tiebreak && this.expr(c.scoring.tiebreak);
      rules.estimate = c.scoring.estimate && this.expr(c.scoring.estimate);
      if (c.scoring.prefer.length) rules.prefer = table(c.scoring.prefer.map((p) => [p.key, { value: this.expr(p.expr), slots: p.slots }] as const));
    }
  }

  private card(unit: RulesUnit, roles: A.RoleList): CardBinding | undefined {
    return unit.owner ? { card: unit.owner.id, roles: roles.names.map((r) => r.name) } : undefined;
  }

  private origin(unit: RulesUnit, decl: A.Decl, rule: string): Origin {
    this.unit = unit;
    return { where: this.where(decl.span) ?? unit.fragment.file, rule: unit.owner ? `${unit.owner.id}: ${rule}` : rule };
  }

  /** `file:line` of a span of the rules text being lowered. */
  private where(span: A.Span): string | undefined {
    const unit = this.unit;
    if (!unit) return undefined;
    const file = unit.fragment.file;
    let idx = this.lines.get(file);
    if (!idx) {
      idx = new LineIndex(this.c.declared.texts.get(file) ?? '');
      this.lines.set(file, idx);
    }
    return `${file}:${idx.position(unit.fragment.toFile(span.start)).line}`;
  }

  private action(p: Placed<A.ActionDecl>): ActionDef {
    const d = p.decl;
    const origin = this.origin(p.unit, d, `action ${d.name}`);
    const body = this.block(d.body);
    // The leading requires (and the lets they read) decide legality without changing the game,
    // so they stop before anything random.
    const checks: Check[] = [];
    for (const s of d.body.stmts) if (!this.leadingCheck(s, checks)) break;
    return {
      name: d.name,
      card: this.card(p.unit, d.roles),
      with: d.with?.name,
      anytime: d.anytime !== undefined,
      params: d.params.map((param) => ({ name: param.name, type: param.type.name, domain: param.domain ? this.expr(param.domain) : this.domainOf(param.type.name) })),
      slots: p.slots,
      label: d.label && this.expr(d.label),
      limit: d.limit && { times: d.limit.times, per: d.limit.per },
      checks,
      body,
      origin,
    };
  }

  /** Adds a leading `let` or `require` to an action's checks (an applied `check`'s or a reached guard's, in place); false at the first that is neither. */
  private leadingCheck(s: A.Stmt, checks: Check[]): boolean {
    const reached = s.kind === 'reach' ? this.c.reached.get(s) : undefined;
    if (reached) {
      checks.push(...this.reachChecks(s as A.ReachStmt, reached));
      return true;
    }
    const applied = s.kind === 'require' ? this.c.applied.get(s) : undefined;
    if (applied) {
      checks.push(...this.applyCheck(s as A.RequireStmt, applied).map(({ stmt, line }) => (stmt.op === 'let' ? { slot: stmt.slot, value: stmt.value } : { cond: (stmt as Extract<Stmt, { op: 'require' }>).cond, reason: (stmt as Extract<Stmt, { op: 'require' }>).reason, rule: line })));
      return true;
    }
    if (s.kind === 'let' && !this.usesRandom(s.value)) checks.push({ slot: this.slot(s), value: this.expr(s.value) });
    else if (s.kind === 'require' && s.reason && !this.usesRandom(s.cond) && !this.usesRandom(s.reason)) checks.push({ cond: this.expr(s.cond), reason: this.expr(s.reason), rule: this.where(s.span) });
    else return false;
    return true;
  }

  /**
   * `require canConquer(r)`: the check's parameters bound in the caller's slots kept for them, then
   * its `let`s and `require`s, each naming its own line of the check.
   */
  private applyCheck(s: A.RequireStmt, applied: { name: string; base: number }): Array<{ stmt: Stmt; line?: string }> {
    const check = this.c.checks.get(applied.name)!;
    const call = s.cond as A.CallExpr;
    const line = this.where(s.span);
    const base = this.base + applied.base;
    const out: Array<{ stmt: Stmt; line?: string }> = call.args.map((a, i) => ({ stmt: { op: 'let', slot: base + i, value: this.expr(a) }, line }));
    const [unit, outer] = [this.unit, this.base];
    this.unit = check.unit;
    this.base = base;
    try {
      for (const x of check.decl.body.stmts) out.push(...this.stmts(x));
    } finally {
      this.unit = unit;
      this.base = outer;
    }
    return out;
  }

  /** The leading `require … else` statements of a guard: what decides whether an entity may be reached. */
  private guardConditions(p: Placed<A.GuardDecl>): A.RequireStmt[] {
    const out: A.RequireStmt[] = [];
    for (const s of p.decl.body.stmts) {
      if (s.kind !== 'require' || !s.reason) break;
      out.push(s);
    }
    return out;
  }

  /** Runs `run` as the guard's own rules, its slots starting at the caller's `base`. */
  private inGuard<T>(name: string, base: number, run: (g: Placed<A.GuardDecl>, at: (n: A.Node) => number) => T): T {
    const g = this.c.guards.get(name)!;
    const [unit, outer] = [this.unit, this.base];
    this.unit = g.unit;
    this.base = this.base + base;
    try {
      return run(g, (n) => this.slot(n));
    } finally {
      this.unit = unit;
      this.base = outer;
    }
  }

  /** `reach x` among an action's leading statements: the guard's requires, each holding unless the guard's condition spares `x`. */
  private reachChecks(s: A.ReachStmt, reached: { name: string; base: number }): Check[] {
    const target = this.expr(s.target);
    return this.inGuard(reached.name, reached.base, (g, slot) => {
      const checks: Check[] = [{ slot: slot(g.decl.params[0]), value: target }];
      const spared = g.decl.when && ({ op: 'not', operand: this.expr(g.decl.when) } as Expr);
      for (const r of this.guardConditions(g)) {
        const cond = this.expr(r.cond);
        checks.push({ cond: spared ? { op: 'or', left: spared, right: cond } : cond, reason: this.expr(r.reason!), rule: this.where(r.span) });
      }
      return checks;
    });
  }

  /** `reach x`: `x` in the guard's parameter, then the guard's statements when its condition holds. */
  private reach(s: A.ReachStmt, reached: { name: string; base: number }): Array<{ stmt: Stmt; line?: string }> {
    const line = this.where(s.span);
    const target = this.expr(s.target);
    return this.inGuard(reached.name, reached.base, (g, slot) => {
      const bind = { stmt: { op: 'let', slot: slot(g.decl.params[0]), value: target } as Stmt, line };
      if (!g.decl.when) return [bind, ...g.decl.body.stmts.flatMap((x) => this.stmts(x))];
      return [bind, { stmt: { op: 'if', cond: this.expr(g.decl.when), then: this.block(g.decl.body) }, line }];
    });
  }

  /** Does the expression (the holes of its texts included) call `random` or `roll`? */
  private usesRandom(e: A.Expr): boolean {
    let found = false;
    walkExpr(e, (x) => {
      if (x.kind === 'call') {
        const t = this.c.calls.get(x);
        if (t?.k === 'builtin' && t.b.random) found = true;
      }
      if (x.kind === 'string') for (const part of x.parts) if (typeof part !== 'string' && this.usesRandom(part)) found = true;
    });
    return found;
  }

  /** Every value of a parameter's type: all entities of a kind, all members of an enum, true and false. */
  private domainOf(typeName: string): Expr {
    if (typeName === 'player') return { op: 'players' };
    if (typeName === 'bool') return { op: 'const', value: [true, false] };
    if (this.c.declared.kinds.has(typeName)) return { op: 'const', value: this.pack.byKind[typeName] ?? [] };
    return { op: 'const', value: this.pack.enums[typeName] ?? [] };
  }

  // ─── statements ──────────────────────────────────────────────────────────

  private block(b: A.Block): Block {
    const code: Block = { id: this.blocks++, stmts: [], lines: [] };
    const lowered = b.stmts.flatMap((s) => this.stmts(s));
    code.stmts = lowered.map((x) => x.stmt);
    code.lines = lowered.map((x) => x.line);
    return code;
  }

  /** One statement, or the statements of the `check` a `require` applies. */
  private stmts(s: A.Stmt): Array<{ stmt: Stmt; line?: string }> {
    const applied = s.kind === 'require' ? this.c.applied.get(s) : undefined;
    if (applied) return this.applyCheck(s as A.RequireStmt, applied);
    const reached = s.kind === 'reach' ? this.c.reached.get(s) : undefined;
    if (reached) return this.reach(s as A.ReachStmt, reached);
    return [{ line: this.where(s.span), stmt: this.stmt(s) }];
  }

  private slot(n: A.Node): number {
    const s = this.c.slots.get(n);
    if (s === undefined) throw new Error('internal: a variable without a slot reached the lowering');
    return this.base + s;
  }

  private stmt(s: A.Stmt): Stmt {
    switch (s.kind) {
      case 'let':
        return { op: 'let', slot: this.slot(s), value: this.expr(s.value) };
      case 'assign':
        return { op: s.op, record: this.record(s.target.target), field: s.target.field, value: this.expr(s.value) };
      case 'if':
        return { op: 'if', cond: this.expr(s.cond), then: this.block(s.then), else: s.else && this.block(s.else) };
      case 'for':
        return { op: 'for', slot: this.slot(s), source: this.expr(s.source), body: this.block(s.body) };
      case 'repeat':
      case 'loop':
        return { op: 'repeat', times: this.expr(s.kind === 'repeat' ? s.times : s.max), body: this.block(s.body) };
      case 'break':
      case 'finish':
        return { op: s.kind };
      case 'require':
        if (!s.reason) throw new Error('internal: a `require` without a reason applies no check');
        return { op: 'require', cond: this.expr(s.cond), reason: this.expr(s.reason), rule: this.where(s.span) };
      case 'choose':
        return {
          op: 'choose',
          source: this.expr(s.source),
          by: s.by && this.expr(s.by),
          prompt: s.prompt && this.expr(s.prompt),
          body: this.block(s.body),
          slot: this.slot(s),
          optional: s.optional,
          rule: this.where(s.span),
        };
      case 'offer':
        return { op: 'offer', player: this.expr(s.player), actions: s.actions.map((a) => a.name) };
      case 'emit':
        return { op: 'emit', event: s.event, args: s.args.map((a) => this.expr(a)) };
      case 'log':
        return { op: 'log', text: this.expr(s.text), rule: this.where(s.span) };
      case 'resolving':
        return { op: 'resolving', body: this.block(s.body) };
      case 'turn':
        return { op: 'turn', player: this.expr(s.player), body: this.block(s.body), rule: this.where(s.span) };
      case 'shuffle':
        return { op: 'shuffle', list: this.listRef(s.target) };
      case 'draw':
        return { op: 'draw', list: this.listRef(s.from), slot: this.slot(s), fromTop: s.end === 'top' };
      case 'put':
        return { op: 'put', list: this.listRef(s.into), value: this.expr(s.value), onTop: s.end === 'top' };
      case 'remove':
        return { op: 'remove', list: this.listRef(s.from), value: this.expr(s.value) };
      case 'call':
        return { op: 'call', name: s.call.callee, args: s.call.args.map((a) => this.expr(a)) };
      case 'expr':
        throw new Error('internal: a value standing as a statement reached the lowering');
      case 'reach':
        throw new Error('internal: a `reach` of no guard reached the lowering');
    }
  }

  private record(target: A.Expr): RecordRef {
    return { target: this.expr(target), what: printExpr(target) };
  }

  private listRef(f: A.Expr): ListRef {
    if (f.kind !== 'field') throw new Error('internal: a pile that is no field reached the lowering');
    return { record: this.record(f.target), field: f.field, what: printField(f) };
  }

  // ─── expressions ─────────────────────────────────────────────────────────

  /** An expression checked outside any rule: it has no rules text to name in the log. */
  standalone(e: A.Expr): Expr {
    this.unit = undefined;
    return this.expr(e);
  }

  private expr(e: A.Expr): Expr {
    switch (e.kind) {
      case 'number':
      case 'bool':
        return { op: 'const', value: e.value };
      case 'none':
        return { op: 'const', value: null };
      case 'string': {
        const parts = e.parts.map((p) => (typeof p === 'string' ? p : this.expr(p)));
        if (parts.every((p) => typeof p === 'string')) return { op: 'const', value: parts.join('') };
        return { op: 'text', parts };
      }
      case 'name':
        return this.name(e);
      case 'field': {
        const info = this.c.fields.get(e);
        if (!info) throw new Error(`internal: unresolved field ${e.field} reached the lowering`);
        return this.read(this.expr(e.target), e.field, info.isProp, this.c.types.get(e) ?? Ty.ERROR);
      }
      case 'call':
        return this.call(e);
      case 'unary':
        return { op: e.op === 'not' ? 'not' : 'negate', operand: this.expr(e.operand) };
      case 'binary':
        return { op: this.binaryOp(e), left: this.expr(e.left), right: this.expr(e.right) };
      case 'if':
        return { op: 'if', cond: this.expr(e.cond), then: this.expr(e.then), else: this.expr(e.else) };
      case 'where':
        return { op: 'where', source: this.expr(e.source), cond: this.expr(e.cond), slot: e.name ? this.slot(e) : -1 };
      case 'list':
        return { op: 'list', items: e.items.map((i) => this.expr(i)) };
      case 'range':
        return { op: 'range', from: this.expr(e.from), to: this.expr(e.to) };
    }
  }

  /** `+` and `-` are also list and text operations, told apart by the left operand's type. */
  private binaryOp(e: A.BinaryExpr): Extract<Expr, { left: Expr }>['op'] {
    const left = this.c.types.get(e.left)?.k;
    if (e.op === '+' && left === 'list') return 'concat';
    if (e.op === '+' && left === 'text') return 'join';
    if (e.op === '-' && left === 'list') return 'without';
    return e.op;
  }

  private name(e: A.NameExpr): Expr {
    const r = this.c.names.get(e);
    if (!r) throw new Error(`internal: unresolved name ${e.name} reached the lowering`);
    switch (r.k) {
      case 'local':
        return { op: 'local', slot: this.base + r.slot };
      case 'me':
      case 'self':
      case 'holder':
      case 'it':
      case 'value':
      case 'players':
      case 'current':
        return { op: r.k };
      case 'game':
        return { op: 'const', value: 'game' };
      case 'all':
        return { op: 'const', value: this.pack.byKind[r.kind] ?? [] };
      case 'itField':
        return this.read({ op: 'it' }, r.field, r.isProp, this.c.types.get(e) ?? Ty.ERROR);
      case 'const':
        return { op: 'const', value: r.value };
    }
  }

  /** Reads a field; through none it gives the field type's empty value (0, false, [], none). */
  private read(target: Expr, field: string, isProp: boolean, t: Type): Expr {
    const empty: Value = t.k === 'number' ? 0 : t.k === 'bool' ? false : t.k === 'list' ? [] : null;
    return { op: isProp ? 'prop' : 'field', target, field, empty };
  }

  private call(e: A.CallExpr): Expr {
    const target = this.c.calls.get(e);
    if (!target) throw new Error(`internal: unresolved call ${e.callee} reached the lowering`);
    const args = e.args.map((a) => this.expr(a));
    if (target.k === 'fn' || target.k === 'pipeline') return { op: target.k, name: target.name, args };
    if (target.k === 'guard') return { op: 'fn', name: target.name, args };
    if (target.k === 'proc' || target.k === 'check') throw new Error(`internal: a ${target.k} used as a value`);
    return { op: 'builtin', name: target.b.name, args, die: target.die, rule: this.where(e.span) };
  }
}

function printExpr(e: A.Expr): string {
  if (e.kind === 'name') return `\`${e.name}\``;
  if (e.kind === 'field') return `\`${printField(e)}\``;
  return 'this value';
}

function printField(f: A.FieldExpr): string {
  const t = f.target;
  const base = t.kind === 'name' ? t.name : t.kind === 'field' ? printField(t) : '…';
  return `${base}.${f.field}`;
}
