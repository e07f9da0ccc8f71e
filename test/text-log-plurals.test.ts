/**
 * Plurals in log lines, prompts and action labels (issue #13): a number followed by a word the
 * pack gives plural forms for (`plurals:` in its language file) takes the form its number wants in
 * the display language — "1 token", "2 tokens"; "1 żeton", "2 żetony", "5 żetonów" — through the
 * real compiler and runtime, with the words and forms from the pack and the categories from the
 * language. Only what is filled in is chosen: a text with no `{…}` is as its author wrote it.
 */
import { describe, expect, it } from 'vitest';
import { compile, type SourceFile } from '../compiler/index.ts';
import { apply, legalChoices, newGame } from '../runtime/index.ts';

function pack(lang: 'en' | 'pl', plurals: string, texts: { log: string; label: string; prompt: string }): SourceFile[] {
  return [
    { path: 'pack.yaml', text: `id: plurals\nversion: 0.1.0\nname: { ${lang}: Plurals }\nlanguages: [${lang}]\nplayers: { min: 2, max: 2 }\n` },
    { path: `language/${lang}.yaml`, text: `language:\n  lang: ${lang}\n  plurals:\n${plurals}` },
    {
      path: 'game.yaml',
      text: `kinds:
  player:
    state:
      hand: number
rules: |
  action place(n: number in 1..5) "${texts.label}" {
    me.hand += n
    log "${texts.log}"
  }
  flow {
    for n in [1, 2, 5, 22] {
      log "${texts.log}"
    }
    for p in players {
      turn p {
        choose k in [1, 2, 5] by p "${texts.prompt}" {
          log "${texts.log.replace('{n}', '{k}')}"
        }
        offer p: place
      }
    }
  }
`,
    },
  ];
}

function compiled(files: SourceFile[]) {
  const r = compile(files);
  expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return r.pack!;
}

describe('plural forms in log lines and prompts, from the pack’s language file', () => {
  it('Polish: 1 żeton, 2 żetony, 5 żetonów, 22 żetony', () => {
    const p = compiled(pack('pl', '    "żeton(y)": { one: żeton, few: żetony, many: żetonów, other: żetonu }\n', { log: 'Połóż {n} żeton(y)', label: 'Połóż {n} żeton(y)', prompt: 'Weź {p.hand + 1} żeton(y) albo więcej' }));
    let st = newGame(p, { players: 2, seed: 1 });
    expect(st.log.map((l) => l.text).filter((t) => t.startsWith('Połóż'))).toEqual(['Połóż 1 żeton', 'Połóż 2 żetony', 'Połóż 5 żetonów', 'Połóż 22 żetony']);
    expect(st.prompt?.text).toBe('Weź 1 żeton albo więcej');
    const five = legalChoices(st).find((c) => c.id.endsWith(' 5'))!;
    const r = apply(st, five.id);
    if (!r.ok) throw new Error(r.reason);
    st = r.state;
    expect(st.log.at(-1)!.text).toBe('Połóż 5 żetonów');
    const labels = legalChoices(st).map((c) => c.label);
    expect(labels).toContain('Połóż 1 żeton');
    expect(labels).toContain('Połóż 2 żetony');
    expect(labels).toContain('Połóż 5 żetonów');
  });

  it('English: 1 token, 2 tokens; "1 tokens" written plainly is mended the same way', () => {
    const forms = '    "token(s)": { one: token, other: tokens }\n    tokens: { one: token, other: tokens }\n';
    const st = newGame(compiled(pack('en', forms, { log: 'Place {n} token(s)', label: 'Place {n} tokens', prompt: 'Take {p.hand + 1} tokens or more' })), { players: 2, seed: 1 });
    expect(st.log.map((l) => l.text).filter((t) => t.startsWith('Place'))).toEqual(['Place 1 token', 'Place 2 tokens', 'Place 5 tokens', 'Place 22 tokens']);
    expect(st.prompt?.text).toBe('Take 1 token or more');
  });

  it('a pack without plural forms logs its texts as written', () => {
    const files = pack('en', '    {}\n', { log: 'Place {n} token(s)', label: 'Place {n} token(s)', prompt: 'Take 1 token(s)' });
    files[1] = { path: 'language/en.yaml', text: 'language:\n  lang: en\n' };
    const st = newGame(compiled(files), { players: 2, seed: 1 });
    expect(st.log.map((l) => l.text).filter((t) => t.startsWith('Place'))).toEqual(['Place 1 token(s)', 'Place 2 token(s)', 'Place 5 token(s)', 'Place 22 token(s)']);
  });
});
