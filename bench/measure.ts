/**
 * How the bench measures: contenders take turns, round after round (the order rotated each round,
 * so none always runs on a warmer or cooler machine), each timing the same fixed batch of work; a
 * figure is the median of its rounds, and a ratio is taken between medians of the same run.
 * Work in this thread is timed in CPU time (the process's user + system time, its GC and compiler
 * threads included), not wall time: on a machine busy with other work the figures then stay near
 * what a quiet machine gives, where wall time would count the time others ran.
 */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Milliseconds of CPU time `run` takes. */
export function timed(run: () => void): number {
  const t = cpuMs();
  run();
  return cpuMs() - t;
}

/**
 * Median milliseconds of each contender's batch over `rounds` interleaved rounds. `prepare`, when
 * given, makes each round's input outside the timing (fresh texts for a cold compile).
 */
export function interleaved<K extends string, P = void>(rounds: number, contenders: Record<K, (input: P) => void>, prepare?: (round: number) => P): Record<K, number> {
  const names = Object.keys(contenders) as K[];
  const ms = Object.fromEntries(names.map((n) => [n, [] as number[]])) as unknown as Record<K, number[]>;
  for (let r = 0; r < rounds; r++) {
    const input = prepare ? prepare(r) : (undefined as P);
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + r) % names.length];
      ms[name].push(timed(() => contenders[name](input)));
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(ms[n])])) as Record<K, number>;
}

/** How many games from seed 1 on take about `ms` (at least `least`): a batch, and the JIT warmed. */
export function batchFor(play: (seed: number) => unknown, ms: number, least = 1): number {
  const t = cpuMs();
  let n = 0;
  while (n < least || cpuMs() - t < ms) play(++n);
  return n;
}
