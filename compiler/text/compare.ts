/**
 * A card's text against its rules, claim by claim. Not string equality: every claim the text
 * makes must be one the rules support, and every claim the rules make that a text must state
 * (what an effect gives or costs, a limit, the roles it works in) must be in the text. A text claim
 * and a rule claim about the same thing with different values are one finding, not two.
 */
import { compatible, sameSubject, type ClaimBody, type RuleClaim, type TextClaim } from './claim.ts';

export type FindingCode =
  | 'TX0101' // a number (or limit) differs
  | 'TX0102' // a term differs
  | 'TX0103' // a moment of the turn differs
  | 'TX0201' // the text claims what the rules do not do
  | 'TX0202'; // the rules do what the text does not say

export interface Mismatch {
  code: FindingCode;
  text?: TextClaim;
  rule?: RuleClaim;
  /** For TX0201: what the rules do say about the same subject. */
  others?: RuleClaim[];
}

/**
 * `sameClass(a, b)`: two terms of one kind (two members of one enum), so that one named where the
 * rules name the other is one finding.
 */
export function compareClaims(rule: RuleClaim[], text: TextClaim[], sameClass: (a: string, b: string) => boolean): Mismatch[] {
  const checked = text.filter((t) => !t.negated);
  const unsupported = checked.filter((t) => !t.implicit && !t.unchecked && !rule.some((r) => compatible(t.body, r.body)));
  const missing: RuleClaim[] = [];
  const seen = new Set<string>();
  for (const r of rule) {
    if (!r.required) continue;
    if (checked.some((t) => compatible(t.body, r.body))) continue;
    const key = JSON.stringify(r.body);
    if (seen.has(key)) continue;
    seen.add(key);
    missing.push(r);
  }
  const out: Mismatch[] = [];
  for (const t of unsupported) {
    const i = missing.findIndex((r) => sameSubject(t.body, r.body) || (t.body.k === 'term' && r.body.k === 'term' && sameClass(t.body.term, r.body.term)));
    if (i >= 0) {
      const r = missing.splice(i, 1)[0];
      out.push({ code: t.body.k === 'term' ? 'TX0102' : t.body.k === 'timing' ? 'TX0103' : 'TX0101', text: t, rule: r });
      continue;
    }
    // A moment of the turn the rules do not use: the finding names a moment they do use.
    const others = rule.filter((r) => related(t.body, r.body));
    if (t.body.k === 'timing' && others.length) out.push({ code: 'TX0103', text: t, rule: others[0], others });
    else out.push({ code: 'TX0201', text: t, others });
  }
  for (const r of missing) out.push({ code: 'TX0202', rule: r });
  return out;
}

function related(t: ClaimBody, r: ClaimBody): boolean {
  if (t.k !== r.k) return false;
  if (t.k === 'number') return t.unit !== undefined && t.unit === (r as typeof t).unit;
  return t.k === 'timing' || t.k === 'limit';
}
