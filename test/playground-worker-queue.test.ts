/** The engine worker's order of the requests that waited (playground/src/worker-queue.ts). */
import { describe, expect, it } from 'vitest';
import { servicesAfterCompile } from '../playground/src/worker-queue.ts';

const q = (...types: string[]) => types.map((type, i) => ({ req: { type }, n: i }));
const order = (queue: Array<{ req: { type: string }; n: number }>) => queue.map((x) => `${x.req.type}${x.n}`);

describe('the engine worker takes the newest compile before the questions waiting ahead of it', () => {
  it('moves the services queued before the newest compile to just after it, in their order', () => {
    const queue = q('service', 'play', 'compile', 'service', 'compile', 'service');
    servicesAfterCompile(queue);
    expect(order(queue)).toEqual(['play1', 'compile2', 'compile4', 'service0', 'service3', 'service5']);
  });
  it('leaves a queue without a compile behind a question as it is', () => {
    for (const types of [['compile', 'service'], ['service', 'play'], ['play', 'compile'], []]) {
      const queue = q(...types);
      const before = order(queue);
      servicesAfterCompile(queue);
      expect(order(queue)).toEqual(before);
    }
  });
});
