import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import scenarioSchema from '../schemas/scenario.schema.json' with { type: 'json' };
import { closest } from '../compiler/suggest.ts';
import type { Failure } from './format.ts';
import { nodeAt, type Locator } from './where.ts';

let validate: ValidateFunction | undefined;

/** The validator of one scenario (a file may hold a list of them; each item is checked on its own). */
function scenarioValidator(): ValidateFunction {
  if (!validate) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    ajv.addSchema(scenarioSchema);
    validate = ajv.getSchema(`${scenarioSchema.$id}#/definitions/scenario`)!;
  }
  return validate;
}

const definitions = scenarioSchema.definitions as Record<string, { properties?: Record<string, unknown> }>;

/** Shape problems of one scenario, each at its own YAML node. */
export function checkScenarioShape(data: unknown, node: unknown, where: Locator): Failure[] {
  const v = scenarioValidator();
  if (v(data)) return [];
  const out: Failure[] = [];
  const seen = new Set<string>();
  for (const e of relevant(v.errors ?? [])) {
    const f = toFailure(e, node, where);
    const key = `${f.at.offset}:${f.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(f);
  }
  return out;
}

/** `oneOf` and `type` errors repeat each other; keep the ones an author can act on. */
function relevant(errors: ErrorObject[]): ErrorObject[] {
  return errors.filter((e) => {
    if (e.keyword === 'oneOf') return true;
    // a branch of a `oneOf` (the `log` text-or-list): the `oneOf` error itself says it better
    if (e.schemaPath.includes('/oneOf/')) return false;
    return true;
  });
}

function pathOf(e: ErrorObject): string[] {
  return e.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function named(path: string[]): string {
  if (!path.length) return 'the scenario';
  const [head, index, ...rest] = path;
  if ((head === 'steps' || head === 'setupSteps') && index !== undefined) {
    const inner = rest.length ? ` \`${rest.join('.')}\`` : '';
    return `${head === 'steps' ? 'step' : 'setup step'} ${Number(index) + 1}${inner ? `,${inner}` : ''}`;
  }
  return `\`${path.join('.')}\``;
}

function toFailure(e: ErrorObject, root: unknown, where: Locator): Failure {
  const path = pathOf(e);
  const at = (p: Array<string | number>, key = false) => where.of(nodeAt(root, p, key));
  const fail = (message: string, p: Array<string | number> = path, key = false, hint?: string): Failure => {
    const w = at(p, key);
    return { at: w, message, excerpt: where.line(w.line), hint };
  };
  const parent = path[path.length - 1];
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(e.params.additionalProperty);
      const inStep = path.length === 2 && (path[0] === 'steps' || path[0] === 'setupSteps');
      const inChecks = parent === 'expect' || path[path.length - 1] === 'setup';
      if (inStep) {
        const allowed = path[0] === 'steps' ? ['refused', 'expect', 'rolls', 'when'] : ['rolls'];
        const guess = closest(key, allowed);
        const hint = guess
          ? `did you mean \`${guess}\`?`
          : `a step is \`- p1: <choice id>\`${path[0] === 'steps' ? ', optionally with `rolls:`, `refused:`, `expect:` and `when:`' : ', optionally with `rolls:`'}; players are p1, p2, …`;
        return fail(`\`${key}\` is not part of a step`, [...path, key], true, hint);
      }
      if (inChecks) {
        const keys = parent === 'expect' ? Object.keys(definitions.expect.properties ?? {}) : [];
        const guess = closest(key, keys);
        const what = parent === 'expect' ? 'a check' : 'a setup edit';
        const hint = guess
          ? `did you mean \`${guess}\`?`
          : `write \`<entityId>.<field>\`, e.g. \`p1.points\`${keys.length ? `, or one of: ${keys.join(', ')}` : ''}`;
        return fail(`\`${key}\` is not ${what}`, [...path, key], true, hint);
      }
      const keys = Object.keys((e.parentSchema as { properties?: Record<string, unknown> })?.properties ?? {});
      const guess = closest(key, keys);
      return fail(`unknown key \`${key}\` in ${named(path)}`, [...path, key], true, guess ? `did you mean \`${guess}\`?` : `the keys of a scenario are: ${keys.join(', ')}`);
    }
    case 'required':
      return fail(`${named(path)} needs a \`${e.params.missingProperty}\` entry`, path.length ? path : ['scenario'], true);
    case 'type':
      return fail(`${named(path)} should be ${typeWords(e.params.type)}`);
    case 'oneOf':
      return fail(`${named(path)} should be a text or a list of texts`);
    case 'minProperties':
    case 'maxProperties':
      return fail(`${named(path)} should be one \`pN: <choice id>\` line`, path, false, 'e.g. `- p1: claim a`');
    case 'pattern':
      return fail(`${named(path)} has the wrong form: it must match ${e.params.pattern}`);
    case 'minimum':
      return fail(`${named(path)} should be at least ${e.params.limit}`);
    case 'minLength':
      return fail(`${named(path)} should not be empty`);
    default:
      return fail(`${named(path)} ${e.message ?? 'is invalid'}`);
  }
}

function typeWords(type: unknown): string {
  const words: Record<string, string> = { object: 'a mapping (key: value lines)', array: 'a list', string: 'a text', number: 'a number', integer: 'a whole number', boolean: 'true or false', null: 'none' };
  const list = Array.isArray(type) ? type : String(type).split(',');
  return list.map((t) => words[t] ?? t).join(' or ');
}
