import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import manifestSchema from '../schemas/manifest.schema.json' with { type: 'json' };
import packFileSchema from '../schemas/pack-file.schema.json' with { type: 'json' };
import presentationSchema from '../schemas/presentation.schema.json' with { type: 'json' };
import type { DiagnosticInput } from './diagnostic.ts';
import { spanAt, type LoadedFile, type LoadedPack } from './load.ts';
import { closest } from './suggest.ts';

let validators: { manifest: ValidateFunction; file: ValidateFunction } | undefined;

function compiled() {
  if (!validators) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    // A pack file's `presentation` refers to it.
    ajv.addSchema(presentationSchema);
    validators = { manifest: ajv.compile(manifestSchema), file: ajv.compile(packFileSchema) };
  }
  return validators;
}

/**
 * What the schema said of each file's value. Values come from the parse cache (compiler/load.ts),
 * one per file text and never changed, so a file is validated again only when its text changes.
 */
const verdicts = new WeakMap<object, { manifest?: ErrorObject[]; file?: ErrorObject[] }>();

function errorsOf(validate: ValidateFunction, which: 'manifest' | 'file', data: unknown): ErrorObject[] {
  const key = data !== null && typeof data === 'object' ? data : undefined;
  const known = key && verdicts.get(key)?.[which];
  if (known) return known;
  // ajv reuses its `errors` array from call to call: keep a copy.
  const errors = validate(data) ? [] : [...(validate.errors ?? [])];
  if (key) verdicts.set(key, { ...verdicts.get(key), [which]: errors });
  return errors;
}

/** Stage 2: the shape of every file against the shipped JSON Schemas; each error points at its YAML node. */
export function checkSchemas(pack: LoadedPack, report: (d: DiagnosticInput) => void): boolean {
  const v = compiled();
  let ok = true;
  if (pack.manifest) {
    const errors = errorsOf(v.manifest, 'manifest', pack.manifest.data ?? {});
    if (errors.length) ok = false;
    for (const e of relevant(errors)) report(toDiagnostic(pack.manifest, e, manifestSchema));
  }
  for (const file of pack.files) {
    if (file.data === null || file.data === undefined) continue;
    const errors = errorsOf(v.file, 'file', file.data);
    if (!errors.length) continue;
    ok = false;
    for (const e of relevant(errors)) report(toDiagnostic(file, e, packFileSchema));
  }
  return ok;
}

/** `oneOf` failures repeat every branch's complaint; keep the most specific ones. */
function relevant(errors: ErrorObject[]): ErrorObject[] {
  const seen = new Set<string>();
  const out: ErrorObject[] = [];
  const hasInner = (path: string) => errors.some((e) => e.instancePath.startsWith(path + '/'));
  for (const e of errors) {
    if (e.keyword === 'oneOf' && errors.some((o) => o !== e && o.instancePath === e.instancePath)) continue;
    if (e.keyword === 'type' && e.schemaPath.includes('oneOf') && hasInner(e.instancePath)) continue;
    const key = e.instancePath + e.keyword + JSON.stringify(e.params);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(e);
  }
  return out;
}

function toDiagnostic(file: LoadedFile, e: ErrorObject, schema: { properties?: Record<string, unknown> }): DiagnosticInput {
  const path = e.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const where = path.length ? `\`${path.join('.')}\`` : 'the file';
  if (e.keyword === 'additionalProperties') {
    const key = String(e.params.additionalProperty);
    const allowed = allowedKeys(e, schema);
    const guess = closest(key, allowed);
    return {
      code: 'RB0101',
      message: `unknown key \`${key}\` in ${where}`,
      at: spanAt(file, [...path, key], true),
      hint: guess ? `did you mean \`${guess}\`?` : allowed.length ? `allowed keys: ${allowed.join(', ')}` : undefined,
      fix: guess ? { replacement: guess, safe: false } : undefined,
    };
  }
  if (e.keyword === 'required') {
    return { code: 'RB0102', message: `${where} needs a \`${e.params.missingProperty}\` entry`, at: spanAt(file, path) };
  }
  if (e.keyword === 'type') {
    return { code: 'RB0103', message: `${where} should be ${article(String(e.params.type))}`, at: spanAt(file, path) };
  }
  if (e.keyword === 'pattern') {
    return { code: 'RB0104', message: `${where} has the wrong form: it must match ${e.params.pattern}`, at: spanAt(file, path) };
  }
  return { code: 'RB0105', message: `${where} ${e.message ?? 'is invalid'}`, at: spanAt(file, path) };
}

function article(type: string): string {
  const words: Record<string, string> = { object: 'a mapping (key: value lines)', array: 'a list', string: 'a text', number: 'a number', integer: 'a whole number', boolean: 'true or false' };
  return type.split(',').map((t) => words[t] ?? t).join(' or ');
}

function allowedKeys(e: ErrorObject, schema: { properties?: Record<string, unknown> }): string[] {
  const parentSchema = e.parentSchema as { properties?: Record<string, unknown> } | undefined;
  return Object.keys(parentSchema?.properties ?? (e.instancePath === '' ? schema.properties ?? {} : {}));
}
