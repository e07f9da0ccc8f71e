/**
 * The order in which the engine worker takes the requests that arrived while it was busy. Only the
 * newest compile runs (the older ones are skipped where they stand), and the editor's questions
 * waiting ahead of it wait for it: the first question after a compile builds the symbol index,
 * which would hold up the keystroke's diagnostics, and answered on the newer compile they are as
 * good. Games and simulations keep their place.
 */
export function servicesAfterCompile<T extends { req: { type: string } }>(queue: T[]): void {
  let newest = -1;
  for (let i = 0; i < queue.length; i++) if (queue[i].req.type === 'compile') newest = i;
  if (newest < 1) return;
  const before = queue.slice(0, newest);
  const services = before.filter((q) => q.req.type === 'service');
  if (!services.length) return;
  queue.splice(0, newest + 1, ...before.filter((q) => q.req.type !== 'service'), queue[newest], ...services);
}
