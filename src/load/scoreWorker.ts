/**
 * Scoring a run on a second core: a worker thread reads the golden set and one run database itself, scores the
 * run, and hands back the records as compact JSON (src/aggregate/recordCodec.ts: each golden query as its index,
 * relinked to the caller's golden set). compare
 * scores the candidate this way while the main thread scores the baseline; the machines we run on have two cores.
 *
 * The worker is the bundle this module is built into (dist/index.js or dist/cli/index.js; their entries run
 * nothing else in a worker thread). From TypeScript source `workersAvailable` is false and callers score in the
 * main thread: the same records, on one core.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { InputError } from '../errors.js';
import { scoreRun } from '../aggregate/score.js';
import type { AggregateOptions, ScoredRun } from '../aggregate/score.js';
import { decodeRecords, encodeRecords } from '../aggregate/recordCodec.js';
import type { GoldenSet, RunMeta } from '../types.js';
import { readGoldenFile } from './golden.js';
import { openRunStream } from './runDatabase.js';
import type { QueryIdRange } from './runDatabase.js';

const JOB = 'evalgate-score-run';

export interface ScoreJob {
  runPath: string;
  runId: string | null;
  goldenPath: string;
  /** Exact chunk matching only: a fallback needs both runs' chunks, and compare scores that case in one thread. */
  options: Omit<AggregateOptions, 'referenceChunks'>;
  /** Only these results (aggregate scores a run in two halves). */
  range?: QueryIdRange;
}

/** What the worker sends back: records as compact JSON (recordCodec.ts); the run's tables the caller has already. */
type Transferred = Pick<ScoredRun, 'unknownResultIds' | 'hitChunkerVersions' | 'hitsHaveCitations'> & {
  records: string;
  pendingRecords: string;
  resultIds: string[];
};

type Reply = { ok: Transferred } | { inputError: string } | { error: string };

let enabled = false;

/**
 * Called by the entries (src/cli/index.ts, src/action/index.ts), which run nothing else in a worker thread: a
 * worker loads the very file the entry was bundled into. Code that imports the pipeline some other way (a bundle
 * of someone else's, whose entry would run again in the worker) never starts one.
 */
export function enableScoringWorkers(): void {
  enabled = true;
}

/**
 * Workers can run this code when an entry enabled them and it is a bundle (dist/*.js). From TypeScript source
 * (tsx, vitest) a worker would not get the loader (Node 20 workers skip `--import tsx` hooks for their entry), so
 * scoring stays in one thread. EVALGATE_WORKERS=0 turns workers off.
 */
export function workersAvailable(): boolean {
  return enabled && process.env.EVALGATE_WORKERS !== '0' && import.meta.url.endsWith('.js');
}

export interface WorkerScoring {
  /** The run scored, its records relinked to `golden`. */
  scored: Promise<ScoredRun>;
  /** Stops the worker (when the caller fails first and will not wait for it). */
  cancel(): void;
}

/**
 * Starts scoring `job` in a worker thread. `meta` gives the caller's opening of the same run (its run row and
 * tables), `golden` its reading of the same golden file; both are read when the worker's records arrive.
 */
export function scoreRunInWorker(job: ScoreJob, meta: () => RunMeta, golden: () => GoldenSet): WorkerScoring {
  // The bundle this module was built into. (Not written `new Worker(new URL(...))`, a form bundlers turn into a
  // separate worker chunk.)
  const self = new URL(import.meta.url);
  const worker = new Worker(self, { workerData: { kind: JOB, job } });
  const reply = new Promise<Reply>((resolve, reject) => {
    worker.once('message', (message: Reply) => resolve(message));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the scoring worker exited with code ${code} before it replied`)));
  });
  const scored = reply.then((message) => {
    if ('inputError' in message) throw new InputError(message.inputError);
    if ('error' in message) throw new Error(`scoring worker: ${message.error}`);
    const set = golden();
    const t = message.ok;
    const m = meta();
    return {
      run: { source: m.source, run: m.run, chunks: m.chunks, documents: m.documents },
      golden: set,
      options: { ...job.options, referenceChunks: null },
      records: decodeRecords(t.records, set.queries),
      pendingRecords: decodeRecords(t.pendingRecords, set.queries),
      unknownResultIds: t.unknownResultIds,
      resultIds: new Set(t.resultIds),
      hitChunkerVersions: t.hitChunkerVersions,
      hitsHaveCitations: t.hitsHaveCitations,
    };
  });
  scored.catch(() => undefined); // a caller that fails first never awaits this
  return { scored, cancel: () => void worker.terminate() };
}

async function runJob(job: ScoreJob): Promise<Reply> {
  try {
    const golden = readGoldenFile(job.goldenPath);
    const index = new Map(golden.queries.map((q, i) => [q, i]));
    const stream = await openRunStream(job.runPath, job.runId, job.range);
    let scored: ScoredRun;
    try {
      scored = scoreRun(stream, golden, { ...job.options, referenceChunks: null });
    } finally {
      stream.release?.();
    }
    return {
      ok: {
        records: encodeRecords(scored.records, index),
        pendingRecords: encodeRecords(scored.pendingRecords, index),
        unknownResultIds: scored.unknownResultIds,
        resultIds: [...scored.resultIds],
        hitChunkerVersions: scored.hitChunkerVersions,
        hitsHaveCitations: scored.hitsHaveCitations,
      },
    };
  } catch (error) {
    if (error instanceof InputError) return { inputError: error.message };
    return { error: error instanceof Error ? error.stack ?? error.message : String(error) };
  }
}

if (!isMainThread && (workerData as { kind?: string } | null)?.kind === JOB) {
  void runJob((workerData as { job: ScoreJob }).job).then((reply) => parentPort!.postMessage(reply));
}
