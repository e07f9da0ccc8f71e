import type * as A from '../dsl/ast.ts';
import { declarations, specialNames } from '../dsl/language.ts';
import { builtinTable, type Builtin } from './builtins.ts';
import type { Declared, RulesUnit } from './declare.ts';
import { resolveTypeRef, type Preference } from './declare.ts';
import type { DiagnosticInput, FileSpan } from './diagnostic.ts';
import { fragmentSpan } from './load.ts';
import { againOf, emptyRecord, factOf, RecordingMap, recordedMaps, type CheckMemo } from './incremental.ts';
import { reportUnused } from './unused.ts';
import { checkFieldWrites } from './fieldWrites.ts';
import { checkGuards } from './guards.ts';
import { walkDecl, walkStmts } from '../dsl/walk.ts';
import { lineIndexOf, type Fragment } from './source.ts';
import { closest } from './suggest.ts';
import * as Ty from './types.ts';
import type { Type } from './types.ts';
import type { Value } from '../runtime/types.ts';

/** What a bare name stands for, decided by the checker and read by the lowering. */
export type Resolution =
  | { k: 'local'; slot: number }
  | { k: 'me' }
  | { k: 'self' }
  | { k: 'holder' }
  | { k: 'it' }
  | { k: 'itField'; field: string; isProp: boolean }
  | { k: 'value' }
  | { k: 'game' }
  | { k: 'players' }
  | { k: 'current' }
  | { k: 'all'; kind: string }
  | { k: 'const'; value: Value };

export type CallTarget = { k: 'builtin'; b: Builtin; die?: string } | { k: 'fn'; name: string } | { k: 'pipeline'; name: string } | { k: 'proc'; name: string } | { k: 'check'; name: string } | { k: 'guard'; name: string };

/** A declaration together with the rules text it came from and its card, if any. */
export interface Placed<D extends A.Decl> {
  decl: D;
  unit: RulesUnit;
  /** Locals needed by the declaration's body (params first). */
  slots: number;
}

/** Stage 4: a pack whose every name is resolved and every rule type-checks. Only this reaches the lowering. */
export interface Checked {
  declared: Declared;
  types: Map<A.Expr, Type>;
  names: Map<A.NameExpr, Resolution>;
  calls: Map<A.CallExpr, CallTarget>;
  fields: Map<A.FieldExpr, { kind: string; isProp: boolean }>;
  slots: Map<A.Node, number>;
  events: Map<string, Placed<A.EventDecl>>;
  fns: Map<string, Placed<A.FnDecl>>;
  pipelines: Map<string, Placed<A.PipelineDecl>>;
  procs: Map<string, Placed<A.ProcDecl>>;
  checks: Map<string, Placed<A.CheckDecl>>;
  /**
   * `require canConquer(r)`: the check applied there, and the first of the caller's slots that hold
   * the check's parameters and locals (the lowering puts the check's statements in place).
   */
  applied: Map<A.RequireStmt, { name: string; base: number }>;
  /** Guards by name, and the guard of each guarded kind. */
  guards: Map<string, Placed<A.GuardDecl>>;
  guardOf: Map<string, string>;
  /** The fields each guarded kind's guard protects. */
  guardedFields: Map<string, Set<string>>;
  /** `reach x`: the guard applied there, and the first of the caller's slots that hold the guard's parameter and locals. */
  reached: Map<A.ReachStmt, { name: string; base: number }>;
  actions: Map<string, Array<Placed<A.ActionDecl>>>;
  triggers: Map<string, Array<Placed<A.OnDecl>>>;
  modifiers: Map<string, Array<Placed<A.ModifyDecl>>>;
  setups: Array<Placed<A.SetupDecl>>;
  flow?: Placed<A.FlowDecl>;
  invariants: Array<Placed<A.InvariantDecl>>;
  roles: Map<string, Map<string, { expr: A.Expr; slots: number; fragment: Fragment; single: boolean }>>;
  scoring?: { score: A.Expr; tiebreak?: A.Expr; estimate?: A.Expr; slots: number; prefer: Array<{ key: string; expr: A.Expr; slots: number }> };
  /** The declarations never checked, by rules text (`collect`): the tables hold nothing of their own for them. */
  setAside: SetAside;
}

interface Var {
  slot: number;
  type: Type;
}

/** Per declaration body: what the special names mean there and what it may do. */
interface Ctx {
  unit: RulesUnit;
  slots: number;
  self?: Type;
  holder: boolean;
  value?: Type;
  /** May change state and use randomness (procs, actions, triggers, setup, flow). */
  effects: boolean;
  loops: number;
  where: Type[];
  vars: Array<Map<string, Var>>;
  /** Paths known not to be none here (`if r.owner != none { … }`, after `require x != none`). */
  narrow: Array<Set<string>>;
  /** Procs called, for the recursion check. */
  calls?: Set<string>;
}

/** With a `memo` (compiler/incremental.ts), the cards whose inputs did not change since the last check are not checked again. */
export function check(d: Declared, report: (x: DiagnosticInput) => void, memo?: CheckMemo): Checked {
  const c: Checked = {
    declared: d,
    types: new RecordingMap(),
    names: new RecordingMap(),
    calls: new RecordingMap(),
    fields: new RecordingMap(),
    slots: new RecordingMap(),
    events: new Map(),
    fns: new Map(),
    pipelines: new Map(),
    procs: new Map(),
    checks: new Map(),
    applied: new RecordingMap(),
    guards: new Map(),
    guardOf: new Map(),
    guardedFields: new Map(),
    reached: new RecordingMap(),
    actions: new Map(),
    triggers: new Map(),
    modifiers: new Map(),
    setups: [],
    invariants: [],
    roles: new Map(),
    setAside: new Map(),
  };
  let errors = 0;
  const counted = (x: DiagnosticInput) => {
    if ((x.severity ?? 'error') === 'error') errors++;
    report(x);
  };
  const setAside = collect(c, counted);
  c.setAside = setAside;
  memo?.begin(c, setAside.keys());
  new Checker(c, counted, memo).run();
  memo?.checked();
  checkFieldWrites(c, counted, setAside, memo);
  checkGuards(c, counted, setAside, memo);
  // Broken rules record no calls: what they would have used is not unused.
  if (!errors) reportUnused(c, report, memo);
  return c;
}

/** Checks one expression against a checked pack's declarations, recording its names and types in `c` for the lowering. */
export function checkExpression(c: Checked, unit: RulesUnit, e: A.Expr, report: (x: DiagnosticInput) => void): { type: Type; slots: number } {
  return new Checker(c, report).standalone(unit, e);
}

const globalOnly = new Set<string>(declarations.filter((f) => !f.onCards).map((f) => f.keyword));
const namedKinds = new Set<string>(declarations.filter((f) => f.named).map((f) => f.keyword));

function listIn<T>(m: Map<string, T[]>, key: string): T[] {
  let list = m.get(key);
  if (!list) {
    list = [];
    m.set(key, list);
  }
  return list;
}

/**
 * The declarations set aside (reported, or replaced by an `override`), by rules text: the checker
 * never checks them, so the passes that walk every rules text skip them. By text and not by tree:
 * one tree may stand in two of the game's files, set aside in one and checked in the other, and the
 * tables then hold the other's entries for its nodes.
 */
export type SetAside = ReadonlyMap<RulesUnit, ReadonlySet<A.Decl>>;

/** Gathers every declaration by name; duplicates and misplaced declarations are reported here. */
function collect(c: Checked, report: (x: DiagnosticInput) => void): SetAside {
  const at = (u: RulesUnit, s: A.Span) => fragmentSpan(u.fragment, s);
  const aside = new Map<RulesUnit, Set<A.Decl>>();
  const setAside = (unit: RulesUnit, decl: A.Decl) => {
    const decls = aside.get(unit);
    if (decls) decls.add(decl);
    else aside.set(unit, new Set([decl]));
  };
  // Where each name was declared, found only for a duplicate's hint.
  const named = new Map<string, { decl: A.Decl & { nameSpan: A.Span }; unit: RulesUnit }>();
  const replace = (name: string, replaced: RulesUnit, decl: A.Decl) => {
    setAside(replaced, decl);
    c.events.delete(name);
    c.fns.delete(name);
    c.pipelines.delete(name);
    c.procs.delete(name);
    c.checks.delete(name);
    c.actions.set(name, (c.actions.get(name) ?? []).filter((p) => p.unit.owner));
  };
  for (const unit of c.declared.units) {
    for (const decl of unit.program.decls) {
      if (unit.owner && globalOnly.has(decl.kind)) {
        report({ code: 'RB0401', message: `a card cannot declare \`${decl.kind}\`: cards add \`on\`, \`modify\` and \`action\` rules, and \`fn\` helpers of their own`, at: at(unit, decl.nameSpan), hint: `move this \`${decl.kind}\` into the pack's own \`rules:\`` });
        setAside(unit, decl);
        continue;
      }
      const placed = { decl, unit, slots: 0 } as Placed<never>;
      if (decl.kind === 'fn' && unit.owner) {
        // A card's helper: only that card's rules call it, so two cards may each have a `cost`.
        const key = cardFnKey(unit.owner.id, decl.name);
        if (c.fns.has(key)) {
          report({ code: 'RB0404', message: `the card \`${unit.owner.id}\` declares the function \`${decl.name}\` twice`, at: at(unit, decl.nameSpan) });
          setAside(unit, decl);
        } else c.fns.set(key, placed);
        continue;
      }
      // Named declarations share one set of names, a card's actions aside (each card has its own).
      const global = namedKinds.has(decl.kind) && !unit.owner;
      if (decl.override && (!global || unit.fromBase)) {
        report({ code: 'RB0403', message: `\`override\` replaces a declaration of the pack this one extends; this ${decl.kind} has none to replace`, at: at(unit, decl.nameSpan), hint: 'remove `override`' });
      }
      if (global) {
        const prev = named.get(decl.name);
        if (prev && decl.override && prev.unit.fromBase && !unit.fromBase) {
          replace(decl.name, prev.unit, prev.decl);
        } else if (decl.override && !prev && !unit.fromBase) {
          report({ code: 'RB0406', message: `\`override ${decl.kind} ${decl.name}\` replaces nothing: the base pack has no \`${decl.name}\``, at: at(unit, decl.nameSpan), hint: 'remove `override` to declare something new' });
        } else if (prev || builtinTable.has(decl.name)) {
          const where = (s: FileSpan) => `${s.file}:${lineIndexOf(c.declared.texts.get(s.file) ?? '').position(s.start).line}`;
          const hint = prev?.unit.fromBase && !unit.fromBase
            ? `the base pack declares it at ${where(at(prev.unit, prev.decl.nameSpan))}; write \`override ${decl.kind} ${decl.name}\` to replace it`
            : prev
              ? `the other declaration is at ${where(at(prev.unit, prev.decl.nameSpan))}; a name is declared once, so rename or remove one`
              : `\`${decl.name}\` is a built-in function; pick another name`;
          report({ code: 'RB0402', message: `\`${decl.name}\` is declared twice`, at: at(unit, decl.nameSpan), hint });
          setAside(unit, decl);
          continue;
        }
        named.set(decl.name, { decl, unit });
      }
      switch (decl.kind) {
        case 'event':
          c.events.set(decl.name, placed);
          break;
        case 'fn':
          c.fns.set(decl.name, placed);
          break;
        case 'pipeline':
          c.pipelines.set(decl.name, placed);
          break;
        case 'proc':
          c.procs.set(decl.name, placed);
          break;
        case 'check':
          c.checks.set(decl.name, placed);
          break;
        case 'guard':
          c.guards.set(decl.name, placed);
          break;
        case 'action': {
          const list = c.actions.get(decl.name) ?? [];
          if (unit.owner && list.some((p) => p.unit.owner === unit.owner)) {
            report({ code: 'RB0404', message: `the card \`${unit.owner.id}\` declares the action \`${decl.name}\` twice`, at: at(unit, decl.nameSpan) });
            setAside(unit, decl);
            continue;
          }
          list.push(placed);
          c.actions.set(decl.name, list);
          break;
        }
        case 'on':
          listIn(c.triggers, decl.name).push(placed);
          break;
        case 'modify':
          listIn(c.modifiers, decl.name).push(placed);
          break;
        case 'setup':
          c.setups.push(placed);
          break;
        case 'invariant':
          c.invariants.push(placed);
          break;
        case 'flow':
          if (c.flow) {
            report({ code: 'RB0405', message: 'a pack has one `flow`; this is a second one', at: at(unit, decl.nameSpan), hint: 'call procedures from the one flow instead' });
            setAside(unit, decl);
          } else c.flow = placed;
          break;
      }
    }
  }
  return aside;
}

class Checker {
  private readonly d: Declared;
  /** Checks whose body is checked (and so their slot count known), or being checked (`false`). */
  private readonly checked = new Map<string, boolean>();

  constructor(
    private readonly c: Checked,
    private report: (x: DiagnosticInput) => void,
    private readonly memo?: CheckMemo,
  ) {
    this.d = c.declared;
  }

  /** Checks a declaration by `body`, or, when the memo holds what checking it found, sets that again. */
  private item(p: Placed<A.Decl>, body: () => void): void {
    const memo = this.memo;
    if (!memo) return body();
    const prior = memo.reuse(p);
    if (prior) {
      for (const x of prior.diagnostics) this.report(x);
      p.slots = prior.slots;
      if (prior.callees) (p as Placed<A.ProcDecl> & { callees?: Set<string> }).callees = prior.callees;
      return;
    }
    const { record } = this.recorded(memo, body);
    record.slots = p.slots;
    record.callees = (p as Placed<A.ProcDecl> & { callees?: Set<string> }).callees;
    memo.keep(p, record, true);
  }

  /** Runs `run` with what it reports and what it enters in the recorded tables kept in a new record. */
  private recorded<T>(memo: CheckMemo, run: () => T): { record: ReturnType<typeof emptyRecord>; result: T } {
    const maps = this.maps();
    const report = this.report;
    const record = emptyRecord();
    recordedMaps.forEach((m, i) => (maps[i].log = record.entries[m]));
    this.report = (x) => {
      record.diagnostics.push(x);
      report(x);
    };
    try {
      return { record, result: run() };
    } finally {
      this.report = report;
      recordedMaps.forEach((m, i) => (maps[i].log = memo.loose.entries[m]));
    }
  }

  private maps(): Array<RecordingMap<unknown, unknown>> {
    return recordedMaps.map((m) => this.c[m] as unknown as RecordingMap<unknown, unknown>);
  }

  run(): void {
    const loose = this.memo?.loose;
    // With a memo, what is checked outside any declaration's record is recorded too (compiler/unused.ts reads it).
    if (loose) this.maps().forEach((m, i) => (m.log = loose.entries[recordedMaps[i]]));
    try {
      this.declarations();
    } finally {
      for (const m of this.maps()) m.log = undefined;
    }
  }

  private declarations(): void {
    const c = this.c;
    for (const [, p] of c.events) this.item(p, () => this.params(p, p.decl.params));
    for (const [, p] of c.fns) {
      this.item(p, () => {
        const ctx = this.ctx(p.unit, false);
        const ret = this.typeRef(p.unit, p.decl.returns);
        this.bindParams(ctx, p.decl.params);
        this.expect(ctx, p.decl.body, ret, 'the function’s result');
        p.slots = ctx.slots;
      });
    }
    for (const [, p] of c.pipelines) {
      this.item(p, () => {
        const ctx = this.ctx(p.unit, false);
        const ret = this.typeRef(p.unit, p.decl.returns);
        this.bindParams(ctx, p.decl.params);
        this.expect(ctx, p.decl.body, ret, 'the pipeline’s base value');
        if (p.decl.min) this.expect(ctx, p.decl.min, Ty.NUMBER, 'a minimum');
        if (p.decl.max) this.expect(ctx, p.decl.max, Ty.NUMBER, 'a maximum');
        if ((p.decl.min || p.decl.max) && ret.k !== 'number') this.error(p.unit, p.decl.nameSpan, 'RB0503', 'only a number pipeline can have `min` or `max`');
        p.slots = ctx.slots;
      });
    }
    this.part(
      'checks and guards',
      () => {
        const key: unknown[] = [];
        c.checks.forEach((p) => key.push(p.decl, this.memo!.siteOf(p.unit)));
        c.guards.forEach((p) => key.push(p.decl, this.memo!.siteOf(p.unit)));
        return key;
      },
      () => {
        for (const name of c.checks.keys()) this.checkBody(name);
        for (const [, p] of c.guards) this.guard(p);
        return { slots: [...c.checks.values(), ...c.guards.values()].map((p) => p.slots), guardOf: new Map(c.guardOf), guardedFields: new Map(c.guardedFields) };
      },
      (s) => {
        [...c.checks.values(), ...c.guards.values()].forEach((p, i) => (p.slots = s.slots[i]));
        for (const name of c.checks.keys()) this.checked.set(name, true);
        c.guardOf = new Map(s.guardOf);
        c.guardedFields = new Map(s.guardedFields);
      },
    );
    for (const [, p] of c.procs) {
      this.item(p, () => {
        const ctx = this.ctx(p.unit, true);
        ctx.calls = new Set();
        this.bindParams(ctx, p.decl.params);
        this.block(ctx, p.decl.body);
        p.slots = ctx.slots;
        (p as Placed<A.ProcDecl> & { callees?: Set<string> }).callees = ctx.calls;
      });
    }
    this.checkRecursion();
    this.checkEventCycles();
    for (const [name, list] of c.actions) {
      for (const p of list) {
        this.item(p, () => {
          const ctx = this.ctx(p.unit, true);
          this.bindParams(ctx, p.decl.params, true);
          if (p.decl.label) this.expr(ctx, p.decl.label);
          this.roles(p.unit, p.decl.roles);
          const w = p.decl.with;
          if (w && !c.actions.get(w.name)?.some((x) => !x.unit.owner)) {
            this.error(p.unit, w.span, 'RB0504', `\`with ${w.name}\` names no action of the game`, this.suggest(w.name, [...c.actions.keys()]));
          }
          if (p.unit.owner && !w && !p.decl.anytime) this.error(p.unit, p.decl.nameSpan, 'RB0548', `the card action \`${name}\` is never offered`, 'add `with <action>` naming the game action it is offered beside, e.g. `with conquer`, or `anytime` to offer it at every offer');
          this.block(ctx, p.decl.body);
          p.slots = ctx.slots;
        });
      }
    }
    for (const [name, list] of c.triggers) {
      const ev = c.events.get(name);
      for (const p of list) {
        this.item(p, () => {
          if (!ev) {
            if (!this.d.broken.has(name)) this.error(p.unit, p.decl.nameSpan, 'RB0505', `there is no event \`${name}\``, this.suggest(name, [...c.events.keys()]));
            return;
          }
          const ctx = this.ctx(p.unit, true);
          if (p.decl.binds.length > ev.decl.params.length) this.error(p.unit, p.decl.binds[ev.decl.params.length].span, 'RB0506', `the event \`${name}\` has ${ev.decl.params.length} parameter(s)`);
          p.decl.binds.forEach((b, i) => {
            const param = ev.decl.params[i];
            if (param) this.declareVar(ctx, p.unit, b.name, b.span, this.typeRef(ev.unit, param.type), p.decl);
          });
          if (p.decl.when) this.expect({ ...ctx, effects: false }, p.decl.when, Ty.BOOL, 'a `when` condition');
          this.roles(p.unit, p.decl.roles);
          this.block(ctx, p.decl.body, p.decl.when ? notNone(p.decl.when, true) : []);
          p.slots = ctx.slots;
        });
      }
    }
    for (const [name, list] of c.modifiers) {
      const pipe = c.pipelines.get(name);
      for (const p of list) {
        this.item(p, () => {
          if (!pipe) {
            if (!this.d.broken.has(name)) this.error(p.unit, p.decl.nameSpan, 'RB0507', `there is no pipeline \`${name}\` to modify`, this.suggest(name, [...c.pipelines.keys()]));
            return;
          }
          const ctx = this.ctx(p.unit, false);
          const ret = this.typeRef(pipe.unit, pipe.decl.returns);
          ctx.value = ret;
          if (p.decl.binds.length > pipe.decl.params.length) this.error(p.unit, p.decl.binds[pipe.decl.params.length].span, 'RB0506', `the pipeline \`${name}\` has ${pipe.decl.params.length} parameter(s)`);
          p.decl.binds.forEach((b, i) => {
            const param = pipe.decl.params[i];
            if (param) this.declareVar(ctx, p.unit, b.name, b.span, this.typeRef(pipe.unit, param.type), p.decl);
          });
          if (p.decl.when) this.expect(ctx, p.decl.when, Ty.BOOL, 'a `when` condition');
          this.roles(p.unit, p.decl.roles);
          this.withFacts(ctx, p.decl.when ? notNone(p.decl.when, true) : [], () => this.expect(ctx, p.decl.value, ret, `the value of \`${name}\``));
          p.slots = ctx.slots;
        });
      }
    }
    for (const p of c.invariants) {
      this.item(p, () => {
        const ctx = this.ctx(p.unit, false);
        this.expr(ctx, p.decl.message);
        this.expect(ctx, p.decl.cond, Ty.BOOL, 'an invariant');
        p.slots = ctx.slots;
      });
    }
    for (const p of c.setups) {
      this.item(p, () => {
        const ctx = this.ctx(p.unit, true);
        this.block(ctx, p.decl.body);
        p.slots = ctx.slots;
      });
    }
    const flow = c.flow;
    if (flow) {
      this.item(flow, () => {
        const ctx = this.ctx(flow.unit, true);
        this.block(ctx, flow.decl.body);
        flow.slots = ctx.slots;
      });
    } else if (this.d.units.length) {
      const first = this.d.units.find((u) => !u.owner) ?? this.d.units[0];
      this.report({ code: 'RB0508', message: 'this pack has no `flow`: the runtime does not know how a game goes', at: fragmentSpan(first.fragment, { start: 0, end: 0 }), hint: 'add `flow { … }` with the rounds and turns of the game' });
    }
    this.checkValueRecursion();
    this.part(
      'roles and score',
      () => {
        const key: unknown[] = [];
        for (const [name, kind] of this.d.kinds) {
          const role = kind.defaultRole;
          key.push(name, role?.name, role?.at.file, role?.at.start, role?.at.end);
          for (const [role, r] of kind.roles) key.push(role, r.source, r.expr);
        }
        const s = this.d.scoring;
        if (s) key.push(s.score, s.scoreExpr, s.tiebreak, s.tiebreakExpr, s.estimate, s.estimateExpr);
        // A preference reads its action's parameters: the declarations are part of what it was checked against.
        for (const p of s?.prefer ?? []) key.push(p.action, p.option, p.source, p.expr, p.at.file, p.at.start, p.at.end, ...(this.c.actions.get(p.action) ?? []).map((d) => d.decl));
        return key;
      },
      () => {
        this.kindRoles();
        this.scoring();
        return { roles: this.c.roles, scoring: this.c.scoring };
      },
      (s) => {
        this.c.roles = s.roles;
        this.c.scoring = s.scoring;
      },
    );
  }

  /**
   * Checks a part of the rules outside any declaration by `run`, or, when the memo holds what
   * checking it found with the same inputs (`key`), reports that again and `restore`s what it left.
   */
  private part<S>(name: string, key: () => unknown[], run: () => S, restore: (state: S) => void): void {
    const memo = this.memo;
    if (!memo) {
      run();
      return;
    }
    const inputs = key();
    const prior = memo.reusePart(name, inputs);
    if (prior) {
      for (const x of prior.record.diagnostics) this.report(x);
      restore(prior.state as S);
      return;
    }
    const { record, result: state } = this.recorded(memo, run);
    memo.keepPart(name, { key: inputs, record, state });
  }

  /** An expression written outside the pack's rules (a scenario's `eval:`), read as a function body is: no effects, no card. */
  standalone(unit: RulesUnit, e: A.Expr): { type: Type; slots: number } {
    const ctx = this.ctx(unit, false);
    const type = this.expr(ctx, e);
    return { type, slots: ctx.slots };
  }

  private kindRoles(): void {
    for (const [kindName, kind] of this.d.kinds) {
      if (kind.defaultRole && !kind.roles.has(kind.defaultRole.name)) {
        const guess = closest(kind.defaultRole.name, kind.roles.keys());
        this.report({ code: 'RB0553', message: `a ${kindName} has no role \`${kind.defaultRole.name}\` to be its default`, at: kind.defaultRole.at, hint: guess ? `did you mean \`${guess}\`?` : `declare it under kinds.${kindName}.roles` });
      }
      const map = new Map<string, { expr: A.Expr; slots: number; fragment: Fragment; single: boolean }>();
      for (const [role, { source, expr }] of kind.roles) {
        if (!expr) continue;
        const unit: RulesUnit = { program: { decls: [] }, fragment: source };
        const ctx = this.ctx(unit, false);
        ctx.self = Ty.entity(kindName);
        ctx.holder = false;
        // A role names the players holding the card: a list of players, or one player or none.
        const t = this.expr(ctx, expr);
        const one = t.k === 'entity' && t.kind === 'player';
        if (!one && !Ty.assignable(t, Ty.listOf(Ty.entity('player')))) {
          this.error(unit, expr.span, 'RB0546', `the role \`${role}\` should give the players who hold the card (a list of players, or one player or none), but this is ${article(t)}`, 'e.g. `players where race == self`');
        }
        map.set(role, { expr, slots: ctx.slots, fragment: source, single: one });
      }
      this.c.roles.set(kindName, map);
    }
  }

  private scoring(): void {
    const s = this.d.scoring;
    if (!s) return;
    const one = (frag: Fragment, e: A.Expr): A.Expr => {
      const ctx = this.ctx({ program: { decls: [] }, fragment: frag }, false);
      ctx.where.push(Ty.entity('player'));
      this.expect(ctx, e, Ty.NUMBER, 'a score');
      return e;
    };
    const score = s.scoreExpr && one(s.score, s.scoreExpr);
    const tiebreak = s.tiebreak && s.tiebreakExpr ? one(s.tiebreak, s.tiebreakExpr) : undefined;
    const estimate = s.estimate && s.estimateExpr ? one(s.estimate, s.estimateExpr) : undefined;
    if (score) this.c.scoring = { score, tiebreak, estimate, slots: 0, prefer: s.prefer.flatMap((p) => this.preference(p)) };
  }

  /**
   * A `scoring: prefer` entry: a number for a choice of its action, read with `me` the player asked
   * and the action's parameters by name; under `choose`, for an option of a type picked in a
   * prompt, with `it` the option (`none`: declining). An action declared more than once (by several
   * cards) lends its parameters only when every declaration names the same ones in the same order.
   * Keyed as the runtime finds it: the action's name, or `choose <type>`.
   */
  private preference(p: Preference): Array<{ key: string; expr: A.Expr; slots: number }> {
    const ctx = this.ctx({ program: { decls: [] }, fragment: p.source }, false);
    if (p.option !== undefined) {
      const type = p.option === 'none' ? undefined : this.optionType(p.option);
      if (p.option !== 'none' && !type) {
        const types = [...this.d.kinds.keys(), ...this.d.enums.keys(), 'bool', 'number', 'none'];
        this.report({ code: 'RB0101', message: `unknown key \`${p.option}\` in scoring.prefer.choose`, at: p.at, hint: this.suggest(p.option, types) ?? 'a key of `choose` is the type of the option picked (a kind, an enum, `bool` or `number`), or `none`' });
        return [];
      }
      if (type) ctx.where.push(type);
    } else {
      const decls = this.c.actions.get(p.action);
      if (!decls?.length) {
        this.report({ code: 'RB0101', message: `unknown key \`${p.action}\` in scoring.prefer`, at: p.at, hint: this.suggest(p.action, this.c.actions.keys()) ?? 'a key of `prefer` is the name of an action, or `choose`' });
        return [];
      }
      const names = (d: A.ActionDecl) => d.params.map((x) => x.name).join(',');
      const first = decls[0];
      if (decls.every((d) => names(d.decl) === names(first.decl))) {
        for (const param of first.decl.params) {
          const type = resolveTypeRef(this.d, param.type, (sp) => this.at(first.unit, sp), () => {});
          ctx.vars[0].set(param.name, { slot: ctx.slots++, type });
        }
      }
    }
    if (!p.expr) return [];
    this.expect(ctx, p.expr, Ty.NUMBER, 'a preference');
    return [{ key: p.option === undefined ? p.action : `choose ${p.option}`, expr: p.expr, slots: ctx.slots }];
  }

  private optionType(name: string): Type | undefined {
    if (name === 'bool') return Ty.BOOL;
    if (name === 'number') return Ty.NUMBER;
    if (this.d.kinds.has(name)) return Ty.entity(name);
    if (this.d.enums.has(name)) return { k: 'enum', name };
    return undefined;
  }

  private checkRecursion(): void {
    const callees = (p: Placed<A.ProcDecl>) => (p as Placed<A.ProcDecl> & { callees?: Set<string> }).callees;
    // A procedure's callees are kept with its record: an edit that changes no procedure finds the same cycles.
    const key = () => {
      const out: unknown[] = [];
      this.c.procs.forEach((p, name) => out.push(name, p.decl, p.unit.fragment, callees(p)));
      return out;
    };
    againOf(this.memo, 'recursion', key, this.report, (report) => {
      const graph = new Map<string, Set<string>>();
      for (const [name, p] of this.c.procs) graph.set(name, callees(p) ?? new Set());
      findCycles(graph, (n, cycle) => {
        const p = this.c.procs.get(n)!;
        report({ code: 'RB0509', message: `the procedure \`${n}\` can call itself (${cycle.join(' → ')}), so the rule could loop forever`, at: this.at(p.unit, p.decl.nameSpan), hint: 'use `for`, `repeat` or `loop max N` for repetition' });
      });
    });
  }

  /**
   * A trigger that (through procedures) emits the event it reacts to, or a ring of such triggers,
   * may fire forever without any player deciding anything: warned about.
   */
  private checkEventCycles(): void {
    // What is found depends only on the trees of the triggers and procedures: an edit that changes none finds it again.
    const key = () => {
      const out: unknown[] = [];
      this.c.procs.forEach((p, name) => out.push(name, p.decl));
      this.c.triggers.forEach((list, event) => {
        // The first trigger is where a ring is reported; the others count by what they emit and call.
        out.push(event, list.length, list[0]?.unit.fragment, list[0]?.decl);
        for (const t of list) out.push(effectNames(t.decl.body));
      });
      return out;
    };
    againOf(this.memo, 'event cycles', key, this.report, (report) => {
      const emitsOf = new Map<string, Set<string>>();
      for (const [event, list] of this.c.triggers) {
        const out = new Set<string>();
        const visit = (body: A.Block, seen: Set<string>) => {
          for (const x of directEffects(body)) {
            if (x.emit !== undefined) out.add(x.emit);
            const proc = x.callee === undefined ? undefined : this.c.procs.get(x.callee);
            if (proc && !seen.has(x.callee!)) {
              seen.add(x.callee!);
              visit(proc.decl.body, seen);
            }
          }
        };
        // One walk per event: a procedure another trigger of the event reached has already given its events.
        const seen = new Set<string>();
        for (const t of list) visit(t.decl.body, seen);
        emitsOf.set(event, out);
      }
      findCycles(emitsOf, (e, cycle) => {
        const t = this.c.triggers.get(e)![0];
        // A warning: the condition that stops the ring (a `when`, an `if`) is beyond this check, and
        // the runtime stops a ring that really runs away.
        report({ code: 'RB0531', severity: 'warning', message: `the event \`${e}\` can set itself off again (${cycle.join(' → ')}), so its triggers might fire forever`, at: fragmentSpan(t.unit.fragment, t.decl.nameSpan), hint: 'make sure a condition stops it, or use a separate event for the follow-up' });
      });
    });
  }

  /**
   * A value must be computable: a function or a pipeline (with its modifiers) that can call itself
   * would never finish, so it is rejected like a recursive procedure.
   */
  private checkValueRecursion(): void {
    // The functions and pipelines a declaration calls are in its own tables, so they are kept with its record.
    const callees = (p: Placed<A.Decl>): string[] =>
      factOf(this.memo, p.unit, p.decl, 'values', false, () => {
        const out = new Set<string>();
        walkDecl(p.decl, {
          expr: (e) => {
            const t = e.kind === 'call' ? this.c.calls.get(e) : undefined;
            if (t?.k === 'fn' || t?.k === 'pipeline') out.add(`${t.k} ${t.name}`);
          },
        }, { holes: true });
        return [...out];
      });
    // What is found depends only on each declaration's tree, where it stands and what it calls: an edit elsewhere finds it again without walking the graph.
    const key = () => {
      const out: unknown[] = [];
      this.c.fns.forEach((p, name) => out.push(name, p.decl, p.unit.fragment, callees(p)));
      this.c.pipelines.forEach((p, name) => {
        const mods = this.c.modifiers.get(name) ?? [];
        out.push(name, p.decl, p.unit.fragment, callees(p), mods.length);
        for (const m of mods) out.push(callees(m));
      });
      return out;
    };
    againOf(this.memo, 'value recursion', key, this.report, (report) => {
      const graph = new Map<string, { callees: Set<string>; unit: RulesUnit; span: A.Span; what: string }>();
      for (const [name, p] of this.c.fns) graph.set(`fn ${name}`, { callees: new Set(callees(p)), unit: p.unit, span: p.decl.nameSpan, what: `the function \`${name}\`` });
      for (const [name, p] of this.c.pipelines) {
        const all = new Set(callees(p));
        for (const m of this.c.modifiers.get(name) ?? []) for (const x of callees(m)) all.add(x);
        graph.set(`pipeline ${name}`, { callees: all, unit: p.unit, span: p.decl.nameSpan, what: `the pipeline \`${name}\` (with its modifiers)` });
      }
      const edges = new Map([...graph].map(([k, v]) => [k, v.callees]));
      findCycles(edges, (n, cycle) => {
        const node = graph.get(n)!;
        report({ code: 'RB0551', message: `${node.what} can call itself (${cycle.map((x) => x.split(' ')[1]).join(' → ')}), so its value could never be computed`, at: this.at(node.unit, node.span), hint: 'a value cannot repeat itself: go over a list with `sum`, `count`, `any` or `highest`, or repeat in a `proc` with `for`, `repeat` or `loop max N`' });
      });
    });
  }

  // ─── helpers ─────────────────────────────────────────────────────────────

  private ctx(unit: RulesUnit, effects: boolean): Ctx {
    return {
      unit,
      slots: 0,
      self: unit.owner ? Ty.entity(unit.owner.kind) : undefined,
      holder: !!unit.owner,
      effects,
      loops: 0,
      where: [],
      vars: [new Map()],
      narrow: [new Set()],
    };
  }

  private isNarrowed(ctx: Ctx, path: string | undefined): boolean {
    return !!path && ctx.narrow.some((s) => s.has(path));
  }

  private withFacts<T>(ctx: Ctx, facts: string[], run: () => T): T {
    ctx.narrow.push(new Set(facts));
    try {
      return run();
    } finally {
      ctx.narrow.pop();
    }
  }

  private at(unit: RulesUnit, span: A.Span): FileSpan {
    return fragmentSpan(unit.fragment, span);
  }

  private error(unit: RulesUnit, span: A.Span, code: string, message: string, hint?: string, fix?: { replacement: string; safe: boolean }): void {
    this.report({ code, message, at: this.at(unit, span), hint, fix });
  }

  private suggest(name: string, candidates: Iterable<string>): string | undefined {
    const g = closest(name, candidates);
    return g ? `did you mean \`${g}\`?` : undefined;
  }

  private typeRef(unit: RulesUnit, t: A.TypeRef): Type {
    return resolveTypeRef(this.d, t, (s) => this.at(unit, s), this.report);
  }

  private params(p: Placed<A.EventDecl>, params: A.Param[]): void {
    for (const param of params) this.typeRef(p.unit, param.type);
  }

  private bindParams(ctx: Ctx, params: A.Param[], domains = false): void {
    for (const param of params) {
      const t = this.typeRef(ctx.unit, param.type);
      if (param.domain) {
        if (!domains) this.error(ctx.unit, param.domain.span, 'RB0510', 'only an action’s parameters have a domain (`in …`)');
        else this.expect({ ...ctx, effects: false }, param.domain, Ty.listOf(t), `the choices for \`${param.name}\``);
      } else if (domains && t.k !== 'entity' && t.k !== 'enum' && t.k !== 'bool' && t.k !== 'error') {
        this.error(ctx.unit, param.span, 'RB0552', `the action parameter \`${param.name}\` needs a domain: the values a player may pick`, `write \`${param.name}: ${Ty.show(t)} in 1..5\` or a list`);
      }
      this.declareVar(ctx, ctx.unit, param.name, param.span, t, param);
    }
  }

  private declareVar(ctx: Ctx, unit: RulesUnit, name: string, span: A.Span, type: Type, node: A.Node): number {
    if (this.lookupVar(ctx, name)) this.error(unit, span, 'RB0511', `\`${name}\` is already defined here`, 'pick another name: a name stands for one thing within a rule');
    const slot = ctx.slots++;
    ctx.vars[ctx.vars.length - 1].set(name, { slot, type });
    this.c.slots.set(node, slot);
    return slot;
  }

  private lookupVar(ctx: Ctx, name: string): Var | undefined {
    for (let i = ctx.vars.length - 1; i >= 0; i--) {
      const v = ctx.vars[i].get(name);
      if (v) return v;
    }
    return undefined;
  }

  private roles(unit: RulesUnit, roles: A.RoleList): void {
    if (!roles.names.length) return;
    if (!unit.owner) {
      this.error(unit, roles.names[0].span, 'RB0512', '`while <role>` belongs on a card’s rules; the game’s own rules always apply');
      return;
    }
    const kind = this.d.kinds.get(unit.owner.kind)!;
    for (const r of roles.names) {
      if (!kind.roles.has(r.name)) this.error(unit, r.span, 'RB0513', `a ${kind.name} has no role \`${r.name}\``, kind.roles.size ? `the roles of ${kind.name} are: ${[...kind.roles.keys()].join(', ')}` : `declare roles under kinds.${kind.name}.roles`);
    }
  }

  private expect(ctx: Ctx, e: A.Expr, want: Type, what: string): Type {
    const got = this.expr(ctx, e, want);
    if (!Ty.assignable(got, want)) {
      const hint =
        got.optional && Ty.sameBase(got, want)
          ? 'this value may be none; test it first with `if x != none`'
          : want.k === 'bool' && got.k === 'number'
            ? 'a number is not true or false: compare it, e.g. `… > 0`'
            : want.k === 'bool' && got.k === 'list'
              ? 'a list is not true or false: test it, e.g. `count(…) > 0` or `any(…, condition)`'
              : undefined;
      this.error(ctx.unit, e.span, 'RB0501', `${what} should be ${article(want)}, but this is ${article(got)}`, hint);
    }
    return got;
  }

  // ─── statements ──────────────────────────────────────────────────────────

  private block(ctx: Ctx, b: A.Block, facts: string[] = []): void {
    ctx.vars.push(new Map());
    ctx.narrow.push(new Set(facts));
    for (const s of b.stmts) this.stmt(ctx, s);
    ctx.narrow.pop();
    ctx.vars.pop();
  }

  private stmt(ctx: Ctx, s: A.Stmt): void {
    switch (s.kind) {
      case 'let': {
        const t = this.expr(ctx, s.value);
        this.declareVar(ctx, ctx.unit, s.name, s.nameSpan, t.k === 'none' ? Ty.ERROR : t, s);
        return;
      }
      case 'assign': {
        const target = this.fieldTarget(ctx, s.target);
        if (s.op === '=') this.expect(ctx, s.value, target, `the new value of \`${s.target.field}\``);
        else if (target.k === 'list') this.expect(ctx, s.value, Ty.required(target), `what \`${s.op}\` adds to or takes from a list`);
        else if (target.k === 'number' || target.k === 'error') this.expect(ctx, s.value, Ty.NUMBER, `the amount of \`${s.op}\``);
        else this.error(ctx.unit, s.span, 'RB0515', `\`${s.op}\` works on numbers and lists; \`${s.target.field}\` is ${article(target)}`);
        return;
      }
      case 'if':
        this.expect(ctx, s.cond, Ty.BOOL, 'a condition');
        this.block(ctx, s.then, notNone(s.cond, true));
        if (s.else) this.block(ctx, s.else, notNone(s.cond, false));
        return;
      case 'for': {
        const src = this.expr(ctx, s.source);
        const el = src.k === 'list' ? src.of : Ty.ERROR;
        if (src.k !== 'list' && src.k !== 'error') this.error(ctx.unit, s.source.span, 'RB0542', `\`for\` walks a list, but this is ${article(src)}`);
        ctx.vars.push(new Map());
        this.declareVar(ctx, ctx.unit, s.name, s.nameSpan, el, s);
        ctx.loops++;
        this.block(ctx, s.body);
        ctx.loops--;
        ctx.vars.pop();
        return;
      }
      case 'repeat':
      case 'loop':
        this.expect(ctx, s.kind === 'repeat' ? s.times : s.max, Ty.NUMBER, s.kind === 'repeat' ? 'a number of times' : 'a bound');
        ctx.loops++;
        this.block(ctx, s.body);
        ctx.loops--;
        return;
      case 'break':
        if (!ctx.loops) this.error(ctx.unit, s.span, 'RB0516', '`break` is only meaningful inside `for`, `repeat` or `loop`');
        return;
      case 'require':
        if (!s.reason) return this.applyCheck(ctx, s);
        this.expect(ctx, s.cond, Ty.BOOL, 'a requirement');
        this.expr(ctx, s.reason);
        for (const f of notNone(s.cond, true)) ctx.narrow[ctx.narrow.length - 1].add(f);
        return;
      case 'choose': {
        const src = this.expr(ctx, s.source);
        if (src.k !== 'list' && src.k !== 'error') this.error(ctx.unit, s.source.span, 'RB0542', `a player chooses from a list, but this is ${article(src)}`);
        if (s.by) this.expect(ctx, s.by, Ty.entity('player'), 'who chooses');
        if (s.prompt) this.expr(ctx, s.prompt);
        const el = src.k === 'list' ? src.of : Ty.ERROR;
        ctx.vars.push(new Map());
        this.declareVar(ctx, ctx.unit, s.name, s.nameSpan, s.optional ? Ty.optional(el) : el, s);
        this.block(ctx, s.body);
        ctx.vars.pop();
        return;
      }
      case 'offer':
        this.expect(ctx, s.player, Ty.entity('player'), 'who acts');
        for (const a of s.actions) {
          if (!this.c.actions.get(a.name)?.some((p) => !p.unit.owner) && !this.d.broken.has(a.name)) this.error(ctx.unit, a.span, 'RB0517', `there is no game action \`${a.name}\``, this.suggest(a.name, [...this.c.actions.keys()]));
        }
        return;
      case 'emit': {
        const ev = this.c.events.get(s.event);
        if (!ev) {
          if (!this.d.broken.has(s.event)) this.error(ctx.unit, s.eventSpan, 'RB0505', `there is no event \`${s.event}\``, this.suggest(s.event, [...this.c.events.keys()]) ?? `declare it: \`event ${s.event}(…)\``);
          s.args.forEach((a) => this.expr(ctx, a));
          return;
        }
        this.args(ctx, s.event, ev.decl.params.map((p) => this.typeRef(ev.unit, p.type)), s.args, s.span);
        return;
      }
      case 'log':
        this.expr(ctx, s.text);
        return;
      case 'turn':
        this.expect(ctx, s.player, Ty.entity('player'), 'whose turn it is');
        this.block(ctx, s.body);
        return;
      case 'resolving':
        this.block(ctx, s.body);
        return;
      case 'shuffle':
        this.listField(ctx, s.target, s.kind);
        return;
      case 'draw': {
        const el = this.listField(ctx, s.from, s.kind);
        this.declareVar(ctx, ctx.unit, s.name, s.nameSpan, el, s);
        return;
      }
      case 'put': {
        const el = this.listField(ctx, s.into, s.kind);
        this.expect(ctx, s.value, el, 'what is put on the pile');
        return;
      }
      case 'remove': {
        const el = this.listField(ctx, s.from, s.kind);
        this.expect(ctx, s.value, el, 'what is removed');
        return;
      }
      case 'finish':
        return;
      case 'reach': {
        const t = this.expr(ctx, s.target);
        if (t.k === 'error') return;
        const name = t.k === 'entity' ? this.c.guardOf.get(t.kind) : undefined;
        if (!name) {
          this.error(ctx.unit, s.target.span, 'RB0621', `nothing guards ${article(t)}, so \`reach\` has no guard to apply`, t.k === 'entity' ? `declare \`guard name(x: ${t.kind}) { … }\` in the game’s rules, or remove \`reach\`` : 'reach an entity of a guarded kind');
          return;
        }
        if (t.optional && !this.isNarrowed(ctx, pathOf(s.target))) this.error(ctx.unit, s.target.span, 'RB0501', `what \`reach\` reaches should be ${article(Ty.required(t))}, but this is ${article(t)}`, 'this value may be none; test it first with `if x != none`');
        const g = this.c.guards.get(name)!;
        this.c.reached.set(s, { name, base: ctx.slots });
        ctx.slots += g.slots;
        return;
      }
      case 'expr':
        this.expr(ctx, s.expr);
        if (s.assigned) {
          this.expr(ctx, s.assigned.value);
          const hint = s.expr.kind === 'call' ? 'a call gives a value, which cannot be changed: assign to one of its fields, or keep it with `let x = …`' : 'assign to a field of it (`x.count = …`), or keep a new value with `let x = …`';
          this.error(ctx.unit, s.expr.span, 'RB0564', `only a field can be assigned, such as \`me.coins\` or \`r.tokens\`; this is ${valueWords(s.expr)}`, hint);
        } else {
          const compares = s.expr.kind === 'binary' && s.expr.op === '==';
          const hint = compares ? '`==` compares; to change a field write `x.f = value`, to demand it write `require … else "why not"`' : 'use the value: `let x = …`, `require … else "…"`, `if … { }`, or assign it to a field';
          const words = valueWords(s.expr);
          this.error(ctx.unit, s.span, 'RB0565', `${words[0].toUpperCase()}${words.slice(1)} on its own does nothing: a statement is an assignment, a call or a keyword statement`, hint);
        }
        return;
      case 'call': {
        const target = this.c.procs.get(s.call.callee);
        if (target) {
          ctx.calls?.add(s.call.callee);
          this.c.calls.set(s.call, { k: 'proc', name: s.call.callee });
          this.args(ctx, s.call.callee, target.decl.params.map((p) => this.typeRef(target.unit, p.type)), s.call.args, s.span);
          return;
        }
        const known = this.c.fns.has(s.call.callee) || this.c.pipelines.has(s.call.callee) || builtinTable.has(s.call.callee);
        this.expr(ctx, s.call);
        if (known) this.error(ctx.unit, s.span, 'RB0518', `calling \`${s.call.callee}\` here does nothing: it only computes a value`, 'use its value, e.g. `let x = …`, or call a `proc`');
        return;
      }
    }
  }

  /** A guard protects one kind; its condition is a value, its body runs as a procedure's does. */
  private guard(p: Placed<A.GuardDecl>): void {
    const ctx = this.ctx(p.unit, true);
    ctx.calls = new Set();
    this.bindParams(ctx, p.decl.params);
    const param = p.decl.params[0];
    const t = param ? this.typeRef(p.unit, param.type) : Ty.ERROR;
    if (p.decl.params.length !== 1 || (t.k !== 'entity' && t.k !== 'error') || t.optional) {
      this.error(p.unit, p.decl.nameSpan, 'RB0623', `the guard \`${p.decl.name}\` must protect one kind of entity: \`guard ${p.decl.name}(x: kind)\``, 'give it one parameter whose type is a kind, such as `r: region`');
    } else if (t.k === 'entity') {
      const other = this.c.guardOf.get(t.kind);
      if (other) this.error(p.unit, p.decl.nameSpan, 'RB0622', `a ${t.kind} is guarded twice: by \`${other}\` and by \`${p.decl.name}\``, 'one guard per kind says everything a card must pass: merge them');
      else {
        this.c.guardOf.set(t.kind, p.decl.name);
        const state = this.d.kinds.get(t.kind)?.state ?? new Map();
        for (const f of p.decl.fields) {
          if (!state.has(f.name)) this.error(p.unit, f.span, 'RB0523', `a ${t.kind} has no field \`${f.name}\``, this.suggest(f.name, state.keys()) ?? 'a guard protects state fields of its kind');
        }
        this.c.guardedFields.set(t.kind, new Set(p.decl.fields.length ? p.decl.fields.map((f) => f.name) : state.keys()));
      }
    }
    if (p.decl.when) this.expect({ ...ctx, effects: false }, p.decl.when, Ty.BOOL, 'a guard’s condition');
    this.block(ctx, p.decl.body);
    p.slots = ctx.slots;
  }

  /**
   * A check's body is checked once, before its first use, so a caller knows how many slots to keep
   * for it; one that applies itself (through others) could never finish.
   */
  private checkBody(name: string): Placed<A.CheckDecl> | undefined {
    const p = this.c.checks.get(name)!;
    const state = this.checked.get(name);
    if (state === false) return undefined;
    if (state) return p;
    this.checked.set(name, false);
    const ctx = this.ctx(p.unit, false);
    this.bindParams(ctx, p.decl.params);
    ctx.vars.push(new Map());
    for (const s of p.decl.body.stmts) {
      // A value on its own line is no effect, and is reported as what it is.
      if (s.kind === 'let' || s.kind === 'require' || s.kind === 'expr') this.stmt(ctx, s);
      else this.error(p.unit, s.span, 'RB0561', `a check holds only \`let\` and \`require\`, not ${s.kind === 'assign' ? 'an assignment' : s.kind === 'call' ? 'a procedure call' : `\`${s.kind}\``}`, 'a check decides whether something may be done; do it in the action that applies the check');
    }
    ctx.vars.pop();
    p.slots = ctx.slots;
    this.checked.set(name, true);
    return p;
  }

  /** `require canConquer(r)`: the check's requires, in place, each with its own reason. */
  private applyCheck(ctx: Ctx, s: A.RequireStmt): void {
    const call = s.cond.kind === 'call' ? s.cond : undefined;
    const target = call && this.c.checks.get(call.callee);
    if (!call || !target) {
      if (!call || !this.d.broken.has(call.callee)) {
        const what = call ? `\`${call.callee}\`` : 'this condition';
        this.error(ctx.unit, s.cond.span, 'RB0559', `\`require\` without \`else "reason"\` applies a shared check, and ${what} is not one`, call ? this.suggest(call.callee, this.c.checks.keys()) ?? 'declare it: `check name(params) { require … else "…" }`, or give a reason: `require cond else "why not"`' : 'give the reason a player reads when it fails: `require cond else "why not"`');
        this.expr(ctx, s.cond);
      }
      return;
    }
    this.c.calls.set(call, { k: 'check', name: call.callee });
    this.args(ctx, call.callee, target.decl.params.map((p) => this.typeRef(target.unit, p.type)), call.args, call.span);
    const body = this.checkBody(call.callee);
    if (!body) {
      this.error(ctx.unit, call.calleeSpan, 'RB0562', `the check \`${call.callee}\` applies itself, so it could never finish`, 'a check may apply other checks, but none may lead back to it');
      return;
    }
    this.c.applied.set(s, { name: call.callee, base: ctx.slots });
    ctx.slots += body.slots;
  }

  private fieldTarget(ctx: Ctx, f: A.FieldExpr): Type {
    const t = this.expr(ctx, f);
    const info = this.c.fields.get(f);
    if (info?.isProp) {
      this.error(ctx.unit, f.fieldSpan, 'RB0519', `\`${f.field}\` is a printed property of ${info.kind}, which does not change during play`, `declare it under kinds.${info.kind}.state to make it change`);
    }
    const declared = info ? this.d.kinds.get(info.kind)?.state.get(f.field)?.type : undefined;
    return declared ?? (t.k === 'none' ? Ty.ERROR : t);
  }

  private listField(ctx: Ctx, f: A.Expr, statement: string): Type {
    if (f.kind !== 'field') {
      this.expr(ctx, f);
      this.error(ctx.unit, f.span, 'RB0566', `\`${statement}\` changes a list field, such as \`game.deck\`; this is ${valueWords(f)}`, 'name the field that holds the pile: `x.pile`');
      return Ty.ERROR;
    }
    const t = this.fieldTarget(ctx, f);
    if (t.k === 'list') return t.of;
    if (t.k !== 'error') this.error(ctx.unit, f.span, 'RB0547', `\`${f.field}\` should be a list (a pile or deck), but it is ${article(t)}`);
    return Ty.ERROR;
  }

  private args(ctx: Ctx, name: string, params: Type[], args: A.Expr[], span: A.Span): void {
    if (args.length !== params.length) this.error(ctx.unit, span, 'RB0549', `\`${name}\` takes ${params.length} argument(s), not ${args.length}`);
    args.forEach((a, i) => (params[i] ? this.expect(ctx, a, params[i], `argument ${i + 1} of \`${name}\``) : this.expr(ctx, a)));
  }

  // ─── expressions ─────────────────────────────────────────────────────────

  expr(ctx: Ctx, e: A.Expr, want?: Type): Type {
    const t = this.exprInner(ctx, e, want);
    this.c.types.set(e, t);
    return t;
  }

  private exprInner(ctx: Ctx, e: A.Expr, want?: Type): Type {
    switch (e.kind) {
      case 'number':
        return Ty.NUMBER;
      case 'bool':
        return Ty.BOOL;
      case 'none':
        return Ty.NONE;
      case 'string':
        for (const p of e.parts) if (typeof p !== 'string') this.expr(ctx, p);
        for (const h of e.badHoles ?? []) {
          if (h.unclosed) this.error(ctx.unit, h.span, 'RB0567', 'unclosed `{` in text: write `{{` for a literal brace', 'close the hole with `}`, or write `{{` for a brace the player reads');
          else this.error(ctx.unit, h.span, 'RB0568', `this \`{…}\` in a text holds no value: ${h.message}`, 'a `{…}` in a text holds one value, such as `{r}` or `{count(xs)}`; write `{{` for a literal brace');
        }
        return Ty.TEXT;
      case 'name':
        return this.name(ctx, e, want);
      case 'field':
        return this.field(ctx, e);
      case 'call':
        return this.call(ctx, e);
      case 'unary':
        if (e.op === 'not') {
          this.expect(ctx, e.operand, Ty.BOOL, '`not`’s operand');
          return Ty.BOOL;
        }
        this.expect(ctx, e.operand, Ty.NUMBER, 'a negated value');
        return Ty.NUMBER;
      case 'binary':
        return this.binary(ctx, e);
      case 'if': {
        this.expect(ctx, e.cond, Ty.BOOL, 'a condition');
        const a = this.withFacts(ctx, notNone(e.cond, true), () => this.expr(ctx, e.then, want));
        const b = this.withFacts(ctx, notNone(e.cond, false), () => this.expr(ctx, e.else, want ?? a));
        if (a.k === 'none') return Ty.optional(b);
        if (b.k === 'none') return Ty.optional(a);
        if (!Ty.sameBase(a, b)) this.error(ctx.unit, e.span, 'RB0541', `the two branches differ: ${article(a)} and ${article(b)}`);
        return a.optional || b.optional ? Ty.optional(a) : a;
      }
      case 'where': {
        const src = this.expr(ctx, e.source);
        if (src.k !== 'list') {
          if (src.k !== 'error') this.error(ctx.unit, e.source.span, 'RB0542', `\`where\` filters a list, but this is ${article(src)}`);
          return Ty.ERROR;
        }
        ctx.where.push(src.of);
        ctx.vars.push(new Map());
        if (e.name) this.declareVar(ctx, ctx.unit, e.name, e.nameSpan!, src.of, e);
        this.expect(ctx, e.cond, Ty.BOOL, 'a `where` condition');
        ctx.vars.pop();
        ctx.where.pop();
        return src;
      }
      case 'list': {
        let el: Type = want?.k === 'list' ? want.of : Ty.NONE;
        for (const item of e.items) {
          const t = this.expr(ctx, item, el.k === 'none' ? undefined : el);
          if (el.k === 'none') el = t;
          else if (!Ty.assignable(t, el)) this.error(ctx.unit, item.span, 'RB0543', `a list holds one type: this is ${article(t)} among ${Ty.show(el)}s`);
        }
        return Ty.listOf(el);
      }
      case 'range':
        this.expect(ctx, e.from, Ty.NUMBER, 'a range start');
        this.expect(ctx, e.to, Ty.NUMBER, 'a range end');
        return Ty.listOf(Ty.NUMBER);
    }
  }

  private name(ctx: Ctx, e: A.NameExpr, want?: Type): Type {
    const v = this.lookupVar(ctx, e.name);
    if (v) return this.named(e, { k: 'local', slot: v.slot }, v.type.optional && this.isNarrowed(ctx, e.name) ? Ty.required(v.type) : v.type);
    const it = ctx.where[ctx.where.length - 1];
    if (e.name === 'it') {
      if (!it) {
        this.error(ctx.unit, e.span, 'RB0520', '`it` only means something inside `where` or a per-element argument such as `sum(xs, it.tokens)`');
        return Ty.ERROR;
      }
      return this.named(e, { k: 'it' }, it);
    }
    if (it?.k === 'entity') {
      const kind = this.d.kinds.get(it.kind)!;
      const f = kind.props.get(e.name) ?? kind.state.get(e.name);
      if (f) return this.named(e, { k: 'itField', field: e.name, isProp: kind.props.has(e.name) }, it.optional ? optionalField(f.type) : f.type);
    }
    switch (e.name) {
      case 'me':
        return this.named(e, { k: 'me' }, Ty.entity('player'));
      case 'current':
        return this.named(e, { k: 'current' }, Ty.entity('player'));
      case 'players':
        return this.named(e, { k: 'players' }, Ty.listOf(Ty.entity('player')));
      case 'game':
        return this.named(e, { k: 'game' }, Ty.entity('game'));
      case 'self':
        if (!ctx.self) {
          this.error(ctx.unit, e.span, 'RB0554', '`self` is the card a rule is written on; these rules belong to no card');
          return Ty.ERROR;
        }
        return this.named(e, { k: 'self' }, ctx.self);
      case 'holder':
        if (!ctx.holder) {
          this.error(ctx.unit, e.span, 'RB0554', '`holder` is the player who holds the card a rule is written on; these rules belong to no card');
          return Ty.ERROR;
        }
        return this.named(e, { k: 'holder' }, Ty.entity('player'));
      case 'value':
        if (!ctx.value) break;
        return this.named(e, { k: 'value' }, ctx.value);
    }
    for (const [name, kind] of this.d.kinds) {
      if (kind.plural === e.name && name !== 'player' && name !== 'game') return this.named(e, { k: 'all', kind: name }, Ty.listOf(Ty.entity(name)));
    }
    const owners = this.d.members.get(e.name);
    if (owners) {
      const wanted = want && (want.k === 'enum' ? want.name : want.k === 'list' && want.of.k === 'enum' ? want.of.name : undefined);
      const name = owners.length === 1 ? owners[0] : wanted && owners.includes(wanted) ? wanted : owners[0];
      return this.named(e, { k: 'const', value: e.name }, { k: 'enum', name });
    }
    const ent = this.d.entities.get(e.name);
    if (ent) return this.named(e, { k: 'const', value: e.name }, Ty.entity(ent.kind));
    if (this.d.dice.has(e.name)) return this.named(e, { k: 'const', value: e.name }, { k: 'die' });
    const candidates = [
      ...ctx.vars.flatMap((m) => [...m.keys()]),
      ...this.d.members.keys(),
      ...this.d.entities.keys(),
      ...[...this.d.kinds.values()].map((k) => k.plural),
      ...specialNames.filter((n) => n.scope === 'everywhere').map((n) => n.name),
      ...(it?.k === 'entity' ? [...this.d.kinds.get(it.kind)!.props.keys(), ...this.d.kinds.get(it.kind)!.state.keys()] : []),
    ];
    const guess = closest(e.name, candidates);
    const enumHint = want?.k === 'enum' ? ` a ${want.name} is one of: ${this.d.enums.get(want.name)?.values.join(', ')}` : '';
    this.error(ctx.unit, e.span, want?.k === 'enum' ? 'RB0555' : 'RB0521', `unknown name \`${e.name}\`${want?.k === 'enum' ? `: it is not a ${want.name} of this pack` : ''}`, guess ? `did you mean \`${guess}\`?` : enumHint.trim() || undefined, guess ? { replacement: guess, safe: true } : undefined);
    return Ty.ERROR;
  }

  /** Records what a name resolved to, and gives its type: a method, not a closure made for every name checked. */
  private named(e: A.NameExpr, r: Resolution, t: Type): Type {
    this.c.names.set(e, r);
    return t;
  }

  private field(ctx: Ctx, e: A.FieldExpr): Type {
    const target = this.expr(ctx, e.target);
    if (target.k === 'error') return Ty.ERROR;
    if (target.k !== 'entity') {
      this.error(ctx.unit, e.fieldSpan, 'RB0522', `${article(target)} has no fields, so \`.${e.field}\` means nothing here`);
      return Ty.ERROR;
    }
    const kind = this.d.kinds.get(target.kind)!;
    const f = kind.props.get(e.field) ?? kind.state.get(e.field);
    if (!f) {
      const guess = closest(e.field, [...kind.props.keys(), ...kind.state.keys()]);
      this.error(ctx.unit, e.fieldSpan, 'RB0523', `a ${kind.name} has no field \`${e.field}\``, guess ? `did you mean \`${guess}\`?` : `declare it under kinds.${kind.name}.state`, guess ? { replacement: guess, safe: true } : undefined);
      return Ty.ERROR;
    }
    this.c.fields.set(e, { kind: kind.name, isProp: kind.props.has(e.field) });
    const t = target.optional ? optionalField(f.type) : f.type;
    return t.optional && this.isNarrowed(ctx, pathOf(e)) ? Ty.required(t) : t;
  }

  private call(ctx: Ctx, e: A.CallExpr): Type {
    const own = ctx.unit.owner && cardFnKey(ctx.unit.owner.id, e.callee);
    const local = own ? this.c.fns.get(own) : undefined;
    const fn = local ?? this.c.fns.get(e.callee);
    if (fn) {
      this.c.calls.set(e, { k: 'fn', name: local ? own! : e.callee });
      this.args(ctx, e.callee, fn.decl.params.map((p) => this.typeRef(fn.unit, p.type)), e.args, e.span);
      return this.typeRef(fn.unit, fn.decl.returns);
    }
    const pipe = this.c.pipelines.get(e.callee);
    if (pipe) {
      this.c.calls.set(e, { k: 'pipeline', name: e.callee });
      this.args(ctx, e.callee, pipe.decl.params.map((p) => this.typeRef(pipe.unit, p.type)), e.args, e.span);
      return this.typeRef(pipe.unit, pipe.decl.returns);
    }
    const guard = this.c.guards.get(e.callee);
    if (guard) {
      this.c.calls.set(e, { k: 'guard', name: e.callee });
      this.args(ctx, e.callee, guard.decl.params.map((p) => this.typeRef(guard.unit, p.type)), e.args, e.span);
      return Ty.BOOL;
    }
    if (this.c.checks.has(e.callee)) {
      this.error(ctx.unit, e.calleeSpan, 'RB0560', `\`${e.callee}\` is a check: it is applied with \`require ${e.callee}(…)\`, not used as a value`, `write \`require ${e.callee}(…)\` on a line of its own`);
      return Ty.ERROR;
    }
    if (this.c.procs.has(e.callee)) {
      this.error(ctx.unit, e.calleeSpan, 'RB0524', `\`${e.callee}\` is a procedure: it acts and gives no value`, 'call it as a statement on its own line');
      return Ty.ERROR;
    }
    const b = builtinTable.get(e.callee);
    if (!b && this.d.broken.has(e.callee)) {
      e.args.forEach((a) => this.expr(ctx, a));
      return Ty.ERROR;
    }
    if (!b) {
      this.error(ctx.unit, e.calleeSpan, 'RB0525', `unknown function \`${e.callee}\``, this.suggest(e.callee, [...this.c.fns.keys(), ...this.c.pipelines.keys(), ...builtinTable.keys()]));
      e.args.forEach((a) => this.expr(ctx, a));
      return Ty.ERROR;
    }
    if (b.random && !ctx.effects) this.error(ctx.unit, e.calleeSpan, 'RB0526', `\`${b.name}\` uses randomness, which a value (fn, pipeline, modify, when, where) may not`, 'roll in an action, trigger or proc and keep the result with `let`');
    const types: Type[] = [];
    e.args.forEach((a, i) => {
      if (b.perElement.includes(i)) {
        const src = types[0];
        ctx.where.push(src?.k === 'list' ? src.of : Ty.ERROR);
        types.push(this.expr(ctx, a));
        ctx.where.pop();
      } else types.push(this.expr(ctx, a));
    });
    if (e.args.length !== b.arity) {
      this.error(ctx.unit, e.span, 'RB0550', `\`${b.name}\` takes ${b.arity} argument(s): ${b.signature}`);
      return Ty.ERROR;
    }
    if (b.graph) {
      const t = types[0];
      if (t.k === 'entity' && !this.d.kinds.get(t.kind)?.graph) this.error(ctx.unit, e.args[0].span, 'RB0527', `\`${b.name}\` needs a graph, and ${t.kind} has none`, `declare \`graph: <list prop>\` under kinds.${t.kind}`);
    }
    if (b.name === 'roll') {
      const arg = e.args[0];
      const die = arg.kind === 'name' ? this.d.dice.get(arg.name) : undefined;
      if (!die || arg.kind !== 'name') {
        if (types[0].k !== 'error') this.error(ctx.unit, arg.span, 'RB0528', '`roll` takes a die of the pack by name', this.suggest(arg.kind === 'name' ? arg.name : '', this.d.dice.keys()));
        return Ty.ERROR;
      }
      this.c.calls.set(e, { k: 'builtin', b, die: arg.name });
      return die.face;
    }
    this.c.calls.set(e, { k: 'builtin', b });
    const r = b.type(types);
    if (typeof r === 'string') {
      this.error(ctx.unit, e.span, 'RB0544', `\`${b.name}\`: ${r}`, `${b.signature}, e.g. ${b.example}`);
      return Ty.ERROR;
    }
    return r;
  }

  private binary(ctx: Ctx, e: A.BinaryExpr): Type {
    const op = e.op;
    if (op === 'and' || op === 'or') {
      this.expect(ctx, e.left, Ty.BOOL, `\`${op}\`’s left side`);
      this.withFacts(ctx, notNone(e.left, op === 'and'), () => this.expect(ctx, e.right, Ty.BOOL, `\`${op}\`’s right side`));
      return Ty.BOOL;
    }
    if (op === '==' || op === '!=') {
      const l = this.expr(ctx, e.left);
      const r = this.expr(ctx, e.right, l);
      if (!Ty.comparable(l, r)) this.error(ctx.unit, e.span, 'RB0529', `${article(l)} is never equal to ${article(r)}`, r.k === 'error' || l.k === 'error' ? undefined : 'compare values of the same type');
      if (e.right.kind === 'name' && l.k === 'enum' && r.k === 'enum' && l.name !== r.name) this.enumMismatch(ctx, e.right, l.name);
      return Ty.BOOL;
    }
    if (op === 'in') {
      const r = this.expr(ctx, e.right);
      const el = r.k === 'list' ? r.of : Ty.ERROR;
      if (r.k !== 'list' && r.k !== 'error') this.error(ctx.unit, e.right.span, 'RB0542', `\`in\` looks into a list, but this is ${article(r)}`);
      const l = this.expr(ctx, e.left, el);
      if (!Ty.comparable(l, el)) this.error(ctx.unit, e.span, 'RB0556', `${article(l)} is never in a list of ${Ty.show(el)}`);
      return Ty.BOOL;
    }
    if (op === '+' || op === '-') {
      const l = this.expr(ctx, e.left);
      if (l.k === 'list') {
        this.expect(ctx, e.right, l, `what \`${op}\` joins to a list`);
        return l;
      }
      if (l.k === 'text' && op === '+') {
        this.expect(ctx, e.right, Ty.TEXT, 'joined text');
        return Ty.TEXT;
      }
      if (l.k !== 'number' && l.k !== 'error') this.error(ctx.unit, e.left.span, 'RB0545', `\`${op}\` works on numbers (and lists), but this is ${article(l)}`, l.optional ? 'this value may be none' : undefined);
      this.expect(ctx, e.right, Ty.NUMBER, `\`${op}\`’s right side`);
      return Ty.NUMBER;
    }
    this.expect(ctx, e.left, Ty.NUMBER, `\`${op}\`’s left side`);
    this.expect(ctx, e.right, Ty.NUMBER, `\`${op}\`’s right side`);
    return op === '<' || op === '<=' || op === '>' || op === '>=' ? Ty.BOOL : Ty.NUMBER;
  }

  private enumMismatch(ctx: Ctx, n: A.NameExpr, wanted: string): void {
    const values = this.d.enums.get(wanted)?.values ?? [];
    const guess = closest(n.name, values);
    this.error(ctx.unit, n.span, 'RB0530', `\`${n.name}\` is not a ${wanted}`, guess ? `did you mean \`${guess}\`?` : `a ${wanted} is one of: ${values.join(', ')}`, guess ? { replacement: guess, safe: true } : undefined);
  }
}

/** The name a card's own function is known by outside the card: its id and the function's name. */
/** The events a block emits and the procedures it calls, by name, in the order written, by tree: the same tree does the same. */
const effectsByBlock = new WeakMap<A.Block, Array<{ emit?: string; callee?: string }>>();

function directEffects(body: A.Block): Array<{ emit?: string; callee?: string }> {
  let known = effectsByBlock.get(body);
  if (!known) {
    const found: Array<{ emit?: string; callee?: string }> = [];
    walkStmts(body.stmts, (s) => {
      if (s.kind === 'emit') found.push({ emit: s.event });
      if (s.kind === 'call') found.push({ callee: s.call.callee });
    });
    known = found;
    effectsByBlock.set(body, known);
  }
  return known;
}

/** `directEffects` as names (`emit e`, `call p`), compared by their elements when a tree is checked again. */
const effectNamesByBlock = new WeakMap<A.Block, string[]>();

function effectNames(body: A.Block): string[] {
  let known = effectNamesByBlock.get(body);
  if (!known) {
    known = directEffects(body).map((x) => (x.emit !== undefined ? `emit ${x.emit}` : `call ${x.callee}`));
    effectNamesByBlock.set(body, known);
  }
  return known;
}

export function cardFnKey(card: string, fn: string): string {
  return `${card}.${fn}`;
}

/** A field read through an entity that may be none: enums, entities and texts become optional; numbers read 0. */
function optionalField(t: Type): Type {
  return t.k === 'number' || t.k === 'bool' || t.k === 'list' ? t : Ty.optional(t);
}

function article(t: Type): string {
  if (t.k === 'error') return 'a value of unknown type';
  if (t.k === 'none') return '`none`';
  const s = Ty.show(t);
  return `${/^[aeiou]/.test(s) ? 'an' : 'a'} ${s}`;
}

/** What a value written where it cannot stand is, in the author's words: `a call`, `a comparison`. */
function valueWords(e: A.Expr): string {
  switch (e.kind) {
    case 'number':
      return 'a number';
    case 'string':
      return 'a text';
    case 'bool':
      return `\`${e.value}\``;
    case 'none':
      return '`none`';
    case 'name':
      return `the name \`${e.name}\``;
    case 'field':
      return `the field \`${e.field}\``;
    case 'call':
      return `a call of \`${e.callee}\``;
    case 'unary':
      return e.op === 'not' ? 'a condition' : 'a calculation';
    case 'binary':
      return e.op === 'and' || e.op === 'or' ? 'a condition' : ['+', '-', '*', '/', '%'].includes(e.op) ? 'a calculation' : 'a comparison';
    case 'if':
      return 'an `if … then … else …` value';
    case 'where':
      return 'a `where` list';
    case 'list':
      return 'a list';
    case 'range':
      return 'a range';
  }
}

/** The name or field path an expression reads, for narrowing: `r.owner`, `me.race`, `x`. */
function pathOf(e: A.Expr): string | undefined {
  if (e.kind === 'name') return e.name;
  if (e.kind === 'field') {
    const base = pathOf(e.target);
    return base && `${base}.${e.field}`;
  }
  return undefined;
}

/** Paths a condition proves are not none when it is `holds` (true or false). */
function notNone(e: A.Expr, holds: boolean): string[] {
  if (e.kind === 'binary') {
    if ((e.op === '!=' && holds) || (e.op === '==' && !holds)) {
      if (e.right.kind === 'none') return [pathOf(e.left)].filter((x): x is string => !!x);
      if (e.left.kind === 'none') return [pathOf(e.right)].filter((x): x is string => !!x);
    }
    if (e.op === 'and' && holds) return [...notNone(e.left, true), ...notNone(e.right, true)];
    if (e.op === 'or' && !holds) return [...notNone(e.left, false), ...notNone(e.right, false)];
  }
  if (e.kind === 'unary' && e.op === 'not') return notNone(e.operand, !holds);
  return [];
}

/** Depth-first search of a call or emit graph: reports each cycle once, at the node that closes it. */
function findCycles(graph: Map<string, Set<string>>, onCycle: (node: string, cycle: string[]) => void): void {
  const state = new Map<string, 1 | 2>();
  // One path for the whole walk, not a copy of it per edge: only a cycle found is copied from it.
  const path: string[] = [];
  const visit = (n: string): void => {
    const seen = state.get(n);
    if (seen === 2 || !graph.has(n)) return;
    if (seen === 1) {
      onCycle(n, [...path.slice(path.indexOf(n)), n]);
      return;
    }
    state.set(n, 1);
    path.push(n);
    for (const m of graph.get(n)!) visit(m);
    path.pop();
    state.set(n, 2);
  };
  for (const n of graph.keys()) visit(n);
}
