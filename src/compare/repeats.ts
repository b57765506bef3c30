/**
 * A side of several runs (repeats of one system): per query, each per-query column is the mean over the side's
 * repeats, so the paired test pairs per-query means (n = queries). Per query the facts the outcomes read (rank,
 * refusal, ...) are those of the median repeat by first relevant rank; the judge scores are their mean. A query
 * whose baseline repeats disagree is flaky and set aside; one only the candidate's repeats disagree on is a win,
 * loss or draw in proportion (flakyReasons, setAsideFlaky; docs/compare.md, "Repeated runs and flaky queries").
 * Linear in runs x queries: each run's table is added to running sums and dropped but for its small facts.
 */
import { rowCore, rowFactsAt, wfgyLabel } from '../aggregate/perQuery.js';
import type { RowCore } from '../aggregate/perQuery.js';
import { resultsOf } from '../aggregate/score.js';
import { scoreToTable } from '../aggregate/table.js';
import type { RecordFacts, TabulatedRun } from '../aggregate/table.js';
import type { ChunkMatchMode } from '../aggregate/matching.js';
import type { AggregateOptions } from '../aggregate/score.js';
import type { Columns } from '../aggregate/perQueryValues.js';
import { InputError } from '../errors.js';
import { oneLine } from '../inputText.js';
import { plural } from '../numberFormat.js';
import type { ChunkRecord, GoldenQuery, GoldenSet, RunData, RunMeta, RunStream } from '../types.js';
import type { Side } from '../warnings.js';
import {
  chunkerVersionOf,
  compareScored,
  configDifferences,
  declaredChunkerVersion,
  DEFAULT_COMPARE_OPTIONS,
  matchLabel,
} from './compare.js';
import type { CompareOptions } from './compare.js';
import type { ComparedRuns, Comparison, FlakyQuery, QueryOutcome } from './types.js';

/** A judge score (1 to 5) that moves by more than this between repeats makes a query flaky: the regression rule's gap. */
export const JUDGE_FLAKY_STEP = 1;

/** Flaky queries listed in the JSON report (the count is whole); sorted by query id. */
export const MAX_FLAKY_LISTED = 200;

/**
 * The config_snapshot_json keys a side's repeats may differ in without a warning when the gate config names none
 * (`repeats.may_differ`): repeats of one system differ in their seed by design.
 */
export const DEFAULT_MAY_DIFFER: readonly string[] = ['seed'];

/** Running per-query sums and counts of one set of columns. */
class ColumnSums {
  private readonly sums = new Map<string, { sum: Float64Array; n: Uint16Array }>();

  constructor(private readonly rows: number) {}

  add(columns: Columns): void {
    for (const [key, column] of columns) {
      if (column.length !== this.rows) throw new Error(`repeats: column ${key} has ${column.length} rows`);
      let at = this.sums.get(key);
      if (at === undefined)
        this.sums.set(key, (at = { sum: new Float64Array(this.rows), n: new Uint16Array(this.rows) }));
      const { sum, n } = at;
      for (let i = 0; i < column.length; i++) {
        const v = column[i];
        if (v === v) {
          sum[i] += v;
          n[i]++;
        }
      }
    }
  }

  /** Each column's per-query mean over the repeats that have a value (NaN: none has). */
  means(): Columns {
    const out: Columns = new Map();
    for (const [key, { sum, n }] of this.sums) {
      for (let i = 0; i < sum.length; i++) sum[i] = n[i] === 0 ? NaN : sum[i] / n[i];
      out.set(key, sum);
    }
    return out;
  }
}

/** One side's repeats: every run's facts, in the order the runs were given. */
export interface SideRepeats {
  runIds: string[];
  facts: RecordFacts[];
  /** Settings (config_snapshot_json keys) in which some run differs from the first: repeats are of one system. */
  differences: string[];
  /** Those of the settings some run differs in that may differ (`repeats.may_differ`): kept apart, no warning. */
  expectedDifferences: string[];
  /** Runs with no result for queries another run of the side has (each a miss there), in the order given. */
  missing: MissingInRun[];
}

/** A repeat run without results for `count` golden queries (not pending) that another run of its side has. */
export interface MissingInRun {
  source: string;
  runId: string;
  count: number;
}

/** Adds a side's runs one at a time (each table dropped once added) and gives the side as one table. */
export class RepeatMerger {
  private first: TabulatedRun | null = null;
  private main: ColumnSums | null = null;
  private pending: ColumnSums | null = null;
  private readonly facts: RecordFacts[] = [];
  private readonly runIds: string[] = [];
  private readonly sources: string[] = [];
  private readonly unknown = new Set<string>();
  private readonly duplicate = new Set<string>();
  private readonly capped = new Set<string>();
  private readonly versions = new Set<string>();
  private readonly recordStages = new Set<string>();
  private readonly allStages = new Set<string>();
  private readonly pendingHasResult: Uint8Array[] = [];
  private ignored = 0;
  private citations = false;
  private readonly differences = new Set<string>();

  /** `mayDiffer`: the settings the side's runs may differ in without a warning (DEFAULT_MAY_DIFFER). */
  constructor(private readonly mayDiffer: ReadonlySet<string> = new Set(DEFAULT_MAY_DIFFER)) {}

  add(table: TabulatedRun): void {
    if (this.runIds.length === 0xffff) throw new InputError('repeats: more than 65,535 runs on one side');
    this.first ??= table;
    for (const key of configDifferences(this.first.run, table.run)) this.differences.add(key);
    this.main ??= new ColumnSums(table.queries.length);
    this.pending ??= new ColumnSums(table.pendingQueries.length);
    this.main.add(table.columns);
    this.pending.add(table.pendingColumns);
    this.facts.push(table.facts);
    this.runIds.push(table.run.run.runId);
    this.sources.push(table.run.source);
    for (const id of table.unknownResultIds) this.unknown.add(id);
    for (const id of table.duplicateResultIds) this.duplicate.add(id);
    for (const id of table.cappedResultIds) this.capped.add(id);
    for (const v of table.hitChunkerVersions) this.versions.add(v);
    for (const s of table.recordStages) this.recordStages.add(s);
    for (const s of table.allStages) this.allStages.add(s);
    this.pendingHasResult.push(table.pendingHasResult);
    this.ignored += table.ignoredStageTimings;
    this.citations ||= table.hitsHaveCitations;
  }

  /** The side as one table (the first run's run row and golden set), and its repeats. */
  merged(): { table: TabulatedRun; repeats: SideRepeats } {
    const first = this.first;
    if (first === null) throw new Error('repeats: no run added');
    const table: TabulatedRun = {
      ...first,
      recordStages: [...this.recordStages].sort(),
      allStages: [...this.allStages].sort(),
      columns: this.main!.means(),
      pendingColumns: this.pending!.means(),
      facts: medianFacts(this.facts),
      pendingHasResult: anyOf(this.pendingHasResult, first.pendingQueries.length),
      unknownResultIds: [...this.unknown],
      duplicateResultIds: [...this.duplicate],
      cappedResultIds: [...this.capped],
      hitChunkerVersions: [...this.versions].sort(),
      hitsHaveCitations: this.citations,
      ignoredStageTimings: this.ignored,
    };
    const all = [...this.differences].sort();
    const differences = all.filter((key) => !this.mayDiffer.has(key));
    const expectedDifferences = all.filter((key) => this.mayDiffer.has(key));
    const missing = this.missingInRuns(table.facts.hasResult);
    return { table, repeats: { runIds: this.runIds, facts: this.facts, differences, expectedDifferences, missing } };
  }

  /** Per run, the queries it has no result for while some run of the side has one (`any`: the side's union). */
  private missingInRuns(any: Uint8Array): MissingInRun[] {
    const out: MissingInRun[] = [];
    this.facts.forEach((f, r) => {
      let count = 0;
      for (let i = 0; i < any.length; i++) if (any[i] === 1 && f.hasResult[i] === 0) count++;
      if (count > 0) out.push({ source: this.sources[r], runId: this.runIds[r], count });
    });
    return out;
  }
}

/**
 * A side's runs missing results the side's other runs have, as the single-run compare words a run missing results
 * (missing_results): there each such query is a miss (left out of that run's means under `--mean-over trec`). The
 * side's own union of results is what the report's added and removed queries read, so these are said nowhere else.
 */
export function missingInRepeatsWarnings(side: Side, repeats: SideRepeats, meanOver: string): string[] {
  const counted = meanOver === 'trec' ? 'left out of its means: `--mean-over trec`' : 'counted as misses';
  return repeats.missing.map(
    (m) =>
      `${m.source}: ${side} run \`${oneLine(m.runId)}\`: ${plural(m.count, 'query has', 'queries have')} no result ` +
      `in this run, only in other ${side} runs (${counted})`,
  );
}

/** A comparison of repeated runs, with the warnings only repeats have (missingInRepeatsWarnings). */
export interface RepeatedComparison extends ComparedRuns {
  repeatWarnings: string[];
}

function anyOf(arrays: Uint8Array[], n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (const a of arrays) for (let i = 0; i < n; i++) out[i] |= a[i];
  return out;
}

/** A rank as a sort key: a miss after every rank. */
const rankKey = (rank: number) => (rank === 0 ? Number.POSITIVE_INFINITY : rank);

/**
 * Per query, the facts of the median repeat by first relevant rank (the lower middle one for an even count, the
 * earliest of equals); a result in any repeat counts as one, and the judge scores are the repeats' mean.
 */
function medianFacts(all: RecordFacts[]): RecordFacts {
  const n = all[0].hasResult.length;
  const keys = Object.keys(all[0]) as Array<keyof RecordFacts>;
  const out = Object.fromEntries(
    keys.map((k) => [k, new (all[0][k].constructor as new (n: number) => RecordFacts[typeof k])(n)]),
  ) as unknown as RecordFacts;
  const order = all.map((_, r) => r);
  for (let i = 0; i < n; i++) {
    order.sort((a, b) => rankKey(all[a].firstRelevantRank[i]) - rankKey(all[b].firstRelevantRank[i]) || a - b);
    const median = all[order[(all.length - 1) >> 1]];
    for (const k of keys) out[k][i] = median[k][i];
    let has = 0;
    for (const f of all) has |= f.hasResult[i];
    out.hasResult[i] = has;
    out.judgeGroundedness[i] = meanOfNumbers(all, (f) => f.judgeGroundedness[i]);
    out.judgeCorrectness[i] = meanOfNumbers(all, (f) => f.judgeCorrectness[i]);
  }
  return out;
}

function meanOfNumbers(all: RecordFacts[], value: (f: RecordFacts) => number): number {
  let sum = 0;
  let n = 0;
  for (const f of all) {
    const v = value(f);
    if (v === v) {
      sum += v;
      n++;
    }
  }
  return n === 0 ? NaN : sum / n;
}

/** What a flaky rule reads: the largest rank cutoff (hit@K) and whether WFGY's labels are compared. */
export interface FlakyRule {
  k: number;
  labels: boolean;
}

/** Where a first relevant rank falls: 0 miss, 1 found below the top K, 2 in the top K. */
const bucket = (rank: number, k: number) => (rank === 0 ? 0 : rank <= k ? 2 : 1);

/**
 * Why query `i` is flaky across `repeats` (empty: it is not): its repeats disagree on hit@K or on finding a
 * relevant hit at all, on refusing, on the groundedness verdict, on WFGY's label (profile wfgy), or a judge score
 * moves by more than JUDGE_FLAKY_STEP. One repeat is never flaky.
 */
export function flakyReasons(facts: RecordFacts[], q: GoldenQuery, i: number, rule: FlakyRule): string[] {
  if (facts.length < 2) return [];
  const reasons: string[] = [];
  const differ = (value: (f: RecordFacts) => number | string | null) => {
    const seen = new Set(facts.map(value).filter((v) => v !== null));
    return seen.size > 1;
  };
  if (facts[0].hasExpectations[i] === 1 && differ((f) => bucket(f.firstRelevantRank[i], rule.k)))
    reasons.push(
      differ((f) => Number(bucket(f.firstRelevantRank[i], rule.k) === 2))
        ? `hit@${rule.k} differs`
        : 'a relevant hit differs',
    );
  if (differ((f) => (f.refused[i] < 0 ? null : f.refused[i]))) reasons.push('refusal differs');
  if (differ((f) => (f.groundedText[i] < 0 ? null : f.groundedText[i]))) reasons.push('groundedness verdict differs');
  if (rule.labels && differ((f) => wfgyLabel(q.answerable, triState(f.refused[i]), f.citedRelevant[i] === 1)))
    reasons.push("WFGY's label differs");
  for (const dim of ['groundedness', 'correctness'] as const) {
    const scores = facts.map((f) => (dim === 'groundedness' ? f.judgeGroundedness[i] : f.judgeCorrectness[i]));
    const present = scores.filter((v) => v === v);
    if (present.length > 1 && Math.max(...present) - Math.min(...present) > JUDGE_FLAKY_STEP)
      reasons.push(`judge ${dim} moves by more than ${JUDGE_FLAKY_STEP}`);
  }
  return reasons;
}

const triState = (v: number): boolean | null => (v < 0 ? null : v === 1);

/** One repeat's outcome of query `i` in a few words: its rank, and the answer facts that disagree anywhere. */
function repeatOutcome(f: RecordFacts, i: number, reasons: string[]): string {
  const parts = [
    f.hasResult[i] === 0 ? 'missing' : f.firstRelevantRank[i] === 0 ? 'miss' : `rank ${f.firstRelevantRank[i]}`,
  ];
  const about = (word: string) => reasons.some((r) => r.includes(word));
  if (about('refusal') && f.refused[i] >= 0) parts.push(f.refused[i] === 1 ? 'refused' : 'answered');
  if (about('groundedness verdict') && f.groundedText[i] >= 0)
    parts.push(f.groundedText[i] === 1 ? 'grounded' : 'not grounded');
  if (about('judge groundedness') && f.judgeGroundedness[i] === f.judgeGroundedness[i])
    parts.push(`judge groundedness ${f.judgeGroundedness[i]}`);
  if (about('judge correctness') && f.judgeCorrectness[i] === f.judgeCorrectness[i])
    parts.push(`judge correctness ${f.judgeCorrectness[i]}`);
  return parts.join(', ');
}

/** What setAsideFlaky needs: each side's repeats (null: one run, outcomes from the report), and flaky by history. */
export interface FlakyInputs {
  baseline: SideRepeats | null;
  candidate: SideRepeats | null;
  knownFlaky?: ReadonlyMap<string, string>;
  rule: FlakyRule;
  /** The compared golden queries, rows as in per_query (needed when a side has repeats). */
  queries: readonly GoldenQuery[] | null;
  /** Query i's candidate row (its median run's), for an outcome that becomes a loss or an answer regression here. */
  candidateRow?: (i: number) => RowCore;
}

/** Whether the report gets `repeats` and `flaky`: a side of several runs, or queries flaky by history given. */
export function looksForFlaky(inputs: FlakyInputs): boolean {
  return (
    (inputs.baseline?.runIds.length ?? 1) > 1 ||
    (inputs.candidate?.runIds.length ?? 1) > 1 ||
    (inputs.knownFlaky?.size ?? 0) > 0
  );
}

const byQueryId = (a: { query_id: string }, b: { query_id: string }) =>
  a.query_id < b.query_id ? -1 : a.query_id > b.query_id ? 1 : 0;

/** Of a side's runs of one query: how many, how many have a relevant hit in the top K, how many have one at all. */
interface HitCounts {
  runs: number;
  top: number;
  found: number;
}

/** Query i's hit counts over a side's repeats; one run (no repeats): its rank in the report (null: a miss). */
function hitCounts(rep: SideRepeats | null, rank: number | null, i: number, k: number): HitCounts {
  const ranks = rep ? rep.facts.map((f) => f.firstRelevantRank[i]) : [rank ?? 0];
  return {
    runs: ranks.length,
    top: ranks.filter((r) => bucket(r, k) === 2).length,
    found: ranks.filter((r) => r !== 0).length,
  };
}

/** The sign of x/nx - y/ny, exact (integers cross-multiplied). */
const rateSign = (x: number, nx: number, y: number, ny: number) => Math.sign(x * ny - y * nx);

/**
 * The outcome of a query whose candidate runs disagree on retrieval while the baseline's agree: the candidate's
 * hit@K rate (share of its runs with a relevant hit in the top K) against the baseline's, then, when those are equal,
 * the share of runs that find a relevant hit at all: lower a loss, higher a win, equal a draw.
 */
function proportionalKind(b: HitCounts, c: HitCounts): 'win' | 'loss' | 'draw' {
  const order = rateSign(c.top, c.runs, b.top, b.runs) || rateSign(c.found, c.runs, b.found, b.runs);
  return order < 0 ? 'loss' : order > 0 ? 'win' : 'draw';
}

/** "hit@10 in 3 of 3 runs -> 1 of 3": the rate the proportional outcome read. */
function proportionNote(b: HitCounts, c: HitCounts, k: number): string {
  const [what, bx, cx] =
    rateSign(c.top, c.runs, b.top, b.runs) !== 0 ? [`hit@${k}`, b.top, c.top] : ['a relevant hit', b.found, c.found];
  return `${what} in ${bx} of ${b.runs} ${b.runs === 1 ? 'run' : 'runs'} -> ${cx} of ${c.runs}`;
}

/** A yes/no answer fact the flaky rule reads, by its reason: per run 1 the worse value, 0 the other, null unknown. */
interface AnswerFact {
  reason: string;
  /** The worse value in words: "refused in 1 of 3 candidate runs". */
  worse: string;
  isWorse: (f: RecordFacts) => 0 | 1 | null;
}

const GOOD_LABELS = new Set(['OK', 'REFUSAL_OK']);

function answerFacts(q: GoldenQuery, i: number): AnswerFact[] {
  const yes = (v: boolean | null): 0 | 1 | null => (v === null ? null : v ? 1 : 0);
  const refused = (f: RecordFacts) => triState(f.refused[i]);
  return [
    {
      reason: 'refusal differs',
      worse: q.answerable ? 'refused' : 'answered (should refuse)',
      isWorse: (f) => yes(refused(f) === null ? null : refused(f) === q.answerable),
    },
    {
      reason: 'groundedness verdict differs',
      worse: 'not grounded',
      isWorse: (f) => yes(f.groundedText[i] < 0 ? null : f.groundedText[i] === 0),
    },
    {
      reason: "WFGY's label differs",
      worse: "WFGY's label not OK",
      isWorse: (f) => {
        const label = wfgyLabel(q.answerable, refused(f), f.citedRelevant[i] === 1);
        return yes(label === null ? null : !GOOD_LABELS.has(label));
      },
    },
  ];
}

/**
 * The answer facts the candidate's runs disagree on (the baseline's agree), each in proportion: "refused in 1 of 3
 * candidate runs, 0 of 3 baseline runs", worse when the candidate's share of the worse value is the higher.
 */
function proportionalAnswers(facts: AnswerFact[], cReasons: string[], b: SideRepeats, c: SideRepeats) {
  const changes: string[] = [];
  let worse = false;
  for (const fact of facts.filter((a) => cReasons.includes(a.reason))) {
    const count = (rep: SideRepeats) => {
      const values = rep.facts.map(fact.isWorse).filter((v) => v !== null);
      return { runs: values.length, worse: values.filter((v) => v === 1).length };
    };
    const [bc, cc] = [count(b), count(c)];
    if (bc.runs === 0 || cc.runs === 0) continue;
    const sign = rateSign(cc.worse, cc.runs, bc.worse, bc.runs);
    if (sign === 0) continue;
    changes.push(`${fact.worse} in ${cc.worse} of ${cc.runs} candidate runs, ${bc.worse} of ${bc.runs} baseline runs`);
    worse ||= sign > 0;
  }
  return { changes, worse };
}

/**
 * A query stable on the baseline side whose candidate runs disagree (cReasons): not flaky, its outcome in
 * proportion (proportionalKind, proportionalAnswers; docs/compare.md, "Repeated runs and flaky queries").
 */
function inProportion(o: QueryOutcome, i: number, cReasons: string[], inputs: FlakyInputs): QueryOutcome {
  const { baseline: bRep, candidate: cRep, rule } = inputs;
  const q = inputs.queries?.[i];
  const out: QueryOutcome = { ...o };
  if (cReasons.some((r) => r === `hit@${rule.k} differs` || r === 'a relevant hit differs')) {
    const b = hitCounts(bRep, o.baseline_rank, i, rule.k);
    const c = hitCounts(cRep, o.candidate_rank, i, rule.k);
    out.kind = proportionalKind(b, c);
    out.note = `${proportionNote(b, c, rule.k)} (the candidate's runs disagree; median run: ${o.note})`;
  }
  if (bRep && cRep && q) {
    const answers = proportionalAnswers(answerFacts(q, i), cReasons, bRep, cRep);
    out.answer_changes = [...o.answer_changes, ...answers.changes];
    out.answer_regression ||= answers.worse;
  }
  const needsRow = out.kind === 'loss' || out.kind === 'regression' || out.answer_regression;
  if (!needsRow) delete out.candidate_row;
  else if (out.candidate_row === undefined && inputs.candidateRow) out.candidate_row = inputs.candidateRow(i);
  return out;
}

/** Query i set aside as flaky (its baseline side unstable): its record for the report's list, and its outcome. */
function setAside(o: QueryOutcome, i: number, reasons: string[], inputs: FlakyInputs): [FlakyQuery, QueryOutcome] {
  const outcomes = (rep: SideRepeats | null, rank: number | null) =>
    rep ? rep.facts.map((f) => repeatOutcome(f, i, reasons)) : [rank === null ? 'miss' : `rank ${rank}`];
  const record: FlakyQuery = {
    query_id: o.query_id,
    query: o.query,
    reasons,
    baseline: outcomes(inputs.baseline, o.baseline_rank),
    candidate: outcomes(inputs.candidate, o.candidate_rank),
  };
  const { candidate_row: _row, ...rest } = o;
  return [record, { ...rest, kind: 'flaky', answer_changes: [], answer_regression: false, note: `flaky: ${o.note}` }];
}

/**
 * Query i's outcome with repeats: flaky (pushed to `flaky`) when its baseline side is unstable (the baseline's
 * repeats disagree, or main's history says so); else, when only the candidate's runs disagree, in proportion
 * (inProportion); else as compared.
 */
function outcomeWithRepeats(o: QueryOutcome, i: number, inputs: FlakyInputs, flaky: FlakyQuery[]): QueryOutcome {
  const q = inputs.queries?.[i];
  const bReasons = inputs.baseline && q ? flakyReasons(inputs.baseline.facts, q, i, inputs.rule) : [];
  const cReasons = inputs.candidate && q ? flakyReasons(inputs.candidate.facts, q, i, inputs.rule) : [];
  const history = inputs.knownFlaky?.get(o.query_id);
  if (bReasons.length === 0 && history === undefined)
    return cReasons.length === 0 ? o : inProportion(o, i, cReasons, inputs);
  const reasons = [
    ...bReasons.map((r) => `baseline: ${r}`),
    ...cReasons.map((r) => `candidate: ${r}`),
    ...(history !== undefined ? [`history: ${history}`] : []),
  ];
  const [record, outcome] = setAside(o, i, reasons, inputs);
  flaky.push(record);
  return outcome;
}

/**
 * The comparison with flaky queries set aside: a query whose baseline side is unstable (its repeats disagree, or
 * main's history) becomes `flaky` (no win, loss, draw or regression, no answer regression); a query only the
 * candidate's runs disagree on is not flaky but a win, loss or draw in proportion (inProportion). The counts are
 * recounted, and `repeats` and `flaky` are added. Means and paired tests are untouched: a flaky query stays in
 * them with its per-query mean. Unchanged when nothing is looked for (one run per side, no history): the report
 * stays byte for byte what it was.
 */
export function setAsideFlaky(compared: ComparedRuns, inputs: FlakyInputs): ComparedRuns {
  const report = compared.report;
  if (!looksForFlaky(inputs) || report.baseline === null) return compared;
  const flaky: FlakyQuery[] = [];
  const perQuery = report.per_query.map((o, i) => outcomeWithRepeats(o, i, inputs, flaky));
  flaky.sort(byQueryId);
  const counts: Comparison['counts'] = { win: 0, loss: 0, draw: 0, regression: 0, answer_regression: 0 };
  for (const o of perQuery) {
    if (o.kind === 'flaky') continue;
    counts[o.kind]++;
    if (o.answer_regression) counts.answer_regression++;
  }
  const { baseline: bRep, candidate: cRep } = inputs;
  const side = (rep: SideRepeats | null, run: { run_id: string }) =>
    rep
      ? {
          runs: rep.runIds.length,
          run_ids: rep.runIds,
          ...(rep.differences.length > 0 ? { differences: rep.differences } : {}),
          ...(rep.expectedDifferences.length > 0 ? { expected_differences: rep.expectedDifferences } : {}),
        }
      : { runs: 1, run_ids: [run.run_id] };
  return {
    ...compared,
    report: {
      ...report,
      per_query: perQuery,
      counts,
      repeats: { baseline: side(bRep, report.baseline), candidate: side(cRep, report.candidate) },
      flaky: { count: flaky.length, queries: flaky.slice(0, MAX_FLAKY_LISTED) },
    },
  };
}

type OpenRun = () => RunData | RunStream;

/**
 * What the chunk matching of repeats reads from every run before any is compared: the chunker versions (declared,
 * else those the hits carry, as compareRuns reads them for two runs) and the golden set's expected chunks as the
 * runs' chunks tables hold them, the only entries fallback matching looks up (the first run's where several hold one).
 */
class RunsSeen {
  /** Each chunker version seen, with the first run that has it. */
  readonly versions = new Map<string | null, string>();
  readonly reference = new Map<string, ChunkRecord>();
  private readonly expectedIds: string[];

  constructor(golden: GoldenSet) {
    this.expectedIds = [...new Set(golden.queries.flatMap((q) => q.expectedChunkIds ?? []))];
  }

  /** A run opened: its expected chunks, and its declared chunker version (undefined: its hits will tell). */
  opened(run: RunMeta, name: string): void {
    const chunks = run.chunks;
    if (chunks !== null)
      for (const id of this.expectedIds) {
        const chunk = chunks.get(id);
        if (chunk !== undefined && !this.reference.has(id)) this.reference.set(id, chunk);
      }
    const declared = declaredChunkerVersion(run);
    if (declared !== undefined) this.version(declared, name);
  }

  version(version: string | null, name: string): void {
    if (!this.versions.has(version)) this.versions.set(version, name);
  }

  /** Whether the runs' chunker versions differ: then every run is matched by document, as two runs would be. */
  get differ(): boolean {
    return this.versions.size > 1;
  }
}

/**
 * Each side's runs scored with `scoring`, one open at a time. With `seen` (the exact pass), every run is opened for
 * what `seen` reads, but once the chunker versions differ no more are scored: null then, the fallback pass follows.
 */
function scoreSides(
  sides: ReadonlyArray<ReadonlyArray<OpenRun>>,
  golden: GoldenSet,
  scoring: AggregateOptions,
  seen: RunsSeen | null,
  mayDiffer: ReadonlySet<string>,
): Array<ReturnType<RepeatMerger['merged']>> | null {
  const mergers = sides.map((opens) => {
    const merger = new RepeatMerger(mayDiffer);
    for (const open of opens) {
      const run = resultsOf(open());
      try {
        const name = `${run.source} run \`${oneLine(run.run.runId)}\``;
        seen?.opened(run, name);
        if (seen?.differ) continue;
        const table = scoreToTable(run, golden, scoring);
        seen?.version(chunkerVersionOf(table), name);
        merger.add(table);
      } finally {
        run.release?.();
      }
    }
    return merger;
  });
  return seen?.differ ? null : mergers.map((m) => m.merged());
}

/**
 * Both sides scored as compareRuns scores two runs: exactly when every run has one chunker version, else (the runs
 * re-chunked) every run again with the fallback, against the expected chunks of all runs' tables, and labelled by
 * what its queries' matching did (docs/metrics.md, "Chunker versions"). Under --strict-chunker-version: refused.
 */
function scoreRepeats(
  baselines: ReadonlyArray<OpenRun>,
  candidates: ReadonlyArray<OpenRun>,
  golden: GoldenSet,
  opts: CompareOptions,
  mayDiffer: ReadonlySet<string>,
): { sides: Array<ReturnType<RepeatMerger['merged']>>; match: ChunkMatchMode } {
  const seen = new RunsSeen(golden);
  const exact: AggregateOptions = { ...opts, chunkMatch: 'exact', referenceChunks: null };
  const sides = scoreSides([baselines, candidates], golden, exact, seen, mayDiffer);
  if (sides !== null) return { sides, match: 'exact' };
  if (opts.strictChunkerVersion) {
    const named = [...seen.versions].map(([v, run]) => `${run}: ${v ?? 'unset'}`).join('; ');
    throw new InputError(
      `chunker_version differs between the runs compared (${named}) and --strict-chunker-version refuses to ` +
        'compare: chunk ids of different chunkers are not comparable (without it, expected chunks match by document)',
    );
  }
  const fallback: AggregateOptions = { ...opts, chunkMatch: 'fallback_doc_span', referenceChunks: seen.reference };
  const rescored = scoreSides([baselines, candidates], golden, fallback, null, mayDiffer)!;
  return { sides: rescored, match: matchLabel(rescored[0].table, rescored[1].table) };
}

/**
 * Compares two sides of one or more runs each (`open` functions: one run database in memory at a time, each scored
 * into its table and released before the next is opened), with flaky queries set aside. Chunks are matched as
 * compareRuns matches two runs (scoreRepeats): by document when the runs' chunker versions differ. `mayDiffer`: the
 * config_snapshot_json keys a side's runs may differ in without a warning (the gate config's `repeats.may_differ`).
 */
export function compareRepeatedRuns(
  baselines: ReadonlyArray<OpenRun>,
  candidates: ReadonlyArray<OpenRun>,
  golden: GoldenSet,
  options: Partial<CompareOptions> = {},
  knownFlaky?: ReadonlyMap<string, string>,
  mayDiffer: readonly string[] = DEFAULT_MAY_DIFFER,
): RepeatedComparison {
  const opts: CompareOptions = { ...DEFAULT_COMPARE_OPTIONS, ...options };
  const { sides, match } = scoreRepeats(baselines, candidates, golden, opts, new Set(mayDiffer));
  const [b, c] = sides;
  const compared = compareScored(b.table, c.table, opts, match);
  const meanOver = compared.report.options.mean_over;
  const repeatWarnings = [
    ...missingInRepeatsWarnings('baseline', b.repeats, meanOver),
    ...missingInRepeatsWarnings('candidate', c.repeats, meanOver),
  ];
  const flaky = setAsideFlaky(compared, {
    baseline: b.repeats,
    candidate: c.repeats,
    knownFlaky,
    rule: { k: Math.max(...opts.ks), labels: compared.report.options.profile === 'wfgy' },
    queries: b.table.queries,
    candidateRow: (i) =>
      rowCore(rowFactsAt(c.table.facts, i, b.table.queries[i].answerable, c.table.run.chunks !== null)),
  });
  return { ...flaky, repeatWarnings };
}
