/**
 * Words of a card text and the phrases a language file uses to recognise them. No Node imports:
 * the text checker runs in the playground's web worker too.
 *
 * A phrase is written as words separated by spaces, matched case-insensitively against whole words:
 *   `word`        exactly that word          `word*`     any word starting with `word`
 *   `pay|pays`    one of these               `you?`      an optional word
 *   `…` or `...`  up to four other words (never across punctuation)
 * Diacritics are kept: `ó` and `o` are different letters.
 */

export interface Token {
  text: string;
  /** Lower-cased in the text's language. */
  lower: string;
  start: number;
  end: number;
  /** Punctuation: `.`, `,`, `(`, `:` … Phrases never run across it. */
  punct: boolean;
  /** A sentence starts here (the first word of the text, or after `.`, `!`, `?`, `:`). */
  sentenceStart: boolean;
}

const WORD = /[\p{L}\p{N}]+(?:['’\-][\p{L}\p{N}]+)*/uy;
const SPACE = /\s+/uy;

export function tokenize(text: string, lang: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let sentence = true;
  while (i < text.length) {
    SPACE.lastIndex = i;
    if (SPACE.test(text)) {
      i = SPACE.lastIndex;
      continue;
    }
    WORD.lastIndex = i;
    const m = WORD.exec(text);
    if (m) {
      out.push({ text: m[0], lower: lower(m[0], lang), start: i, end: i + m[0].length, punct: false, sentenceStart: sentence });
      sentence = false;
      i += m[0].length;
      continue;
    }
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    out.push({ text: ch, lower: ch, start: i, end: i + ch.length, punct: true, sentenceStart: false });
    if ('.!?:'.includes(ch)) sentence = true;
    i += ch.length;
  }
  return out;
}

export function lower(s: string, lang: string): string {
  try {
    return s.toLocaleLowerCase(lang);
  } catch {
    return s.toLowerCase();
  }
}

type Slot =
  | { k: 'word'; alts: Array<{ word: string; prefix: boolean }>; optional: boolean }
  | { k: 'gap'; max: number }
  | { k: 'number' };

/** A compiled phrase. `source` is what the language file says, for messages. */
export interface Phrase {
  source: string;
  slots: Slot[];
}

export const GAP = 4;

/** `{n}` in a phrase stands for a number (digits or a number word); used by limits. */
export function compilePhrase(source: string, lang: string): Phrase {
  const slots: Slot[] = [];
  for (const raw of source.trim().split(/\s+/)) {
    if (!raw) continue;
    if (raw === '…' || raw === '...') {
      slots.push({ k: 'gap', max: GAP });
      continue;
    }
    if (raw === '{n}') {
      slots.push({ k: 'number' });
      continue;
    }
    const optional = raw.endsWith('?') && raw.length > 1;
    const body = optional ? raw.slice(0, -1) : raw;
    const alts = body
      .split('|')
      .filter(Boolean)
      .map((w) => (w.endsWith('*') ? { word: lower(w.slice(0, -1), lang), prefix: true } : { word: lower(w, lang), prefix: false }));
    slots.push({ k: 'word', alts, optional });
  }
  return { source, slots };
}

/** The word forms of a phrase that could start a match, for a quick index. */
function wordMatches(slot: Extract<Slot, { k: 'word' }>, t: Token): boolean {
  if (t.punct) return false;
  return slot.alts.some((a) => (a.prefix ? t.lower.startsWith(a.word) : t.lower === a.word));
}

export interface Match {
  /** Token indexes: [from, to) */
  from: number;
  to: number;
  /** Where `{n}` matched, if the phrase has one. */
  numberAt?: number;
}

/**
 * Matches a phrase at token `i`. `isNumber` tells whether a token starts a number and how many
 * tokens it takes (for `{n}`). Returns the longest match (the first found, trying fewer words in a
 * gap and a present optional word first, on a tie).
 *
 * The best way to finish the phrase from slot `s` at token `t` does not depend on how the match
 * got there, so it is worked out once per (slot, token): a language file is untrusted, and trying
 * every way through a phrase of many gaps takes time exponential in their number.
 */
export function matchAt(p: Phrase, tokens: Token[], i: number, isNumber?: (i: number) => number): Match | undefined {
  /** The farthest end from (slot, at), and where `{n}` matched on the way, if it did after `slot`. */
  type Best = { to: number; numberAt?: number } | null;
  const memo = new Map<number, Best>();
  const width = tokens.length + 2;
  const go = (slot: number, at: number): Best => {
    if (slot === p.slots.length) return { to: at };
    const key = slot * width + at;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let best: Best = null;
    const consider = (r: Best, numberAt?: number) => {
      if (r && (!best || r.to > best.to)) best = { to: r.to, numberAt: r.numberAt ?? numberAt };
    };
    const s = p.slots[slot];
    if (s.k === 'gap') {
      // zero to `max` words, never across punctuation
      for (let n = 0, j = at; n <= s.max; n++, j++) {
        consider(go(slot + 1, j));
        if (j >= tokens.length || tokens[j].punct) break;
      }
    } else if (s.k === 'number') {
      const len = at < tokens.length && isNumber ? isNumber(at) : 0;
      if (len > 0) consider(go(slot + 1, at + len), at);
    } else {
      if (at < tokens.length && wordMatches(s, tokens[at])) consider(go(slot + 1, at + 1));
      if (s.optional) consider(go(slot + 1, at));
    }
    memo.set(key, best);
    return best;
  };
  const best = go(0, i);
  return best && best.to > i ? { from: i, to: best.to, numberAt: best.numberAt } : undefined;
}

/** Phrases by the words they can start with, so that each token tries only the phrases it can start. */
interface FirstWords {
  exact: Map<string, number[]>;
  prefixes: Array<{ word: string; index: number }>;
  always: number[];
}

const firstWordsOf = new WeakMap<object, FirstWords>();

function firstWords(entries: Array<{ phrase: Phrase }>): FirstWords {
  let f = firstWordsOf.get(entries);
  if (f) return f;
  f = { exact: new Map(), prefixes: [], always: [] };
  entries.forEach((e, index) => {
    const s = e.phrase.slots[0];
    if (!s || s.k !== 'word' || s.optional) return void f!.always.push(index);
    for (const a of s.alts) {
      if (a.prefix) f!.prefixes.push({ word: a.word, index });
      else f!.exact.set(a.word, [...(f!.exact.get(a.word) ?? []), index]);
    }
  });
  firstWordsOf.set(entries, f);
  return f;
}

/** Every non-overlapping match of any of the phrases, longest first at each position (the first listed on a tie). */
export function findAll<T>(tokens: Token[], entries: Array<{ phrase: Phrase; value: T }>, isNumber?: (i: number) => number): Array<Match & { value: T; phrase: Phrase }> {
  const out: Array<Match & { value: T; phrase: Phrase }> = [];
  const first = firstWords(entries);
  let i = 0;
  while (i < tokens.length) {
    let best: (Match & { value: T; phrase: Phrase }) | undefined;
    if (!tokens[i].punct) {
      const word = tokens[i].lower;
      const candidates = [...(first.exact.get(word) ?? []), ...first.prefixes.filter((p) => word.startsWith(p.word)).map((p) => p.index), ...first.always];
      candidates.sort((x, y) => x - y);
      for (const k of candidates) {
        const e = entries[k];
        const m = matchAt(e.phrase, tokens, i, isNumber);
        if (m && (!best || m.to > best.to)) best = { ...m, value: e.value, phrase: e.phrase };
      }
    }
    if (best) {
      out.push(best);
      i = best.to;
    } else i++;
  }
  return out;
}
