/**
 * Which path scores a comparison: several runs on a side (repeats), else the candidate in a worker thread beside
 * the baseline (src/pipeline/twoThreads.ts), else one side after the other, or the candidate alone.
 */
import {
  compareCandidateOnly,
  compareExactlyScored,
  compareRuns,
  declaredVersionsDiffer,
  prepareBaseline,
} from '../compare/compare.js';
import type { CompareOptions } from '../compare/compare.js';
import { compareRepeatedRuns, setAsideFlaky } from '../compare/repeats.js';
import type { RepeatedComparison } from '../compare/repeats.js';
import type { ComparedRuns } from '../compare/types.js';
import { deferRunStream, openRunStream } from '../load/runDatabase.js';
import { DEFAULT_OPTIONS } from '../aggregate/score.js';
import { scoreToTable, tableFromTransfer } from '../aggregate/table.js';
import { mergedNotice } from '../types.js';
import type { GoldenSet, RowNotice, RunStream } from '../types.js';
import type { RunRead } from '../validate/pipelineChecks.js';
import { repeatedRuns } from './runLists.js';
import type { RunLists, RunSides } from './runLists.js';
import type { Tracer } from './trace.js';
import { scoreRunInWorker, workersAvailable, worthAWorker } from './twoThreads.js';

/** The runs a comparison reads: the files, the run each side names, and the queries known to be flaky. */
export interface SidesToCompare extends RunSides {
  goldenPath: string;
  /**
   * Queries flaky by history (query id -> why, e.g. "flipped on main 3 times in the last 10 runs"): treated as
   * flaky on both sides, even with one run per side (docs/compare.md, "Repeated runs and flaky queries").
   */
  knownFlaky?: ReadonlyMap<string, string>;
}

/**
 * The comparison by the path the inputs call for: several runs on a side (repeats), else two threads where
 * available, else in sequence; the every run read (file, run id, side).
 */
export async function compareChosen(
  given: SidesToCompare,
  golden: () => GoldenSet,
  options: Partial<CompareOptions>,
  t: Tracer,
  mayDiffer: readonly string[] | undefined,
): Promise<{
  compared: ComparedRuns;
  runsRead: RunRead[];
  parallel: boolean;
  repeatWarnings: string[];
}> {
  const baselinePath = given.baselinePath;
  const noticed: Noticed = [];
  const lists = await repeatedRuns(given);
  const inputs = lists ? { ...given, baselineRun: lists.baseline[0] ?? null, candidateRun: lists.candidate[0] } : given;
  const repeated = lists !== null && (lists.baseline.length > 1 || lists.candidate.length > 1);
  const inParallel =
    baselinePath !== null && workersAvailable() && !repeated && worthAWorker(inputs.candidatePath)
      ? await compareInParallel({ ...inputs, baselinePath }, golden, options, t, noticed)
      : null;
  const repeatedCompared = repeated
    ? await compareRepeated({ ...inputs, baselinePath: baselinePath! }, lists, golden(), options, mayDiffer, noticed)
    : null;
  const compared =
    repeatedCompared ??
    withKnownFlaky(
      inParallel ??
        (baselinePath === null
          ? await compareCandidateAlone(inputs, golden(), options, noticed)
          : await compareInSequence({ ...inputs, baselinePath }, golden(), options, noticed)),
      inputs.knownFlaky,
    );
  const { baseline: b, candidate: c } = compared.report;
  const read = (path: string, ids: Array<string | null>, id: string, side: RunRead['side']): RunRead[] =>
    (repeated ? ids : [null]).map((each) => ({
      file: path,
      run: each ?? id,
      side,
      noticed: noticeOfRun(noticed, path, each ?? id),
    }));
  const runsRead = [
    ...(baselinePath !== null && b ? read(baselinePath, lists?.baseline ?? [], b.run_id, 'baseline') : []),
    ...read(inputs.candidatePath, lists?.candidate ?? [], c.run_id, 'candidate'),
  ];
  const repeatWarnings = repeatedCompared?.repeatWarnings ?? [];
  return { compared, runsRead, parallel: inParallel !== null, repeatWarnings };
}

/** Each run read, with what its reader noticed in the rows (load/queryResult.ts, readResultRow), once scored. */
type Noticed = Array<{ file: string; run: string; notice: RowNotice }>;

/** What the reader noticed in every reading of one run (a run is read once a side, or once a repeat). */
function noticeOfRun(noticed: Noticed, file: string, run: string): RowNotice {
  return mergedNotice(noticed.filter((n) => n.file === file && n.run === run).map((n) => n.notice));
}

/** The stream, its notice kept in `noticed`. */
function tracked(stream: RunStream, noticed: Noticed): RunStream {
  if (stream.notice) noticed.push({ file: stream.source, run: stream.run.runId, notice: stream.notice });
  return stream;
}

/** Each side's runs scored one after another (one run database in memory at a time), means per query compared. */
async function compareRepeated(
  inputs: SidesToCompare & { baselinePath: string },
  lists: RunLists,
  golden: GoldenSet,
  options: Partial<CompareOptions>,
  mayDiffer: readonly string[] | undefined,
  noticed: Noticed,
): Promise<RepeatedComparison> {
  const opens = async (path: string, ids: Array<string | null>) => {
    const out: Array<() => RunStream> = [];
    for (const id of ids) {
      const open = await deferRunStream(path, id);
      out.push(() => tracked(open(), noticed));
    }
    return out;
  };
  return compareRepeatedRuns(
    await opens(inputs.baselinePath, lists.baseline),
    await opens(inputs.candidatePath, lists.candidate),
    golden,
    options,
    inputs.knownFlaky,
    mayDiffer,
  );
}

/** One run per side: the queries flaky by history set aside (unchanged without any). */
function withKnownFlaky(
  compared: ReturnType<typeof compareRuns>,
  knownFlaky: ReadonlyMap<string, string> | undefined,
): ReturnType<typeof compareRuns> {
  if (!knownFlaky || knownFlaky.size === 0) return compared;
  const ks = compared.report.options.ks;
  return setAsideFlaky(compared, {
    baseline: null,
    candidate: null,
    knownFlaky,
    rule: { k: Math.max(...ks), labels: false },
    queries: null,
  });
}

/**
 * One run database in memory at a time: the baseline is scored and released before the candidate is opened (its
 * path and header are checked first, so a wrong path fails before any scoring).
 */
async function compareCandidateAlone(
  inputs: SidesToCompare,
  golden: GoldenSet,
  options: Partial<CompareOptions>,
  noticed: Noticed,
): Promise<ReturnType<typeof compareRuns>> {
  const candidate = tracked(await openRunStream(inputs.candidatePath, inputs.candidateRun), noticed);
  return compareCandidateOnly(candidate, golden, options);
}

async function compareInSequence(
  inputs: SidesToCompare & { baselinePath: string },
  golden: GoldenSet,
  options: Partial<CompareOptions>,
  noticed: Noticed,
): Promise<ReturnType<typeof compareRuns>> {
  const baseline = tracked(await openRunStream(inputs.baselinePath, inputs.baselineRun), noticed);
  const openCandidate = await deferRunStream(inputs.candidatePath, inputs.candidateRun);
  let candidate: RunStream | null = null;
  try {
    return compareRuns(baseline, () => (candidate = tracked(openCandidate(), noticed)), golden, options);
  } finally {
    baseline.release?.();
    (candidate as RunStream | null)?.release?.();
  }
}

/**
 * Two cores: a worker thread scores the candidate while this thread scores the baseline, each reading the golden
 * set itself. Null when the chunker versions differ (declared or seen in the hits): that case needs both runs'
 * chunks and is scored in sequence.
 */
async function compareInParallel(
  inputs: SidesToCompare & { baselinePath: string },
  golden: () => GoldenSet,
  options: Partial<CompareOptions>,
  t: Tracer,
  noticed: Noticed,
): Promise<ReturnType<typeof compareRuns> | null> {
  const strict = options.strictChunkerVersion ?? false;
  // The merged options (the config's k and mrr_cutoff included), less compare's own keys.
  const { strictChunkerVersion: _s, seed: _seed, permutations: _p, alpha: _a, ...given } = options;
  const scoring = { ...DEFAULT_OPTIONS, ...given, chunkMatch: 'exact' as const };
  const { referenceChunks: _unused, ...workerOptions } = scoring;
  t.mark('worker started');
  const worker = scoreRunInWorker({
    runPath: inputs.candidatePath,
    runId: inputs.candidateRun ?? null,
    goldenPath: inputs.goldenPath,
    options: workerOptions,
  });
  let baseline: RunStream | null = null;
  try {
    const goldenSet = golden();
    t.mark('golden set read');
    baseline = tracked(await openRunStream(inputs.baselinePath, inputs.baselineRun), noticed);
    const candidateMeta = await openRunStream(inputs.candidatePath, inputs.candidateRun);
    candidateMeta.release?.();
    t.mark('run tables read');
    if (declaredVersionsDiffer(baseline, candidateMeta, strict)) {
      worker.cancel();
      return null;
    }
    const bs = scoreToTable(baseline, goldenSet, { ...scoring, referenceChunks: null });
    baseline.release?.();
    t.mark('baseline scored into its table');
    // While the worker finishes: the baseline's side of the comparison (reused when the candidate has the same stages).
    const prepared = prepareBaseline(bs, scoring);
    t.mark('baseline measured');
    const reply = await worker.reply;
    noticed.push({ file: inputs.candidatePath, run: candidateMeta.run.runId, notice: reply.notice });
    const cs = tableFromTransfer(reply.ok, candidateMeta, goldenSet, { ...scoring, referenceChunks: null });
    t.mark('candidate table received');
    await t.worker(Promise.resolve(reply.phases));
    return compareExactlyScored(bs, cs, options, prepared);
  } catch (error) {
    worker.cancel();
    throw error;
  } finally {
    baseline?.release?.();
  }
}
