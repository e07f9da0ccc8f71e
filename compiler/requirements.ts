/**
 * What a pack needs from the world: the pack it extends, the packs it depends on, and the version
 * of the rules language it is written for, each with an optional semantic version range
 * (`extends: base-game@^0.1`, `dependsOn: [maps@>=0.1 <1]`, `rulebook: ^0.1`).
 * Read from `pack.yaml` before anything else, so that the right packs can be found and loaded.
 */
import { LRUCache } from 'lru-cache';
import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import semver from 'semver';
import type { DiagnosticInput } from './diagnostic.ts';
import { MAX_FILE_BYTES } from './load.ts';
import { isJsReserved } from './reserved.ts';

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
  id?: string;
  version?: string;
  extends?: Requirement;
  dependsOn: Requirement[];
  /** The language range the pack asks for, with its offsets. */
  language?: { range: string; start: number; end: number };
}

/**
 * A pack id as the manifest schema allows it. Ids become folder names, so only these are ever
 * looked up; `../elsewhere` or `/etc` never reach a path (the schema check reports them).
 */
export function isPackId(id: string): boolean {
  return /^[a-z][a-z0-9-]*$/.test(id) && !isJsReserved(id);
}

/**
 * The requirements a manifest states; a manifest that is no YAML map, or too large to be read,
 * states none (the schema check and the loader say why). An entry whose id is no pack id is left
 * out: the schema check reports it, and it must never become a path.
 */
export function requirementsOf(manifest: string): Requirements {
  let known = readManifests.get(manifest);
  if (!known) {
    known = readRequirements(manifest);
    readManifests.set(manifest, known);
  }
  // A copy: the caller may change what it is given, and the next caller must get what the text says.
  return structuredClone(known);
}

/** Requirements by manifest text: every compile reads them, and the manifest rarely changes while a pack is edited. */
const readManifests = new LRUCache<string, Requirements>({ max: 64 });

function readRequirements(manifest: string): Requirements {
  const out: Requirements = { dependsOn: [] };
  if (manifest.length > MAX_FILE_BYTES) return out;
  let doc;
  try {
    // Not the library's `uniqueKeys`, which compares each key with every key before it (a manifest of
    // 40,000 keys took 36 s to read): a key written twice is the compile's RB0010, and the first is read here either way.
    doc = parseDocument(manifest, { uniqueKeys: false });
  } catch {
    return out;
  }
  if (!isMap(doc.contents)) return out;
  const get = (key: string): Node | undefined => doc.contents && isMap(doc.contents) ? (doc.contents.get(key, true) as Node | undefined) : undefined;
  const id = get('id');
  if (isScalar(id)) out.id = String(id.value);
  const version = get('version');
  if (isScalar(version)) out.version = String(version.value);
  const entry = (node: Node | undefined, how: Requirement['how']): Requirement | undefined => {
    if (!isScalar(node) || typeof node.value !== 'string' || !node.range) return undefined;
    const [id, ...range] = node.value.split('@');
    if (!isPackId(id.trim())) return undefined;
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

/**
 * Packs that build on each other in a circle (`a` extends `b`, `b` extends `a`; or a pack that
 * extends itself) have no first pack to read: RB0009 names the circle, at the entry of this
 * manifest that leads into it. Returns the ids of those entries, which are then not loaded.
 */
export function checkCycles(r: Requirements, manifestOf: (id: string) => string | undefined, report: (d: DiagnosticInput) => void): Set<string> {
  const cyclic = new Set<string>();
  const needsOf = (id: string) => neededPacks(requirementsOf(manifestOf(id) ?? '')).map((n) => n.id);
  for (const need of neededPacks(r)) {
    const circle = pathBack(need.id, r.id, needsOf, [need.id], new Set());
    if (!circle) continue;
    cyclic.add(need.id);
    const names = [r.id ?? 'this pack', ...circle].map((x) => `\`${x}\``).join(' → ');
    report({
      code: 'RB0009',
      message: `this pack ${need.how === 'extends' ? 'extends' : 'depends on'} \`${need.id}\`, which leads back to it: ${names}`,
      at: { file: 'pack.yaml', start: need.start, end: need.end },
      hint: 'packs build on each other in one direction only: remove one of the links of the circle',
    });
  }
  return cyclic;
}

/** The packs from `from` back to `target` (or around any circle met on the way), if there is such a path. */
function pathBack(from: string, target: string | undefined, needsOf: (id: string) => string[], path: string[], seen: Set<string>): string[] | undefined {
  if (from === target) return path;
  if (seen.has(from)) return undefined;
  seen.add(from);
  for (const next of needsOf(from)) {
    if (path.includes(next) && next !== target) return [...path, next];
    const found = pathBack(next, target, needsOf, [...path, next], seen);
    if (found) return found;
  }
  return undefined;
}
