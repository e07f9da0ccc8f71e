/**
 * Names JavaScript reserves (`__proto__`, `constructor`, `toString` …) used as a pack's names: each
 * is refused with RB0107 at the name, and compiling such a pack changes nothing another pack sees.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../../compiler/index.ts';
import { readPackFolder } from '../../compiler/packFolder.ts';
import { JS_RESERVED } from '../../compiler/reserved.ts';
import { budget, MANIFEST, expectPositioned } from './harness.ts';


/** Compiles a one-file pack and returns its RB0107s, checking each points at `name` where it is written. */
function refused(game: string, name: string): void {
  const texts = { 'pack.yaml': MANIFEST(), 'game.yaml': game };
  const r = compile(Object.entries(texts).map(([path, text]) => ({ path, text })));
  expect(r.pack).toBeUndefined();
  const found = r.diagnostics.filter((d) => d.code === 'RB0107');
  expect(found.length, r.diagnostics.map((d) => `${d.code} ${d.message}`).join('\n')).toBeGreaterThan(0);
  for (const d of found) {
    expectPositioned(d, texts);
    expect(d.message).toContain(`\`${name}\``);
    expect(d.hint).toBeTruthy();
    expect(game.split('\n')[d.line - 1].slice(d.column - 1)).toMatch(new RegExp(`^(- )?[a-z]*:? ?${name.replace(/\$/g, '\\$')}`));
  }
  expect(r.diagnostics.some((d) => d.code === 'RB9000')).toBe(false);
}

const flow = 'action pass "Pass" { }\n  flow {\n    for p in players {\n      turn p {\n        offer p: pass\n      }\n    }\n  }';

describe('names JavaScript reserves', () => {
  it('an entity `__proto__` with a rule writing to it: refused, and no object of the process changes', budget, () => {
    refused(`kinds:\n  card:\n    state: { points: number }\nentities:\n  - card: __proto__\nrules: |\n  setup {\n    __proto__.points2 = 7\n  }\n  ${flow}\n`, '__proto__');
    expect(({} as Record<string, unknown>).points2).toBeUndefined();
    const innocent = compile(readPackFolder('test/packs/tiny'));
    expect(innocent.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(innocent.pack).toBeDefined();
  });

  for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
    it(`an action named \`${name}\``, budget, () => refused(`rules: |\n  action ${name}() {\n    log "x"\n  }\n  ${flow}\n`, name));
    it(`an event named \`${name}\``, budget, () => refused(`rules: |\n  event ${name}(n: number)\n  ${flow}\n`, name));
    it(`a choice named \`${name}\``, budget, () => refused(`rules: |\n  proc p() {\n    choose ${name} in players {\n      log "x"\n    }\n  }\n  ${flow}\n`, name));
  }

  it('a kind, a field, an enum, a member and a die', budget, () => {
    refused('kinds:\n  valueOf:\n    props: { n: number }\n', 'valueOf');
    refused('kinds:\n  card:\n    props: { constructor: number }\n', 'constructor');
    refused('kinds:\n  card:\n    state: { toString: number }\n', 'toString');
    refused('enums:\n  prototype: [a, b]\n', 'prototype');
    refused('dice:\n  hasOwnProperty: [1, 2]\n', 'hasOwnProperty');
  });

  it('the list is said once, and every word on it is refused as an id', budget, () => {
    for (const name of JS_RESERVED) refused(`kinds:\n  card:\n    props: { n: number }\nentities:\n  - card: ${name}\n    n: 1\n`, name);
  });
});
