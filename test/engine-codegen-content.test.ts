/**
 * Content never reaches code: a pack whose texts and file names hold what would break out of a
 * JavaScript string or comment (quotes, backticks, `${`, `*\/`, a line separator, `__proto__`) is
 * generated into source that holds none of it, whose every string literal is one of the
 * emitter's own, and plays the same as under the interpreter, its texts arriving as data.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.ts';
import { generatedSource } from '../runtime/link.ts';
import { apply, legalChoices, newGame, type EngineName } from '../runtime/index.ts';

const HOSTILE = ['"', "'", '`', '${', '*/', '/*', '\u2028', '\u2029', '__proto__', '</script>', '\\'];
/** Texts the rules show, each carrying every fragment above. */
const evil = (tag: string) => `${tag} "q" 'a' \`b\` \${process.exit()} */ /* \u2028 \u2029 __proto__ </script> \\ end`;
const yamlText = (s: string) => JSON.stringify(s);
/** A text of the rules language saying `evil(tag)`: its `{` doubled, as the language writes a literal brace. */
const ruleText = (tag: string) => JSON.stringify(evil(tag).replace(/\{/g, '{{').replace(/\}/g, '}}'));

const gameYaml = `kinds:
  game:
    state:
      n: number
      said: text
  spot:
    props:
      worth: number
    state:
      taken: bool
entities:
  - spot: s1
    name: { en: ${yamlText(evil('spot one'))} }
    worth: 2
  - spot: s2
    name: { en: ${yamlText(evil('spot two'))} }
    worth: -3
rules: |
  action grab(s: spot) ${ruleText('label')} {
    require not s.taken else ${ruleText('taken')}
    require game.n < 5 else ${ruleText('full')}
    s.taken = true
    game.n += s.worth
    game.said = ${ruleText('said')} + " {s}"
    log ${ruleText('log')}
  }
  action pass ${ruleText('pass')} {
    choose x in [1, 2, 3] ${ruleText('prompt')} {
      game.n += x
    }
  }
  flow {
    loop max 4 {
      for p in players {
        turn p { offer p: grab, pass }
      }
    }
  }
`;

const files = [
  { path: 'pack.yaml', text: `id: hostile-text\nversion: 0.1.0\nname: { en: ${yamlText(evil('name'))} }\nlanguages: [en]\nplayers: { min: 2, max: 2 }\n` },
  { path: 'rules "q" `b` ${x} *.yaml', text: gameYaml },
];

describe('a pack whose texts hold JavaScript', () => {
  const { pack, diagnostics } = compile(files);

  it('compiles, its texts kept', () => {
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(pack).toBeDefined();
  });

  it('is generated into source holding none of its texts, every string literal the emitter’s own', () => {
    const source = generatedSource(pack!);
    expect(source.length).toBeGreaterThan(100);
    for (const bad of HOSTILE.filter((b) => b !== '"')) expect(source.includes(bad), JSON.stringify(bad)).toBe(false);
    // As words: the emitter's own names may hold one (`H.spend` holds `end`).
    for (const word of ['spot one', 'label', 'taken', 'full', 'said', 'prompt', 'process', 'end']) expect(new RegExp(`\\b${word}\\b`).test(source), word).toBe(false);
    const literals = new Set(source.match(/"[^"\n]*"/g));
    expect([...literals].every((l) => ['"use strict"', '""', '"string"', '"+"', '"-"', '"*"', '"/"'].includes(l)), [...literals].join(' ')).toBe(true);
  });

  it('plays the same under both engines, its texts reaching the game as data', () => {
    const play = (engine: EngineName) => {
      const trail: string[] = [];
      let st = newGame(pack!, { players: 2, seed: 3, engine });
      for (let i = 0; i < 12 && !st.over; i++) {
        const legal = legalChoices(st);
        trail.push(JSON.stringify(legal));
        const refused = apply(st, "grab s1");
        trail.push(JSON.stringify(refused.ok ? refused.state : refused));
        const r = apply(st, legal[i % legal.length]);
        if (!r.ok) throw new Error(r.reason);
        st = r.state;
        trail.push(JSON.stringify(st));
      }
      return { trail, st };
    };
    const gen = play('generated');
    const ref = play('interpreter');
    expect(gen.trail).toEqual(ref.trail);
    const log = gen.st.log.map((l) => l.text).join('\n');
    const said = String(gen.st.e.game.said);
    for (const bad of HOSTILE) {
      expect(log.includes(bad) || said.includes(bad), JSON.stringify(bad)).toBe(true);
    }
    expect(log).toContain('log "q"');
  });
});
