/**
 * A kind's field is named as the rules read it after a dot: a word of letters, digits and `_`, not
 * starting with a digit (RB0221, at the field's key in the YAML, with a name to use instead). A
 * keyword is a field name (`t.turn`), as the lexer reads one after a dot; names the compiler used to
 * take (`a.b`, which a scenario's `entity.field` could not even name, text that would end a string
 * of generated code) are refused in `props` and `state` alike.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.ts';
import { apply, legalChoices, newGame } from '../runtime/index.ts';
import { packFiles } from './helpers/inlinePack.ts';

const yamlWith = (section: 'props' | 'state', field: string) => `kinds:
  game:
    state:
      n: number
  tile:
    ${section}:
      ${JSON.stringify(field)}: number
      turn: number
entities:
  - tile: t1
    turn: 2
rules: |
  action go "Go" { game.n += t1.turn }
  flow { loop max 3 { for p in players { turn p { offer p: go } } } }
`;

const refused: Array<[string, string | undefined]> = [
  ['a.b', 'a_b'],
  ['a b', 'a_b'],
  ['"]; process.exit() //', 'process_exit'],
  ['`${x}`', 'x'],
  ['\u2028x', 'x'],
  ['', undefined],
  ['1x', '_1x'],
  ['über', 'uber'],
  ['-', undefined],
];

describe('field names', () => {
  for (const section of ['props', 'state'] as const) {
    for (const [field, instead] of refused) {
      it(`${section}: ${JSON.stringify(field)} is refused at its key, ${instead ? `\`${instead}\` offered` : 'told what a name is'}`, () => {
        const files = packFiles(yamlWith(section, field), { min: 2, max: 2 });
        const r = compile(files);
        expect(r.pack).toBeUndefined();
        expect(r.diagnostics.map((d) => d.code)).toEqual(['RB0221']);
        const [d] = r.diagnostics;
        const text = files.find((f) => f.path === d.file)!.text;
        // The field's key: line 7, after six spaces, spanning the key as written (quoted).
        expect([d.line, d.column]).toEqual([7, 7]);
        expect(text.slice(d.offset, d.endOffset)).toBe(JSON.stringify(field));
        expect(d.message).toContain(`\`${field}\` cannot be a field name`);
        if (instead) {
          expect(d.hint).toBe(`rename it, e.g. to \`${instead}\``);
          expect(d.fix?.replacement).toBe(instead);
        } else {
          expect(d.hint).toMatch(/letters, digits and `_`/);
          expect(d.fix).toBeUndefined();
        }
      });
    }
  }

  it('a keyword, a name with `_` and digits are field names, read after a dot', () => {
    const r = compile(packFiles(yamlWith('state', '_hits_2'), { min: 2, max: 2 }));
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    let st = newGame(r.pack!, { players: 2, seed: 1 });
    const done = apply(st, legalChoices(st)[0]);
    expect(done.ok).toBe(true);
    st = done.ok ? done.state : st;
    expect(st.e.game.n).toBe(2);
    expect(st.e.t1._hits_2).toBe(0);
  });
});
