/** The page's side of the engine worker: requests with ids, answers as promises. */
import type { CompileRequest, CompileResponse, PlayRequest, PlayResponse, ScenariosResponse, WorkerResponse } from './protocol.ts';
import EngineWorker from './engine.worker.ts?worker';

type Pending = { resolve: (r: WorkerResponse) => void };

export class EngineClient {
  private worker = new EngineWorker();
  private next = 1;
  private pending = new Map<number, Pending>();
  /** Scenario verdicts arrive after their compile's answer. */
  onScenarios: (r: ScenariosResponse) => void = () => {};

  constructor() {
    this.worker.onmessage = (ev: MessageEvent<WorkerResponse>) => {
      if (ev.data.type === 'scenarios') return this.onScenarios(ev.data);
      const p = this.pending.get(ev.data.id);
      this.pending.delete(ev.data.id);
      p?.resolve(ev.data);
    };
  }

  /** Compile; when a newer compile was asked for meanwhile, the worker skips this one and it never resolves. */
  compile(req: Omit<CompileRequest, 'type' | 'id'>): Promise<CompileResponse> {
    const id = this.next++;
    // Forget older compiles: the worker drops them.
    for (const [k, p] of this.pending) if ((p as Pending & { kind?: string }).kind === 'compile') this.pending.delete(k);
    return new Promise((resolve) => {
      this.pending.set(id, Object.assign({ resolve: resolve as (r: WorkerResponse) => void }, { kind: 'compile' }));
      this.worker.postMessage({ ...req, type: 'compile', id } satisfies CompileRequest);
    });
  }

  play(req: Omit<PlayRequest, 'type' | 'id'>): Promise<PlayResponse> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.pending.set(id, { resolve: resolve as (r: WorkerResponse) => void });
      this.worker.postMessage({ ...req, type: 'play', id } satisfies PlayRequest);
    });
  }
}
