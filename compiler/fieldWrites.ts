/**
 * Fields that change only through named procedures (`loweredOnlyBy`, `raisedOnlyBy`,
 * `changedOnlyBy` on a kind's state field). A rule that must hold for every change of a field —
 * "every piece removed is a loss the cards may answer", "no place ever holds more than three" — is
 * written once, in a procedure of the pack's own rules; this pass makes every other change of the
 * field, in the game's rules or in any card's, present or future, a compile error. Reads stay free.
 *
 * Why at compile time and not a runtime hook on every write: the procedures' own bookkeeping also
 * writes the field (taking pieces back into a hand is no loss), and only the pack knows which
 * writes mean what. Naming the procedures keeps the meaning in the pack and the check here.
 */
import type * as A from '../dsl/ast.ts';
import { walkStmts } from '../dsl/walk.ts';
import type { Checked, SetAside } from './check.ts';
import type { RulesUnit, WriteDirection } from './declare.ts';
import { writerKeys } from './declare.ts';
import type { DiagnosticInput } from './diagnostic.ts';
import { factOf, unitFactOf, type CheckMemo } from './incremental.ts';
import { fragmentSpan } from './load.ts';
import { closest } from './suggest.ts';

export function checkFieldWrites(c: Checked, report: (x: DiagnosticInput) => void, setAside: SetAside, memo?: CheckMemo): void {
  const d = c.declared;
  let guarded = false;
  for (const [kindName, kind] of d.kinds) {
    for (const [fieldName, f] of kind.props) {
      for (const w of f.writers) {
        const key = writerKeys.find(([dir]) => dir === w.direction)![1];
        report({ code: 'RB0563', message: `\`${kindName}.${fieldName}\` is a printed property, which never changes, so \`${key}\` means nothing on it`, at: f.at, hint: `remove \`${key}\`, or declare the field under kinds.${kindName}.state if it changes during play` });
      }
    }
    for (const [fieldName, f] of kind.state) {
      for (const w of f.writers) {
        guarded = true;
        const key = writerKeys.find(([dir]) => dir === w.direction)![1];
        for (const p of w.procs) {
          if (c.procs.has(p.name)) continue;
          const guess = closest(p.name, c.procs.keys());
          report({
            code: 'RB0558',
            message: `\`${p.name}\` is not a procedure of this pack, so it cannot be named in \`${key}\` of \`${kindName}.${fieldName}\``,
            at: p.at,
            hint: guess ? `did you mean \`${guess}\`?` : 'name procedures (`proc`) of the pack’s own rules: they are the one place the change is made',
            fix: guess ? { replacement: guess, safe: false } : undefined,
          });
        }
      }
    }
  }
  if (!guarded) return;

  for (const unit of d.units) {
    const found = unitFactOf(memo, unit, 'fieldWrites', true, () => {
      const out: DiagnosticInput[] = [];
      const aside = setAside.get(unit);
      for (const decl of unit.program.decls) {
        // Never checked: the tables hold nothing of its own for it.
        if (aside?.has(decl)) continue;
        const body = bodyOf(decl);
        // What a rule reports reads its own tables, the fields' writers and the game's procedures only.
        if (body) out.push(...factOf(memo, unit, decl, 'fieldWrites', true, () => writesReported(c, unit, decl, body)));
      }
      return out;
    });
    for (const x of found) report(x);
  }
}

function writesReported(c: Checked, unit: RulesUnit, decl: A.Decl, body: A.Block): DiagnosticInput[] {
  const d = c.declared;
  const out: DiagnosticInput[] = [];
  const inProc = decl.kind === 'proc' && !unit.owner ? decl.name : undefined;
  walkStmts(body.stmts, (s) => {
    for (const [target, direction] of writesOf(s)) {
      const info = c.fields.get(target);
      const field = info && !info.isProp ? d.kinds.get(info.kind)?.state.get(target.field) : undefined;
      if (!field) continue;
      for (const w of field.writers) {
        if (!covers(w.direction, direction) || (inProc && w.procs.some((p) => p.name === inProc))) continue;
        // A name that is no procedure is reported at the declaration; the writes wait for it.
        if (w.procs.some((p) => !c.procs.has(p.name))) continue;
        const first = w.procs[0];
        out.push({
          code: 'RB0557',
          message: `\`${shown(target)}\` is ${direction} here, but a ${info!.kind}’s \`${target.field}\` is ${w.direction} only by ${first ? listed(w.procs.map((p) => `\`${p.name}\``)) : 'no procedure'}`,
          at: fragmentSpan(unit.fragment, s.span),
          hint: first
            ? `call ${w.procs.length > 1 ? 'one of them' : `\`${first.name}\``} instead (e.g. \`${first.name}(${paramsOf(c, first.name)})\`): the rule that must hold for every such change is written there once`
            : `name a procedure in \`${writerKeys.find(([dir]) => dir === w.direction)![1]}\` of ${info!.kind}.${target.field}`,
        });
      }
    }
  });
  return out;
}

/** Does a guard on changes of `guarded` direction cover a write of `direction`? */
function covers(guarded: WriteDirection, direction: WriteDirection): boolean {
  return guarded === 'changed' || direction === 'changed' || guarded === direction;
}

function bodyOf(d: A.Decl): A.Block | undefined {
  return d.kind === 'proc' || d.kind === 'action' || d.kind === 'on' || d.kind === 'setup' || d.kind === 'flow' || d.kind === 'guard' ? d.body : undefined;
}

/** The fields a statement changes and which way; `+= -1` lowers as `-= 1` does. */
function writesOf(s: A.Stmt): Array<[A.FieldExpr, WriteDirection]> {
  switch (s.kind) {
    case 'assign': {
      if (s.op === '=') return [[s.target, 'changed']];
      const negative = (s.value.kind === 'unary' && s.value.op === '-') || (s.value.kind === 'number' && s.value.value < 0);
      return [[s.target, (s.op === '+=') !== negative ? 'raised' : 'lowered']];
    }
    case 'put':
      return s.into.kind === 'field' ? [[s.into, 'raised']] : [];
    case 'remove':
    case 'draw':
      return s.from.kind === 'field' ? [[s.from, 'lowered']] : [];
    default:
      return [];
  }
}

function shown(f: A.FieldExpr): string {
  const t = f.target;
  const base = t.kind === 'name' ? t.name : t.kind === 'field' ? shown(t) : '…';
  return `${base}.${f.field}`;
}

function listed(names: string[]): string {
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

function paramsOf(c: Checked, proc: string): string {
  return c.procs.get(proc)?.decl.params.map((p) => p.name).join(', ') ?? '';
}
