import type * as A from '../dsl/ast.ts';
import type { Checked, Placed } from './check.ts';
import type { RulesUnit } from './declare.ts';
import { compileExpression } from './expression.ts';
import { LineIndex } from './source.ts';
import * as Ty from './types.ts';
import type { Type } from './types.ts';
import { BREAK, FINISH, NORMAL, SUSPEND, type ActionCode, type BlockCode, type CardBinding, type CompiledPack, type ExprFn, type ModifierCode, type Origin, type RunCtx, type StmtFn } from '../runtime/compiled.ts';
import { Refusal, rangeOf, runBlock, runEmit, runFor, runPipeline, runRepeat } from '../runtime/engine.ts';
import { cloneJson, sameValue } from '../runtime/clone.ts';
import { display, randomInt, shuffleInPlace, takeForced } from '../runtime/values.ts';
import type { EntityInfo, FieldInfo, KindInfo, Value } from '../runtime/types.ts';

/** Stage 5: every checked rule becomes a runtime handler (closures over the pack), and the data a table. */
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

  constructor(private readonly c: Checked) {
    const d = c.declared;
    const kinds: Record<string, KindInfo> = {};
    const hidden: Record<string, string[]> = {};
    for (const [name, k] of d.kinds) {
      const fields = (m: Map<string, { name: string; type: Type; default: Value; hidden: boolean }>): Record<string, FieldInfo> =>
        Object.fromEntries([...m].map(([f, s]) => [f, { name: f, type: Ty.show(s.type), default: s.default, hidden: s.hidden }]));
      // The default role comes first: a card rule naming no role works in it.
      const roles = [...k.roles.keys()];
      if (k.defaultRole && roles.includes(k.defaultRole.name)) roles.sort((a, b) => (a === k.defaultRole!.name ? -1 : b === k.defaultRole!.name ? 1 : 0));
      kinds[name] = { name, plural: k.plural, props: fields(k.props), state: fields(k.state), graph: k.graph, roles };
      hidden[name] = [...k.state.values()].filter((f) => f.hidden).map((f) => f.name);
    }
    const entities: Record<string, EntityInfo> = {};
    const byKind: Record<string, string[]> = Object.fromEntries([...d.kinds.keys()].map((k) => [k, [] as string[]]));
    for (const [id, e] of d.entities) {
      const kind = d.kinds.get(e.kind)!;
      const props: Record<string, Value> = {};
      for (const [f, sym] of kind.props) props[f] = (e.values[f] as Value) ?? sym.default;
      entities[id] = { id, kind: e.kind, name: e.name, text: e.text, props };
      byKind[e.kind].push(id);
    }
    const links: Record<string, string[]> = {};
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
      byKind,
      enums: Object.fromEntries([...d.enums].map(([n, e]) => [n, e.values])),
      dice: Object.fromEntries([...d.dice].map(([n, x]) => [n, x.faces])),
      links,
      roles: {},
      blocks: [],
      actions: {},
      companions: {},
      anytime: [],
      triggers: {},
      pipelines: {},
      procs: {},
      fns: {},
      setups: [],
      invariants: [],
      hidden,
      kindOf: (id: string) => entities[id]?.kind ?? (id === 'game' ? 'game' : /^p\d+$/.test(id) ? 'player' : undefined),
    };
    this.lowerAll();
  }

  private lowerAll(): void {
    const c = this.c;
    const pack = this.pack;
    for (const [name, p] of c.fns) {
      this.unit = p.unit;
      pack.fns[name] = { slots: p.slots, body: this.expr(p.decl.body) };
    }
    for (const [name, p] of c.pipelines) {
      this.unit = p.unit;
      pack.pipelines[name] = {
        slots: p.slots,
        params: p.decl.params.length,
        base: this.expr(p.decl.body),
        min: p.decl.min && this.expr(p.decl.min),
        max: p.decl.max && this.expr(p.decl.max),
        modifiers: (c.modifiers.get(name) ?? []).map((m): ModifierCode => ({
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
      pack.procs[name] = { slots: p.slots, body: this.block(p.decl.body) };
    }
    for (const [name, list] of c.actions) {
      pack.actions[name] = list.map((p) => this.action(p));
      for (const a of pack.actions[name]) if (a.with) (pack.companions[a.with] ??= []).push(a);
      for (const a of pack.actions[name]) if (a.anytime) pack.anytime.push(a);
    }
    for (const [name, list] of c.triggers) {
      const code = list.filter(() => c.events.has(name)).map((p) => ({
        origin: this.origin(p.unit, p.decl, `on ${name}`),
        card: this.card(p.unit, p.decl.roles),
        slots: p.slots,
        when: p.decl.when && this.expr(p.decl.when),
        body: this.block(p.decl.body),
      }));
      // The game's own triggers run before the cards' ones, so cards react to a settled state.
      pack.triggers[name] = [...code.filter((t) => !t.card), ...code.filter((t) => t.card)];
    }
    for (const [kind, roles] of c.roles) {
      pack.roles[kind] = {};
      for (const [role, r] of roles) {
        const fn = this.expr(r.expr);
        pack.roles[kind][role] = r.single
          ? (ctx) => {
              const p = fn(ctx);
              return typeof p === 'string' ? [p] : [];
            }
          : (ctx) => fn(ctx) as string[];
      }
    }
    for (const inv of c.invariants) {
      const origin = this.origin(inv.unit, inv.decl, 'invariant');
      pack.invariants.push({ message: this.expr(inv.decl.message), holds: this.expr(inv.decl.cond), slots: inv.slots, rule: origin.where });
    }
    for (const s of c.setups) {
      this.unit = s.unit;
      pack.setups.push({ body: this.block(s.decl.body), slots: s.slots });
    }
    if (c.flow) {
      this.unit = c.flow.unit;
      pack.flow = { body: this.block(c.flow.decl.body), slots: c.flow.slots };
    }
    if (c.scoring) {
      pack.score = this.expr(c.scoring.score);
      pack.tiebreak = c.scoring.tiebreak && this.expr(c.scoring.tiebreak);
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

  private action(p: Placed<A.ActionDecl>): ActionCode {
    const d = p.decl;
    const origin = this.origin(p.unit, d, `action ${d.name}`);
    const body = this.block(d.body);
    // The leading requires (and the lets they read) decide legality without changing the game,
    // so they stop before anything random. They run without exceptions: listing legal choices
    // tries every candidate, and most fail.
    const checks: Array<{ slot: number; value: ExprFn } | { cond: ExprFn; reason: ExprFn; rule?: string }> = [];
    for (const s of d.body.stmts) {
      if ((s.kind !== 'require' && s.kind !== 'let') || this.usesRandom(s)) break;
      checks.push(s.kind === 'let' ? { slot: this.slot(s), value: this.expr(s.value) } : { cond: this.expr(s.cond), reason: this.expr(s.reason), rule: this.where(s.span) });
    }
    const silent = { reason: '' };
    return {
      name: d.name,
      card: this.card(p.unit, d.roles),
      with: d.with?.name,
      anytime: d.anytime !== undefined,
      params: d.params.map((param) => {
        const t = this.c.declared.kinds.has(param.type.name) ? Ty.entity(param.type.name) : undefined;
        return { name: param.name, type: param.type.name, domain: param.domain ? this.expr(param.domain) : this.domainOf(param.type.name, t) };
      }),
      slots: p.slots,
      label: d.label && this.expr(d.label),
      limit: d.limit && { times: d.limit.times, per: d.limit.per },
      pre: (ctx, explain = true) => {
        for (const check of checks) {
          if ('slot' in check) ctx.env[check.slot] = check.value(ctx);
          else if (check.cond(ctx) !== true) return explain ? { reason: check.reason(ctx) as string, rule: check.rule } : silent;
        }
        return null;
      },
      body,
      origin,
    };
  }

  private usesRandom(node: unknown): boolean {
    if (!node || typeof node !== 'object') return false;
    if (Array.isArray(node)) return node.some((n) => this.usesRandom(n));
    const n = node as { kind?: string };
    if (n.kind === 'call') {
      const t = this.c.calls.get(node as A.CallExpr);
      if (t?.k === 'builtin' && t.b.random) return true;
    }
    return Object.values(node).some((v) => typeof v === 'object' && this.usesRandom(v));
  }

  /** Every value of a parameter's type: all entities of a kind, all members of an enum, true and false. */
  private domainOf(typeName: string, t?: Type): ExprFn {
    if (typeName === 'player') return (ctx) => ctx.st.players;
    if (typeName === 'bool') return () => [true, false];
    if (t?.k === 'entity') {
      const ids = this.pack.byKind[t.kind] ?? [];
      return () => ids;
    }
    const members = this.pack.enums[typeName] ?? [];
    return () => members;
  }

  // ─── statements ──────────────────────────────────────────────────────────

  private block(b: A.Block): BlockCode {
    const code: BlockCode = { id: this.pack.blocks.length, stmts: [] };
    this.pack.blocks.push(code);
    code.stmts = b.stmts.map((s) => this.stmt(s));
    return code;
  }

  private slot(n: A.Node): number {
    const s = this.c.slots.get(n);
    if (s === undefined) throw new Error('internal: a variable without a slot reached the lowering');
    return s;
  }

  private stmt(s: A.Stmt): StmtFn {
    switch (s.kind) {
      case 'let': {
        const slot = this.slot(s);
        const v = this.expr(s.value);
        return (c) => {
          const x = v(c);
          c.env[slot] = Array.isArray(x) ? cloneJson(x) : x;
          return NORMAL;
        };
      }
      case 'assign':
        return this.assign(s);
      case 'if': {
        const cond = this.expr(s.cond);
        const then = this.block(s.then);
        const otherwise = s.else && this.block(s.else);
        return (c) => (cond(c) === true ? runBlock(then, 0, c) : otherwise ? runBlock(otherwise, 0, c) : NORMAL);
      }
      case 'for': {
        const slot = this.slot(s);
        const src = this.expr(s.source);
        const body = this.block(s.body);
        return (c) => runFor(body, ((src(c) as Value[]) ?? []).slice(), 0, slot, c);
      }
      case 'repeat':
      case 'loop': {
        const n = this.expr(s.kind === 'repeat' ? s.times : s.max);
        const body = this.block(s.body);
        return (c) => runRepeat(body, 0, n(c) as number, c);
      }
      case 'break':
        return () => BREAK;
      case 'finish':
        return () => FINISH;
      case 'require': {
        const cond = this.expr(s.cond);
        const reason = this.expr(s.reason);
        const rule = this.where(s.span);
        return (c) => {
          if (cond(c) !== true) throw new Refusal(reason(c) as string, rule);
          return NORMAL;
        };
      }
      case 'choose': {
        const src = this.expr(s.source);
        const by = s.by && this.expr(s.by);
        const prompt = s.prompt && this.expr(s.prompt);
        const body = this.block(s.body);
        const slot = this.slot(s);
        const optional = s.optional;
        const rule = this.where(s.span);
        return (c) => {
          const options = ((src(c) as Value[]) ?? []).slice();
          if (!options.length && !optional) return NORMAL;
          const player = (by ? by(c) : c.me ?? c.st.current) as string;
          c.st.prompt = {
            player,
            kind: 'choose',
            options,
            optional,
            text: prompt ? (prompt(c) as string) : undefined,
            rule,
            slot,
            ...(c.resolving ? { resolving: true as const } : {}),
            frames: [{ block: body.id, pc: 0, env: c.env.slice(), me: c.me, self: c.self, holder: c.holder, ...(c.resolving ? { resolving: true as const } : {}) }],
          };
          return SUSPEND;
        };
      }
      case 'offer': {
        const player = this.expr(s.player);
        const actions = s.actions.map((a) => a.name);
        return (c) => {
          c.st.prompt = { player: player(c) as string, kind: 'offer', actions, ...(c.resolving ? { resolving: true as const } : {}), frames: [] };
          return SUSPEND;
        };
      }
      case 'emit': {
        const args = s.args.map((a) => this.expr(a));
        const event = s.event;
        return (c) => runEmit(event, args.map((a) => a(c)), c);
      }
      case 'log': {
        const text = this.expr(s.text);
        const rule = this.where(s.span);
        return (c) => {
          c.st.log.push({ step: c.step, text: text(c) as string, rule, player: c.me ?? undefined });
          return NORMAL;
        };
      }
      case 'resolving': {
        const body = this.block(s.body);
        return (c) => runBlock(body, 0, { ...c, resolving: true });
      }
      case 'turn': {
        const player = this.expr(s.player);
        const body = this.block(s.body);
        const rule = this.where(s.span);
        return (c) => {
          const p = player(c) as string;
          c.st.current = p;
          c.st.turn++;
          c.st.used = {};
          c.st.log.push({ step: c.step, text: `Turn ${c.st.turn}: ${display(c.pack, p)}`, rule, player: p });
          return runBlock(body, 0, { ...c, me: p });
        };
      }
      case 'shuffle': {
        const list = this.listRef(s.target);
        return (c) => {
          shuffleInPlace(c.st, list(c));
          return NORMAL;
        };
      }
      case 'draw': {
        const list = this.listRef(s.from);
        const slot = this.slot(s);
        const fromTop = s.end === 'top';
        const what = printField(s.from);
        return (c) => {
          const xs = list(c);
          if (!xs.length) throw new Refusal(`cannot draw from ${what}: it is empty`);
          c.env[slot] = (fromTop ? xs.shift() : xs.pop()) as Value;
          return NORMAL;
        };
      }
      case 'put': {
        const list = this.listRef(s.into);
        const v = this.expr(s.value);
        const onTop = s.end === 'top';
        return (c) => {
          const x = v(c);
          const xs = list(c);
          if (onTop) xs.unshift(x);
          else xs.push(x);
          return NORMAL;
        };
      }
      case 'remove': {
        const list = this.listRef(s.from);
        const v = this.expr(s.value);
        return (c) => {
          const x = v(c);
          const xs = list(c);
          const i = xs.findIndex((y) => sameValue(x, y));
          if (i >= 0) xs.splice(i, 1);
          return NORMAL;
        };
      }
      case 'call': {
        const name = s.call.callee;
        const args = s.call.args.map((a) => this.expr(a));
        return (c) => {
          const proc = c.pack.procs[name];
          const env: Value[] = new Array(proc.slots).fill(null);
          for (let i = 0; i < args.length; i++) env[i] = args[i](c);
          return runBlock(proc.body, 0, { ...c, env, it: null, value: null });
        };
      }
    }
  }

  private record(target: A.Expr): (c: RunCtx) => Record<string, Value> {
    const obj = this.expr(target);
    const what = printExpr(target);
    return (c) => {
      const id = obj(c);
      const rec = typeof id === 'string' ? c.st.e[id] : undefined;
      if (!rec) throw new Refusal(`${what} is none here, so it has no fields to change`);
      return rec;
    };
  }

  private listRef(f: A.FieldExpr): (c: RunCtx) => Value[] {
    const rec = this.record(f.target);
    const field = f.field;
    return (c) => {
      const r = rec(c);
      return (r[field] ??= []) as Value[];
    };
  }

  private assign(s: A.AssignStmt): StmtFn {
    const rec = this.record(s.target.target);
    const field = s.target.field;
    const v = this.expr(s.value);
    switch (s.op) {
      case '=':
        // Lists are copied in: piles are shuffled and drawn in place, and must not alias each other or the pack.
        return (c) => {
          const x = v(c);
          rec(c)[field] = Array.isArray(x) ? cloneJson(x) : x;
          return NORMAL;
        };
      case '+=':
        return (c) => {
          const r = rec(c);
          const x = v(c);
          r[field] = Array.isArray(r[field]) ? [...(r[field] as Value[]), ...(x as Value[])] : (r[field] as number) + (x as number);
          return NORMAL;
        };
      case '-=':
        return (c) => {
          const r = rec(c);
          const x = v(c);
          r[field] = Array.isArray(r[field]) ? (r[field] as Value[]).filter((y) => !(x as Value[]).some((z) => sameValue(y, z))) : (r[field] as number) - (x as number);
          return NORMAL;
        };
    }
  }

  // ─── expressions ─────────────────────────────────────────────────────────

  /** An expression checked outside any rule: it has no rules text to name in the log. */
  standalone(e: A.Expr): ExprFn {
    this.unit = undefined;
    return this.expr(e);
  }

  private expr(e: A.Expr): ExprFn {
    switch (e.kind) {
      case 'number':
      case 'bool': {
        const v = e.value;
        return () => v;
      }
      case 'none':
        return () => null;
      case 'string': {
        const parts = e.parts.map((p) => (typeof p === 'string' ? p : this.expr(p)));
        if (parts.every((p) => typeof p === 'string')) {
          const text = parts.join('');
          return () => text;
        }
        return (c) => {
          let out = '';
          for (const p of parts) out += typeof p === 'string' ? p : display(c.pack, p(c));
          return out;
        };
      }
      case 'name':
        return this.name(e);
      case 'field':
        return this.field(e);
      case 'call':
        return this.call(e);
      case 'unary': {
        const x = this.expr(e.operand);
        return e.op === 'not' ? (c) => x(c) !== true : (c) => -(x(c) as number);
      }
      case 'binary':
        return this.binary(e);
      case 'if': {
        const cond = this.expr(e.cond);
        const a = this.expr(e.then);
        const b = this.expr(e.else);
        return (c) => (cond(c) === true ? a(c) : b(c));
      }
      case 'where': {
        const src = this.expr(e.source);
        const cond = this.expr(e.cond);
        const slot = e.name ? this.slot(e) : -1;
        return (c) => {
          const xs = (src(c) as Value[]) ?? [];
          const saved = c.it;
          const out: Value[] = [];
          for (const x of xs) {
            c.it = x;
            if (slot >= 0) c.env[slot] = x;
            if (cond(c) === true) out.push(x);
          }
          c.it = saved;
          return out;
        };
      }
      case 'list': {
        const items = e.items.map((i) => this.expr(i));
        return (c) => items.map((i) => i(c));
      }
      case 'range': {
        const from = this.expr(e.from);
        const to = this.expr(e.to);
        return (c) => rangeOf(from(c) as number, to(c) as number);
      }
    }
  }

  private name(e: A.NameExpr): ExprFn {
    const r = this.c.names.get(e);
    if (!r) throw new Error(`internal: unresolved name ${e.name} reached the lowering`);
    switch (r.k) {
      case 'local': {
        const slot = r.slot;
        return (c) => c.env[slot];
      }
      case 'me':
        return (c) => c.me;
      case 'self':
        return (c) => c.self;
      case 'holder':
        return (c) => c.holder;
      case 'it':
        return (c) => c.it;
      case 'value':
        return (c) => c.value;
      case 'game':
        return () => 'game';
      case 'players':
        return (c) => c.st.players;
      case 'current':
        return (c) => c.st.current;
      case 'all': {
        const ids = this.pack.byKind[r.kind] ?? [];
        return () => ids;
      }
      case 'itField':
        return this.read((c) => c.it, r.field, r.isProp, this.c.types.get(e) ?? Ty.ERROR);
      case 'const': {
        const v = r.value;
        return () => v;
      }
    }
  }

  private field(e: A.FieldExpr): ExprFn {
    const info = this.c.fields.get(e);
    if (!info) throw new Error(`internal: unresolved field ${e.field} reached the lowering`);
    return this.read(this.expr(e.target), e.field, info.isProp, this.c.types.get(e) ?? Ty.ERROR);
  }

  /** Reads a field; through none it gives the field type's empty value (0, false, [], none). */
  private read(target: ExprFn, field: string, isProp: boolean, t: Type): ExprFn {
    const empty: Value = t.k === 'number' ? 0 : t.k === 'bool' ? false : t.k === 'list' ? [] : null;
    const entities = this.pack.entities;
    if (isProp) {
      return (c) => {
        const id = target(c);
        return typeof id === 'string' ? entities[id]?.props[field] ?? empty : empty;
      };
    }
    return (c) => {
      const id = target(c);
      if (typeof id !== 'string') return empty;
      const rec = c.st.e[id];
      return rec ? rec[field] ?? empty : empty;
    };
  }

  private binary(e: A.BinaryExpr): ExprFn {
    const l = this.expr(e.left);
    const r = this.expr(e.right);
    switch (e.op) {
      case 'and':
        return (c) => l(c) === true && r(c) === true;
      case 'or':
        return (c) => l(c) === true || r(c) === true;
      case '==':
        return (c) => sameValue(l(c), r(c));
      case '!=':
        return (c) => !sameValue(l(c), r(c));
      case 'in':
        return (c) => {
          const x = l(c);
          return ((r(c) as Value[]) ?? []).some((y) => sameValue(x, y));
        };
      case '<':
        return (c) => (l(c) as number) < (r(c) as number);
      case '<=':
        return (c) => (l(c) as number) <= (r(c) as number);
      case '>':
        return (c) => (l(c) as number) > (r(c) as number);
      case '>=':
        return (c) => (l(c) as number) >= (r(c) as number);
      case '*':
        return (c) => (l(c) as number) * (r(c) as number);
      case '/':
        return (c) => Math.floor((l(c) as number) / ((r(c) as number) || 1));
      case '%':
        return (c) => (l(c) as number) % ((r(c) as number) || 1);
      case '+': {
        const lt = this.c.types.get(e.left);
        if (lt?.k === 'list') return (c) => [...((l(c) as Value[]) ?? []), ...((r(c) as Value[]) ?? [])];
        if (lt?.k === 'text') return (c) => String(l(c)) + String(r(c));
        return (c) => (l(c) as number) + (r(c) as number);
      }
      case '-': {
        const lt = this.c.types.get(e.left);
        if (lt?.k === 'list')
          return (c) => {
            const drop = (r(c) as Value[]) ?? [];
            return ((l(c) as Value[]) ?? []).filter((x) => !drop.some((y) => sameValue(x, y)));
          };
        return (c) => (l(c) as number) - (r(c) as number);
      }
    }
  }

  private call(e: A.CallExpr): ExprFn {
    const target = this.c.calls.get(e);
    if (!target) throw new Error(`internal: unresolved call ${e.callee} reached the lowering`);
    const args = e.args.map((a) => this.expr(a));
    if (target.k === 'fn') {
      const name = target.name;
      return (c) => {
        const fn = c.pack.fns[name];
        const env: Value[] = new Array(fn.slots).fill(null);
        for (let i = 0; i < args.length; i++) env[i] = args[i](c);
        return fn.body({ ...c, env, it: null, value: null });
      };
    }
    if (target.k === 'pipeline') {
      const name = target.name;
      return (c) => runPipeline(name, args.map((a) => a(c)), c);
    }
    if (target.k === 'proc') throw new Error('internal: a procedure used as a value');
    return this.builtin(target.b.name, args, target.die, this.where(e.span));
  }

  private builtin(name: string, args: ExprFn[], die?: string, rule?: string): ExprFn {
    const [a, b] = args;
    const links = this.pack.links;
    const each = (xs: Value[], f: ExprFn, c: RunCtx, visit: (x: Value, v: Value) => boolean | void): void => {
      const saved = c.it;
      for (const x of xs) {
        c.it = x;
        if (visit(x, f(c)) === true) break;
      }
      c.it = saved;
    };
    switch (name) {
      case 'count':
        return (c) => ((a(c) as Value[]) ?? []).length;
      case 'sum':
        return (c) => {
          let total = 0;
          each((a(c) as Value[]) ?? [], b, c, (_, v) => void (total += v as number));
          return total;
        };
      case 'any':
        return (c) => {
          let found = false;
          each((a(c) as Value[]) ?? [], b, c, (_, v) => (found = v === true));
          return found;
        };
      case 'all':
        return (c) => {
          let ok = true;
          each((a(c) as Value[]) ?? [], b, c, (_, v) => (ok = v === true) === false);
          return ok;
        };
      case 'min':
        return (c) => Math.min(a(c) as number, b(c) as number);
      case 'max':
        return (c) => Math.max(a(c) as number, b(c) as number);
      case 'lowest':
      case 'highest': {
        const better = name === 'lowest' ? (x: number, y: number) => x < y : (x: number, y: number) => x > y;
        return (c) => {
          let best: Value = null;
          let bestV = 0;
          each((a(c) as Value[]) ?? [], b, c, (x, v) => {
            if (best === null || better(v as number, bestV)) {
              best = x;
              bestV = v as number;
            }
          });
          return best;
        };
      }
      case 'first':
        return (c) => ((a(c) as Value[]) ?? [])[0] ?? null;
      case 'last':
        return (c) => {
          const xs = (a(c) as Value[]) ?? [];
          return xs[xs.length - 1] ?? null;
        };
      case 'at':
        return (c) => ((a(c) as Value[]) ?? [])[(b(c) as number) - 1] ?? null;
      case 'position':
        return (c) => {
          const x = b(c);
          return ((a(c) as Value[]) ?? []).findIndex((y) => sameValue(x, y)) + 1;
        };
      case 'take':
        return (c) => ((a(c) as Value[]) ?? []).slice(0, Math.max(0, b(c) as number));
      case 'neighbours':
        return (c) => links[a(c) as string] ?? [];
      case 'adjacent':
        return (c) => (links[a(c) as string] ?? []).includes(b(c) as string);
      case 'distance':
        return (c) => distance(links, a(c) as string, b(c) as string);
      case 'stepToward':
        return (c) => stepToward(links, a(c) as string, (b(c) as string[]) ?? []);
      case 'abs':
        return (c) => Math.abs(a(c) as number);
      case 'roll':
        return (c) => {
          const faces = c.pack.dice[die!];
          const face = takeForced(c.st, (v) => faces.some((f) => sameValue(f, v)), `a face of the die ${die} (${faces.join(', ')})`) ?? faces[randomInt(c.st, faces.length)];
          c.st.log.push({ step: c.step, text: `rolled ${die}: ${face}`, rule, player: c.me ?? undefined });
          return face;
        };
      case 'random':
        return (c) => {
          const n = a(c) as number;
          return takeForced(c.st, (v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= n, `a number from 1 to ${n}`) ?? randomInt(c.st, n) + 1;
        };
    }
    throw new Error(`internal: built-in ${name} has no lowering`);
  }
}

function distance(links: Record<string, string[]>, from: string, to: string): number {
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

function stepToward(links: Record<string, string[]>, from: string, targets: string[]): string {
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

