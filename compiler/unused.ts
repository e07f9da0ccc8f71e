/**
 * Declarations nothing uses: a function, pipeline or procedure never called, an event never
 * emitted (its triggers never run). They are warnings, not errors — a pack being written has
 * some — but a shipped pack should have none: dead rules mislead whoever reads the pack.
 * Declarations of a base pack are the base's business and are left alone.
 */
import type * as A from '../dsl/ast.ts';
import type { CallTarget, Checked, Placed } from './check.ts';
import type { DiagnosticInput } from './diagnostic.ts';
import { againOf, type CheckMemo } from './incremental.ts';
import { fragmentSpan } from './load.ts';
import { walkDecl } from '../dsl/walk.ts';

export function reportUnused(c: Checked, report: (x: DiagnosticInput) => void, memo?: CheckMemo): void {
  // A session's tables also hold the calls of declarations checked before (compiler/incremental.ts): its records say which are this compile's.
  const calls = memo ? memo.eachUnit('called', c.declared.units, (records) => calledNames(records.flatMap((r) => r.entries.calls.map(([, t]) => t as CallTarget)))) : [calledNames(c.calls.values())];
  const emits: string[][] = [];
  // A declaration set aside never runs, as its calls are never recorded: an override's base declaration emits nothing.
  c.declared.units.forEach((u) => {
    const aside = c.setAside.get(u);
    emits.push(emitsOf(aside ? u.program.decls.filter((d) => !aside.has(d)) : u.program.decls));
  });
  // What is found depends only on these names and on the declarations and where they stand: an
  // edit that changes none of them finds it again. What is declared by name is the game's rules
  // texts' (the same list while they are the same texts) and the cards' own functions.
  const key = () => {
    const out: unknown[] = [calls.length, ...calls, emits.length, ...emits, memo!.gameRules()];
    c.fns.forEach((p, name) => p.unit.owner && out.push(name, p.decl, p.unit.fragment, p.unit.fromBase));
    return out;
  };
  againOf(memo, 'unused', key, report, (report) => {
    const called = new Set<string>();
    for (const names of calls) for (const n of names) called.add(n);
    const emitted = new Set<string>();
    for (const list of emits) for (const e of list) emitted.add(e);

    const warn = <D extends A.Decl & { name: string; nameSpan: A.Span }>(p: Placed<D>, message: string, hint: string) => {
      if (p.unit.fromBase) return;
      report({ code: 'RB0540', severity: 'warning', message, at: fragmentSpan(p.unit.fragment, p.decl.nameSpan), hint });
    };
    for (const [name, p] of c.fns) if (!called.has(`fn:${name}`)) warn(p, `the function \`${name}\` is never called`, 'remove it, or call it where the rules need its value');
    for (const [name, p] of c.pipelines) if (!called.has(`pipeline:${name}`)) warn(p, `the pipeline \`${name}\` is never asked for`, 'remove it (and its modifiers), or use its value where the rules need it');
    for (const [name, p] of c.procs) if (!called.has(`proc:${name}`)) warn(p, `the procedure \`${name}\` is never called`, 'remove it, or call it where the rules need it');
    for (const [name, p] of c.checks) if (!called.has(`check:${name}`)) warn(p, `the check \`${name}\` is never applied`, `remove it, or apply it where an action needs it: \`require ${name}(…)\``);
    for (const [name, p] of c.events) if (!emitted.has(name)) warn(p, `the event \`${name}\` is never emitted, so no trigger on it ever runs`, `emit it where it happens (\`emit ${name}(…)\`), or remove it and its triggers`);
  });
}

function calledNames(targets: Iterable<CallTarget>): string[] {
  const out = new Set<string>();
  for (const t of targets) if (t.k !== 'builtin') out.add(`${t.k}:${t.name}`);
  return [...out];
}

/** The events a rules text's declarations emit, by their list: the same trees emit the same events. */
const emits = new WeakMap<A.Decl[], string[]>();

function emitsOf(decls: A.Decl[]): string[] {
  let out = emits.get(decls);
  if (!out) {
    const found = new Set<string>();
    for (const d of decls) walkDecl(d, { stmt: (s) => s.kind === 'emit' && found.add(s.event) });
    out = [...found];
    emits.set(decls, out);
  }
  return out;
}
