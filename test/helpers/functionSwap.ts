/** Runs `run` with `new Function` replaced by `construct` (its result, else the real one's), as a page's content security policy would. */
export function withFunction<T>(construct: (args: unknown[]) => unknown, run: () => T): T {
  const real = globalThis.Function;
  globalThis.Function = new Proxy(real, { construct: (target, args) => construct(args) ?? Reflect.construct(target, args) });
  try {
    return run();
  } finally {
    globalThis.Function = real;
  }
}
