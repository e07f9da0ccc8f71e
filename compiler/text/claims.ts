/**
 * What a card's rules claim, read from the checked syntax tree: the numbers its effects give, take
 * or set and what they count, the game terms its conditions name, the moment of the turn its
 * triggers run, its limits, the roles it works in, and who pays whom. Game-agnostic: every word
 * (what each field counts, which event is the end of a turn) comes from the pack's glossary.
 */
import type * as A from '../../dsl/ast.ts';
import type { Checked } from '../check.ts';
import type { Declared, RulesUnit } from '../declare.ts';
import { printExpr } from '../../dsl/printer.ts';
import { stmtExprs, walkExpr, walkStmts } from '../../dsl/walk.ts';

export { walkExpr, walkStmts };
import type { ClaimBody, How, Pick, RuleClaim, Transfer, TurnOf } from './claim.ts';
import { termClass, type Change, type Direction, type Glossary, type Party, type UnitRef } from './language.ts';
import { pipelineUse } from './permits.ts';

type Local = { k: 'let'; value: A.Expr } | { k: 'choose'; source: A.Expr } | { k: 'each'; source: A.Expr };

interface Opts {
  required: boolean;
}

/** What the rules of one card claim. `unit` is one of the card's rules texts. */
export function ruleClaims(c: Checked, g: Glossary, unit: RulesUnit): RuleClaim[] {
  // A first reading learns what the card's own scratch fields count (`holder.tally = x.count`),
  // so that the second can tell what `holder.tally >= 2` compares.
  const first = new RuleReader(c, g, unit, new Map());
  for (const decl of unit.program.decls) first.decl(decl);
  const r = new RuleReader(c, g, unit, first.inferred);
  for (const decl of unit.program.decls) r.decl(decl);
  r.durations();
  r.tallies();
  return r.out;
}

/** `self.f += 1` in a trigger: the card counts something in a field of its own, to pay it out later. */
interface Count {
  decl: A.OnDecl;
  n: A.NumberExpr;
}

function countsOf(unit: RulesUnit, isSelf: (e: A.Expr) => boolean): Map<string, Count[]> {
  const out = new Map<string, Count[]>();
  for (const decl of unit.program.decls) {
    if (decl.kind !== 'on') continue;
    walkStmts(decl.body.stmts, (s) => {
      if (s.kind === 'assign' && s.op === '+=' && s.value.kind === 'number' && isSelf(s.target.target)) out.set(s.target.field, [...(out.get(s.target.field) ?? []), { decl, n: s.value }]);
    });
  }
  return out;
}

class RuleReader {
  readonly out: RuleClaim[] = [];
  private readonly d: Declared;
  private current!: A.Decl;
  private locals = new Map<string, Local>();
  /** Payments and conversions found before the walk: how each `+=`/`-=` is to be read. */
  private pairing = new Map<A.AssignStmt, { transfer?: Transfer; skip?: boolean; also?: A.AssignStmt }>();
  private setCounts = new Map<string, { n: number; sites: A.AssignStmt[] }>();
  /** Inside a `for`, `repeat` or `loop`: placements there are "one in each", not a total. */
  private loops = 0;
  /** Inside an `else`: what the rule does when its case does not hold. */
  private otherwise = 0;
  /** The kind each enclosing `for` walks: a placement there is one in each of them. */
  private eachKinds: Array<string | undefined> = [];
  /** The terms each enclosing condition requires, innermost last. */
  private guards: string[][] = [];
  /** The enclosing `repeat`s: how many times what is inside them is done. */
  private repeats: A.RepeatStmt[] = [];
  /** A thing's number a rule sets (`game.steps = 5`), then counts down in a loop: a budget, said by what it is set to. */
  private budgets = new Set<string>();
  /** Inside a `loop`, and whether it counted a budget down. */
  private untils = 0;
  private countedDown = false;
  /** The pick an enclosing condition ties the player to (`if lead.side == p.side` of `let lead = highest(…)`). */
  private pickStack: Array<NonNullable<RuleClaim['chosen']>> = [];
  /** The side of a player's choice (`if x != none` of a `choose optional x`) being walked. */
  private alts: Array<NonNullable<RuleClaim['alt']>> = [];
  /** Inside `if yes` of a `choose yes in [true, false]`: what is done there, a player may do or not. */
  private yeses = 0;
  /** The card's own counts, and the rule that pays each out. */
  private readonly counts: Map<string, Count[]>;
  private readonly paidBy = new Map<string, A.Decl>();

  constructor(
    private readonly c: Checked,
    private readonly g: Glossary,
    private readonly unit: RulesUnit,
    /** Fields the glossary does not know, by what the card assigns to them. */
    readonly inferred: Map<string, UnitRef>,
  ) {
    this.d = c.declared;
    this.counts = countsOf(unit, (e) => this.isSelf(e));
  }

  /**
   * A count paid out is said where it is paid: "1 point for each forest cell claimed this
   * turn". The counting trigger's terms and duration go to the paying rule, so the card reads as
   * one sentence and a text that says it so passes.
   */
  tallies(): void {
    for (const [field, counts] of this.counts) {
      const payer = this.paidBy.get(field);
      if (!payer) continue;
      const until = this.out.find((c) => c.body.k === 'duration' && counts.some((k) => k.decl === c.decl))?.body as { until: string } | undefined;
      for (const c of this.out) {
        if (counts.some((k) => k.decl === c.decl) && c.body.k !== 'timing') c.decl = payer;
        if (c.decl === payer && c.perEvent && until) c.perUntil = until.until;
      }
    }
  }

  private push(body: ClaimBody, required: boolean, span: A.Span, sites: object[], extra: Partial<RuleClaim> = {}): void {
    // Numbers, and terms the rule names itself (not those a field implies), go with their conditions' terms.
    const paired = body.k === 'number' || body.k === 'effect' || (body.k === 'term' && sites.length > 0);
    const guards = paired ? this.guards.flat().filter((g) => body.k !== 'term' || g !== body.term) : [];
    const alt = this.alts[this.alts.length - 1];
    const each = this.eachKinds[this.eachKinds.length - 1];
    const pick = this.pickStack[this.pickStack.length - 1];
    this.out.push({
      body,
      required,
      decl: this.current,
      span,
      sites,
      ...(guards.length ? { guards } : {}),
      ...(this.otherwise && body.k === 'term' ? { otherwise: true } : {}),
      ...(alt && (body.k === 'number' || body.k === 'effect') ? { alt } : {}),
      ...(each && body.k === 'number' ? { eachKind: each } : {}),
      ...(pick && body.k === 'number' && extra.party ? { chosen: pick } : {}),
      ...(this.yeses && body.k === 'effect' ? { optional: true } : {}),
      ...extra,
    });
    // What a count is per, a text must say ("1 coin for each board"): a count per element of a kind, or what a `for` over things gives a player.
    const per = body.k === 'number' && required && !extra.placed ? (extra.perKind ?? (extra.party && each !== 'player' ? each : undefined)) : undefined;
    if (per) this.out.push({ body: { k: 'per', kind: per }, required: true, decl: this.current, span, sites: [] });
  }

  /** Runs `f` with the terms `cond` requires as guards of every number claimed meanwhile. */
  private guarded(cond: A.Expr | undefined, f: () => void): void {
    const terms = cond ? this.requiredTerms(cond) : [];
    this.guards.push(terms);
    try {
      f();
    } finally {
      this.guards.pop();
    }
  }

  /** Terms a condition requires: `x == term` in it, outside `not`, `!=` and `or`'s alternatives' negations. */
  private requiredTerms(cond: A.Expr): string[] {
    const out: string[] = [];
    const visit = (e: A.Expr): void => {
      if (e.kind === 'binary' && (e.op === 'and' || e.op === 'or')) {
        visit(e.left);
        visit(e.right);
      } else if (e.kind === 'binary' && e.op === '==') {
        for (const side of [e.left, e.right]) {
          if (side.kind !== 'name') continue;
          const r = this.c.names.get(side);
          if (r?.k !== 'const' || typeof r.value !== 'string') continue;
          const cls = termClass(this.g, this.d, r.value);
          if (cls && cls.k !== 'field') out.push(r.value);
        }
      }
    };
    visit(cond);
    return out;
  }


  decl(decl: A.Decl): void {
    this.current = decl;
    this.guards = [];
    this.locals = new Map();
    this.pairing = new Map();
    this.setCounts = new Map();
    this.budgets = new Set();
    switch (decl.kind) {
      case 'on': {
        const timing = this.g.timing.get(decl.name);
        const at = this.out.length;
        const turn = timing ? this.turnOf(decl) : undefined;
        if (timing) this.push({ k: 'timing', timing, ...(turn ? { turn } : {}) }, false, decl.nameSpan, [decl]);
        this.roles(decl.roles);
        if (decl.when) {
          this.scan(decl.when, { required: true });
          this.owned(decl.when);
        }
        this.pairUp(decl.body);
        this.guarded(decl.when, () => this.block(decl.body));
        this.triggerMode(decl, at);
        // When a trigger gives or takes what a text must say, the text must say when, too; a trigger
        // that only keeps the card's books (a reset at the start of a turn) goes unsaid.
        if (timing && this.out.slice(at + 1).some((c) => c.required && c.body.k === 'number' && c.how !== 'condition')) this.out[at].required = true;
        break;
      }
      case 'modify':
        if (decl.value.kind === 'bool') this.push({ k: 'mode', mode: decl.value.value ? 'may' : 'cannot' }, false, decl.nameSpan, []);
        else if (this.givenWithoutChoice(decl.name)) this.push({ k: 'mode', mode: 'must' }, false, decl.nameSpan, [], { ownNumbers: true });
        this.roles(decl.roles);
        if (decl.when) {
          this.scan(decl.when, { required: true });
          this.subjects(decl.when, new Set(decl.binds.map((b) => b.name)));
        }
        this.guarded(decl.when, () => this.saying(this.g.effects.get(decl.name), decl.nameSpan, [decl], () => this.modify(decl)));
        break;
      case 'action': {
        this.push({ k: 'mode', mode: 'may' }, false, decl.nameSpan, []);
        this.roles(decl.roles);
        if (decl.limit) this.push({ k: 'limit', times: decl.limit.times, per: decl.limit.per }, true, decl.limit.span, [decl.limit], { how: 'limit' });
        else if (this.oncePerTurn(decl)) this.push({ k: 'limit', times: 1, per: 'turn' }, true, decl.nameSpan, [], { how: 'limit' });
        const kinds = new Map<string, A.Param[]>();
        for (const p of decl.params) {
          if (p.domain?.kind === 'range') this.bounds(p.domain, p.name);
          else if (p.domain) this.scan(p.domain, { required: true });
          if (this.d.kinds.has(p.type.name)) kinds.set(p.type.name, [...(kinds.get(p.type.name) ?? []), p]);
        }
        for (const [kind, ps] of kinds) {
          const ref = this.g.units.get(kind);
          if (ref) this.push({ k: 'number', value: ps.length, unit: ref.unit }, false, ps[0].span, [], { how: 'count' });
        }
        this.pairUp(decl.body);
        // What an action requires holds for all it does: "claim a cell with a tower for 2 fewer".
        const requires = decl.body.stmts.filter((s): s is A.RequireStmt => s.kind === 'require');
        this.guards.push(requires.flatMap((s) => this.requiredTerms(s.cond)));
        const effect = this.g.effects.get(decl.name);
        const done = this.out.length;
        if (effect) this.push({ k: 'effect', effect }, true, decl.nameSpan, [decl]);
        for (const w of this.waived(decl, requires)) this.push({ k: 'effect', effect: w.effect }, true, decl.nameSpan, [decl], { waives: true });
        const from = this.out.length;
        this.block(decl.body);
        this.guards.pop();
        // `require x != self`: what the action does, it does to another thing than the card's own ("move another piece").
        const another = requires.map((s) => this.excluded(s.cond, decl.params)).find(Boolean);
        if (another) {
          for (const c of this.out.slice(from)) if (c.body.k === 'number') c.another = another;
          this.push({ k: 'another', kind: another }, true, requires.find((s) => this.excluded(s.cond, decl.params))!.cond.span, []);
        }
        // `require adjacent(self.space, x)`: what the action does, it does where x stands so to the card's own ("a space connected to yours").
        const related = requires.map((s) => ({ s, r: this.related(s.cond, decl.params) })).find((x) => x.r);
        if (related?.r) {
          for (const c of this.out.slice(done)) if (c.body.k === 'number' || c.body.k === 'effect') c.relation = related.r;
          this.push({ k: 'relation', ...related.r }, true, related.s.cond.span, []);
        }
        break;
      }
      default:
        break;
    }
    this.setTotals();
  }

  /**
   * A trigger that asks its player (`choose optional`, or how many from 0) leaves it to them; one
   * that gives, takes or places without asking happens whether they like it or not.
   */
  private triggerMode(decl: A.OnDecl, from: number): void {
    let asks = false;
    walkStmts(decl.body.stmts, (s) => {
      if (s.kind === 'choose' && (s.optional || (s.source.kind === 'range' && s.source.from.kind === 'number' && s.source.from.value === 0))) asks = true;
      if (s.kind === 'assign' && s.op === '+=' && this.g.choices.has(s.target.field)) asks = true;
    });
    if (asks) return this.push({ k: 'mode', mode: 'may' }, false, decl.nameSpan, []);
    if (this.out.slice(from).some((c) => c.required && c.body.k === 'number' && c.how !== 'condition')) this.push({ k: 'mode', mode: 'must' }, false, decl.nameSpan, []);
  }

  /**
   * A field of the card (`self.f`) that a rule sets, another reads, and a trigger clears at a moment
   * of the turn: what it holds lasts until then ("this turn", "until your next turn"), and a text
   * must say so. A flag only an action's own `require not self.f` reads is its limit, said as
   * "once per turn" instead.
   */
  durations(): void {
    const clears = new Map<string, string>();
    const sets = new Map<string, { decl: A.Decl; span: A.Span }>();
    /** Fields a condition reads (what the card keeps changes what happens), or a timed trigger uses up. */
    const conditions = new Set<string>();
    const paid = new Set<string>();
    /** The first rule whose condition reads each field: the duration is said with what it changes. */
    const readers = new Map<string, A.Decl>();
    const selfField = (e: A.Expr) => (e.kind === 'field' && this.isSelf(e.target) ? e.field : undefined);
    const readIn = (e: A.Expr, into: Set<string>) =>
      walkExpr(e, (x) => {
        const f = selfField(x);
        if (f) into.add(f);
      });
    // `not self.used` asks whether the card was used, which its limit says.
    const limitsOnly = (e: A.Expr): A.Expr => (e.kind === 'unary' && e.op === 'not' && selfField(e.operand) ? { kind: 'bool', value: true, span: e.span } : e.kind === 'binary' && e.op === 'and' ? { ...e, left: limitsOnly(e.left), right: limitsOnly(e.right) } : e);
    for (const decl of this.unit.program.decls) {
      if (decl.kind === 'modify') {
        for (const e of [...(decl.when ? [decl.when] : []), decl.value]) readIn(limitsOnly(e), conditions);
        for (const f of conditions) if (!readers.has(f)) readers.set(f, decl);
        continue;
      }
      if (decl.kind !== 'on' && decl.kind !== 'action') continue;
      const timing = decl.kind === 'on' ? this.g.timing.get(decl.name) : undefined;
      // A trigger at a moment of the turn that reads what the card kept says when it is used ("in the redeployment phase").
      const reads = timing ? paid : conditions;
      if (decl.kind === 'on' && decl.when) readIn(limitsOnly(decl.when), reads);
      walkStmts(decl.body.stmts, (s) => {
        if (s.kind === 'if') readIn(limitsOnly(s.cond), reads);
        if (s.kind !== 'assign') return;
        const f = this.isSelf(s.target.target) ? s.target.field : undefined;
        if (f && s.op === '=' && isReset(s.value)) {
          if (timing) clears.set(f, timing);
        } else if (f && !sets.has(f)) sets.set(f, { decl, span: s.span });
        if (!f) readIn(s.value, paid);
      });
    }
    for (const [field, until] of clears) {
      const set = sets.get(field);
      if (!set || !(conditions.has(field) || paid.has(field))) continue;
      // What a condition reads lasts, and a text must say how long; a tally paid out at a moment of the turn is said by that moment.
      this.out.push({ body: { k: 'duration', until }, required: conditions.has(field), decl: readers.get(field) ?? set.decl, span: set.span, sites: [] });
    }
  }

  /** Terms the condition compares a bound parameter with (`x.kind == someMember`): what the rule is about. */
  private subjects(when: A.Expr, binds: Set<string>): void {
    const mentions = (e: A.Expr) => {
      let found = false;
      walkExpr(e, (x) => {
        if (x.kind === 'name' && binds.has(x.name)) found = true;
      });
      return found;
    };
    walkExpr(when, (x) => {
      if (x.kind !== 'binary' || (x.op !== '==' && x.op !== '!=')) return;
      for (const [side, other] of [[x.left, x.right], [x.right, x.left]] as const) {
        if (side.kind !== 'name' || !mentions(other)) continue;
        for (const c of this.out) if (c.decl === this.current && c.body.k === 'term' && c.sites.includes(side)) c.subject = true;
      }
    });
  }

  /**
   * Terms the condition compares a field of the card's own player with (`holder.side.colour == red`):
   * what that player has; and terms it asks a thing not to be (`x.side != red`).
   */
  private owned(when: A.Expr): void {
    const root = (e: A.Expr): A.Expr => (e.kind === 'field' ? root(e.target) : e);
    const ownPlayer = (e: A.Expr) => {
      const r = root(e);
      const k = r !== e && r.kind === 'name' ? this.c.names.get(r)?.k : undefined;
      return k === 'holder' || k === 'me';
    };
    walkExpr(when, (x) => {
      if (x.kind !== 'binary' || (x.op !== '==' && x.op !== '!=')) return;
      for (const [side, other] of [[x.left, x.right], [x.right, x.left]] as const) {
        if (side.kind !== 'name') continue;
        const mark = x.op === '!=' ? 'not' : ownPlayer(other) ? 'own' : undefined;
        if (mark) for (const c of this.out) if (c.decl === this.current && c.body.k === 'term' && c.sites.includes(side)) c[mark] = true;
      }
    });
  }

  private roles(roles: A.RoleList): void {
    for (const n of roles.names) {
      for (const [id, cond] of this.g.conditions) if (cond.role === n.name) this.push({ k: 'condition', cond: id }, true, n.span, []);
    }
  }

  // ─── modify ──────────────────────────────────────────────────────────────

  private modify(m: A.ModifyDecl): void {
    const pipe = this.c.pipelines.get(m.name);
    const ref = this.g.units.get(m.name);
    const before = this.out.length;
    this.modifyValue(m, pipe, ref);
    // A number pipeline the glossary does not count: its numbers match any unit, and a warning says so.
    if (!ref && pipe?.decl.returns.name === 'number') {
      for (const c of this.out.slice(before)) {
        if (c.body.k === 'number' && c.required && c.body.unit === undefined) {
          c.body.anyUnit = true;
          c.uncounted = m.name;
        }
      }
    }
  }

  private modifyValue(m: A.ModifyDecl, pipe: ReturnType<Checked['pipelines']['get']>, ref: UnitRef | undefined): void {
    const transfer = transferOf(ref);
    const v = m.value;
    const isValue = (e: A.Expr) => e.kind === 'name' && this.c.names.get(e)?.k === 'value';
    if (v.kind === 'binary' && (v.op === '+' || v.op === '-') && isValue(v.left)) {
      this.amount(v.right, ref, { required: true }, { dir: v.op === '-' ? 'fewer' : 'more', transfer });
    } else if (v.kind === 'binary' && v.op === '+' && isValue(v.right)) {
      this.amount(v.left, ref, { required: true }, { dir: 'more', transfer });
    } else if (v.kind === 'binary' && v.op === '*' && (isValue(v.left) || isValue(v.right))) {
      // `value * 2`: "twice" the normal value, a number of times.
      const n = isValue(v.left) ? v.right : v.left;
      if (n.kind === 'number') this.push({ k: 'number', value: n.value }, true, n.span, [n], { how: 'amount' });
      else this.scan(n, { required: true });
    } else if (v.kind === 'call' && (v.callee === 'max' || v.callee === 'min') && v.args.length === 2 && v.args.some(isValue)) {
      const other = v.args.find((a) => !isValue(a))!;
      this.amount(other, ref, { required: true }, { dir: v.callee === 'max' ? 'atLeast' : 'atMost', transfer });
    } else if (!this.mentionsValue(v)) {
      // `= 0` cancels the pipeline ("you do not pay …"): it supports the text without being required.
      if (v.kind !== 'bool') this.amount(v, ref, { required: !(v.kind === 'number' && v.value === 0) }, { transfer });
      // The card replaces the pipeline's value: the normal value is what its text may say "instead of".
      if (pipe) this.base(pipe.decl.name, pipe.decl.body, ref, pipe.decl.params[0]?.type.name);
    } else this.scan(v, { required: true });
    if (pipe?.decl.min?.kind === 'number' && ref) this.push({ k: 'number', value: pipe.decl.min.value, unit: ref.unit, dir: 'atLeast' }, false, m.nameSpan, [], { how: 'min' });
    if (pipe?.decl.max?.kind === 'number' && ref) this.push({ k: 'number', value: pipe.decl.max.value, unit: ref.unit, dir: 'atMost' }, false, m.nameSpan, [], { how: 'min' });
  }

  /** A number pipeline the rules add into the state and never ask with: what a card adds to it, the player gets without a choice. */
  private givenWithoutChoice(name: string): boolean {
    const use = pipelineUse(this.c);
    return use.read.has(name) && !use.permits.has(name);
  }

  private mentionsValue(e: A.Expr): boolean {
    let found = false;
    walkExpr(e, (x) => {
      if (x.kind === 'name' && this.c.names.get(x)?.k === 'value') found = true;
    });
    return found;
  }

  /**
   * Numbers and terms of a pipeline's own value, as support for "instead of 1"; and the relations its
   * own condition asks its parameter not to stand in (`not f(r, …)`: `not.f`), which a text saying
   * when the normal value applies may say ("a cell not next to yours") and must not turn round.
   */
  private base(pipeline: string, body: A.Expr, ref: UnitRef | undefined, kind: string | undefined): void {
    walkExpr(body, (x) => {
      if (x.kind === 'number') this.push({ k: 'number', value: x.value, unit: ref?.unit, normal: true }, false, this.current.nameSpan, [], { how: 'base', pipeline });
      else if (x.kind === 'name' || x.kind === 'field') this.term(x, false, this.current.nameSpan);
      else if (kind && x.kind === 'unary' && x.op === 'not' && x.operand.kind === 'call' && x.operand.args.length === 2) {
        this.push({ k: 'relation', relation: `not.${x.operand.callee}`, kind }, false, this.current.nameSpan, []);
      }
    });
  }

  // ─── actions limited by a flag ───────────────────────────────────────────

  /**
   * `require not self.used … self.used = true`, with another rule of the card setting
   * `self.used = false`: the card's way of saying "once per turn" (or between two resets).
   */
  private oncePerTurn(a: A.ActionDecl): boolean {
    const flags: string[] = [];
    for (const s of a.body.stmts) {
      if (s.kind !== 'require') continue;
      walkExpr(s.cond, (x) => {
        if (x.kind === 'unary' && x.op === 'not' && x.operand.kind === 'field' && this.isSelf(x.operand.target)) flags.push(x.operand.field);
      });
    }
    if (!flags.length) return false;
    const setsTo = (stmts: A.Stmt[], field: string, value: boolean): boolean => {
      let found = false;
      walkStmts(stmts, (s) => {
        if (s.kind === 'assign' && s.op === '=' && s.target.field === field && this.isSelf(s.target.target) && s.value.kind === 'bool' && s.value.value === value) found = true;
      });
      return found;
    };
    return flags.some((f) => setsTo(a.body.stmts, f, true) && this.unit.program.decls.some((d) => d.kind === 'on' && setsTo(d.body.stmts, f, false)));
  }

  private isSelf(e: A.Expr): boolean {
    return e.kind === 'name' && this.c.names.get(e)?.k === 'self';
  }

  // ─── statements ──────────────────────────────────────────────────────────

  private block(b: A.Block): void {
    for (const s of b.stmts) this.stmt(s);
  }

  private stmt(s: A.Stmt): void {
    switch (s.kind) {
      case 'let':
        this.locals.set(s.name, { k: 'let', value: s.value });
        this.scan(s.value, { required: true });
        break;
      case 'assign':
        this.assign(s);
        break;
      case 'if': {
        this.scan(s.cond, { required: true });
        const picked = this.picks(s.cond);
        const onBranch = (branch: 'then' | 'else', f: () => void) => {
          if (picked === undefined) return f();
          this.alts.push({ of: s, chosen: (branch === 'then') === picked });
          try {
            f();
          } finally {
            this.alts.pop();
          }
        };
        const yes = this.saysYes(s.cond);
        this.yeses += yes ? 1 : 0;
        onBranch('then', () => this.guarded(s.cond, () => this.picking(s.cond, () => this.block(s.then))));
        this.yeses -= yes ? 1 : 0;
        if (s.else) {
          this.otherwise++;
          onBranch('else', () => this.block(s.else!));
          this.otherwise--;
        }
        break;
      }
      case 'for': {
        if (listKind(this.c, s.source) === 'player') this.push({ k: 'who', who: 'each' }, false, s.span, []);
        this.locals.set(s.name, { k: 'each', source: s.source });
        this.scan(s.source, { required: true });
        this.loops++;
        this.eachKinds.push(listKind(this.c, s.source));
        const before = this.out.length;
        this.block(s.body);
        // `for x in [a] + f(a)`, a the card's own: what the loop does, it does there and to each thing
        // so related ("your space and each connected space").
        const around = this.around(s.source);
        if (around) {
          for (const c of this.out.slice(before)) if (c.body.k === 'number' || c.body.k === 'effect') c.relation = around;
          this.push({ k: 'relation', relation: around.relation, kind: around.kind }, true, s.source.span, []);
        }
        // `for b in xs { if any(f(…), it.g == b) { … } }`: what the loop does, it does for each b holding
        // one of f's things ("each grid on which you hold at least 1 cell"), which a text must say.
        const holding = this.holding(s);
        if (holding) {
          for (const c of this.out.slice(before)) if (c.body.k === 'number' || c.body.k === 'effect') c.relation = holding;
          this.push({ k: 'relation', ...holding }, true, s.body.stmts[0].span, []);
        }
        this.eachKinds.pop();
        this.loops--;
        break;
      }
      case 'choose': {
        this.locals.set(s.name, { k: 'choose', source: s.source });
        this.scan(s.source, { required: true });
        // `choose x in (xs where f == a.f …)`: the things offered share a's f ("on the same grid"), which a text must say.
        const kind = listKind(this.c, s.source);
        const shared = kind ? this.sharing(s.source) : undefined;
        if (shared) this.push({ k: 'relation', relation: `same.${shared}`, kind: kind! }, true, s.source.span, [], { ofChoice: true });
        // `choose x in (xs where f(it, holder) …)`: the things offered stand in the relation f to your own ("each adjacent cell"), which a text must say.
        const related = kind && !shared ? this.offeredRelation(s.source) : undefined;
        if (related) this.push({ k: 'relation', relation: related, kind: kind! }, true, s.source.span, [], { ofChoice: true });
        this.picked(s.source, s.span);
        this.offered(s.source);
        this.block(s.body);
        break;
      }
      case 'repeat':
        this.scan(s.times, { required: false });
        this.loops++;
        this.repeats.push(s);
        this.block(s.body);
        this.repeats.pop();
        this.loops--;
        break;
      case 'loop': {
        const before = this.out.length;
        const outer = this.countedDown;
        this.countedDown = false;
        this.loops++;
        this.untils++;
        this.block(s.body);
        this.untils--;
        this.loops--;
        // What a loop does step by step while a budget lasts ("move a piece 1 space") is said by the
        // budget, which is what it may use at most ("up to 5 spaces in total").
        if (this.countedDown) {
          for (const c of this.out.slice(before)) if (c.body.k === 'effect') c.required = false;
          for (const c of this.out.slice(0, before)) {
            if (c.decl !== this.current || c.body.k !== 'number' || !c.sets || !c.field || !this.budgets.has(c.field)) continue;
            c.body.dir = 'atMost';
            c.sets = false;
          }
        }
        this.countedDown = outer;
        break;
      }
      case 'require':
        this.scan(s.cond, { required: true });
        break;
      case 'emit':
        for (const a of s.args) this.scan(a, { required: false });
        break;
      case 'turn':
      case 'resolving':
        this.block(s.body);
        break;
      case 'put':
        this.scan(s.value, { required: false });
        break;
      case 'remove':
        this.scan(s.value, { required: false });
        if (s.from.kind === 'field') this.change(s.from.field, 'remove', s);
        break;
      case 'call':
        this.saying(this.g.effects.get(s.call.callee), s.call.calleeSpan, [s.call], () => this.procCall(s.call));
        break;
      default:
        break;
    }
  }

  /**
   * A call (or modifier) of a procedure, action or pipeline the glossary names an effect of: the
   * effect supports a text that names it, and a text must name it when nothing else of the call
   * (no number it gives) says what it does.
   */
  private saying(effect: string | undefined, span: A.Span, sites: object[], f: () => void): void {
    const before = this.out.length;
    f();
    if (!effect) return;
    const said = this.out.slice(before).some((c) => c.required && c.body.k === 'number' && c.how !== 'condition');
    this.push({ k: 'effect', effect }, !said, span, sites);
  }

  /**
   * A change of a field the glossary names an effect of (`space.set`, `stock.clear`): what the
   * rule does, which a text must say. An addition repeated (`repeat min(2, …) { … += [c] }`) says
   * how many, up to how many when the player may stop (`break`, `choose optional`, `min`).
   */
  private change(field: string, how: Change, s: A.Stmt): boolean {
    const effect = this.g.changes.get(`${field}.${how}`);
    if (!effect) return false;
    const repeat = this.repeats[this.repeats.length - 1];
    const times = repeat && (repeat.times.kind === 'number' ? repeat.times : repeat.times.kind === 'call' && repeat.times.callee === 'min' ? repeat.times.args.find((a): a is A.NumberExpr => a.kind === 'number') : undefined);
    if (repeat && times && how === 'add') {
      let stops = times !== repeat.times;
      walkStmts(repeat.body.stmts, (x) => void ((x.kind === 'break' || (x.kind === 'choose' && x.optional)) && (stops = true)));
      this.push({ k: 'number', value: times.value, unit: this.g.units.get(field)?.unit, ...(stops ? { dir: 'atMost' as const } : {}) }, true, times.span, [times], { how: 'count', via: `effect.${effect}` });
    }
    this.push({ k: 'effect', effect }, true, s.span, [s], { field, ...(how === 'put' ? { puts: true } : {}) });
    return true;
  }

  /**
   * Runs `f` with the pick `cond` ties its player to (`lead.side == p.side`, `lead` a `highest`,
   * `lowest` or `first(… where …)` of the rule): what `f` gives goes to the one picked, and a text
   * must name it so ("the side with the most pieces around it"), by the language's words for the most
   * or the fewest.
   */
  private picking(cond: A.Expr, f: () => void): void {
    let pick: NonNullable<RuleClaim['chosen']> | undefined;
    walkExpr(cond, (x) => {
      if (pick || x.kind !== 'binary' || x.op !== '==') return;
      for (const side of [x.left, x.right]) {
        const local = side.kind === 'field' && side.target.kind === 'name' ? this.locals.get(side.target.name) : undefined;
        if (local?.k === 'let') pick ??= this.pickOf(local.value);
      }
    });
    if (!pick) return f();
    const before = this.out.length;
    this.pickStack.push(pick);
    try {
      f();
    } finally {
      this.pickStack.pop();
    }
    if (this.out.slice(before).some((c) => c.chosen)) this.push({ k: 'chosen', by: pick.by, key: pick.key }, pick.by !== 'first', cond.span, []);
  }

  /** `highest(xs, it.score)`, `lowest(xs, distance(a, it))`, `first(xs where flag)`: how one thing is picked, and by what. */
  private pickOf(e: A.Expr): NonNullable<RuleClaim['chosen']> | undefined {
    if (e.kind !== 'call') return undefined;
    const by: Pick | undefined = e.callee === 'highest' ? 'most' : e.callee === 'lowest' ? 'fewest' : e.callee === 'first' ? 'first' : undefined;
    const on = by === 'first' ? (e.args[0]?.kind === 'where' ? e.args[0].cond : undefined) : e.args[1];
    const key = on && this.keyOf(on);
    return by && key ? { by, key } : undefined;
  }

  private keyOf(e: A.Expr): string | undefined {
    if (e.kind === 'field') return e.field;
    if (e.kind === 'call') return e.callee;
    if (e.kind === 'name') {
      const r = this.c.names.get(e);
      return r?.k === 'itField' ? r.field : undefined;
    }
    if (e.kind === 'binary' || e.kind === 'unary') return e.kind === 'unary' ? this.keyOf(e.operand) : (this.keyOf(e.left) ?? this.keyOf(e.right));
    return undefined;
  }

  /** `yes` of a `choose yes in [true, false]`: the player's yes. */
  private saysYes(cond: A.Expr): boolean {
    const local = cond.kind === 'name' ? this.locals.get(cond.name) : undefined;
    return local?.k === 'choose' && local.source.kind === 'list' && local.source.items.length > 0 && local.source.items.every((x) => x.kind === 'bool');
  }

  /** `x != self` of a parameter `x` of an entity kind: the kind of the other thing it must be. */
  private excluded(cond: A.Expr, params: A.Param[]): string | undefined {
    if (cond.kind !== 'binary' || cond.op !== '!=') return undefined;
    const isSelf = (e: A.Expr) => e.kind === 'name' && this.c.names.get(e)?.k === 'self';
    const other = isSelf(cond.left) ? cond.right : isSelf(cond.right) ? cond.left : undefined;
    const param = other?.kind === 'name' ? params.find((p) => p.name === other.name) : undefined;
    return param && this.d.kinds.has(param.type.name) ? param.type.name : undefined;
  }

  /**
   * `f(a, x)` of a parameter `x` of an entity kind, `a` being the card's own, a field of it, or a local:
   * the relation `f` where x must stand to the card's own, and x's kind.
   */
  private related(cond: A.Expr, params: A.Param[]): { relation: string; kind: string } | undefined {
    if (cond.kind !== 'call' || cond.args.length !== 2) return undefined;
    const param = (e: A.Expr) => (e.kind === 'name' ? params.find((p) => p.name === e.name && this.d.kinds.has(p.type.name)) : undefined);
    const own = (e: A.Expr): boolean =>
      (e.kind === 'name' && (this.c.names.get(e)?.k === 'self' || (this.c.names.get(e)?.k === 'local' && !params.some((p) => p.name === e.name)))) || (e.kind === 'field' && own(e.target));
    const [a, b] = cond.args;
    const p = param(b) && own(a) ? param(b) : param(a) && own(b) ? param(a) : undefined;
    return p ? { relation: cond.callee, kind: p.type.name } : undefined;
  }

  /**
   * The game action an action is offered `with` requires a pipeline of its parameter (`require
   * inRange(c)`), and this one, doing what the game action does (calling a procedure it calls), asks
   * neither that pipeline nor any relation of its parameter to another thing: the effect the glossary
   * names `<pipeline>.waived` ("any cell on any grid"), which a text must say.
   */
  private waived(decl: A.ActionDecl, requires: A.RequireStmt[]): Array<{ effect: string }> {
    const base = decl.with && this.d.units.flatMap((u) => (u.owner ? [] : u.program.decls)).find((d): d is A.ActionDecl => d.kind === 'action' && d.name === decl.with!.name);
    if (!base) return [];
    const procsOf = (stmts: A.Stmt[]) => {
      const out = new Set<string>();
      walkStmts(stmts, (s) => {
        for (const e of stmtExprs(s)) walkExpr(e, (x) => void (x.kind === 'call' && this.c.calls.get(x)?.k === 'proc' && out.add(x.callee)));
      });
      return out;
    };
    const baseProcs = procsOf(base.body.stmts);
    if (![...procsOf(decl.body.stmts)].some((p) => baseProcs.has(p))) return [];
    const calls = (conds: A.Expr[]) => {
      const out: A.CallExpr[] = [];
      for (const c of conds) walkExpr(c, (x) => void (x.kind === 'call' && out.push(x)));
      return out;
    };
    const own = calls(requires.map((s) => s.cond));
    const out: Array<{ effect: string }> = [];
    for (const call of calls(base.body.stmts.filter((s): s is A.RequireStmt => s.kind === 'require').map((s) => s.cond))) {
      const effect = this.c.calls.get(call)?.k === 'pipeline' ? this.g.effects.get(`${call.callee}.waived`) : undefined;
      const param = call.args.length === 1 && call.args[0].kind === 'name' ? base.params.find((p) => p.name === (call.args[0] as A.NameExpr).name) : undefined;
      if (!effect || !param) continue;
      const mine = decl.params.filter((p) => p.type.name === param.type.name);
      const names = (e: A.Expr, p: A.Param) => e.kind === 'name' && e.name === p.name;
      // The pipeline asked anyway, or the parameter tied to another thing (`touches(c, me)`): the card keeps the game's reach.
      const kept = own.some((c) => c.callee === call.callee || (c.args.length > 1 && c.args.some((a) => mine.some((p) => names(a, p)))));
      if (mine.length && !kept && !out.some((o) => o.effect === effect)) out.push({ effect });
    }
    return out;
  }

  /** `xs where f == a.f and …` (through the `let`s it is read from), `a` a name other than `it`: `f`. */
  private sharing(e: A.Expr, depth = 0): string | undefined {
    const local = e.kind === 'name' ? this.locals.get(e.name) : undefined;
    if (local?.k === 'let' && depth < 8) return this.sharing(local.value, depth + 1);
    if (e.kind !== 'where') return undefined;
    const parts = (x: A.Expr): A.Expr[] => (x.kind === 'binary' && x.op === 'and' ? [...parts(x.left), ...parts(x.right)] : [x]);
    for (const c of parts(e.cond)) {
      if (c.kind !== 'binary' || c.op !== '==') continue;
      for (const [l, r] of [[c.left, c.right], [c.right, c.left]] as const) {
        const f = l.kind === 'name' && this.c.names.get(l)?.k === 'itField' ? l.name : undefined;
        if (f && r.kind === 'field' && r.field === f && r.target.kind === 'name' && r.target.name !== 'it') return f;
      }
    }
    return undefined;
  }

  /** `xs where … f(it, a) …` (through the `let`s it is read from), a the card's own, its player or a field of either: the relation `f`. */
  private offeredRelation(e: A.Expr, depth = 0): string | undefined {
    const local = e.kind === 'name' ? this.locals.get(e.name) : undefined;
    if (local?.k === 'let' && depth < 8) return this.offeredRelation(local.value, depth + 1);
    if (e.kind !== 'where') return undefined;
    const parts = (x: A.Expr): A.Expr[] => (x.kind === 'binary' && x.op === 'and' ? [...parts(x.left), ...parts(x.right)] : [x]);
    const own = (x: A.Expr): boolean => {
      const k = x.kind === 'name' ? this.c.names.get(x)?.k : undefined;
      return k === 'self' || k === 'holder' || k === 'me' || (x.kind === 'field' && own(x.target));
    };
    const it = (x: A.Expr) => x.kind === 'name' && x.name === 'it';
    for (const c of parts(e.cond)) {
      if (c.kind !== 'call' || c.args.length !== 2) continue;
      const [a, b] = c.args;
      if ((it(a) && own(b)) || (it(b) && own(a))) return c.callee;
    }
    return undefined;
  }

  /** `x` of a `choose x in f(holder) …` (through `where`s and `let`s): one of the things a function gives of the card's own player. */
  private chosenFromOwn(e: A.Expr): boolean {
    const local = e.kind === 'name' ? this.locals.get(e.name) : undefined;
    if (local?.k !== 'choose') return false;
    const own = (x: A.Expr, depth = 0): boolean => {
      const l = x.kind === 'name' ? this.locals.get(x.name) : undefined;
      if (l?.k === 'let' && depth < 8) return own(l.value, depth + 1);
      if (x.kind === 'where') return own(x.source, depth);
      return x.kind === 'call' && x.args.length === 1 && x.args[0].kind === 'name' && ['holder', 'me'].includes(this.c.names.get(x.args[0])?.k ?? '');
    };
    return own(local.source);
  }

  /** `x` of a `choose x in xs { … }` whose `xs` names no game term. */
  private placedOnChosen(e: A.Expr): boolean {
    const local = e.kind === 'name' ? this.locals.get(e.name) : undefined;
    if (local?.k !== 'choose') return false;
    // Through the `let`s it is read from (`let wells = … kind == well …; choose w in wells`).
    const named = (x: A.Expr, depth = 0): boolean => {
      const l = x.kind === 'name' ? this.locals.get(x.name) : undefined;
      return this.termsIn(x).length > 0 || (l?.k === 'let' && depth < 8 && named(l.value, depth + 1));
    };
    return !named(local.source);
  }

  /** A loop whose body is `if any(f(…), it.g == b) { … }` or `if f(a, b) { … }`, b the loop's name: the relation `any.f` or `f` of the things it walks. */
  private holding(s: A.ForStmt): { relation: string; kind: string } | undefined {
    const only = s.body.stmts.length === 1 ? s.body.stmts[0] : undefined;
    const kind = listKind(this.c, s.source);
    if (only?.kind !== 'if' || only.else || only.cond.kind !== 'call' || only.cond.args.length !== 2 || !kind) return undefined;
    const loopName = (x: A.Expr) => x.kind === 'name' && x.name === s.name;
    const [a, b] = only.cond.args;
    if (only.cond.callee !== 'any') {
      // `if f(a, b)`: each b in the relation f to a ("each opponent whose stones touch it").
      const named = (x: A.Expr) => x.kind === 'name' && !loopName(x);
      return (loopName(b) && named(a)) || (loopName(a) && named(b)) ? { relation: only.cond.callee, kind } : undefined;
    }
    if (a.kind !== 'call' || b.kind !== 'binary' || b.op !== '==') return undefined;
    const ofIt = (x: A.Expr) => (x.kind === 'field' && x.target.kind === 'name' && x.target.name === 'it') || (x.kind === 'name' && this.c.names.get(x)?.k === 'itField');
    const matches = (ofIt(b.left) && loopName(b.right)) || (ofIt(b.right) && loopName(b.left));
    return matches ? { relation: `any.${a.callee}`, kind } : undefined;
  }

  /** `xs where f == a.f and it != a`, `a` a name (a local, the card's own): `same.f`, the other things of the same f as a. */
  private sameAs(e: A.Expr): string | undefined {
    if (e.kind !== 'where') return undefined;
    const parts = (x: A.Expr): A.Expr[] => (x.kind === 'binary' && x.op === 'and' ? [...parts(x.left), ...parts(x.right)] : [x]);
    const conds = parts(e.cond);
    const itField = (x: A.Expr) => (x.kind === 'name' && this.c.names.get(x)?.k === 'itField' ? x.name : undefined);
    const other = (a: string) => conds.some((c) => c.kind === 'binary' && c.op === '!=' && [c.left, c.right].some((x) => x.kind === 'name' && x.name === a) && [c.left, c.right].some((x) => x.kind === 'name' && x.name === 'it'));
    for (const c of conds) {
      if (c.kind !== 'binary' || c.op !== '==') continue;
      for (const [l, r] of [[c.left, c.right], [c.right, c.left]] as const) {
        const f = itField(l);
        if (f && r.kind === 'field' && r.field === f && r.target.kind === 'name' && other(r.target.name)) return `same.${f}`;
      }
    }
    return undefined;
  }

  /**
   * `xs where any(f(it), c)` (alone or beside other conditions): the things with something in the
   * relation `f` to them for which `c` holds, and the terms `c` names of those (not of the things counted).
   */
  private nearAny(e: A.Expr): { relation: string; terms: string[] } | undefined {
    if (e.kind !== 'where') return undefined;
    const parts = (x: A.Expr): A.Expr[] => (x.kind === 'binary' && x.op === 'and' ? [...parts(x.left), ...parts(x.right)] : [x]);
    for (const c of parts(e.cond)) {
      if (c.kind !== 'call' || c.callee !== 'any' || c.args.length !== 2) continue;
      const [of, cond] = c.args;
      if (of.kind === 'call' && of.args.length === 1 && of.args[0].kind === 'name' && of.args[0].name === 'it') return { relation: of.callee, terms: this.termsIn(cond) };
    }
    return undefined;
  }

  /** `[a] + f(a)` or `f(a)` (or either `where …`), a the card's own (itself, a field of it, or a local set to one): the things in relation f to it, with it or not. */
  private around(walked: A.Expr): { relation: string; kind: string; each: true; withOwn?: true } | undefined {
    // Which of them the loop skips (`where pieces > 0`) is its own condition, said or not by its clauses.
    const source = walked.kind === 'where' ? walked.source : walked;
    const own = (e: A.Expr): boolean => {
      if (e.kind === 'field') return own(e.target);
      if (e.kind !== 'name') return false;
      const local = this.locals.get(e.name);
      return this.isSelf(e) || (local?.k === 'let' && own(local.value));
    };
    const same = (a: A.Expr, b: A.Expr): boolean => (a.kind === 'name' && b.kind === 'name' ? a.name === b.name : a.kind === 'field' && b.kind === 'field' && a.field === b.field && same(a.target, b.target));
    const related = (e: A.Expr) => (e.kind === 'call' && e.args.length === 1 && own(e.args[0]) ? e : undefined);
    const kind = listKind(this.c, source);
    if (!kind) return undefined;
    const alone = related(source);
    if (alone) return { relation: alone.callee, kind, each: true };
    if (source.kind !== 'binary' || source.op !== '+' || source.left.kind !== 'list' || source.left.items.length !== 1) return undefined;
    const call = related(source.right);
    return call && same(source.left.items[0], call.args[0]) ? { relation: call.callee, kind, each: true, withOwn: true } : undefined;
  }

  /** `x != none` (or `==`) of a `choose optional x`: which side of the `if` is the one where the player picked something. */
  private picks(cond: A.Expr): boolean | undefined {
    if (cond.kind !== 'binary' || (cond.op !== '==' && cond.op !== '!=')) return undefined;
    const [name, other] = cond.left.kind === 'name' ? [cond.left, cond.right] : [cond.right, cond.left];
    if (name.kind !== 'name' || other.kind !== 'none' || this.locals.get(name.name)?.k !== 'choose') return undefined;
    return cond.op === '!=';
  }

  /**
   * `n: number in 2..3` of an action: how many the player picks, "2 to 3" or "up to 3"; a text must
   * say its bounds, but for a lowest of 0 or 1 ("any number").
   */
  private bounds(range: A.RangeExpr, of: string): void {
    for (const [end, dir] of [[range.from, 'atLeast'], [range.to, 'atMost']] as const) {
      if (end.kind !== 'number') {
        this.scan(end, { required: true });
        continue;
      }
      const required = dir === 'atMost' || !isExistence('>=', end.value);
      this.push({ k: 'number', value: end.value, dir, cond: true, anyUnit: true }, required, end.span, [end], { how: 'condition', of });
    }
  }

  /** `choose form in (if … then [human, wolf] else [human])`: each list of game terms is what the player may pick from. */
  private offered(source: A.Expr): void {
    const lists = source.kind === 'if' ? [source.then, source.else] : [source];
    for (const list of lists) {
      if (list.kind !== 'list' || !list.items.length) continue;
      const terms: string[] = [];
      for (const x of list.items) {
        const r = x.kind === 'name' ? this.c.names.get(x) : undefined;
        const term = r?.k === 'const' && typeof r.value === 'string' ? r.value : undefined;
        const cls = term ? termClass(this.g, this.d, term) : undefined;
        if (!term || !cls || cls.k === 'field') return;
        if (!terms.includes(term)) terms.push(term);
      }
      this.out.push({ body: { k: 'options', terms }, required: false, decl: this.current, span: list.span, sites: list.items });
    }
  }

  /** `choose x in things …`: one of them is picked. */
  private picked(source: A.Expr, span: A.Span): void {
    // `choose n in 1..most`: "at least 1" is for the text to say; `0..most` is the "may" texts say anyway.
    if (source.kind === 'range' && source.from.kind === 'number' && source.from.value !== 0) {
      this.push({ k: 'number', value: source.from.value, dir: 'atLeast', cond: true, anyUnit: true }, true, source.from.span, [source.from], { how: 'condition' });
    }
    const kind = listKind(this.c, source);
    const ref = kind ? this.g.units.get(kind) : undefined;
    if (ref) this.push({ k: 'number', value: 1, unit: ref.unit }, false, span, [], { how: 'count' });
  }

  private procCall(call: A.CallExpr): void {
    const proc = this.c.procs.get(call.callee);
    const before = this.out.length;
    call.args.forEach((arg, i) => {
      const param = proc?.decl.params[i];
      const ref = param ? this.g.units.get(`${call.callee}.${param.name}`) : undefined;
      if (ref) this.amount(arg, ref, { required: true }, { via: `${call.callee}.${param!.name}` });
      else this.scan(arg, { required: false });
    });
    // Where the amounts go, when a list the call is given is one the player picks by a parameter of the
    // action ("the cell of a piece and the cells next to it", "the cells of a single row"): for the draft.
    const area = call.args.map((a) => this.pickedArea(a)).find(Boolean);
    if (!area) return;
    for (const c of this.out.slice(before)) if (c.body.k === 'number' && c.via) c.relation = area;
    this.push({ k: 'relation', relation: area.relation, kind: area.kind }, false, call.span, []);
  }

  /**
   * A list the player picks by a parameter `p` of the action: `[p.f] + g(p.f)` (the thing and those in the
   * relation `g` to it) or `xs where f == p` (those whose `f` is the one picked: `one.f`).
   */
  private pickedArea(e: A.Expr): { relation: string; kind: string; each: true; withOwn?: true; picked?: true } | undefined {
    const decl = this.current.kind === 'action' ? this.current : undefined;
    const kind = listKind(this.c, e);
    if (!decl || !kind) return undefined;
    const param = (x: A.Expr): boolean => (x.kind === 'name' && decl.params.some((p) => p.name === x.name)) || (x.kind === 'field' && param(x.target));
    const same = (a: A.Expr, b: A.Expr): boolean => printExpr(a) === printExpr(b);
    if (e.kind === 'binary' && e.op === '+' && e.left.kind === 'list' && e.left.items.length === 1 && e.right.kind === 'call' && e.right.args.length === 1) {
      const [a] = e.left.items;
      return param(a) && same(a, e.right.args[0]) ? { relation: e.right.callee, kind, each: true, withOwn: true, picked: true } : undefined;
    }
    if (e.kind !== 'where' || e.cond.kind !== 'binary' || e.cond.op !== '==') return undefined;
    const { left, right } = e.cond;
    const field = (x: A.Expr) => (x.kind === 'name' && this.c.names.get(x)?.k === 'itField' ? x.name : undefined);
    const f = field(left) ?? field(right);
    const other = field(left) ? right : left;
    return f && other.kind === 'name' && param(other) ? { relation: `one.${f}`, kind, each: true } : undefined;
  }

  private assign(s: A.AssignStmt): void {
    const before = this.out.length;
    this.assignAmounts(stepOf(s));
    const player = this.playerOf(s.target.target);
    if (player) for (const c of this.out.slice(before)) if (c.body.k === 'number' && c.party) c.player = player;
  }

  private assignAmounts(s: A.AssignStmt): void {
    const field = s.target.field;
    const ref = this.g.units.get(field);
    if (!ref && !this.inferred.has(field)) {
      const u = this.unitOf(s.value);
      if (u) this.inferred.set(field, { unit: u.unit });
    }
    this.scan(s.target.target, { required: false });
    const key = (e: A.Expr) => printExpr(e);
    const valueType = this.c.types.get(s.value);
    // `x.f -= x.f`: all of it gone; `x.f = x.g`: set to another number of its thing; `x.f = thing`: moved; `x.f += [y]`: added.
    if (s.op === '-=' && key(s.value) === key(s.target) && this.change(field, 'clear', s)) return;
    if (s.op === '=' && s.value.kind === 'field' && key(s.value.target) === key(s.target.target) && this.change(field, 'fill', s)) return;
    // The card put where its player chooses, among things no term picks (a term would say where: "move it to a red cell").
    if (s.op === '=' && this.isSelf(s.value) && this.placedOnChosen(s.target.target) && this.change(field, 'put', s)) {
      // Put among the things of your own a list gives (`choose x in mine(holder) …`): "1 of yours", which a text must say.
      if (this.chosenFromOwn(s.target.target)) this.push({ k: 'whose', whose: 'you' }, true, s.span, [], { puts: true });
      return;
    }
    if (s.op === '=' && valueType?.k === 'entity' && this.change(field, 'set', s)) return;
    if (s.op === '+=' && s.value.kind === 'list') this.change(field, 'add', s);
    if (s.op === '=' && s.value.kind === 'number' && ref) this.budgets.add(field);
    if (s.op === '-=' && this.untils && this.budgets.has(field)) {
      this.countedDown = true;
      return this.scan(s.value, { required: false });
    }
    if (s.op === '=' && s.value.kind === 'list' && this.composition(s.value, ref)) return;
    if (s.op === '=' && isReset(s.value)) return;
    const party = this.partyOf(s.target.target);
    if (s.op === '=') {
      if (s.value.kind === 'bool' && s.value.value) {
        if (this.g.fields.has(field)) this.push({ k: 'term', term: field }, false, s.target.fieldSpan, []);
        this.change(field, 'mark', s);
        if (ref) {
          const each = this.eachKinds[this.eachKinds.length - 1];
          this.push({ k: 'number', value: 1, unit: ref.unit }, false, s.span, [], { how: 'count', placed: true, ...(each ? { perKind: each } : {}) });
          if (this.loops) return;
          const count = this.setCounts.get(field) ?? { n: 0, sites: [] };
          count.n++;
          count.sites.push(s);
          this.setCounts.set(field, count);
        }
        return;
      }
      if (ref) {
        const before = this.out.length;
        this.amount(s.value, ref, { required: true }, {}, party);
        for (const c of this.out.slice(before)) if (c.body.k === 'number' && c.how === 'amount') Object.assign(c, { sets: true }, party ? {} : { field });
      }
      else this.scan(s.value, { required: true });
      return;
    }
    const pair = this.pairing.get(s);
    if (pair?.skip) {
      this.scan(s.value, { required: false });
      return;
    }
    const before = this.out.length;
    if (ref) this.amount(s.value, ref, { required: true }, { dir: pair?.transfer ? undefined : s.op === '+=' ? 'gain' : 'lose', transfer: pair?.transfer }, party);
    // What a rule changes of a thing's field, for its template `field.<name>.<kind>` ("heal 1 damage").
    if (ref && !party) for (const c of this.out.slice(before)) if (c.body.k === 'number' && c.how === 'amount') c.field = field;
    else this.scan(s.value, { required: false });
    // A payment is one claim read from both of its sides: `holder.points -= 2` and `other.points += 2`.
    if (pair?.also) {
      const numbers: A.Expr[] = [];
      walkExpr(pair.also.value, (x) => void (x.kind === 'number' && numbers.push(x)));
      for (const c of this.out.slice(before)) c.sites.push(...numbers);
    }
  }

  /**
   * `stack = [win, win, loss]`: a stack made of game terms is described by how many it
   * holds of each ("3 cards: 2 wins, 1 loss"), and a text must say so.
   */
  private composition(list: A.ListExpr, ref: UnitRef | undefined): boolean {
    const members: Array<{ term: string; node: A.NameExpr }> = [];
    for (const x of list.items) {
      const r = x.kind === 'name' ? this.c.names.get(x) : undefined;
      const term = r?.k === 'const' && typeof r.value === 'string' ? r.value : undefined;
      const cls = term ? termClass(this.g, this.d, term) : undefined;
      if (!term || !cls || cls.k === 'field' || x.kind !== 'name') return false;
      members.push({ term, node: x });
    }
    if (members.length < 2) return false;
    for (const term of new Set(members.map((m) => m.term))) {
      const own = members.filter((m) => m.term === term);
      this.push({ k: 'number', value: own.length, unit: term }, true, list.span, own.map((m) => m.node), { how: 'count' });
      this.push({ k: 'term', term }, false, own[0].node.span, own.map((m) => m.node));
    }
    if (ref) this.push({ k: 'number', value: members.length, unit: ref.unit }, true, list.span, [], { how: 'count' });
    return true;
  }

  /** Two `x.flag = true` placements in one rule: "place 2 …". */
  private setTotals(): void {
    for (const [field, { n, sites }] of this.setCounts) {
      const ref = this.g.units.get(field)!;
      if (n > 1) this.push({ k: 'number', value: n, unit: ref.unit }, false, sites[0].span, [], { how: 'count' });
    }
  }

  /**
   * Whose it is: the card's own player (`holder`, `me`), another player, or a thing the card's own
   * player has (`me.faction`, or a function returning it): what such a thing loses, its player pays.
   */
  private partyOf(e: A.Expr, depth = 0): Party | undefined {
    const t = this.c.types.get(e);
    if (!t || t.k !== 'entity' || depth > 8) return undefined;
    if (t.kind !== 'player') return this.ownerOf(e, depth) === 'you' ? 'you' : undefined;
    if (e.kind === 'name') {
      const r = this.c.names.get(e);
      if (r?.k === 'holder' || r?.k === 'me') return 'you';
      const local = this.locals.get(e.name);
      if (local?.k === 'let') return this.partyOf(local.value, depth + 1);
    }
    return 'opponent';
  }

  /**
   * Whom the rules name as the player a statement changes, when not the card's own: the event's own
   * name for a trigger's parameter (`attacker`), a field (`r.owner` → `owner`), `each` for the player
   * of a loop over players.
   */
  private playerOf(e: A.Expr, depth = 0): string | undefined {
    const t = this.c.types.get(e);
    if (!t || t.k !== 'entity' || depth > 8) return undefined;
    if (t.kind !== 'player') return e.kind === 'field' ? this.playerOf(e.target, depth + 1) : undefined;
    if (e.kind === 'field') return e.field;
    if (e.kind !== 'name') return undefined;
    const r = this.c.names.get(e);
    if (r?.k === 'holder' || r?.k === 'me') return undefined;
    const local = this.locals.get(e.name);
    if (local?.k === 'let') return this.playerOf(local.value, depth + 1);
    if (local?.k === 'each') return listKind(this.c, local.source) === 'player' ? 'each' : undefined;
    const decl = this.current;
    if (decl.kind !== 'on') return undefined;
    const i = decl.binds.findIndex((b) => b.name === e.name);
    return i >= 0 ? this.c.events.get(decl.name)?.decl.params[i]?.name : undefined;
  }

  private ownerOf(e: A.Expr, depth: number): Party | undefined {
    if (e.kind === 'field') return this.partyOf(e.target, depth + 1);
    if (e.kind === 'name') {
      const local = this.locals.get(e.name);
      return local?.k === 'let' ? this.partyOf(local.value, depth + 1) : undefined;
    }
    if (e.kind === 'call' && !e.args.length && this.c.calls.get(e)?.k === 'fn') {
      const fn = this.c.fns.get(e.callee);
      return fn ? this.partyOf(fn.decl.body, depth + 1) : undefined;
    }
    return undefined;
  }

  /**
   * Before walking a rule: a `-=` on one player and a `+=` of the same amount on another is a
   * payment between them; a `-=` and a `+=` of the same amount on two fields of one thing turns
   * one into the other, and only the second is claimed.
   */
  private pairUp(body: A.Block): void {
    const moves: A.AssignStmt[] = [];
    walkStmts(body.stmts, (s) => {
      if (s.kind === 'assign' && s.op !== '=' && this.g.units.has(s.target.field)) moves.push(s);
    });
    const key = (e: A.Expr) => printExpr(e);
    for (const minus of moves.filter((s) => s.op === '-=')) {
      for (const plus of moves.filter((s) => s.op === '+=')) {
        if (this.pairing.has(plus) || key(minus.value) !== key(plus.value)) continue;
        const sameField = minus.target.field === plus.target.field;
        const sameTarget = key(minus.target.target) === key(plus.target.target);
        if (sameField && !sameTarget) {
          const from = this.partyOf(minus.target.target);
          const to = this.partyOf(plus.target.target);
          const transfer: Transfer | undefined = to === 'you' && from === 'opponent' ? 'in' : from === 'you' && to === 'opponent' ? 'out' : undefined;
          if (!transfer) continue;
          this.pairing.set(minus, { skip: true });
          this.pairing.set(plus, { transfer, also: minus });
          break;
        }
        if (!sameField && sameTarget && !this.partyOf(minus.target.target) && this.g.units.get(minus.target.field)?.unit !== this.g.units.get(plus.target.field)?.unit) {
          this.pairing.set(minus, { skip: true });
          this.pairing.set(plus, {});
          break;
        }
      }
    }
  }

  // ─── amounts: what an effect adds, takes or sets ─────────────────────────

  private amount(e: A.Expr, ref: UnitRef | undefined, o: Opts, extra: { dir?: Direction; transfer?: Transfer; via?: string; rest?: Direction | 'set' }, party?: Party): void {
    const unit = ref?.unit;
    const claim = (value: number, span: A.Span, sites: object[], how: How, more: Partial<RuleClaim> = {}) =>
      this.push({ k: 'number', value, unit, dir: extra.dir, transfer: extra.transfer }, o.required, span, sites, { how, party, via: extra.via, ...(extra.rest ? { rest: extra.rest } : {}), ...more });
    switch (e.kind) {
      case 'number':
        claim(e.value, e.span, [e], 'amount');
        return;
      case 'unary':
        if (e.op === '-' && e.operand.kind === 'number') {
          claim(e.operand.value, e.span, [e.operand], 'amount');
          return;
        }
        break;
      case 'field': {
        const counts = this.isSelf(e.target) ? this.counts.get(e.field) : undefined;
        if (!counts) break;
        this.paidBy.set(e.field, this.current);
        for (const k of counts) {
          const cond = k.decl.when;
          const per = cond ? this.requiredTerms(cond) : [];
          const first = this.c.events.get(k.decl.name)?.decl.params.find((p) => this.d.kinds.has(p.type.name));
          claim(k.n.value, k.n.span, [k.n], 'per', { per, perKind: first?.type.name, perEvent: this.g.timing.get(k.decl.name) });
        }
        return;
      }
      case 'name': {
        const local = this.locals.get(e.name);
        if (local?.k === 'let') return this.amount(local.value, ref, o, extra, party);
        if (local?.k === 'choose' && local.source.kind === 'range') {
          claim(1, e.span, [], 'per');
          return;
        }
        break;
      }
      case 'call': {
        if (e.callee === 'count' && e.args.length === 1) {
          const per = this.termsIn(e.args[0]);
          const perKind = listKind(this.c, e.args[0]);
          // `xs where f == a.f and it != a`: the other things of the same f as a, which a text must say ("each other cell of the same colour").
          const same = perKind ? this.sameAs(e.args[0]) : undefined;
          // `xs where any(f(it), …)`: each x with something in the relation f to it that is so ("each cell next to a red one"), which a text must say.
          const near = perKind && !same ? this.nearAny(e.args[0]) : undefined;
          const relation = perKind && (same || near) ? { relation: (same ?? near!.relation), kind: perKind, ...(near ? { terms: near.terms } : {}) } : undefined;
          claim(1, e.span, [], 'per', { per, perKind, ...(relation ? { relation } : {}) });
          if (relation) this.push({ k: 'relation', relation: relation.relation, kind: relation.kind }, o.required, e.span, [], near ? { relation } : {});
          this.scan(e.args[0], { required: o.required });
          // What is counted must be named: `where prize != none` counts "each Bonus and Tower".
          if (o.required) this.countedImplied(e.args[0]);
          return;
        }
        if ((e.callee === 'min' || e.callee === 'max') && e.args.length === 2) {
          const n = e.args.find((a) => a.kind === 'number') as A.NumberExpr | undefined;
          const other = e.args.find((a) => a !== n);
          if (n && other) {
            if (isPlain(other)) {
              claim(n.value, n.span, [n], 'amount');
              this.scan(other, { required: false });
            } else {
              const u = this.unitOf(other) ?? ref;
              // A floor on a price lowered by a number is part of the price: "(you must pay at least 1
              // token)"; under a price only other values lower ("as if it were adjacent") it goes unsaid.
              const lowered = e.callee === 'max' && other.kind === 'binary' && other.op === '-' && other.right.kind === 'number';
              this.push({ k: 'number', value: n.value, unit: u?.unit, dir: e.callee === 'max' ? 'atLeast' : 'atMost' }, o.required && e.callee === 'max' && (lowered || !isLowered(other)), n.span, [n], { how: e.callee === 'max' ? 'floor' : 'cap' });
              this.amount(other, ref, o, extra, party);
            }
            return;
          }
          // `max(floorOf(x), …)`: a bound a pipeline keeps, which other rules say ("never fewer than the
          // piece allows"); what this rule says is the other side.
          const bound = !n ? e.args.find((a) => a.kind === 'call' && this.c.calls.get(a)?.k === 'pipeline') : undefined;
          const rest = bound && e.args.find((a) => a !== bound);
          if (bound && rest && !(rest.kind === 'call' && this.c.calls.get(rest)?.k === 'pipeline')) {
            this.scan(bound, { required: false });
            this.amount(rest, ref, o, extra, party);
            return;
          }
          // `min(self.pieces, count(…))`: as many as there are of something, up to a bound the card keeps.
          const counted = e.args.find((a) => a.kind === 'call' && a.callee === 'count');
          if (!n && counted) {
            this.amount(counted, ref, o, extra, party);
            for (const a of e.args) if (a !== counted) this.scan(a, { required: false });
            return;
          }
        }
        break;
      }
      case 'binary':
        if (e.op === '*') {
          const n = [e.left, e.right].find((a) => a.kind === 'number') as A.NumberExpr | undefined;
          const other = n === e.left ? e.right : e.left;
          if (n && other.kind === 'call' && other.callee === 'count') {
            claim(n.value, n.span, [n], 'per', { per: this.termsIn(other.args[0]), perKind: listKind(this.c, other.args[0]) });
            this.scan(other.args[0], { required: o.required });
            return;
          }
        }
        if (e.op === '+' || e.op === '-') {
          this.amount(e.left, ref, o, extra, party);
          // `conquestCost(r) - 2`-like: that much less than the pipeline's value.
          const fromPipeline = e.left.kind === 'call' && this.c.calls.get(e.left)?.k === 'pipeline';
          // `r.stones - 1`: "all the stones but 1", a number of what the left side counts.
          const own = e.left.kind === 'field' ? this.unitOf(e.left) : undefined;
          const rest = own && !fromPipeline ? (extra.dir ?? 'set') : undefined;
          // `cost(r) - travel(r)`: a price without what another pipeline adds, said by the effect the
          // glossary names of that pipeline ("as if it were adjacent"), as part of the price.
          const without = fromPipeline && e.op === '-' && e.right.kind === 'call' && this.c.calls.get(e.right)?.k === 'pipeline' ? this.g.effects.get(`${e.right.callee}.less`) : undefined;
          if (without && e.right.kind === 'call') this.push({ k: 'effect', effect: without }, o.required, e.right.calleeSpan, [e.right], { via: extra.via });
          this.amount(e.right, own ?? ref, o, e.op === '-' ? { ...extra, dir: fromPipeline ? 'fewer' : undefined, rest } : extra, party);
          return;
        }
        break;
      case 'if':
        this.scan(e.cond, { required: false });
        // `if … then fee(a) else 0`: the 0 is "nothing otherwise", no claim a text makes.
        for (const branch of [e.then, e.else]) this.amount(branch, ref, branch.kind === 'number' && branch.value === 0 ? { required: false } : o, extra, party);
        return;
      default:
        break;
    }
    this.scan(e, { required: false }, ref);
  }

  // ─── expressions in conditions and elsewhere ─────────────────────────────

  /** Terms, turn conditions and the numbers compared in an expression. `ref` is what a lone number counts. */
  private scan(e: A.Expr, o: Opts, ref?: UnitRef): void {
    switch (e.kind) {
      case 'number':
        this.push({ k: 'number', value: e.value, unit: ref?.unit }, false, e.span, [e], { how: 'condition' });
        return;
      case 'string':
      case 'bool':
      case 'none':
        return;
      case 'name':
      case 'field':
        if (e.kind === 'field') this.scan(e.target, o);
        this.term(e, o.required, e.kind === 'field' ? e.fieldSpan : e.span);
        return;
      case 'unary':
        this.scan(e.operand, o, ref);
        return;
      case 'if':
        this.scan(e.cond, o);
        // `if … then toll(a) else 0`: "nothing otherwise" goes unsaid; any other fallback is a number to say.
        for (const [branch, other] of [[e.then, e.else], [e.else, e.then]] as const) {
          if (branch.kind === 'number' && other.kind !== 'number' && branch.value !== 0) {
            const unit = (this.unitOf(other) ?? ref)?.unit;
            this.push({ k: 'number', value: branch.value, unit, anyUnit: !unit || undefined }, o.required, branch.span, [branch], { how: 'amount' });
          } else this.scan(branch, o, ref);
        }
        return;
      case 'where':
        this.scan(e.source, o);
        this.scan(e.cond, o);
        return;
      case 'list':
        for (const x of e.items) this.scan(x, o);
        return;
      case 'range':
        this.scan(e.from, o);
        this.scan(e.to, o);
        return;
      case 'call':
        return this.call(e, o);
      case 'binary':
        return this.binary(e, o, ref);
    }
  }

  private call(e: A.CallExpr, o: Opts): void {
    const target = this.c.calls.get(e);
    if (target?.k === 'fn') this.fnTerms(target.name, new Set());
    if (target?.k === 'fn' || target?.k === 'pipeline') this.implied(target.name, e.calleeSpan);
    if ((e.callee === 'min' || e.callee === 'max') && e.args.length === 2) {
      const n = e.args.find((a) => a.kind === 'number') as A.NumberExpr | undefined;
      const other = e.args.find((a) => a !== n);
      if (n && other) {
        this.push({ k: 'number', value: n.value, unit: this.unitOf(other)?.unit, dir: e.callee === 'max' ? 'atLeast' : 'atMost' }, false, n.span, [n], { how: e.callee === 'max' ? 'floor' : 'cap' });
        this.scan(other, o);
        return;
      }
    }
    if (e.callee === 'any' && e.args.length >= 1) {
      const kind = listKind(this.c, e.args[0]);
      const ref = kind ? this.g.units.get(kind) : undefined;
      if (ref) this.push({ k: 'number', value: 1, unit: ref.unit, dir: 'atLeast' }, false, e.span, [], { how: 'count' });
    }
    for (const a of e.args) this.scan(a, o);
  }

  private binary(e: A.BinaryExpr, o: Opts, ref?: UnitRef): void {
    const none = this.noneCondition(e);
    if (none) {
      this.push({ k: 'condition', cond: none }, !!o.required, e.span, []);
      return;
    }
    const turn = this.turnCondition(e);
    if (turn) {
      // Whose turn it is supports a text that says so; texts often leave it to the situation, unless the
      // glossary says a trigger must say it (an action is always taken in one's own turn).
      this.push({ k: 'condition', cond: turn }, !!o.required && this.current.kind === 'on' && this.g.conditions.get(turn)!.required, e.span, []);
      return;
    }
    const whose = this.whoseOf(e);
    if (whose) this.push({ k: 'whose', whose }, false, e.span, []);
    const cmp = ['==', '!=', '<', '<=', '>', '>='].includes(e.op);
    const arith = ['+', '-', '*', '/', '%'].includes(e.op);
    if (cmp || arith) {
      const numberRight = e.right.kind === 'number';
      const n = (numberRight ? e.right : e.left.kind === 'number' ? e.left : undefined) as A.NumberExpr | undefined;
      if (n) {
        const other = n === e.right ? e.left : e.right;
        const unit = (this.unitOf(other) ?? ref)?.unit;
        let value = n.value;
        let dir: Direction | undefined;
        // Normalise to `other OP n`.
        const op = numberRight ? e.op : flip(e.op);
        if (op === '>') (value = n.value + 1), (dir = 'atLeast');
        else if (op === '>=') dir = 'atLeast';
        else if (op === '<') (value = n.value - 1), (dir = 'atMost');
        else if (op === '<=') dir = 'atMost';
        else if (op === '-' && numberRight) dir = 'fewer';
        else if (op === '+') dir = 'more';
        // "Any", "none", "empty" go without a number in a text; any other threshold a condition
        // compares with is a number the text must state ("at least 2 tokens").
        const required = o.required && cmp && !isExistence(op, n.value);
        // What an unknown count counts is for the text to say ("2 regions of the same race").
        const of = compared(other);
        this.push({ k: 'number', value, unit, dir, cond: cmp || undefined, anyUnit: (required && !unit) || undefined }, required, n.span, [n], { how: 'condition', ...(of ? { of } : {}) });
        if (op === '<' || op === '>') this.push({ k: 'number', value: n.value, unit, cond: true }, false, n.span, [n], { how: 'condition' });
        this.scan(other, o, ref);
        return;
      }
    }
    this.scan(e.left, o, arith ? ref : undefined);
    this.scan(e.right, o, arith ? ref : undefined);
  }

  /** `r.owner == holder`: the thing is yours; `r.owner != holder`: another player's. */
  private whoseOf(e: A.BinaryExpr): Party | undefined {
    if (e.op !== '==' && e.op !== '!=') return undefined;
    const isPlayer = (x: A.Expr) => {
      const t = this.c.types.get(x);
      return t?.k === 'entity' && t.kind === 'player';
    };
    // A thing's player: `r.owner` of a thing that is no player, or `owner` of the element a `where` tests.
    const held = (x: A.Expr) => isPlayer(x) && ((x.kind === 'field' && !isPlayer(x.target)) || (x.kind === 'name' && this.c.names.get(x)?.k === 'itField'));
    const [thing, player] = held(e.left) ? [e.left, e.right] : held(e.right) ? [e.right, e.left] : [];
    if (!thing || !player || player.kind !== 'name') return undefined;
    const r = this.c.names.get(player)?.k;
    if (r !== 'holder' && r !== 'me') return undefined;
    return e.op === '==' ? 'you' : 'opponent';
  }

  /** `count(f(me)) == 0`: the card's own player holds none of what `f` gives, a condition the glossary names by `none: f`. */
  private noneCondition(e: A.BinaryExpr): string | undefined {
    if (e.op !== '==') return undefined;
    const [count, zero] = e.right.kind === 'number' ? [e.left, e.right] : [e.right, e.left];
    if (zero.kind !== 'number' || zero.value !== 0 || count.kind !== 'call' || count.callee !== 'count' || count.args.length !== 1) return undefined;
    const of = count.args[0];
    if (of.kind !== 'call' || of.args.length !== 1 || of.args[0].kind !== 'name' || !['holder', 'me'].includes(this.c.names.get(of.args[0])?.k ?? '')) return undefined;
    for (const [id, c] of this.g.conditions) if (c.none === of.callee) return id;
    return undefined;
  }

  /**
   * Whose turn a trigger's moment is in, for an event of one player alone (`on turnEnded(p)`, in that
   * player's turn): its player compared in `when` with the card's own (`p == holder`: yours, `p !=
   * holder`: an opponent's); every player's when nothing narrows it, or when the card's own player is
   * any player (a role held by all). Unknown for an event of other things: a test of `current` there
   * is a condition of its own (`opponentTurn`).
   */
  private turnOf(decl: A.OnDecl): TurnOf | undefined {
    const params = this.c.events.get(decl.name)?.decl.params ?? [];
    const bind = params.length === 1 && params[0].type.name === 'player' ? decl.binds[0]?.name : undefined;
    if (!bind) return undefined;
    const own = (x: A.Expr) => x.kind === 'name' && ['holder', 'me'].includes(this.c.names.get(x)?.k ?? '');
    const turning = (x: A.Expr) => x.kind === 'name' && x.name === bind;
    let turn = 'each' as TurnOf;
    const conjuncts = (e: A.Expr | undefined): void => {
      if (e?.kind !== 'binary') return;
      if (e.op === 'and') return (conjuncts(e.left), conjuncts(e.right));
      if ((e.op === '==' || e.op === '!=') && ((turning(e.left) && own(e.right)) || (turning(e.right) && own(e.left)))) turn = e.op === '==' ? 'you' : 'opponent';
    };
    conjuncts(decl.when);
    // A role held by all the players (`everyone: players`) makes the card's own player each of them.
    const allPlayers = decl.roles.names.some((n) => [...this.c.roles.values()].some((roles) => {
      const expr = roles.get(n.name)?.expr;
      return expr?.kind === 'name' && this.c.names.get(expr)?.k === 'players';
    }));
    return turn === 'you' && allPlayers ? 'each' : turn;
  }

  /**
   * `current != holder`: during an opponent's turn; `current == holder`: during your own; likewise a
   * field the glossary's condition names `by` against the card itself (`game.leader == self`).
   */
  private turnCondition(e: A.BinaryExpr): string | undefined {
    if (e.op !== '==' && e.op !== '!=') return undefined;
    const turn = e.op === '!=' ? 'opponent' : 'own';
    const r = (x: A.Expr) => (x.kind === 'name' ? this.c.names.get(x)?.k : undefined);
    const sides = [r(e.left), r(e.right)];
    if (sides.includes('current') && (sides.includes('holder') || sides.includes('me'))) {
      for (const [id, c] of this.g.conditions) if (c.turn === turn && !c.by.length) return id;
      for (const [id, c] of this.g.conditions) if (c.turn === turn) return id;
      return undefined;
    }
    for (const [field, other] of [[e.left, e.right], [e.right, e.left]] as const) {
      if (field.kind !== 'field' || !this.isSelf(other)) continue;
      for (const [id, c] of this.g.conditions) if (c.turn === turn && c.by.includes(field.field)) return id;
    }
    return undefined;
  }

  /** Terms a name stands for without naming them (a field holding any of several kinds of thing), from the glossary's `implies`. */
  private countedImplied(list: A.Expr): void {
    walkExpr(list, (x) => {
      const r = x.kind === 'name' ? this.c.names.get(x) : undefined;
      const field = x.kind === 'field' ? x.field : r?.k === 'itField' ? r.field : undefined;
      for (const t of (field && this.g.implies.get(field)) || []) this.push({ k: 'term', term: t }, true, x.span, []);
    });
  }

  private implied(name: string, span: A.Span): void {
    for (const t of this.g.implies.get(name) ?? []) this.push({ k: 'term', term: t }, false, span, []);
  }

  /** A name or field that is a game term of the glossary. */
  private term(e: A.NameExpr | A.FieldExpr, required: boolean, span: A.Span): void {
    let id: string | undefined;
    if (e.kind === 'name') {
      const r = this.c.names.get(e);
      if (r?.k === 'const' && typeof r.value === 'string') id = r.value;
      else if (r?.k === 'itField') id = r.field;
    } else id = e.field;
    if (!id) return;
    this.implied(id, span);
    const cls = termClass(this.g, this.d, id);
    if (!cls) return;
    if (e.kind === 'field' || (e.kind === 'name' && this.c.names.get(e)?.k === 'itField')) {
      if (cls.k !== 'field') return;
    } else if (cls.k === 'field') return;
    this.push({ k: 'term', term: id }, required && cls.k !== 'field', span, e.kind === 'name' && cls.k !== 'field' ? [e] : []);
  }

  private termsIn(e: A.Expr): string[] {
    const out: string[] = [];
    walkExpr(e, (x) => {
      if (x.kind === 'name') {
        const r = this.c.names.get(x);
        const id = r?.k === 'const' && typeof r.value === 'string' ? r.value : r?.k === 'itField' ? r.field : undefined;
        if (id && termClass(this.g, this.d, id) && !out.includes(id)) out.push(id);
      } else if (x.kind === 'field' && this.g.fields.has(x.field) && !out.includes(x.field)) out.push(x.field);
    });
    return out;
  }

  /** Terms named inside the functions a card calls: they support what the text says, never required. */
  private fnTerms(name: string, seen: Set<string>): void {
    if (seen.has(name)) return;
    seen.add(name);
    const fn = this.c.fns.get(name);
    if (!fn) return;
    walkExpr(fn.decl.body, (x) => {
      if (x.kind === 'name') {
        const r = this.c.names.get(x);
        if (r?.k === 'const' && typeof r.value === 'string') {
          const cls = termClass(this.g, this.d, r.value);
          if (cls && cls.k !== 'field') this.push({ k: 'term', term: r.value }, false, this.current.nameSpan, []);
        }
      } else if (x.kind === 'call') {
        const t = this.c.calls.get(x);
        if (t?.k === 'fn') this.fnTerms(t.name, seen);
      }
    });
  }

  // ─── what a value counts ─────────────────────────────────────────────────

  unitOf(e: A.Expr): UnitRef | undefined {
    switch (e.kind) {
      case 'field':
        return this.g.units.get(e.field) ?? this.inferred.get(e.field);
      case 'name': {
        const r = this.c.names.get(e);
        if (r?.k === 'itField') return this.g.units.get(r.field) ?? this.inferred.get(r.field);
        const local = this.locals.get(e.name);
        if (local?.k === 'let') return this.unitOf(local.value);
        return undefined;
      }
      case 'call': {
        const t = this.c.calls.get(e);
        if (t?.k === 'pipeline' || t?.k === 'fn') return this.g.units.get(t.name);
        if (e.callee === 'count' && e.args[0]) return this.unitOfList(e.args[0]);
        if (e.callee === 'sum' && e.args[1]) return this.unitOf(e.args[1]);
        if (['min', 'max', 'abs'].includes(e.callee)) {
          for (const a of e.args) {
            const u = this.unitOf(a);
            if (u) return u;
          }
        }
        return undefined;
      }
      case 'binary':
        if (['+', '-', '*', '/', '%'].includes(e.op)) return this.unitOf(e.left) ?? this.unitOf(e.right);
        return undefined;
      case 'if':
        return this.unitOf(e.then) ?? this.unitOf(e.else);
      case 'unary':
        return this.unitOf(e.operand);
      default:
        return undefined;
    }
  }

  /** `count(things where flag)` counts what `flag` counts, else what the kind of things counts. */
  private unitOfList(e: A.Expr): UnitRef | undefined {
    // `count(game.pile)` counts what the pile holds, as the glossary says of the field.
    if (e.kind === 'field' && this.g.units.has(e.field)) return this.g.units.get(e.field);
    if (e.kind === 'where') {
      const flag = boolField(this.c, e.cond);
      if (flag && this.g.units.has(flag)) return this.g.units.get(flag);
    }
    const kind = listKind(this.c, e);
    return kind ? this.g.units.get(kind) : undefined;
  }
}

/**
 * Units the glossary leaves out, learnt from the game's own rules: a pipeline whose value is added
 * to or taken from a field (`let fee = fee(x) … p.points -= fee`) counts what that field counts.
 */
export function inferUnits(c: Checked, g: Glossary): Map<string, UnitRef> {
  const units = new Map(g.units);
  const visit = (stmts: A.Stmt[]) => {
    const lets = new Map<string, A.Expr>();
    walkStmts(stmts, (s) => {
      if (s.kind === 'let') lets.set(s.name, s.value);
      if (s.kind !== 'assign' || s.op === '=') return;
      const ref = units.get(s.target.field);
      if (!ref) return;
      let v: A.Expr | undefined = s.value;
      if (v.kind === 'name') v = lets.get(v.name);
      if (v?.kind !== 'call') return;
      const t = c.calls.get(v);
      if ((t?.k === 'pipeline' || t?.k === 'fn') && !units.has(t.name)) units.set(t.name, { unit: ref.unit });
    });
  };
  for (const u of c.declared.units) {
    if (u.owner) continue;
    for (const d of u.program.decls) if (d.kind === 'proc' || d.kind === 'action' || d.kind === 'on') visit(d.body.stmts);
  }
  return units;
}

function transferOf(ref: UnitRef | undefined): Transfer | undefined {
  if (!ref) return undefined;
  if (ref.to === 'you' && ref.from !== 'you') return 'in';
  if (ref.from === 'you' && ref.to !== 'you') return 'out';
  return undefined;
}

function flip(op: string): string {
  return ({ '<': '>', '>': '<', '<=': '>=', '>=': '<=' } as Record<string, string>)[op] ?? op;
}

/** `false`, `0`, `none`, `[]`: a rule tidying up, not an effect a text speaks of. */
/** `x > 0`, `x >= 1`, `x == 0`, `x != 0`, `x < 1`, `x <= 0`: whether there is any, not how many. */
function isExistence(op: string, n: number): boolean {
  return (n === 0 && ['>', '==', '!=', '<=', '>='].includes(op)) || (n === 1 && (op === '>=' || op === '<'));
}

function isReset(e: A.Expr): boolean {
  return (e.kind === 'bool' && !e.value) || (e.kind === 'number' && e.value === 0) || e.kind === 'none' || (e.kind === 'list' && e.items.length === 0);
}

/** A value read as it is: "2, or all of them when there are fewer" (`min(2, x.count)`). */
/** `a - b`, b no number: a value lowered by another value. */
function isLowered(e: A.Expr): boolean {
  return e.kind === 'binary' && e.op === '-' && e.right.kind !== 'number';
}

function isPlain(e: A.Expr): boolean {
  return e.kind === 'field' || e.kind === 'name';
}

function boolField(c: Checked, e: A.Expr): string | undefined {
  if (e.kind === 'name') {
    const r = c.names.get(e);
    return r?.k === 'itField' ? r.field : undefined;
  }
  if (e.kind === 'binary' && e.op === 'and') return boolField(c, e.left) ?? boolField(c, e.right);
  return undefined;
}

/** The kind of the entities in a list-valued expression. */
export function listKind(c: Checked, e: A.Expr): string | undefined {
  const t = c.types.get(e);
  if (t?.k === 'list' && t.of.k === 'entity') return t.of.kind;
  return undefined;
}

/** Every expression of a declaration's rules, for the mutation sites (texts shown to players left out). */
export function declExprs(d: A.Decl): A.Expr[] {
  if (d.kind === 'modify') return [...(d.when ? [d.when] : []), d.value];
  if (d.kind !== 'on' && d.kind !== 'action') return [];
  const out: A.Expr[] = d.kind === 'on' ? (d.when ? [d.when] : []) : d.params.flatMap((p) => (p.domain ? [p.domain] : []));
  walkStmts(d.body.stmts, (s) => {
    if (s.kind === 'log') return;
    for (const e of stmtExprs(s)) if (!(s.kind === 'require' && e === s.reason) && !(s.kind === 'choose' && e === s.prompt)) out.push(e);
  });
  return out;
}

/** What a condition compares its number with, by name: a function (`distance(a, b) <= 2`), a field (`r.tokens >= 2`), a parameter (`n: number in 1..3`). */
function compared(e: A.Expr): string | undefined {
  if (e.kind === 'call') return e.callee;
  if (e.kind === 'field') return e.field;
  if (e.kind === 'name') return e.name;
  // `to.pieces + n <= 3`: what is added to is what is compared.
  if (e.kind === 'binary' && ['+', '-', '*', '/'].includes(e.op)) return compared(e.left);
  return undefined;
}

/**
 * `x.f = min(cap, x.f + n)` is `x.f += n` up to a cap (and `max(floor, x.f - n)` a loss down to a
 * floor): what it gives or takes is `n`, as texts say it ("heal 1 damage").
 */
function stepOf(s: A.AssignStmt): A.AssignStmt {
  if (s.op !== '=') return s;
  const target = printExpr(s.target);
  const step = (e: A.Expr): A.AssignStmt | undefined =>
    e.kind === 'binary' && (e.op === '+' || e.op === '-') && printExpr(e.left) === target ? { ...s, op: e.op === '+' ? '+=' : '-=', value: e.right } : undefined;
  const v = s.value;
  if (v.kind === 'call' && (v.callee === 'min' || v.callee === 'max') && v.args.length === 2) return v.args.map(step).find(Boolean) ?? s;
  return step(v) ?? s;
}
