/**
 * Protected targets (`guard` and `reach`). A rule that stands between every card and an entity of a
 * kind — "out of reach unless…", "pay its holder first" — is written once, as the kind's guard in
 * the pack's own rules; a card applies it with `reach x`. This pass makes a card that changes an
 * entity of a guarded kind without reaching it first, on every path, a compile error, so no card,
 * present or future, can forget the guard.
 *
 * A change counts wherever it is made: a field the guard protects assigned, a pile of it drawn from or
 * added to, or the entity passed to a procedure of the game that changes it (`rout(r)`) before
 * reaching it. A procedure that reaches its parameter itself (an attack that applies the guard)
 * reaches it for its callers too. The game's own rules are not held to it: they are the rules the
 * guard is part of.
 */
import type * as A from '../dsl/ast.ts';
import { printExpr } from '../dsl/printer.ts';
import { stmtBlocks } from '../dsl/walk.ts';
import type { Checked, SetAside } from './check.ts';
import type { DiagnosticInput } from './diagnostic.ts';
import { factOf, unitFactOf, type CheckMemo } from './incremental.ts';
import { fragmentSpan } from './load.ts';

/** What a procedure of the game does to the entities passed to it, by parameter. */
interface ProcEffect {
  /** Changes the entity before reaching it: the caller must have reached it. */
  changes: boolean[];
  /** Reaches the entity on every path: the caller has reached it afterwards. */
  reaches: boolean[];
}

/** A change of a guarded entity that no `reach` came before. */
interface Unreached {
  entity: A.Expr;
  at: A.Span;
  /** `` `r.tokens` ``, or `` `r` through `rout` ``. */
  what: string;
  kind: string;
}

export function checkGuards(c: Checked, report: (x: DiagnosticInput) => void, setAside: SetAside, memo?: CheckMemo): void {
  if (!c.guardOf.size) return;
  const effects = new Map<string, ProcEffect>();

  const effectOf = (name: string): ProcEffect | undefined => {
    const p = c.procs.get(name);
    if (!p || p.unit.owner) return undefined;
    let e = effects.get(name);
    if (e) return e;
    // Recursion is refused by the checker (RB0509); until this one is known, it changes nothing.
    e = { changes: p.decl.params.map(() => false), reaches: p.decl.params.map(() => false) };
    effects.set(name, e);
    const params = p.decl.params.map((x) => x.name);
    const after = walk(p.decl.body.stmts, new Set(), (u) => {
      const i = params.indexOf(printExpr(u.entity));
      if (i >= 0) e!.changes[i] = true;
    });
    params.forEach((x, i) => (e!.reaches[i] = after.has(x)));
    return e;
  };

  /** Walks statements in order; returns the entities reached on every path through them. */
  const walk = (stmts: A.Stmt[], reached: Set<string>, unreached: (u: Unreached) => void): Set<string> => {
    let facts = new Set(reached);
    const changed = (entity: A.Expr, at: A.Span, what: string, kind: string) => {
      if (!facts.has(printExpr(entity))) unreached({ entity, at, what, kind });
    };
    const field = (f: A.Expr) => {
      if (f.kind !== 'field') return;
      const info = c.fields.get(f);
      if (info && !info.isProp && c.guardedFields.get(info.kind)?.has(f.field)) changed(f.target, f.span, `\`${printExpr(f)}\``, info.kind);
    };
    const inner = (b: A.Block) => walk(b.stmts, facts, unreached);
    for (const s of stmts) {
      switch (s.kind) {
        case 'reach':
          facts.add(printExpr(s.target));
          break;
        case 'assign':
        case 'shuffle':
          field(s.target);
          break;
        case 'draw':
        case 'remove':
          field(s.from);
          break;
        case 'put':
          field(s.into);
          break;
        case 'call': {
          const e = effectOf(s.call.callee);
          if (!e) break;
          s.call.args.forEach((arg, i) => {
            const t = c.types.get(arg);
            if (e.changes[i] && t?.k === 'entity' && c.guardOf.has(t.kind)) changed(arg, arg.span, `\`${printExpr(arg)}\` through \`${s.call.callee}\``, t.kind);
          });
          s.call.args.forEach((arg, i) => {
            if (e.reaches[i]) facts.add(printExpr(arg));
          });
          break;
        }
        case 'if': {
          const then = inner(s.then);
          const otherwise = s.else ? inner(s.else) : facts;
          facts = new Set([...then].filter((x) => otherwise.has(x)));
          break;
        }
        default:
          // A loop's or a prompt's body may not run: what it reaches counts only inside it.
          for (const b of stmtBlocks(s)) inner(b);
      }
    }
    return facts;
  };

  for (const unit of c.declared.units) {
    if (!unit.owner) continue;
    const found = unitFactOf(memo, unit, 'guards', true, () => {
      const all: DiagnosticInput[] = [];
      const aside = setAside.get(unit);
      for (const decl of unit.program.decls) {
        // A declaration set aside was never checked: the tables hold nothing of its own for it.
        if ((decl.kind !== 'action' && decl.kind !== 'on') || aside?.has(decl)) continue;
        // What a card's rule reports reads its own tables and the game's procedures and guards only.
        const reported = factOf(memo, unit, decl, 'guards', true, () => {
          const out: DiagnosticInput[] = [];
          walk(decl.body.stmts, new Set(), (u) => {
            const guard = c.guardOf.get(u.kind)!;
            const x = printExpr(u.entity);
            out.push({
              code: 'RB0620',
              message: `this card changes ${u.what} without \`reach ${x}\` before it; every ${u.kind} is guarded by \`${guard}\``,
              at: fragmentSpan(unit.fragment, u.at),
              hint: `write \`reach ${x}\` before the change, among the action’s first statements so the guard also decides which choices are offered`,
            });
          });
          return out;
        });
        all.push(...reported);
      }
      return all;
    });
    for (const x of found) report(x);
  }
}
