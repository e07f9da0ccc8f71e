/**
 * Which number pipelines decide what a player may do. A card that adds to a pipeline read in a
 * `require`, in what a player chooses from, or in the condition that offers a choice widens what the
 * player may do ("you may lay 1 more card", "you may conquer … for 1 token fewer"); one whose
 * pipeline is only ever added into the state gives its bonus whether the player likes it or not
 * ("you roll 1 more block"), and a text that says "may" of it misleads. Read once per checked pack,
 * through functions, other pipelines and `let`s.
 */
import type * as A from '../../dsl/ast.ts';
import type { Checked } from '../check.ts';
import { declParts, stmtBlocks, stmtExprs, walkExpr, walkStmts } from '../../dsl/walk.ts';

export interface PipelineUse {
  /** Number pipelines read where they decide what a player may do. */
  permits: Set<string>;
  /** Number pipelines read anywhere in the rules. */
  read: Set<string>;
}

const cache = new WeakMap<Checked, PipelineUse>();

export function pipelineUse(c: Checked): PipelineUse {
  let use = cache.get(c);
  if (!use) cache.set(c, (use = readUse(c)));
  return use;
}

function readUse(c: Checked): PipelineUse {
  const numeric = new Set([...c.pipelines].filter(([, p]) => p.decl.returns.name === 'number').map(([name]) => name));
  const closure = new Map<string, Set<string>>();
  /** The pipelines a function's or pipeline's value reads, itself included when it is one. */
  const through = (name: string): Set<string> => {
    const known = closure.get(name);
    if (known) return known;
    const out = new Set<string>();
    closure.set(name, out);
    if (numeric.has(name)) out.add(name);
    const body = c.fns.get(name)?.decl.body ?? c.pipelines.get(name)?.decl.body;
    if (body) for (const p of readsOf(body, new Map())) out.add(p);
    return out;
  };
  const readsOf = (e: A.Expr, locals: Map<string, Set<string>>): Set<string> => {
    const out = new Set<string>();
    walkExpr(e, (x) => {
      if (x.kind === 'call') for (const p of through(x.callee)) out.add(p);
      else if (x.kind === 'name') for (const p of locals.get(x.name) ?? []) out.add(p);
    });
    return out;
  };
  const permits = new Set<string>();
  const read = new Set<string>();
  const offersChoice = (b: A.Block): boolean => {
    let found = false;
    walkStmts(b.stmts, (s) => {
      if (s.kind === 'choose') found = true;
    });
    return found;
  };
  const body = (stmts: A.Stmt[], locals: Map<string, Set<string>>): void => {
    for (const s of stmts) {
      for (const e of stmtExprs(s)) {
        const reads = readsOf(e, locals);
        for (const p of reads) read.add(p);
        const deciding = s.kind === 'require' || (s.kind === 'choose' && e === s.source) || (s.kind === 'if' && offersChoice(s.then));
        if (deciding) for (const p of reads) permits.add(p);
      }
      if (s.kind === 'let') locals.set(s.name, readsOf(s.value, locals));
      for (const b of stmtBlocks(s)) body(b.stmts, locals);
    }
  };
  for (const unit of c.declared.units) {
    for (const d of unit.program.decls) {
      const locals = new Map<string, Set<string>>();
      const parts = declParts(d);
      for (const e of parts.exprs) for (const p of readsOf(e, locals)) read.add(p);
      // What an action's parameter is picked from is what the player may choose.
      if (d.kind === 'action') for (const p of d.params) if (p.domain) for (const x of readsOf(p.domain, locals)) permits.add(x);
      if (parts.body) body(parts.body.stmts, locals);
    }
  }
  return { permits, read };
}
