/**
 * Code made from text (`new Function`) where a page may forbid it: under a content security policy
 * without 'unsafe-eval' every attempt throws an `EvalError` and sends the page's owner a violation
 * report. A refusal is remembered, so a page gets one report, not one for each kept setup copied
 * often and each edit warmed. It is remembered for the `Function` that refused, the one the policy
 * governs: a test that swaps in a refusing one, then puts the real one back, finds code allowed again.
 */
let refusedBy: unknown;

/** What `make` makes, or undefined where making code is forbidden; once refused, `make` is not called again. */
export function whereCodeAllowed<T>(make: () => T): T | undefined {
  if (refusedBy !== undefined && refusedBy === globalThis.Function) return undefined;
  try {
    return make();
  } catch (err) {
    if (!(err instanceof EvalError)) throw err;
    refusedBy = globalThis.Function;
    return undefined;
  }
}
