/** Edit distance, for "did you mean" hints. */
function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}

/** The candidate closest to `name`, if it is close enough to be the likely intent. */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    const d = distance(name, c);
    if (d < bestScore) {
      best = c;
      bestScore = d;
    }
  }
  const limit = Math.max(1, Math.floor(name.length / 3));
  return bestScore <= limit ? best : undefined;
}
