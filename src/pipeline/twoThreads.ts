/**
 * Scoring on the second core of the 2-core machines we run on (docs/decisions/0001-two-threads-golden-halves.md):
 * compare scores the candidate in a worker thread while this thread scores the baseline; aggregate has each thread
 * read half of a JSON Lines golden set and score the results of its half's query_id range. Either way the worker hands back its
 * table (src/aggregate/table.ts) with the typed arrays moved, not copied.
 *
 * The worker runs the bundle this module is built into (dist/cli/index.js, dist/index.js). From TypeScript source
 * (vitest, tsx) workers are off and callers score in one thread: the same tables.
 */
import { statSync } from 'node:fs';
import { parentPort, resourceLimits, Worker, workerData } from 'node:worker_threads';
import { groupQueries, joinHalfTables } from '../aggregate/aggregate.js';
import type { AggregateTable, Groups } from '../aggregate/aggregate.js';
import type { AggregateOptions } from '../aggregate/score.js';
import { scoreToTable, tableTransfer } from '../aggregate/table.js';
import type { TableTransfer, TabulatedRun } from '../aggregate/table.js';
import { InputError } from '../errors.js';
import { goldenFormatOf, goldenSetOfHalf, readGoldenFile, readGoldenHalf } from '../load/golden.js';
import { compareUtf8, openRunStream } from '../load/runDatabase.js';
import type { QueryIdRange } from '../load/runDatabase.js';
import { loadSqlJs } from '../load/sqlite.js';
import { mergedNotice, noticeOf } from '../types.js';
import type { GoldenSet, RowNotice } from '../types.js';
import type { Warning } from '../warnings.js';

type WorkerMode = 'off' | 'auto' | 'always';

let mode: WorkerMode = 'off';

/**
 * Called by the entries (src/cli/index.ts, src/action/index.ts), which run nothing else in a worker thread, with
 * EVALVERDICT_WORKERS: 0 turns workers off; 2 makes compare and aggregate use two threads whatever the sizes (tests,
 * bench). Code that bundles the pipeline some other way (whose entry would run again in the worker) never starts one.
 */
export function enableScoringWorkers(setting: string | undefined): void {
  mode = setting === '0' ? 'off' : setting === '2' ? 'always' : 'auto';
}

/** Off unless an entry enabled workers, and off from TypeScript sources (no bundle for the worker to load). */
export function workerMode(): WorkerMode {
  return import.meta.url.endsWith('.js') ? mode : 'off';
}

export const workersAvailable = (): boolean => workerMode() !== 'off';

/** A worker's phase: label, when it ended (ms since the epoch: one clock for both threads), minor page faults by then. */
export type WorkerPhase = [label: string, epochMs: number, faults: number];

type Failure = { inputError: string } | { error: string };

/**
 * Node 20's young generation for the worker: Node 24's larger one costs memory and gains no time (bench/README.md,
 * "What was kept"; docs/decisions/0004-heap-settings.md).
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 48 };

const COMPARE_JOB = 'evalverdict-score-run';
const AGGREGATE_JOB = 'evalverdict-aggregate-half';

interface StartedWorker<R> {
  /** The worker's one reply; rejects with its error (an InputError for a user's mistake). */
  reply: Promise<R & { phases: WorkerPhase[] }>;
  cancel(): void;
}

function startWorker<R>(kind: string, job: unknown): StartedWorker<R> {
  // Not `new Worker(new URL(...))`: bundlers turn that form into a separate worker chunk.
  const url = new URL(import.meta.url);
  const worker = new Worker(url, { workerData: { kind, job }, resourceLimits: WORKER_LIMITS });
  const reply = new Promise<(R & { phases: WorkerPhase[] }) | Failure>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the scoring worker exited with code ${code} before it replied`)));
  }).then((message) => {
    if ('inputError' in message) throw new InputError(message.inputError);
    if ('error' in message) throw new Error(`scoring worker: ${message.error}`);
    return message;
  });
  reply.catch(() => undefined); // a caller that fails first never awaits it
  return { reply, cancel: () => void worker.terminate() };
}

function phaseRecorder(): { phases: WorkerPhase[]; phase: (label: string) => void } {
  const phases: WorkerPhase[] = [];
  const phase = (label: string) =>
    phases.push([label, performance.timeOrigin + performance.now(), process.resourceUsage().minorPageFault]);
  phase(`worker running (young generation ${resourceLimits.maxYoungGenerationSizeMb} MB)`);
  return { phases, phase };
}

/** sql.js's WebAssembly compiled while the golden set is read, not after; a failure shows where it is used. */
const warmUpSqlJs = (): void => void loadSqlJs().catch(() => undefined);

/** A run database (or one query_id range of it) scored into its table, the database open only meanwhile. */
async function scoreFileToTable(
  runPath: string,
  runId: string | null,
  golden: GoldenSet,
  options: AggregateOptions,
  range?: QueryIdRange,
  spareRows = 0,
): Promise<{ table: TabulatedRun; notice: RowNotice }> {
  const stream = await openRunStream(runPath, runId, range);
  try {
    const table = scoreToTable(stream, golden, options, range, spareRows);
    // What the reader noticed goes back with the table, for the format check (validate/pipelineChecks.ts).
    return { table, notice: stream.notice ?? noticeOf() };
  } finally {
    stream.release?.();
  }
}

// ---------------------------------------------------------------------------------------------------------
// compare: the candidate scored whole in a worker

export interface ScoreJob {
  runPath: string;
  runId: string | null;
  goldenPath: string;
  /** Exact chunk matching only: a fallback needs both runs' chunks, and compare scores that case in one thread. */
  options: Omit<AggregateOptions, 'referenceChunks'>;
}

/** Starts scoring `job` in a worker, which reads the golden file itself; the reply is the run's table. */
export function scoreRunInWorker(job: ScoreJob): {
  reply: Promise<{ ok: TableTransfer; notice: RowNotice; phases: WorkerPhase[] }>;
  cancel(): void;
} {
  const worker = startWorker<{ ok: TableTransfer; notice: RowNotice }>(COMPARE_JOB, job);
  return { reply: worker.reply, cancel: worker.cancel };
}

async function runCompareJob(job: ScoreJob): Promise<{ reply: object; transfer: ArrayBuffer[] }> {
  const { phases, phase } = phaseRecorder();
  warmUpSqlJs();
  const golden = readGoldenFile(job.goldenPath);
  phase('golden set read');
  const { table, notice } = await scoreFileToTable(job.runPath, job.runId, golden, {
    ...job.options,
    referenceChunks: null,
  });
  phase('run scored into its table');
  const { message, transfer } = tableTransfer(table);
  return { reply: { ok: message, notice, phases }, transfer };
}

// ---------------------------------------------------------------------------------------------------------
// aggregate: one run scored by two threads, a golden half each

export interface AggregateJob {
  runPath: string;
  /** null: the newest run (each thread opens the database itself and finds the same). */
  runId: string | null;
  goldenPath: string;
  options: AggregateOptions;
  /** Golden files smaller than this are not cut (tests cut small ones). */
  splitMinBytes?: number;
}

/** The worker's half: its table, its rows' breakdown groups, and what the whole set's warnings and fingerprint need. */
interface HalfReply {
  ok: TableTransfer;
  groups: Groups;
  warnings: Warning[];
  /** What its reader noticed (load/queryResult.ts). */
  notice: RowNotice;
}

/**
 * The golden file is cut at a line; the second half's first id is the bound. This thread reads the first half and
 * scores the results before the bound; the worker reads the second half and scores the results from the bound on.
 * Neither waits for the other. That is the whole run exactly when the first half's ids all sort before the bound
 * and the second half's none (in SQLite's order), as in a golden file in id order. Otherwise (or when a half does
 * not read cleanly) null: the caller scores in one thread, which also words any error.
 */
export async function aggregateInTwoThreads(
  job: AggregateJob,
  mark: (label: string) => void,
): Promise<{ table: AggregateTable; warnings: Warning[]; phases: WorkerPhase[]; notice: RowNotice } | null> {
  const { referenceChunks: _unused, ...options } = job.options;
  job = { ...job, splitMinBytes: job.splitMinBytes ?? (workerMode() === 'always' ? 0 : undefined) };
  const worker = startWorker<HalfReply | { split: false }>(AGGREGATE_JOB, { ...job, options });
  mark('worker started');
  warmUpSqlJs();
  const half = readGoldenHalf(job.goldenPath, 0, job.splitMinBytes);
  const bound = half?.nextId ?? null;
  if (half === null || bound === null || !half.queries.every((q) => compareUtf8(q.id, bound) < 0)) {
    worker.cancel();
    return null;
  }
  mark('golden half read (the first here)');
  // Room for the worker's rows after this half's in each column: the halves are joined in place.
  const golden = goldenSetOfHalf(job.goldenPath, half);
  const lower = await scoreFileToTable(
    job.runPath,
    job.runId,
    golden,
    job.options,
    { to: bound },
    half.linesAfter,
  ).catch((error: unknown) => ({ error }));
  mark('this half scored into its table');
  const reply = await worker.reply.catch((error: unknown) => ({ error }));
  if ('split' in reply) return null; // the second half did not read cleanly or is not in id order: one thread decides
  if ('error' in lower) throw lower.error;
  if ('error' in reply) throw reply.error;
  const table = joinHalfTables(lower.table, reply.ok, reply.groups, half.fingerprint);
  mark('the two halves joined');
  const notice = mergedNotice([lower.notice, reply.notice]);
  return { table, warnings: [...half.warnings, ...reply.warnings], phases: reply.phases, notice };
}

async function runAggregateJob(
  job: Omit<AggregateJob, 'options'> & { options: Omit<AggregateOptions, 'referenceChunks'> },
): Promise<{ reply: object; transfer: ArrayBuffer[] }> {
  const { phases, phase } = phaseRecorder();
  warmUpSqlJs();
  const half = readGoldenHalf(job.goldenPath, 1, job.splitMinBytes);
  phase('golden half read (the second here)');
  // Its range starts at its first id, where the main thread's ends (readGoldenHalf's nextId): every id must follow it.
  const from = half?.queries[0]?.id;
  if (half === null || from === undefined || !half.queries.every((q) => compareUtf8(q.id, from) >= 0))
    return { reply: { split: false, phases }, transfer: [] };
  const groups = groupQueries(half.queries.filter((q) => !q.pending));
  const golden = goldenSetOfHalf(job.goldenPath, half);
  const { table, notice } = await scoreFileToTable(
    job.runPath,
    job.runId,
    golden,
    { ...job.options, referenceChunks: null },
    { from },
  );
  phase('its half scored into its table');
  const { message, transfer } = tableTransfer(table);
  const rows = Object.values(groups).flatMap((byName) =>
    [...byName.values()].map((list) => list.buffer as ArrayBuffer),
  );
  const reply: HalfReply & { phases: WorkerPhase[] } = {
    ok: message,
    groups,
    warnings: half.warnings,
    notice,
    phases,
  };
  return { reply, transfer: [...transfer, ...rows] };
}

// ---------------------------------------------------------------------------------------------------------
// In the worker thread

/** A worker's failure as its reply: a user's mistake keeps its message, anything else its stack. */
function failureOf(error: unknown): Failure {
  if (error instanceof InputError) return { inputError: error.message };
  return { error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}

const data = workerData as { kind?: string; job?: unknown } | null;
const job = data?.kind === COMPARE_JOB ? runCompareJob : data?.kind === AGGREGATE_JOB ? runAggregateJob : null;
if (job !== null && parentPort !== null) {
  void job(data!.job as never)
    .catch((error: unknown) => ({ reply: failureOf(error), transfer: [] }))
    .then(({ reply, transfer }) => parentPort!.postMessage(reply, transfer));
}

/**
 * When a second thread pays off for aggregate: each thread reads half of a JSON Lines golden set and scores its
 * queries' results, so the gain grows with the golden set; the second heap costs memory, and a small run gains
 * nothing (docs/decisions/0001-two-threads-golden-halves.md). YAML golden sets are read in one thread.
 */
const SPLIT_MIN_GOLDEN_BYTES = 16 << 20;

const SPLIT_MIN_RUN_BYTES = 64 << 20;

/**
 * When scoring the candidate in a worker pays off for compare: the worker loads the bundle, compiles sql.js and
 * reads the golden set again, which a run under 64 MiB does not win back in wall time
 * (docs/decisions/0001-two-threads-golden-halves.md).
 */
export function worthAWorker(candidatePath: string): boolean {
  return workerMode() === 'always' || sizeAtLeast(candidatePath, SPLIT_MIN_RUN_BYTES);
}

export function worthSplitting(runPath: string, goldenPath: string): boolean {
  if (goldenFormatOf(goldenPath) !== 'jsonl') return false;
  if (workerMode() === 'always') return true;
  return sizeAtLeast(goldenPath, SPLIT_MIN_GOLDEN_BYTES) && sizeAtLeast(runPath, SPLIT_MIN_RUN_BYTES);
}

function sizeAtLeast(path: string, bytes: number): boolean {
  try {
    return statSync(path).size >= bytes;
  } catch {
    return false; // the readers name the missing file
  }
}
