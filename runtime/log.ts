import { MAX_TEXT } from './budget.ts';
import type { CompiledPack } from './compiled.ts';
import type { GameState } from './types.ts';
import { displayLanguage } from './values.ts';

/** A line of the game log: which choice led to it, the rule that wrote it (`file:line`), and whose it is. */
export function logLine(st: GameState, step: number, text: string, rule: string | undefined, player: string | undefined): void {
  if (keeping) st.log.push({ step, text, rule, player });
}

/** False while a playout's choice is applied (`playoutApply`): a game whose record nobody reads writes no log. */
let keeping = true;

/** Whether the log is kept now: the lines the runtime writes itself are not even made while it is not. */
export function logKept(): boolean {
  return keeping;
}

/** Runs `run` writing no log line. */
export function withoutLog<T>(run: () => T): T {
  const outer = keeping;
  keeping = false;
  try {
    return run();
  } finally {
    keeping = outer;
  }
}

interface Plurals {
  pattern: RegExp;
  forms: Map<string, Record<string, string>>;
  rules: Intl.PluralRules;
  /** The most characters a form is longer than its word. */
  growth: number;
}

const compiled = new WeakMap<CompiledPack, Plurals | null>();
const DIGIT_THEN_SPACE = /\d\s/;

function pluralsFor(pack: CompiledPack): Plurals | null {
  let p = compiled.get(pack);
  if (p === undefined) {
    p = pluralsOf(pack);
    compiled.set(pack, p);
  }
  return p;
}

/**
 * Whether a log line whose parts, displayed, are `length` characters long passes the text budget
 * (`checkText`) once pluralized, whatever its words: each number and word `pluralize` replaces
 * takes at least three characters (a digit, a space, a letter), and its form is at most `growth`
 * longer. While no log is kept (`withoutLog`), such a line's parts are evaluated, as they may fail,
 * but the line is not made: a line that fails still fails in both modes.
 */
export function surelyFits(pack: CompiledPack, length: number): boolean {
  const growth = pluralsFor(pack)?.growth ?? 0;
  return length + Math.floor(length / 3) * growth <= MAX_TEXT;
}

/**
 * A filled text (log line, prompt, action label, refusal) with every number followed by a word the
 * pack gives plural forms for ("1 token(s)", "5 żeton(y)") in the form its number takes in the
 * display language: "1 token", "2 tokens"; "1 żeton", "2 żetony", "5 żetonów". The words and forms
 * are the pack's (`plurals:` of its language file), the categories the language's own
 * (`Intl.PluralRules`), so the runtime knows no game's words.
 */
export function pluralize(pack: CompiledPack, text: string): string {
  const p = pluralsFor(pack);
  // Most texts hold no number followed by a word: they skip the pattern.
  if (!p || !DIGIT_THEN_SPACE.test(text)) return text;
  const { forms, rules } = p;
  return text.replace(p.pattern, (all, n: string, space: string, word: string) => {
    const f = forms.get(word);
    if (!f) return all;
    return `${n}${space}${f[rules.select(Number(n))] ?? f.other ?? all}`;
  });
}

function pluralsOf(pack: CompiledPack): Plurals | null {
  const lang = displayLanguage(pack);
  const table = pack.plurals?.[lang];
  if (!table) return null;
  const forms = new Map(Object.entries(table));
  if (!forms.size) return null;
  // Longest words first, so "gold coin(s)" wins over "coin(s)"; a word ends where a letter does not follow.
  const words = [...forms.keys()].sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  let rules: Intl.PluralRules;
  try {
    rules = new Intl.PluralRules(lang);
  } catch {
    rules = new Intl.PluralRules('en');
  }
  let growth = 0;
  for (const [word, f] of forms) for (const form of Object.values(f)) growth = Math.max(growth, form.length - word.length);
  return { pattern: new RegExp(`(\\d+)(\\s+)(${words.join('|')})(?![\\p{L}\\p{N}])`, 'gu'), forms, rules, growth };
}
