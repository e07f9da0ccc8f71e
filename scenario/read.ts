import { isMap, isNode, isScalar, isSeq, type Document } from 'yaml';
import { COLLECTION_KEY_HINT, documentOf, megabytes } from '../compiler/load.ts';
import { MAX_ALIAS_COUNT } from '../compiler/yamlValue.ts';
import type { SourceFile } from '../compiler/source.ts';
import type { Entry, Failure, Moment, Plain, Rolls, Scenario, ScenarioFile, Step, Where } from './format.ts';
import { checkScenarioShape } from './schema.ts';
import { entryOf, Locator } from './where.ts';

/** The largest scenario file read; the largest shipped one is under 20 kB. */
export const MAX_SCENARIO_BYTES = 1024 * 1024;

/**
 * Reads a scenario file: one scenario (a mapping with `scenario:`) or a list of them. Every key
 * keeps its YAML position, so a failure points at the author's own line and column.
 */
export function readScenarioFile(file: SourceFile): ScenarioFile {
  const where = new Locator(file.path, file.text);
  const out: ScenarioFile = { file: file.path, scenarios: [], problems: [] };
  const problem = (at: ReturnType<Locator['at']>, message: string, hint?: string) => out.problems.push({ at, message, excerpt: where.line(at.line), hint });
  if (file.text.length > MAX_SCENARIO_BYTES) {
    problem(where.at(0, Math.max(1, file.text.indexOf('\n'))), `this scenario file is ${megabytes(file.text.length)}, more than a scenario file may be (${megabytes(MAX_SCENARIO_BYTES)})`, 'split it into several files');
    return out;
  }
  // The compiler's reading: a key written twice is found by a set a mapping, where the library's own check is quadratic in a mapping's keys.
  const doc = documentOf(file.text);
  if (doc.errors.length) {
    // Those keys come after the library's errors; the first problem gives the file's place.
    for (const e of [...doc.errors].sort((a, b) => a.pos[0] - b.pos[0])) {
      const hint = e.code === 'DUPLICATE_KEY' ? 'each key may appear once in a mapping' : e.code === 'NON_STRING_KEY' ? COLLECTION_KEY_HINT : undefined;
      problem(where.at(e.pos[0], Math.max(e.pos[1], e.pos[0] + 1)), `this YAML is malformed: ${e.message.split('\n')[0]}`, hint);
    }
    return out;
  }
  try {
    // Every later read of a node is a part of this one, so none of them can exceed the alias budget.
    doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    problem(where.at(0, Math.max(1, file.text.indexOf('\n'))), `this YAML cannot be read: ${(e as Error).message}`, 'an alias `*name` needs its anchor `&name` earlier in the file, and aliases may not multiply a value many times over');
    return out;
  }
  const root = doc.contents;
  if (isSeq(root)) {
    if (!root.items.length) problem(where.of(root), 'this scenario file holds an empty list', 'add `- scenario: <what it shows>` entries');
    for (const item of root.items) {
      if (isMap(item)) out.scenarios.push(readScenario(item, doc, where));
      else problem(where.of(item), 'each entry of a scenario list should be a scenario (a mapping with `scenario:`)');
    }
  } else if (isMap(root)) {
    out.scenarios.push(readScenario(root, doc, where));
  } else {
    problem(where.of(root), root ? 'a scenario file holds a scenario (a mapping with `scenario:`) or a list of them' : 'this scenario file is empty', 'start with `scenario: <what it shows>`');
  }
  return out;
}

function plain(node: unknown, doc: Document.Parsed): Plain {
  return (isNode(node) ? node.toJS(doc) : node ?? null) as Plain;
}

function readScenario(map: import('yaml').YAMLMap, doc: Document.Parsed, where: Locator): Scenario {
  const data = map.toJS(doc) as Record<string, unknown>;
  const problems = checkScenarioShape(data, map, where);
  const nameEntry = entryOf(map, 'scenario');
  const playersEntry = entryOf(map, 'players');
  const packEntry = entryOf(map, 'pack');
  const at = where.of(nameEntry?.key ?? map);
  const scenario: Scenario = {
    name: typeof data.scenario === 'string' && data.scenario ? data.scenario : `scenario at line ${at.line}`,
    file: where.file,
    at,
    pack: typeof data.pack === 'string' ? { id: data.pack, at: where.of(packEntry?.value) } : undefined,
    seed: typeof data.seed === 'number' ? data.seed : 1,
    players: typeof data.players === 'number' ? data.players : 0,
    playersAt: where.of(playersEntry?.value ?? playersEntry?.key ?? map),
    setup: entries(entryOf(map, 'setup')?.value, doc, where),
    setupSteps: steps(entryOf(map, 'setupSteps')?.value, doc, where, problems, 'setup step'),
    rolls: rollsOf(entryOf(map, 'rolls'), doc, where),
    steps: steps(entryOf(map, 'steps')?.value, doc, where, problems, 'step'),
    expect: entries(entryOf(map, 'expect')?.value, doc, where),
    problems,
  };
  problems.sort((a, b) => a.at.offset - b.at.offset);
  return scenario;
}

function entries(node: unknown, doc: Document.Parsed, where: Locator): Entry[] {
  if (!isMap(node)) return [];
  return node.items.map((p) => ({
    key: String(isScalar(p.key) ? p.key.value : p.key),
    value: plain(p.value, doc),
    keyAt: where.of(p.key),
    valueAt: where.of(p.value ?? p.key),
    textAt: textAt(p.value, where),
    itemsAt: isSeq(p.value) ? p.value.items.map((x) => textAt(x, where) ?? where.of(x)) : undefined,
  }));
}

/** Where a scalar's own text starts: after its quote; none for block scalars, whose lines are re-indented. */
function textAt(node: unknown, where: Locator): Where | undefined {
  if (!isScalar(node) || !node.range) return undefined;
  const quoted = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE';
  if (node.type !== 'PLAIN' && !quoted) return undefined;
  return quoted ? where.at(node.range[0] + 1, node.range[1] - 1) : where.at(node.range[0], node.range[1]);
}

function rollsOf(node: ReturnType<typeof entryOf>, doc: Document.Parsed, where: Locator): Rolls | undefined {
  if (!node) return undefined;
  const value = plain(node.value, doc);
  return { values: Array.isArray(value) ? value : [value], at: where.of(node.key) };
}

function moments(node: unknown, doc: Document.Parsed, where: Locator): Moment[] {
  if (!isSeq(node)) return [];
  return node.items.filter(isMap).map((m) => {
    const logged = entryOf(m, 'logged');
    return { logged: String(plain(logged?.value, doc) ?? ''), at: where.of(logged?.key ?? m), expect: entries(entryOf(m, 'expect')?.value, doc, where) };
  });
}

function steps(node: unknown, doc: Document.Parsed, where: Locator, problems: Failure[], word: string): Step[] {
  if (!isSeq(node)) return [];
  const out: Step[] = [];
  node.items.forEach((item, index) => {
    if (!isMap(item)) return; // the schema check has said so
    const players = item.items.filter((p) => isScalar(p.key) && /^p[1-9][0-9]*$/.test(String(p.key.value)));
    if (players.length !== 1) {
      const w = where.of(players[1]?.key ?? item);
      if (!problems.some((f) => f.at.offset === w.offset)) {
        problems.push({
          at: w,
          message: players.length ? `${word} ${index + 1} names ${players.length} players; a step is one player's choice` : `${word} ${index + 1} names no player`,
          excerpt: where.line(w.line),
          hint: 'write each choice as its own step: `- p1: claim a`',
        });
      }
      return;
    }
    const pair = players[0];
    const refused = entryOf(item, 'refused');
    const refusedValue = refused ? plain(refused.value, doc) : undefined;
    out.push({
      index,
      player: String((pair.key as import('yaml').Scalar).value),
      choice: String(plain(pair.value, doc) ?? ''),
      at: where.of(pair.key),
      refused: refused && refusedValue !== false ? { text: typeof refusedValue === 'string' ? refusedValue : true, at: where.of(refused.key) } : undefined,
      expect: entries(entryOf(item, 'expect')?.value, doc, where),
      rolls: rollsOf(entryOf(item, 'rolls'), doc, where),
      moments: moments(entryOf(item, 'when')?.value, doc, where),
    });
  });
  return out;
}
