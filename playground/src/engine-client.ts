/**
 * The page's side of the engine worker: requests with ids, answers as promises.
 *
 * A worker that fails to load, throws, or does not answer in time is replaced by a fresh one, and
 * the requests it held are answered with the problem, so the page never waits forever.
 */
import type { CompileInput, CompileRequest, CompileResponse, PackResponse, PaintedRequest, PlayRequest, PlayResponse, ScenariosResponse, ServiceAnswers, ServiceAsk, ServiceRequest, ServiceResponse, SimulateRequest, SimulateResponse, TextsResponse, WorkerResponse } from './protocol.ts';
import EngineWorker from './engine.worker.ts?worker';
import { SentFiles } from './file-sync.ts';
import { ReceivedGames } from './game-sync.ts';

/**
 * Longer than any compile or replay of a real pack on a slow, busy machine; past it the worker is
 * taken to be stuck. It counts from when the worker's code has loaded (loading it is not a hang,
 * however slow the dev server is), and rules are bounded by the runtime's step budget anyway.
 */
const TIMEOUT_MS = 60_000;

interface Pending {
  kind: 'compile' | 'play' | 'service';
  resolve: (r: WorkerResponse) => void;
  /** Unset while the worker's code is loading. */
  timer?: ReturnType<typeof setTimeout>;
}

export class EngineClient {
  private worker!: Worker;
  private ready = false;
  private next = 1;
  private pending = new Map<number, Pending>();
  private sent = new SentFiles();
  private games = new ReceivedGames();
  /** The last pack summary the worker posted: it posts a summary only when it changed. */
  private summary: Pick<PackResponse, 'summary' | 'summaryDigest'> = {};
  /** A compile without errors: its runnable pack follows its answer. */
  onPack: (r: PackResponse) => void = () => {};
  /** Scenario verdicts arrive after their compile's answer. */
  onScenarios: (r: ScenariosResponse) => void = () => {};
  /** Card text verdicts arrive after their compile's answer too. */
  onTexts: (r: TextsResponse) => void = () => {};
  /** A simulation reports after each game, and with its figures after the last. */
  onSimulated: (r: SimulateResponse) => void = () => {};
  /** A new worker was started; `compileLost` says whether a compile was among the requests lost. */
  onRestart: (compileLost: boolean) => void = () => {};

  constructor() {
    this.start();
  }

  private start() {
    this.worker = new EngineWorker();
    this.sent.forget();
    this.games.forget();
    this.summary = {};
    this.ready = false;
    this.worker.onmessage = (ev: MessageEvent<WorkerResponse>) => {
      if (ev.data.type === 'ready') {
        this.ready = true;
        for (const p of this.pending.values()) p.timer ??= this.watchdog();
        return;
      }
      if (ev.data.type === 'pack') return this.onPack(this.withGame(this.withSummary(ev.data)));
      if (ev.data.type === 'scenarios') return this.onScenarios(ev.data);
      if (ev.data.type === 'texts') return this.onTexts(ev.data);
      if (ev.data.type === 'simulated') return this.onSimulated(ev.data);
      // Every game answer is taken in, also one nobody waits for any longer: the next may draw as it.
      const answer = ev.data.type === 'played' ? this.games.take(ev.data) : ev.data;
      const p = this.pending.get(answer.id);
      if (!p) return;
      clearTimeout(p.timer);
      this.pending.delete(answer.id);
      p.resolve(answer);
    };
    this.worker.onerror = (ev: ErrorEvent) => {
      ev.preventDefault();
      this.restart(`the engine failed: ${ev.message || 'its code could not be loaded'}`);
    };
  }

  /** A runnable pack's message with its summary, which the worker leaves out when it is the last one it posted. */
  private withSummary(r: PackResponse): PackResponse {
    if (r.version === undefined) return r;
    if (r.summary) this.summary = { summary: r.summary, summaryDigest: r.summaryDigest };
    else if (r.summaryDigest === this.summary.summaryDigest) return { ...r, summary: this.summary.summary };
    return r;
  }

  /** A runnable pack's message with its game replayed as a whole answer (game-sync.ts). */
  private withGame(r: PackResponse): PackResponse {
    return r.replayed ? { ...r, replayed: { ...r.replayed, answer: this.games.take(r.replayed.answer) } } : r;
  }

  /** Answer everything the worker held with the problem, and start a new worker. */
  private restart(problem: string) {
    this.worker.terminate();
    const held = [...this.pending.entries()];
    this.pending.clear();
    for (const [id, p] of held) {
      clearTimeout(p.timer);
      p.resolve(
        p.kind === 'compile'
          ? ({ type: 'compiled', id, diagnostics: [], engineProblem: problem, ms: 0 } satisfies CompileResponse)
          : p.kind === 'service'
            ? ({ type: 'service', id, answer: null } satisfies ServiceResponse)
            : ({ type: 'played', id, version: 0, legal: [], applied: 0, error: problem } satisfies PlayResponse),
      );
    }
    this.start();
    this.onRestart(held.some(([, p]) => p.kind === 'compile'));
  }

  private watchdog() {
    return setTimeout(() => this.restart(`the engine took more than ${TIMEOUT_MS / 1000} s and was restarted`), TIMEOUT_MS);
  }

  private send<T extends WorkerResponse>(kind: Pending['kind'], msg: CompileRequest | PlayRequest | ServiceRequest): Promise<T> {
    return new Promise((resolve) => {
      const timer = this.ready ? this.watchdog() : undefined;
      this.pending.set(msg.id, { kind, resolve: resolve as (r: WorkerResponse) => void, timer });
      this.worker.postMessage(msg);
    });
  }

  /** Compile; when a newer compile is asked for meanwhile, the worker skips this one and it never resolves. */
  compile(req: CompileInput): Promise<CompileResponse> {
    const id = this.next++;
    for (const [k, p] of this.pending) {
      if (p.kind === 'compile') {
        clearTimeout(p.timer);
        this.pending.delete(k);
      }
    }
    const lists = [{ name: 'pack', files: req.files }, { name: 'scenarios', files: req.scenarios }];
    for (const [dep, files] of Object.entries(req.dependencies)) lists.push({ name: `dependency:${dep}`, files });
    return this.send('compile', { type: 'compile', id, sources: this.sent.post(lists), game: req.game });
  }

  /** Starts a simulation (stopping one that runs); its answers come to `onSimulated` with the id returned. */
  simulate(req: Omit<SimulateRequest, 'type' | 'id'>): number {
    const id = this.next++;
    this.worker.postMessage({ ...req, type: 'simulate', id } satisfies SimulateRequest);
    return id;
  }

  play(req: Omit<PlayRequest, 'type' | 'id'>): Promise<PlayResponse> {
    return this.send('play', { ...req, type: 'play', id: this.next++ });
  }

  /** What compile `id`'s pack message made the page draw is painted (protocol.ts, `PaintedRequest`). */
  painted(id: number) {
    this.worker.postMessage({ type: 'painted', id } satisfies PaintedRequest);
  }

  /** An answer of the editor's services (protocol.ts), or null when there is none yet. */
  async ask<K extends keyof ServiceAnswers>(ask: ServiceAsk<K>): Promise<ServiceAnswers[K] | null> {
    const r = await this.send<ServiceResponse>('service', { type: 'service', id: this.next++, ask });
    return r.answer as ServiceAnswers[K] | null;
  }
}
