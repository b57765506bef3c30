/**
 * Scoring a run on a second core: a worker thread reads the golden set and one run database itself, scores the
 * run, tabulates it (src/aggregate/table.ts: every per-query metric value as a column) and hands back the table,
 * its typed arrays moved, not copied. compare scores the candidate this way while the main thread scores the
 * baseline; aggregate scores the upper half of a large run; the machines we run on have two cores.
 *
 * The worker is the bundle this module is built into (dist/index.js or dist/cli/index.js; their entries run
 * nothing else in a worker thread). From TypeScript source `workersAvailable` is false and callers score in the
 * main thread: the same records, on one core.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { InputError } from '../errors.js';
import type { AggregateOptions } from '../aggregate/score.js';
import { scoreToTable, tableFromTransfer, tableTransfer } from '../aggregate/table.js';
import type { TableTransfer, TabulatedRun } from '../aggregate/table.js';
import type { GoldenSet, RunMeta } from '../types.js';
import { decodeGoldenPart, encodeGoldenPart, goldenSplitPoint, joinGoldenParts, parseGoldenPart, parseGoldenYaml, readGoldenText } from './golden.js';
import { openRunStream } from './runDatabase.js';
import type { QueryIdRange } from './runDatabase.js';

const JOB = 'evalgate-score-run';

export interface ScoreJob {
  runPath: string;
  /**
   * Also send the golden set's fingerprint (aggregate, where this thread is done first and the main thread has the
   * merge and the aggregate still to do; compare's worker is its longest thread and leaves it to the main thread).
   */
  fingerprint?: boolean;
  runId: string | null;
  goldenPath: string;
  /** Exact chunk matching only: a fallback needs both runs' chunks, and compare scores that case in one thread. */
  options: Omit<AggregateOptions, 'referenceChunks'>;
  /** Only these results (aggregate scores a run in two halves). */
  range?: QueryIdRange;
}

/**
 * A phase of the worker and when it ended, as `performance.timeOrigin + performance.now()` there (ms since the
 * epoch: one clock for both threads; the worker's own start comes a bundle load after the main thread starts it).
 */
export type WorkerPhase = [label: string, epochMs: number];

type Reply = { ok: TableTransfer; phases: WorkerPhase[]; fingerprint: string | null } | { inputError: string } | { error: string };

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
 * scoring stays in one thread. EVALGATE_WORKERS=0 turns workers off; EVALGATE_WORKERS=2 has aggregate use two
 * threads whatever the run's size (for tests and benchmarks).
 */
export function workerMode(): 'off' | 'auto' | 'always' {
  if (!enabled || process.env.EVALGATE_WORKERS === '0' || !import.meta.url.endsWith('.js')) return 'off';
  return process.env.EVALGATE_WORKERS === '2' ? 'always' : 'auto';
}

export function workersAvailable(): boolean {
  return workerMode() !== 'off';
}

/** One thread's half of the golden set, sent to the other (see readGoldenShared). */
export interface GoldenPartMessage {
  kind: 'golden-part';
  /** The length of the text this thread read, and where it cut it: both threads must have read the same. */
  length: number;
  split: number;
  /** The half as JSON; null when this thread has no half to give (then both read the whole file). */
  json: string | null;
}

/** Messages between the two threads about the golden set. */
export interface GoldenExchange {
  send(message: GoldenPartMessage): void;
  receive(): Promise<GoldenPartMessage>;
}

/**
 * The golden file read by two threads together: each reads its half (`part` 0: the first, 1: the second) on the
 * fast path and sends it to the other as JSON, which costs a fraction of reading YAML. Where that could differ from
 * reading the whole file (a small file, a half the fast path declines or that needs a line for a message, an id in
 * both halves, the threads having read different texts), both threads read the whole file, as one thread would.
 */
export async function readGoldenShared(file: string, part: 0 | 1, exchange: GoldenExchange, splitMinChars?: number): Promise<{ golden: GoldenSet; halves: boolean }> {
  let text: string;
  try {
    text = readGoldenText(file);
  } catch (error) {
    exchange.send({ kind: 'golden-part', length: -1, split: -1, json: null });
    throw error;
  }
  const split = goldenSplitPoint(text, splitMinChars);
  const mine = split === -1 ? undefined : parseGoldenPart(text, file, split, part);
  exchange.send({ kind: 'golden-part', length: text.length, split, json: mine ? encodeGoldenPart(mine) : null });
  const other = await exchange.receive();
  if (mine && other.json !== null && other.split === split && other.length === text.length) {
    const theirs = decodeGoldenPart(other.json);
    const joined = part === 0 ? joinGoldenParts(file, mine, theirs) : joinGoldenParts(file, theirs, mine);
    if (joined) return { golden: joined, halves: true };
  }
  return { golden: parseGoldenYaml(text, file), halves: false };
}

export interface WorkerScoring {
  /** The run's table, joined to `golden`. */
  table: Promise<TabulatedRun>;
  /** The worker's phases, once it has replied. */
  phases: Promise<WorkerPhase[]>;
  /** The golden set's fingerprint when the job asked for it (the same set this thread reads: see readGoldenShared). */
  fingerprint: Promise<string | null>;
  /** This thread's side of reading the golden set together (readGoldenShared with part 0). */
  exchange: GoldenExchange;
  /** Stops the worker (when the caller fails first and will not wait for it). */
  cancel(): void;
}

/**
 * Starts scoring `job` in a worker thread, which reads the second half of the golden file (the caller reads the
 * first with `readGoldenShared(file, 0, scoring.exchange)`). `meta` gives the caller's opening of the same run (its
 * run row and tables), `golden` its golden set; both are read when the worker's table arrives.
 */
export function scoreRunInWorker(job: ScoreJob, meta: () => RunMeta, golden: () => GoldenSet): WorkerScoring {
  // The bundle this module was built into. (Not written `new Worker(new URL(...))`, a form bundlers turn into a
  // separate worker chunk.)
  const self = new URL(import.meta.url);
  const worker = new Worker(self, { workerData: { kind: JOB, job } });
  let onPart: (message: GoldenPartMessage) => void = () => undefined;
  let onFailure: (error: unknown) => void = () => undefined;
  const part = new Promise<GoldenPartMessage>((resolve, reject) => {
    onPart = resolve;
    onFailure = reject;
  });
  part.catch(() => undefined); // a caller that never reads the golden set with the worker
  const reply = new Promise<Reply>((resolve, reject) => {
    worker.on('message', (message: Reply | GoldenPartMessage) => {
      if ('kind' in message) onPart(message);
      else {
        resolve(message);
        // A reply before the worker's half: it failed (its error is the reply's).
        onFailure(new Error('the scoring worker replied before it sent its half of the golden set'));
      }
    });
    worker.once('error', (error) => {
      onFailure(error);
      reject(error);
    });
    worker.once('exit', (code) => {
      const error = new Error(`the scoring worker exited with code ${code} before it replied`);
      onFailure(error);
      reject(error);
    });
  });
  const ok = reply.then((message) => {
    if ('inputError' in message) throw new InputError(message.inputError);
    if ('error' in message) throw new Error(`scoring worker: ${message.error}`);
    return message;
  });
  const table = ok.then((message) => tableFromTransfer(message.ok, meta(), golden(), { ...job.options, referenceChunks: null }));
  const phases = ok.then((message) => message.phases, () => []);
  const fingerprint = ok.then((message) => message.fingerprint, () => null);
  table.catch(() => undefined); // a caller that fails first never awaits this
  const exchange: GoldenExchange = {
    send: (message) => worker.postMessage(message),
    // When the worker failed instead of sending its half, its own error is the one to report.
    receive: () => part.catch(async (error: unknown) => {
      await ok;
      throw error;
    }),
  };
  return { table, phases, fingerprint, exchange, cancel: () => void worker.terminate() };
}

async function runJob(job: ScoreJob): Promise<{ reply: Reply; transfer: ArrayBuffer[] }> {
  const phases: WorkerPhase[] = [];
  const phase = (label: string) => phases.push([label, performance.timeOrigin + performance.now()]);
  phase('worker running');
  // Listening from the start: the main thread's half may come before this thread has read its own.
  const fromMain = new Promise<GoldenPartMessage>((resolve) => parentPort!.once('message', resolve));
  try {
    const { golden, halves } = await readGoldenShared(job.goldenPath, 1, { send: (message) => parentPort!.postMessage(message), receive: () => fromMain });
    phase(halves ? 'golden set read in halves (the second here)' : 'golden set read whole');
    const stream = await openRunStream(job.runPath, job.runId, job.range);
    let table: TabulatedRun;
    try {
      table = scoreToTable(stream, golden, { ...job.options, referenceChunks: null }, job.range);
      phase('run scored into its table');
    } finally {
      stream.release?.();
    }
    const fingerprint = job.fingerprint ? golden.fingerprint : null;
    if (fingerprint !== null) phase('golden set fingerprinted');
    const { message, transfer } = tableTransfer(table);
    return { reply: { ok: message, phases, fingerprint }, transfer };
  } catch (error) {
    if (error instanceof InputError) return { reply: { inputError: error.message }, transfer: [] };
    return { reply: { error: error instanceof Error ? error.stack ?? error.message : String(error) }, transfer: [] };
  }
}

if (!isMainThread && (workerData as { kind?: string } | null)?.kind === JOB) {
  void runJob((workerData as { job: ScoreJob }).job).then(({ reply, transfer }) => parentPort!.postMessage(reply, transfer));
}
