/**
 * What a pack needs from the world: the pack it extends, the packs it depends on, and the version
 * of the rules language it is written for, each with an optional semantic version range
 * (`extends: base-game@^0.1`, `dependsOn: [maps@>=0.1 <1]`, `rulebook: ^0.1`).
 * Read from `pack.yaml` before anything else, so that the right packs can be found and loaded.
 */
import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import semver from 'semver';
import type { DiagnosticInput } from './diagnostic.ts';

/** The version of the rules language this compiler reads; packs may ask for a range of it (`rulebook: ^0.1`). */
export const LANGUAGE_VERSION = '0.1.0';

export interface Requirement {
  id: string;
  /** A semver range, when the manifest gives one after `@`. */
  range?: string;
  how: 'extends' | 'dependsOn';
  /** Offsets in pack.yaml of the whole entry (`id@range`). */
  start: number;
  end: number;
}

export interface Requirements {
  version?: string;
  extends?: Requirement;
  dependsOn: Requirement[];
  /** The language range the pack asks for, with its offsets. */
  language?: { range: string; start: number; end: number };
}

/** The requirements a manifest states; a manifest that is no YAML map states none (the schema check says why). */
export function requirementsOf(manifest: string): Requirements {
  const out: Requirements = { dependsOn: [] };
  let doc;
  try {
    doc = parseDocument(manifest);
  } catch {
    return out;
  }
  if (!isMap(doc.contents)) return out;
  const get = (key: string): Node | undefined => doc.contents && isMap(doc.contents) ? (doc.contents.get(key, true) as Node | undefined) : undefined;
  const version = get('version');
  if (isScalar(version)) out.version = String(version.value);
  const entry = (node: Node | undefined, how: Requirement['how']): Requirement | undefined => {
    if (!isScalar(node) || typeof node.value !== 'string' || !node.range) return undefined;
    const [id, ...range] = node.value.split('@');
    return { id: id.trim(), range: range.length ? range.join('@').trim() : undefined, how, start: node.range[0], end: node.range[1] };
  };
  out.extends = entry(get('extends'), 'extends');
  const deps = get('dependsOn');
  if (isSeq(deps)) for (const item of deps.items) {
    const r = entry(item as Node, 'dependsOn');
    if (r) out.dependsOn.push(r);
  }
  const language = get('rulebook');
  if (isScalar(language) && language.range && language.value !== null) out.language = { range: String(language.value), start: language.range[0], end: language.range[1] };
  return out;
}

/** Every pack a manifest needs, the one it extends first. */
export function neededPacks(r: Requirements): Requirement[] {
  return [...(r.extends ? [r.extends] : []), ...r.dependsOn];
}

/**
 * Diagnostics for version ranges the packs found do not satisfy, for a range that is no range, and
 * for a rules language version the pack does not accept.
 */
export function checkVersions(r: Requirements, found: (id: string) => string | undefined, report: (d: DiagnosticInput) => void): void {
  const at = (x: { start: number; end: number }) => ({ file: 'pack.yaml', start: x.start, end: x.end });
  for (const need of neededPacks(r)) {
    if (need.range === undefined) continue;
    if (!semver.validRange(need.range)) {
      report({ code: 'RB0005', message: `\`${need.range}\` is not a version range`, at: at(need), hint: `write a semantic version range after \`@\`, e.g. \`${need.id}@^0.1\` or \`${need.id}@>=1.2 <2\`` });
      continue;
    }
    const version = found(need.id);
    if (version === undefined) continue;
    if (!semver.valid(version) || !semver.satisfies(version, need.range)) {
      report({
        code: 'RB0004',
        message: `this pack ${need.how === 'extends' ? 'extends' : 'depends on'} \`${need.id}\` ${need.range}, but the \`${need.id}\` found is version ${version}`,
        at: at(need),
        hint: `use a \`${need.id}\` whose version satisfies ${need.range}, or widen the range if this pack works with ${version}`,
      });
    }
  }
  if (r.language) {
    if (!semver.validRange(r.language.range)) report({ code: 'RB0005', message: `\`${r.language.range}\` is not a version range`, at: at(r.language), hint: 'write a semantic version range, e.g. `rulebook: ^0.1`' });
    else if (!semver.satisfies(LANGUAGE_VERSION, r.language.range)) {
      report({ code: 'RB0006', message: `this pack is written for version ${r.language.range} of the rules language; this compiler reads version ${LANGUAGE_VERSION}`, at: at(r.language), hint: `use a rulebook whose language version satisfies ${r.language.range}, or check the pack against ${LANGUAGE_VERSION} and change the range` });
    }
  }
}
