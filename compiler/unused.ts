/**
 * Declarations nothing uses: a function, pipeline or procedure never called, an event never
 * emitted (its triggers never run). They are warnings, not errors — a pack being written has
 * some — but a shipped pack should have none: dead rules mislead whoever reads the pack.
 * Declarations of a base pack are the base's business and are left alone.
 */
import type * as A from '../dsl/ast.ts';
import type { Checked, Placed } from './check.ts';
import type { DiagnosticInput } from './diagnostic.ts';
import { fragmentSpan } from './load.ts';
import { walkDecl } from '../dsl/walk.ts';

export function reportUnused(c: Checked, report: (x: DiagnosticInput) => void): void {
  const called = new Set<string>();
  for (const t of c.calls.values()) if (t.k !== 'builtin') called.add(`${t.k}:${t.name}`);
  const emitted = new Set<string>();
  for (const u of c.declared.units) for (const d of u.program.decls) walkDecl(d, { stmt: (s) => s.kind === 'emit' && emitted.add(s.event) });

  const warn = <D extends A.Decl & { name: string; nameSpan: A.Span }>(p: Placed<D>, message: string, hint: string) => {
    if (p.unit.fromBase) return;
    report({ code: 'RB0540', severity: 'warning', message, at: fragmentSpan(p.unit.fragment, p.decl.nameSpan), hint });
  };
  for (const [name, p] of c.fns) if (!called.has(`fn:${name}`)) warn(p, `the function \`${name}\` is never called`, 'remove it, or call it where the rules need its value');
  for (const [name, p] of c.pipelines) if (!called.has(`pipeline:${name}`)) warn(p, `the pipeline \`${name}\` is never asked for`, 'remove it (and its modifiers), or use its value where the rules need it');
  for (const [name, p] of c.procs) if (!called.has(`proc:${name}`)) warn(p, `the procedure \`${name}\` is never called`, 'remove it, or call it where the rules need it');
  for (const [name, p] of c.checks) if (!called.has(`check:${name}`)) warn(p, `the check \`${name}\` is never applied`, `remove it, or apply it where an action needs it: \`require ${name}(…)\``);
  for (const [name, p] of c.events) if (!emitted.has(name)) warn(p, `the event \`${name}\` is never emitted, so no trigger on it ever runs`, `emit it where it happens (\`emit ${name}(…)\`), or remove it and its triggers`);
}
