/**
 * Runs fuzz cases in worker threads under a watchdog: a case that takes longer than `caseSeconds`
 * is a hang, one that exhausts its worker's memory (`memoryMb`) is a failure, and in both cases the
 * worker is replaced and the run goes on with the next case.
 */
import { Worker } from 'node:worker_threads';
import type { CaseResult } from './fuzzCheck.ts';

export interface FuzzOptions {
  seed: number;
  /** The first case number; cases are `from`, `from + 1`, … */
  from?: number;
  cases: number;
  workers?: number;
  caseSeconds?: number;
  memoryMb?: number;
  onProgress?: (done: number) => void;
}

export interface FuzzFailure {
  n: number;
  problem: string;
  how?: string[];
}

export interface FuzzReport {
  seed: number;
  cases: number;
  diagnostics: number;
  failures: FuzzFailure[];
}

export async function runFuzz(o: FuzzOptions): Promise<FuzzReport> {
  const from = o.from ?? 0;
  const caseMs = (o.caseSeconds ?? 30) * 1000;
  const report: FuzzReport = { seed: o.seed, cases: 0, diagnostics: 0, failures: [] };
  let next = from;
  const end = from + o.cases;

  const lane = () =>
    new Promise<void>((resolve) => {
      let worker: Worker;
      let current: number | undefined;
      let timer: NodeJS.Timeout | undefined;
      const finish = (r: CaseResult) => {
        clearTimeout(timer);
        report.cases++;
        report.diagnostics += r.diagnostics;
        if (r.problem) report.failures.push({ n: r.n, problem: r.problem, how: r.how });
        o.onProgress?.(report.cases);
        current = undefined;
        send();
      };
      const send = () => {
        if (next >= end) {
          void worker.terminate();
          return resolve();
        }
        current = next++;
        timer = setTimeout(() => lost(`no answer within ${caseMs / 1000} s (a hang)`), caseMs);
        worker.postMessage({ seed: o.seed, n: current });
      };
      const lost = (problem: string) => {
        const n = current;
        worker.removeAllListeners();
        void worker.terminate();
        start();
        if (n !== undefined) {
          clearTimeout(timer);
          report.cases++;
          report.failures.push({ n, problem });
          o.onProgress?.(report.cases);
          current = undefined;
        }
      };
      const start = () => {
        worker = new Worker(new URL('./fuzzWorker.mjs', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: o.memoryMb ?? 512 } });
        worker.on('message', (m: CaseResult | { ready: true }) => ('ready' in m ? send() : finish(m)));
        worker.on('error', (e) => lost(`the worker died: ${e.message}`));
        worker.on('exit', (code) => {
          if (current !== undefined) lost(`the worker exited (${code})`);
        });
      };
      start();
    });

  await Promise.all(Array.from({ length: Math.max(1, o.workers ?? 1) }, lane));
  report.failures.sort((a, b) => a.n - b.n);
  return report;
}
