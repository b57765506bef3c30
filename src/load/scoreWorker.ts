/**
 * Scoring a run on a second core: a worker thread reads the golden set and one run database itself, scores the
 * run, tabulates it (src/aggregate/table.ts: every per-query metric value as a column) and hands back the table,
 * its typed arrays moved, not copied. compare scores the candidate this way while the main thread scores the
 * baseline; aggregate has each thread score the results of its half of the golden set (aggregateInTwoThreads);
 * the machines we run on have two cores.
 *
 * The worker is the bundle this module is built into (dist/index.js or dist/cli/index.js; their entries run
 * nothing else in a worker thread). From TypeScript source `workersAvailable` is false and callers score in the
 * main thread: the same records, on one core.
 */
import { isMainThread, MessageChannel, parentPort, receiveMessageOnPort, resourceLimits, Worker, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { InputError } from '../errors.js';
import { aggregateTableOf, firstPartSums, groupQueries } from '../aggregate/aggregate.js';
import type { AggregateTable, Groups } from '../aggregate/aggregate.js';
import { compareUtf8, scoreEach } from '../aggregate/score.js';
import type { AggregateOptions } from '../aggregate/score.js';
import { concatTables, mergeTables, scoreToTable, tableFromTransfer, tableTransfer } from '../aggregate/table.js';
import type { TableTransfer, TabulatedRun } from '../aggregate/table.js';
import type { GoldenQuery, GoldenSet, RunMeta, RunStream } from '../types.js';
import {
  decodeGoldenPart, encodeGoldenPart, fingerprintBytes, fingerprintInParts, goldenSetOf, goldenSetOfPart, joinGoldenParts, readGoldenFile,
  readGoldenFileHalf,
} from './golden.js';
import { addNonText, nonTextWarnings } from './golden.js';
import type { GoldenPart, HalfFingerprint, NonTextTally } from './golden.js';
import { medianQueryId, openResultRange, openRunStream } from './runDatabase.js';
import { loadSqlJs } from './sqlite.js';
import type { QueryIdRange } from './runDatabase.js';

const JOB = 'evalgate-score-run';

export interface ScoreJob {
  runPath: string;
  runId: string | null;
  goldenPath: string;
  /** Exact chunk matching only: a fallback needs both runs' chunks, and compare scores that case in one thread. */
  options: Omit<AggregateOptions, 'referenceChunks'>;
}

/**
 * A phase of the worker: its label, when it ended, as `performance.timeOrigin + performance.now()` there (ms since
 * the epoch: one clock for both threads; the worker's own start comes a bundle load after the main thread starts
 * it), and the process's minor page faults by then (first-touched pages: see bench/README).
 */
export type WorkerPhase = [label: string, epochMs: number, faults: number];

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

/** The ids one thread's half of the golden set spans (see planGoldenHalves). */
export interface GoldenBoundsMessage {
  kind: 'golden-bounds';
  length: number;
  split: number;
  /**
   * The half's smallest and largest id in SQLite's order (the query_id ranges) and in JavaScript's (the
   * fingerprint's); null when this thread has no half (a small file, one it declined).
   */
  bounds: IdBounds | null;
}

export interface IdBounds {
  min: string;
  max: string;
  jsMin: string;
  jsMax: string;
}

export type GoldenMessage = GoldenPartMessage | GoldenBoundsMessage;

/**
 * Messages between the two threads about the golden set: `receive` gives the other thread's next one; `poll` gives
 * it only if it has already arrived (without waiting: aggregate asks while it scores).
 */
export interface GoldenExchange {
  send(message: GoldenMessage): void;
  receive(): Promise<GoldenMessage>;
  poll(): GoldenMessage | undefined;
}

/** Messages as they arrive, each taken once by `receive`, in order; after `fail`, receive rejects. */
class Inbox<T> {
  private readonly queued: T[] = [];
  private readonly waiting: Array<{ resolve: (message: T) => void; reject: (error: unknown) => void }> = [];
  private failure: { error: unknown } | null = null;

  push(message: T): void {
    const next = this.waiting.shift();
    if (next) next.resolve(message);
    else this.queued.push(message);
  }

  fail(error: unknown): void {
    this.failure ??= { error };
    for (const next of this.waiting.splice(0)) next.reject(error);
  }

  /** The next message if one has arrived. */
  take(): T | undefined {
    return this.queued.shift();
  }

  receive(): Promise<T> {
    if (this.queued.length > 0) return Promise.resolve(this.queued.shift()!);
    if (this.failure) return Promise.reject(this.failure.error);
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }
}

/**
 * The golden file read by two threads together: each reads its half (`part` 0: the first, 1: the second) on the
 * fast path and sends it to the other as JSON, which costs a fraction of reading YAML. Where that could differ from
 * reading the whole file (a small file, a half the fast path declines or that needs a line for a message, an id in
 * both halves, the threads having read different texts), both threads read the whole file, as one thread would.
 */
export async function readGoldenShared(file: string, part: 0 | 1, exchange: GoldenExchange, splitMinChars?: number): Promise<{ golden: GoldenSet; halves: boolean }> {
  // The halves' fingerprints are not written: the joined set's is computed from its queries (see joinGoldenParts).
  const { length, split, mine } = readOwnHalf(file, part, splitMinChars, 'none', () => exchange.send({ kind: 'golden-part', length: -1, split: -1, json: null }));
  return shareGoldenParts(length, file, split, part, mine, exchange);
}

/**
 * The golden file's size, where it is cut and this thread's half of it (undefined: none, see readGoldenFileHalf).
 * A file that cannot be read is the other thread's to hear of first (`unreadable` sends that), so it never waits.
 */
function readOwnHalf(file: string, part: 0 | 1, splitMinChars: number | undefined, fingerprint: HalfFingerprint, unreadable: () => void): { length: number; split: number; mine: GoldenPart | undefined } {
  try {
    return readGoldenFileHalf(file, part, splitMinChars, fingerprint);
  } catch (error) {
    unreadable();
    throw error;
  }
}

/** readGoldenShared once this thread has read its half (`mine`; undefined when it has none). */
async function shareGoldenParts(length: number, file: string, split: number, part: 0 | 1, mine: GoldenPart | undefined, exchange: GoldenExchange): Promise<{ golden: GoldenSet; halves: boolean }> {
  exchange.send({ kind: 'golden-part', length, split, json: mine ? encodeGoldenPart(mine) : null });
  const other = await exchange.receive();
  if (other.kind !== 'golden-part') throw new Error(`golden exchange: expected a half, got ${other.kind}`);
  if (mine && other.json !== null && other.split === split && other.length === length) {
    const theirs = decodeGoldenPart(other.json);
    const joined = part === 0 ? joinGoldenParts(file, mine, theirs) : joinGoldenParts(file, theirs, mine);
    if (joined) return { golden: joined, halves: true };
  }
  // The halves cannot stand for the whole: the whole file, read as one thread reads it.
  return { golden: readGoldenFile(file), halves: false };
}

/**
 * How aggregate's two threads divide a golden set and a run (both threads reach the same plan from the same two
 * messages, each thread's half's bounds):
 * - `ranges`: each thread keeps its own half of the golden file and scores the results of its own query_id range,
 *   the first thread's up to its half's largest id, the second's from its half's smallest. That needs every id of
 *   the first half to sort below every id of the second, in SQLite's order (the ranges) and in JavaScript's (the
 *   fingerprint's; see fingerprintBytes); a golden file in id order, as generated ones are, has that. Results
 *   between the two ranges (ids in neither half) are the first thread's to read (see withGapRows).
 * - `shared`: otherwise both threads get the whole set (readGoldenShared's exchange of halves) and split the run
 *   at its median query_id.
 * Neither thread waits for the other before scoring: each sends its bounds and scores its `ranges` part at once
 * (`score`, which calls `poll` every few hundred results). A thread that learns the plan is `shared` (from the
 * other's bounds, arriving meanwhile or at the end) drops what it scored. A run error met while scoring counts
 * only under `ranges`; under `shared` the whole golden file is read first, and its errors come before the run's,
 * as in one thread.
 */
export type GoldenPlan<T> =
  | { kind: 'ranges'; half: GoldenPart; own: IdBounds; other: IdBounds; scored: T }
  | { kind: 'shared'; golden: GoldenSet; halves: boolean };

/** Thrown by `poll` inside planGoldenHalves' `score` once the plan is known to be `shared`. */
const NOT_RANGES = Symbol('the plan is shared');

export async function planGoldenHalves<T>(
  file: string,
  part: 0 | 1,
  exchange: GoldenExchange,
  score: (half: GoldenPart, own: IdBounds, poll: () => void) => Promise<T>,
  splitMinChars?: number,
): Promise<GoldenPlan<T>> {
  // The first half's fingerprint bytes go into the hash the second's will continue; the second's are kept, for the
  // first thread to hash after its own.
  const fingerprint = part === 0 ? 'hash' : 'keep';
  const { length, split, mine } = readOwnHalf(file, part, splitMinChars, fingerprint, () => exchange.send({ kind: 'golden-bounds', length: -1, split: -1, bounds: null }));
  const own = mine && mine.queries.length > 0 ? idBounds(mine.queries) : null;
  exchange.send({ kind: 'golden-bounds', length, split, bounds: own });
  const boundsOf = (message: GoldenMessage): GoldenBoundsMessage => {
    if (message.kind !== 'golden-bounds') throw new Error(`golden exchange: expected bounds, got ${message.kind}`);
    return message;
  };
  const isRanges = (other: GoldenBoundsMessage): boolean => {
    if (!own || !other.bounds || other.length !== length || other.split !== split) return false;
    const [first, second] = part === 0 ? [own, other.bounds] : [other.bounds, own];
    return compareUtf8(first.max, second.min) < 0 && first.jsMax < second.jsMin;
  };
  let other: GoldenBoundsMessage | undefined;
  let scored: { value: T } | { error: unknown } | null = null;
  if (mine && own) {
    const poll = () => {
      if (other !== undefined) return;
      const arrived = exchange.poll();
      if (arrived === undefined) return;
      other = boundsOf(arrived);
      if (!isRanges(other)) throw NOT_RANGES;
    };
    try {
      scored = { value: await score(mine, own, poll) };
    } catch (error) {
      if (error !== NOT_RANGES) scored = { error };
    }
  }
  other ??= boundsOf(await exchange.receive());
  if (scored && isRanges(other)) {
    if ('error' in scored) throw scored.error;
    return { kind: 'ranges', half: mine!, own: own!, other: other.bounds!, scored: scored.value };
  }
  // Under `shared` a user's error from the early scoring waits for the whole golden file (which may have its own,
  // to come first) and the scoring that follows (which meets it again); anything else is a bug, never hidden.
  if (scored && 'error' in scored && !(scored.error instanceof InputError)) throw scored.error;
  return { kind: 'shared', ...(await shareGoldenParts(length, file, split, part, mine, exchange)) };
}

/** The smallest and largest id of `queries`, in both orders. */
function idBounds(queries: readonly GoldenQuery[]): IdBounds {
  let { id: min } = queries[0];
  let [max, jsMin, jsMax] = [min, min, min];
  for (const { id } of queries) {
    if (id < jsMin) jsMin = id;
    if (id > jsMax) jsMax = id;
    if (compareUtf8(id, min) < 0) min = id;
    if (compareUtf8(id, max) > 0) max = id;
  }
  return { min, max, jsMin, jsMax };
}

/** A worker thread: its golden-set messages (an exchange) and its one reply. */
interface StartedWorker<R> {
  exchange: GoldenExchange;
  /** The reply, once the worker has sent it; rejects with the worker's own error (an InputError for a user's). */
  reply: Promise<R & { phases: WorkerPhase[] }>;
  cancel(): void;
}

type Failure = { inputError: string } | { error: string };

/**
 * The worker's young generation as Node 20 sizes it (two 16 MB semi-spaces and a new large-object space of their
 * size: 48 MB). Node 24's V8 gives each thread 64 MB semi-spaces, which on the bench's runs raised peak memory by
 * ~100 MB for no measured gain in time (bench/README.md); on Node 20 this is the default already (on this 24 GB
 * machine; a worker's default does not follow the main thread's --max-old-space-size).
 * (The main thread's young generation is fixed when the process starts, and stays Node's.)
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 48 };

function startWorker<R extends object>(data: { kind: string; job: unknown }, ownChannel = false): StartedWorker<R> {
  // Aggregate's golden messages go over a channel of their own, which this thread can read while it scores
  // (receiveMessageOnPort); compare's share the worker's port with its reply.
  const channel = ownChannel ? new MessageChannel() : null;
  // The bundle this module was built into. (Not written `new Worker(new URL(...))`, a form bundlers turn into a
  // separate worker chunk.)
  const url = new URL(import.meta.url);
  const worker = channel
    ? new Worker(url, { workerData: { ...data, port: channel.port2 }, transferList: [channel.port2], resourceLimits: WORKER_LIMITS })
    : new Worker(url, { workerData: data, resourceLimits: WORKER_LIMITS });
  const inbox = new Inbox<GoldenMessage>();
  let open = channel !== null;
  if (channel) {
    channel.port1.on('message', (message: GoldenMessage) => inbox.push(message));
    channel.port1.unref(); // the worker keeps this thread alive while it runs; the port must not after that
  }
  /** Golden messages already on the channel, taken before a reply that came first (another channel) fails the inbox. */
  const drain = () => {
    if (!open) return;
    for (let m = receiveMessageOnPort(channel!.port1); m !== undefined; m = receiveMessageOnPort(channel!.port1)) inbox.push(m.message as GoldenMessage);
  };
  const close = () => {
    if (!open) return;
    open = false;
    channel!.port1.close();
  };
  const reply = new Promise<(R & { phases: WorkerPhase[] }) | Failure>((resolve, reject) => {
    worker.on('message', (message: GoldenMessage | R | Failure) => {
      if ('kind' in message) inbox.push(message);
      else {
        resolve(message as (R & { phases: WorkerPhase[] }) | Failure);
        drain();
        close();
        // A reply while this thread still waits for a golden message: the worker failed (its error is the reply's).
        inbox.fail(new Error('the scoring worker replied before it sent what the golden exchange needed'));
      }
    });
    worker.once('error', (error) => {
      close();
      inbox.fail(error);
      reject(error);
    });
    worker.once('exit', (code) => {
      close();
      const error = new Error(`the scoring worker exited with code ${code} before it replied`);
      inbox.fail(error);
      reject(error);
    });
  });
  const ok = reply.then((message) => {
    if ('inputError' in message) throw new InputError(message.inputError);
    if ('error' in message) throw new Error(`scoring worker: ${message.error}`);
    return message;
  });
  ok.catch(() => undefined); // a caller that fails first never awaits this
  const exchange: GoldenExchange = {
    send: (message) => (channel ? channel.port1.postMessage(message) : worker.postMessage(message)),
    // When the worker failed instead of sending its message, its own error is the one to report.
    receive: () => inbox.receive().catch(async (error: unknown) => {
      await ok;
      throw error;
    }),
    poll: () => {
      const queued = inbox.take();
      if (queued !== undefined || !open) return queued;
      return receiveMessageOnPort(channel!.port1)?.message as GoldenMessage | undefined;
    },
  };
  return {
    exchange,
    reply: ok,
    cancel: () => {
      close();
      void worker.terminate();
    },
  };
}

/**
 * The worker's end of an exchange: parentPort (compare) or aggregate's own channel (see startWorker), readable while
 * scoring. Listening from the start (a message may come early); `close` stops listening, since a port with a
 * listener keeps the worker, and so the process, alive. The port stays open: nothing sent on it is lost.
 */
function portExchange(port: MessagePort): GoldenExchange & { close(): void } {
  const inbox = new Inbox<GoldenMessage>();
  const listener = (message: GoldenMessage) => inbox.push(message);
  port.on('message', listener);
  let open = true;
  return {
    send: (message) => port.postMessage(message),
    receive: () => inbox.receive(),
    poll: () => inbox.take() ?? (open ? receiveMessageOnPort(port)?.message as GoldenMessage | undefined : undefined),
    close: () => {
      if (!open) return;
      open = false;
      port.off('message', listener);
    },
  };
}

/**
 * sql.js's WebAssembly compiled in the background while this thread reads its golden half, instead of after it
 * (15-25 ms). A failure shows where the module is first needed (loadSqlJs keeps the one promise).
 */
function warmUpSqlJs(): void {
  loadSqlJs().catch(() => undefined);
}

/** A worker's failure as its reply: a user's mistake keeps its message, anything else its stack. */
function failureOf(error: unknown): Failure {
  if (error instanceof InputError) return { inputError: error.message };
  return { error: error instanceof Error ? error.stack ?? error.message : String(error) };
}

function phaseRecorder(): { phases: WorkerPhase[]; phase: (label: string) => void } {
  const phases: WorkerPhase[] = [];
  const phase = (label: string) => phases.push([label, performance.timeOrigin + performance.now(), process.resourceUsage().minorPageFault]);
  phase(`worker running (young generation ${resourceLimits.maxYoungGenerationSizeMb} MB)`);
  return { phases, phase };
}

/** A run database (or one query_id range of it) scored into its table, the database open only meanwhile. */
async function scoreFileToTable(runPath: string, runId: string | null, golden: GoldenSet, options: AggregateOptions, range?: QueryIdRange, poll?: () => void): Promise<TabulatedRun> {
  const stream = await openRunStream(runPath, runId, range);
  try {
    poll?.();
    return scoreToTable(poll ? polled(stream, poll) : stream, golden, options, range);
  } finally {
    stream.release?.();
  }
}

/** `stream` calling `poll` every 256 results (which may throw, to stop reading). */
function polled(stream: RunStream, poll: () => void): RunStream {
  return {
    ...stream,
    forEachResult(each) {
      let n = 0;
      stream.forEachResult((result) => {
        if ((++n & 255) === 0) poll();
        each(result);
      });
    },
  };
}

/**
 * The `ranges` plan's results between the two threads' ranges (`range`: above the first half's largest id, below
 * the second's smallest), read into the first thread's table: their ids are in neither half, so they only add
 * unknown ids and what the hits carry (chunker versions, citations), as one thread's pass over them would.
 */
async function withGapRows(table: TabulatedRun, runPath: string, range: QueryIdRange, options: AggregateOptions): Promise<TabulatedRun> {
  const rows = await openResultRange(runPath, table.run.run.runId, range);
  let gap: ReturnType<typeof scoreEach>;
  try {
    const none = goldenSetOf(table.golden.source, [], []);
    gap = scoreEach({ ...table.run, forEachResult: (each) => rows.forEachResult(each) }, none, options, () => undefined, range, false);
  } finally {
    rows.close();
  }
  if (gap.unknownResultIds.length === 0) return table; // no row: nothing to add
  return {
    ...table,
    unknownResultIds: [...table.unknownResultIds, ...gap.unknownResultIds],
    hitChunkerVersions: [...new Set([...table.hitChunkerVersions, ...gap.hitChunkerVersions])].sort(),
    hitsHaveCitations: table.hitsHaveCitations || gap.hitsHaveCitations,
  };
}

// ---------------------------------------------------------------------------------------------------------
// compare: the candidate scored whole in a worker

export interface WorkerScoring {
  /** The run's table, joined to `golden`. */
  table: Promise<TabulatedRun>;
  /** The worker's phases, once it has replied. */
  phases: Promise<WorkerPhase[]>;
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
  const worker = startWorker<{ ok: TableTransfer }>({ kind: JOB, job });
  const table = worker.reply.then((message) => tableFromTransfer(message.ok, meta(), golden(), { ...job.options, referenceChunks: null }));
  table.catch(() => undefined); // a caller that fails first never awaits this
  const phases = worker.reply.then((message) => message.phases, () => []);
  return { table, phases, exchange: worker.exchange, cancel: worker.cancel };
}

async function runJob(job: ScoreJob): Promise<{ reply: object; transfer: ArrayBuffer[] }> {
  const { phases, phase } = phaseRecorder();
  const exchange = portExchange(parentPort!);
  try {
    warmUpSqlJs();
    const { golden, halves } = await readGoldenShared(job.goldenPath, 1, exchange);
    exchange.close();
    phase(halves ? 'golden set read in halves (the second here)' : 'golden set read whole');
    const table = await scoreFileToTable(job.runPath, job.runId, golden, { ...job.options, referenceChunks: null });
    phase('run scored into its table');
    const { message, transfer } = tableTransfer(table);
    return { reply: { ok: message, phases }, transfer };
  } catch (error) {
    return { reply: failureOf(error), transfer: [] };
  } finally {
    exchange.close();
  }
}

// ---------------------------------------------------------------------------------------------------------
// aggregate: one run scored by two threads, a half each

const AGGREGATE_JOB = 'evalgate-aggregate-half';

export interface AggregateJob {
  runPath: string;
  /** null: the newest run, as openRunStream picks it (each thread opens the database itself). */
  runId: string | null;
  goldenPath: string;
  options: AggregateOptions;
  /** Golden texts shorter than this are not cut in halves (tests cut small files; see goldenSplitPoint). */
  splitMinChars?: number;
}

type WorkerAggregateJob = Omit<AggregateJob, 'options'> & { options: Omit<AggregateOptions, 'referenceChunks'> };

/** The worker's half: its table, and under the `ranges` plan what the main thread needs of its golden half. */
interface AggregateReply {
  ok: TableTransfer | null;
  /** `ranges`: the half's rows grouped (groupQueries; Maps and typed arrays cross as they are), its warnings and its fingerprint bytes. */
  half: { groups: Groups; warnings: string[]; nonText: NonTextTally; fingerprint: Uint8Array } | null;
  /** `shared`: the whole set's fingerprint (both threads hold the same set; this one is done first). */
  fingerprint: string | null;
}

/** What a thread scores under the `shared` plan: the whole set and its half of the run (null: nothing, too small a run). */
async function scopeOf(plan: { golden: GoldenSet }, part: 0 | 1, job: { runPath: string; runId: string | null }): Promise<{ golden: GoldenSet; range: QueryIdRange } | null> {
  // Both threads find the same median (no message needed); a run of fewer than two results is the first's alone.
  let runId = job.runId;
  if (runId === null) {
    const meta = await openRunStream(job.runPath, null);
    meta.release?.();
    runId = meta.run.runId;
  }
  const median = await medianQueryId(job.runPath, runId);
  if (median === null) return part === 0 ? { golden: plan.golden, range: {} } : null;
  return { golden: plan.golden, range: part === 0 ? { to: median } : { from: median } };
}

/**
 * `aggregate` on two cores: this thread and a worker each read their part of the golden file, score their part of
 * the run at once and agree on a plan (planGoldenHalves), and this thread puts the two tables together (concatTables
 * for `ranges`, mergeTables for `shared`). The same table as one thread scoring the whole run.
 */
export async function aggregateInTwoThreads(job: AggregateJob, mark: (label: string) => void, traceWorker: (phases: Promise<WorkerPhase[]>) => Promise<void>): Promise<{ table: AggregateTable; warnings: string[] }> {
  const { referenceChunks: _unused, ...workerOptions } = job.options;
  const worker = startWorker<AggregateReply>({ kind: AGGREGATE_JOB, job: { ...job, options: workerOptions } satisfies WorkerAggregateJob }, true);
  warmUpSqlJs();
  const workerTrace = traceWorker(worker.reply.then((message) => message.phases, () => []));
  try {
    const plan = await planGoldenHalves(job.goldenPath, 0, worker.exchange, (half, own, poll) => {
      mark('golden half read (the first here)');
      return scoreFileToTable(job.runPath, job.runId, goldenSetOfPart(job.goldenPath, half), job.options, { through: own.max }, poll);
    }, job.splitMinChars);
    if (plan.kind === 'ranges') {
      mark('this half scored into its table; query_id ranges by golden half');
      const lower = await withGapRows(plan.scored, job.runPath, { after: plan.own.max, to: plan.other.min }, job.options);
      mark('the results between the ranges read');
      // While the worker packs its reply: this half's groups, its part of the fingerprint's hash and its sums (all
      // would otherwise wait for the join, after which this thread works alone).
      groupQueries(lower.queries); // kept for concatTables (groupQueries remembers a query list's groups)
      const fingerprint = fingerprintInParts();
      fingerprint.add(plan.half.fingerprint ?? fingerprintBytes(plan.half.queries));
      mark('this half grouped and hashed');
      // The sums over this half's rows (the worker, which starts a bundle load later, most often still scores):
      // after the join only the worker's rows are summed, continuing them.
      const sums = firstPartSums(lower);
      mark('this half summed');
      const reply = await worker.reply;
      mark("the worker's table received");
      await workerTrace;
      const half = reply.half!;
      fingerprint.add(half.fingerprint);
      const table = concatTables(lower, reply.ok!, half.groups, fingerprint.digest(), sums);
      mark('the two halves put together');
      // As the whole file's reading orders them: every half's warnings, then the tallies of both added up.
      return { table, warnings: [...plan.half.warnings, ...half.warnings, ...nonTextWarnings(addNonText(plan.half.nonText, half.nonText))] };
    }
    mark(plan.halves ? 'golden set read in halves and exchanged' : 'golden set read whole');
    const scope = (await scopeOf(plan, 0, job))!;
    const lower = await scoreFileToTable(job.runPath, job.runId, scope.golden, job.options, scope.range);
    mark('this half scored into its table');
    const reply = await worker.reply;
    await workerTrace;
    if (reply.ok === null) return { table: aggregateTableOf(lower), warnings: plan.golden.warnings };
    // Both threads hold the same set: the worker's fingerprint is this one's.
    const { source, queries, warnings } = plan.golden;
    const golden = goldenSetOf(source, queries, warnings, reply.fingerprint ?? undefined);
    const merged = mergeTables([{ ...lower, golden }, tableFromTransfer(reply.ok, lower.run, golden, job.options)]);
    mark('the two halves merged');
    return { table: aggregateTableOf(merged), warnings };
  } catch (error) {
    worker.cancel();
    throw error;
  }
}

async function runAggregateJob(job: WorkerAggregateJob, port: MessagePort): Promise<{ reply: object; transfer: ArrayBuffer[] }> {
  const { phases, phase } = phaseRecorder();
  const exchange = portExchange(port);
  try {
    warmUpSqlJs();
    const options = { ...job.options, referenceChunks: null };
    const plan = await planGoldenHalves(job.goldenPath, 1, exchange, async (half, own, poll) => {
      phase('golden half read (the second here)');
      // Its rows' groups now, not after scoring, where the main thread would wait for them: the rows are the half's
      // non-pending queries in order, as in its table.
      const groups = groupQueries(half.queries.filter((q) => !q.pending));
      const table = await scoreFileToTable(job.runPath, job.runId, goldenSetOfPart(job.goldenPath, half), options, { from: own.min }, poll);
      return { table, groups };
    }, job.splitMinChars);
    exchange.close();
    if (plan.kind === 'ranges') {
      phase('its half scored into its table');
      const { groups } = plan.scored;
      const kept = plan.half.fingerprint;
      const fingerprint = kept instanceof Uint8Array ? kept : fingerprintBytes(plan.half.queries);
      const half = { groups, warnings: plan.half.warnings, nonText: plan.half.nonText, fingerprint };
      phase('its golden half fingerprinted');
      const { message, transfer } = tableTransfer(plan.scored.table);
      // The fingerprint's bytes move too: both ways of writing them give a view at the start of an ArrayBuffer of
      // its own (possibly longer: the golden file's bytes, written over).
      const own = [fingerprint.buffer as ArrayBuffer];
      // The groups' row lists move as well (each its own ArrayBuffer, from Int32Array.from).
      const rows = Object.values(groups).flatMap((byName) => [...byName.values()].map((list) => list.buffer as ArrayBuffer));
      return { reply: { ok: message, half, fingerprint: null, phases } satisfies AggregateReply & { phases: WorkerPhase[] }, transfer: [...transfer, ...rows, ...own] };
    }
    phase(plan.halves ? 'golden set read in halves and exchanged' : 'golden set read whole');
    const scope = await scopeOf(plan, 1, job);
    if (scope === null) return { reply: { ok: null, half: null, fingerprint: null, phases } satisfies AggregateReply & { phases: WorkerPhase[] }, transfer: [] };
    const table = await scoreFileToTable(job.runPath, job.runId, scope.golden, options, scope.range);
    phase('its half scored into its table');
    const fingerprint = plan.golden.fingerprint;
    phase('golden set fingerprinted');
    const { message, transfer } = tableTransfer(table);
    return { reply: { ok: message, half: null, fingerprint, phases } satisfies AggregateReply & { phases: WorkerPhase[] }, transfer };
  } catch (error) {
    return { reply: failureOf(error), transfer: [] };
  } finally {
    exchange.close();
  }
}

if (!isMainThread) {
  const data = workerData as { kind?: string; job?: unknown; port?: MessagePort } | null;
  const reply = data?.kind === JOB ? runJob(data.job as ScoreJob) : data?.kind === AGGREGATE_JOB ? runAggregateJob(data.job as WorkerAggregateJob, data.port!) : null;
  void reply?.then(({ reply: message, transfer }) => parentPort!.postMessage(message, transfer));
}
