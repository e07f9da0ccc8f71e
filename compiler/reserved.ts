import { spanKeys, type Decl, type Span } from '../dsl/ast.ts';
import type { Declared } from './declare.ts';
import type { DiagnosticInput, FileSpan } from './diagnostic.ts';
import { shapeOf } from './declShape.ts';
import { isJsReserved } from './jsReserved.ts';
import { fragmentSpan } from './load.ts';

export { JS_RESERVED, isJsReserved } from './jsReserved.ts';

/** The diagnostic's wording, the same wherever a name is refused. */
export function reservedMessage(name: string, what: string): { message: string; hint: string } {
  return {
    message: `\`${name}\` cannot be ${what}: JavaScript reserves this word on every object`,
    hint: `choose another name, e.g. \`${name.replace(/^_+/, '')}_\` or \`my_${name.replace(/^_+/, '')}\``,
  };
}

const BINDERS = new Set(['let', 'for', 'choose', 'draw', 'where']);
const NAMED_DECLS = new Set(['event', 'fn', 'pipeline', 'check', 'proc', 'action']);

/**
 * RB0107 for every name a pack declares that JavaScript reserves: enums and their members, kinds,
 * fields, roles, dice, entity ids, and in the rules the declarations, their parameters and every
 * name a rule binds (`let`, `for`, `choose`, `draw`, `where`, an `on`'s event parameters).
 */
export function checkReservedNames(d: Declared, report: (d: DiagnosticInput) => void): void {
  const refuse = (name: string, what: string, at: FileSpan) => report({ code: 'RB0107', ...reservedMessage(name, what), at });
  for (const [name, e] of d.enums) {
    if (isJsReserved(name)) refuse(name, 'the name of an enum', e.at);
    for (const v of e.values) if (isJsReserved(v)) refuse(v, 'a member of an enum', e.at);
  }
  for (const [name, k] of d.kinds) {
    if (isJsReserved(name)) refuse(name, 'the name of a kind', k.at);
    for (const f of [...k.props.values(), ...k.state.values()]) if (isJsReserved(f.name)) refuse(f.name, 'the name of a field', f.at);
    for (const [role, r] of k.roles) if (isJsReserved(role)) refuse(role, 'the name of a role', r.at);
  }
  for (const [name, die] of d.dice) if (isJsReserved(name)) refuse(name, 'the name of a die', die.at);
  for (const [id, e] of d.entities) if (isJsReserved(id)) refuse(id, 'an id', e.at);
  for (const unit of d.units) {
    for (const decl of unit.program.decls) {
      for (const r of refusedIn(decl)) refuse(r.name, r.what, fragmentSpan(unit.fragment, r.span));
    }
  }
}

/** What a declaration with no reserved name anywhere in its tree binds (compiler/declShape.ts). */
const NONE: ReadonlyArray<{ name: string; what: string; span: Span }> = [];

/**
 * The reserved names a declaration binds, by its tree: the parser gives the same tree for the same
 * rules text (dsl/parser.ts), so a recompile walks only the declarations that changed.
 */
const refusedByDecl = new WeakMap<Decl, ReadonlyArray<{ name: string; what: string; span: Span }>>();

function refusedIn(decl: Decl): ReadonlyArray<{ name: string; what: string; span: Span }> {
  if (!shapeOf(decl).reservedName) return NONE;
  let found = refusedByDecl.get(decl);
  if (found) return found;
  const out: Array<{ name: string; what: string; span: Span }> = [];
  const refuse = (name: string, what: string, span: Span) => out.push({ name, what, span });
  if (NAMED_DECLS.has(decl.kind) && isJsReserved(decl.name)) refuse(decl.name, `the name of ${/^[aeiou]/.test(decl.kind) ? "an" : "a"} ${decl.kind}`, decl.nameSpan);
  if ('params' in decl) for (const p of decl.params) if (isJsReserved(p.name)) refuse(p.name, 'the name of a parameter', p.span);
  if ('binds' in decl) for (const b of decl.binds) if (isJsReserved(b.name)) refuse(b.name, 'the name of a value', b.span);
  bound(decl, (name, span) => refuse(name, 'the name of a value', span));
  found = out;
  refusedByDecl.set(decl, found);
  return found;
}

/** Every name bound inside a declaration, found by shape so that no construct is forgotten. */
function bound(node: unknown, found: (name: string, span: Span) => void): void {
  if (Array.isArray(node)) {
    for (const x of node) bound(x, found);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const n = node as { kind?: unknown; name?: unknown; nameSpan?: Span };
  if (typeof n.kind === 'string' && BINDERS.has(n.kind) && typeof n.name === 'string' && n.nameSpan && isJsReserved(n.name)) found(n.name, n.nameSpan);
  for (const key in node) {
    const value = (node as Record<string, unknown>)[key];
    if (value && typeof value === 'object' && !spanKeys.has(key)) bound(value, found);
  }
}
