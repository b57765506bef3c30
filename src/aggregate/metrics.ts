/**
 * The metric table: every metric once, with its printed id (its identity in JSON, reports and gate configs),
 * direction, unit, definition and denominator. Docs (`evalgate metrics`, docs/metrics.md) come from here.
 */
import type { RunMeta } from '../types.js';
import {
  claimPhraseFound,
  nearestRankPercentile,
  nearestRankPercentileOf,
  percentileOfCounts,
  wholeNumberCounts,
  wholeNumberRange,
} from './answers.js';
import {
  averagePrecision,
  hitAtK,
  ndcgAtK,
  precisionAtK,
  recallAllAtK,
  recallAtK,
  recallDocAtK,
  reciprocalRank,
} from './retrieval.js';
import type { AggregateOptions, QueryRecord } from './score.js';

export type Direction = 'higher' | 'lower' | 'neutral';
export type Family = 'retrieval' | 'answers' | 'abstention' | 'judge' | 'operations' | 'index';

export interface MetricValue {
  value: number | null;
  n: number;
}

/**
 * sum and max are null without values; count is their sum, 0 without values (a count of queries); p50 and p95 are
 * nearest-rank percentiles; ratio is the sum over the sum of `reduce.over` (its n), null when that is 0.
 */
export type Reducer = 'sum' | 'count' | 'mean' | 'p50' | 'p95' | 'max' | 'ratio';

/** A per-query quantity: metrics over one quantity name share its column. */
export interface Quantity {
  quantity: string;
  value: (r: QueryRecord) => number | null;
}

export interface MetricDef {
  id: string;
  family: Family;
  direction: Direction;
  unit: 'ratio' | 'ms' | 'count' | 'score' | 'usd' | 'tokens';
  definition: string;
  denominator: string;
  /** Per-query value; null leaves the query out of the denominator. The metric is the mean. */
  perQuery?: (r: QueryRecord) => number | null;
  /**
   * A per-query quantity reduced otherwise than by its mean (percentiles, totals). Metrics over one `quantity`
   * share its column and its sort; a null value leaves the query out, and `n` counts the values.
   */
  reduce?: Quantity & { by: Reducer; over?: Quantity };
  /** Properties of the index, not of queries: not broken down. */
  runLevel?: (run: RunMeta) => MetricValue;
  /** Take part in the paired significance test of `compare`. */
  paired?: boolean;
  /**
   * The value when no query is in the denominator, instead of null: WFGY reports 0.0 there and gates on it (its
   * metrics under the wfgy profile). `n` stays 0.
   */
  emptyValue?: number;
}

/** Mean of the non-null per-query values; null (never 0) when there are none. */
export function meanOf(records: QueryRecord[], perQuery: (r: QueryRecord) => number | null): MetricValue {
  let sum = 0;
  let n = 0;
  for (const r of records) {
    const v = perQuery(r);
    if (v === null) continue;
    sum += v;
    n++;
  }
  return { value: n === 0 ? null : sum / n, n };
}

/**
 * Per-query values as columns: a metric's under its id, a quantity's under `quantity:` and its name (NaN = not in
 * the denominator, or no value), filled record by record (src/aggregate/table.ts). See PerQueryValues.
 */
export type Columns = Map<string, Float64Array>;

export const quantityKey = (quantity: string) => `quantity:${quantity}`;

/** The per-query functions behind `defs`, each under its column key (a quantity shared by several metrics once). */
export function perQueryFunctions(defs: MetricDef[]): Map<string, (r: QueryRecord) => number | null> {
  const fns = new Map<string, (r: QueryRecord) => number | null>();
  for (const def of defs) {
    if (def.perQuery) fns.set(def.id, def.perQuery);
    else if (def.reduce) {
      for (const q of def.reduce.over ? [def.reduce, def.reduce.over] : [def.reduce])
        fns.set(quantityKey(q.quantity), q.value);
    }
  }
  return fns;
}

/** A column's sum and count of values (see sumOf). */
type SumAndCount = [sum: number, n: number];

/** The sum and count of a column's values (NaN: no value) over the given rows (all when omitted). */
function sumOf(c: Float64Array, indexes?: ArrayLike<number>): SumAndCount {
  let sum = 0;
  let n = 0;
  // Two loops, so the whole-column one is a plain scan.
  if (indexes === undefined) {
    for (let j = 0; j < c.length; j++) {
      const v = c[j];
      if (v === v) {
        sum += v;
        n++;
      }
    }
    return [sum, n];
  }
  for (let j = 0; j < indexes.length; j++) {
    const v = c[indexes[j]];
    if (v === v) {
      sum += v;
      n++;
    }
  }
  return [sum, n];
}

/** sumOf of four columns over the same rows in one pass, into `out` as [sum, n] of each in order. */
function sumOf4(
  a: Float64Array,
  b: Float64Array,
  c: Float64Array,
  d: Float64Array,
  indexes: ArrayLike<number>,
  out: Float64Array,
): void {
  let sa = 0,
    na = 0,
    sb = 0,
    nb = 0,
    sc = 0,
    nc = 0,
    sd = 0,
    nd = 0;
  for (let j = 0; j < indexes.length; j++) {
    const i = indexes[j];
    const va = a[i],
      vb = b[i],
      vc = c[i],
      vd = d[i];
    if (va === va) {
      sa += va;
      na++;
    }
    if (vb === vb) {
      sb += vb;
      nb++;
    }
    if (vc === vc) {
      sc += vc;
      nc++;
    }
    if (vd === vd) {
      sd += vd;
      nd++;
    }
  }
  out[0] = sa;
  out[1] = na;
  out[2] = sb;
  out[3] = nb;
  out[4] = sc;
  out[5] = nc;
  out[6] = sd;
  out[7] = nd;
}

/** The values of `c` at `indexes` (every row when omitted) that are not NaN, in order, into `out`; their count. */
function pick(c: Float64Array, indexes: ArrayLike<number> | undefined, out: Float64Array): number {
  let n = 0;
  if (indexes === undefined) {
    for (let j = 0; j < c.length; j++) {
      const v = c[j];
      if (v === v) out[n++] = v;
    }
  } else {
    for (let j = 0; j < indexes.length; j++) {
      const v = c[indexes[j]];
      if (v === v) out[n++] = v;
    }
  }
  return n;
}

/**
 * The metrics of one run from its per-query columns: means over the whole run, over breakdown groups and the paired
 * differences of compare all read these, so no per-query metric is computed twice for a record. A column the
 * table lacks (a stage this run's results never timed) is all NaN.
 */
export class PerQueryValues {
  private readonly values = new Map<string, Float64Array>();

  private readonly quantities = new Map<string, Float64Array>();

  /** The key of "all rows" in the caches below. */
  private readonly all = {};

  constructor(
    defs: MetricDef[],
    readonly length: number,
    columns: Columns,
  ) {
    const column = (key: string): Float64Array => {
      const c = columns.get(key);
      if (c !== undefined && c.length !== length) throw new Error(`column ${key} has ${c.length} rows, not ${length}`);
      return c ?? new Float64Array(length).fill(NaN);
    };
    for (const def of defs) {
      if (def.perQuery) this.values.set(def.id, column(def.id));
      else if (def.reduce) {
        for (const q of def.reduce.over ? [def.reduce, def.reduce.over] : [def.reduce]) {
          if (!this.quantities.has(q.quantity)) this.quantities.set(q.quantity, column(quantityKey(q.quantity)));
        }
      }
    }
  }

  /** The column of a per-query metric (NaN where the query is not in its denominator). */
  column(id: string): Float64Array {
    const c = this.values.get(id);
    if (!c) throw new Error(`no per-query values for ${id}`);
    return c;
  }

  /** Mean over the given record indexes (all when omitted); null when none has a value. */
  mean(id: string, indexes?: ArrayLike<number>): MetricValue {
    const [sum, n] = this.sumOf(this.column(id), indexes);
    return { value: n === 0 ? null : sum / n, n };
  }

  /** Sums and counts summed ahead per index list (sumGroups), per column. */
  private readonly summed = new WeakMap<object, Map<Float64Array, SumAndCount>>();

  private sumOf(c: Float64Array, indexes?: ArrayLike<number>): SumAndCount {
    return (indexes !== undefined ? this.summed.get(indexes)?.get(c) : undefined) ?? sumOf(c, indexes);
  }

  /** The columns sumGroups sums: those of means, and the quantities of sums, counts and ratios. */
  private summedColumns(defs: MetricDef[]): Float64Array[] {
    const columns = new Set<Float64Array>();
    for (const def of defs) {
      if (def.perQuery) columns.add(this.values.get(def.id)!);
      else if (
        def.reduce &&
        (def.reduce.over || def.reduce.by === 'sum' || def.reduce.by === 'mean' || def.reduce.by === 'count')
      ) {
        columns.add(this.quantities.get(def.reduce.quantity)!);
        if (def.reduce.over) columns.add(this.quantities.get(def.reduce.over.quantity)!);
      }
    }
    return [...columns];
  }

  /**
   * The sums and counts every metric of `defs` needs over each of `groups` (breakdown groups), four columns per
   * pass over a group's rows: a column's NaN checks mispredict, and four sums side by side keep the core busy
   * (~20% faster). Each sum adds its values in sumOf's order, so every value is the same.
   */
  sumGroups(defs: MetricDef[], groups: ReadonlyArray<ArrayLike<number>>): void {
    const list = this.summedColumns(defs);
    const out = new Float64Array(8);
    for (const indexes of groups) {
      if (this.summed.has(indexes)) continue; // summed already (compare: the baseline's, ahead of the join)
      const byColumn = new Map<Float64Array, SumAndCount>();
      this.summed.set(indexes, byColumn);
      let c = 0;
      for (; c + 4 <= list.length; c += 4) {
        sumOf4(list[c], list[c + 1], list[c + 2], list[c + 3], indexes, out);
        for (let k = 0; k < 4; k++) byColumn.set(list[c + k], [out[2 * k], out[2 * k + 1]]);
      }
      for (; c < list.length; c++) byColumn.set(list[c], sumOf(list[c], indexes));
    }
  }

  /** Values already evaluated, per index list (the whole run: `all`) and metric id. */
  private readonly evaluated = new WeakMap<object, Map<string, MetricValue>>();

  /** A metric over a subset of the records (all when omitted), from the table's columns; each computed once. */
  evaluate(def: MetricDef, run: RunMeta, indexes?: ArrayLike<number>): MetricValue {
    if (def.runLevel) return def.runLevel(run);
    const key = indexes ?? this.all;
    let byId = this.evaluated.get(key);
    if (!byId) this.evaluated.set(key, (byId = new Map()));
    let value = byId.get(def.id);
    if (!value) byId.set(def.id, (value = this.compute(def, indexes)));
    return value;
  }

  private compute(def: MetricDef, indexes?: ArrayLike<number>): MetricValue {
    if (def.emptyValue !== undefined) {
      const value = this.computeValue(def, indexes);
      return value.value === null && value.n === 0 ? { value: def.emptyValue, n: 0 } : value;
    }
    return this.computeValue(def, indexes);
  }

  private computeValue(def: MetricDef, indexes?: ArrayLike<number>): MetricValue {
    if (def.perQuery) return this.mean(def.id, indexes);
    if (def.reduce?.over) {
      const numerator = this.reduced(def.reduce.quantity, 'count', indexes);
      const denominator = this.reduced(def.reduce.over.quantity, 'count', indexes);
      return { value: denominator.value === 0 ? null : numerator.value! / denominator.value!, n: denominator.value! };
    }
    return this.reduced(def.reduce!.quantity, def.reduce!.by, indexes);
  }

  /**
   * The non-null values of a quantity per index list (the whole run: `all`), shared by p50, p95 and max, with their
   * counts by value once a percentile has asked (null: not whole numbers, see wholeNumberCounts).
   */
  private readonly sorted = new WeakMap<
    object,
    Map<string, { values: Float64Array; counted?: ReturnType<typeof wholeNumberCounts> }>
  >();

  /**
   * Per quantity: whether every value of the whole run is a whole number, the smallest `min`, within `span` of it
   * (wholeNumberCounts' rule: latencies, token counts); null when not. Then so are those of every row list, and
   * each list's values are counted by value in one pass over its rows, never picked into an array of their own.
   */
  private readonly wholeNumbers = new Map<string, { min: number; span: number } | null>();

  /** Per index list (the whole run: `all`) and quantity of whole numbers: its values counted by value. */
  private readonly countedValues = new WeakMap<object, Map<string, CountedValues>>();

  private reduced(quantity: string, by: Reducer, indexes?: ArrayLike<number>): MetricValue {
    const c = this.quantities.get(quantity)!;
    if (by === 'sum' || by === 'mean' || by === 'count') {
      const [sum, n] = this.sumOf(c, indexes);
      return { value: by === 'count' ? sum : n === 0 ? null : by === 'sum' ? sum : sum / n, n };
    }
    const key = indexes ?? this.all;
    let whole = this.wholeNumbers.get(quantity);
    if (whole === undefined) this.wholeNumbers.set(quantity, (whole = wholeNumberRange([c])));
    if (whole !== null) {
      let byQuantity = this.countedValues.get(key);
      if (!byQuantity) this.countedValues.set(key, (byQuantity = new Map()));
      let counted = byQuantity.get(quantity);
      if (!counted) byQuantity.set(quantity, (counted = countWholeNumbers(c, indexes, whole.min, whole.span)));
      const { n } = counted;
      // The values picked and counted by wholeNumberCounts give these same numbers (see percentileOfCounts).
      const value =
        n === 0 ? null : by === 'max' ? counted.max : percentileOfCounts(counted, n, by === 'p50' ? 50 : 95);
      return { value, n };
    }
    let byQuantity = this.sorted.get(key);
    if (!byQuantity) this.sorted.set(key, (byQuantity = new Map()));
    let picks = byQuantity.get(quantity);
    if (!picks) {
      const picked = new Float64Array(indexes ? indexes.length : c.length);
      const n = pick(c, indexes, picked);
      byQuantity.set(quantity, (picks = { values: picked.subarray(0, n) }));
    }
    const { values } = picks;
    let value: number | null;
    if (by === 'max') {
      value = values.length === 0 ? null : values[0];
      for (let j = 1; j < values.length; j++) if (values[j] > value!) value = values[j];
    } else {
      const p = by === 'p50' ? 50 : 95;
      if (picks.counted === undefined) picks.counted = wholeNumberCounts(values);
      value = picks.counted ? percentileOfCounts(picks.counted, values.length, p) : nearestRankPercentileOf(values, p);
    }
    return { value, n: values.length };
  }
}

/** A row list's whole-number values counted by value: counts[v - min], how many (n) and the largest. */
interface CountedValues {
  min: number;
  counts: Int32Array;
  n: number;
  max: number;
}

/** An answer object whose text is blank and that is not a refusal: the 001 spec's "returned empty answer". */
function emptyAnswer(r: QueryRecord): boolean {
  const answer = r.result?.answer;
  return !!answer && answer.text.trim() === '' && r.refused !== true;
}

/** The values of `c` at `indexes` (every row when omitted), counted by value. */
function countWholeNumbers(
  c: Float64Array,
  indexes: ArrayLike<number> | undefined,
  min: number,
  span: number,
): CountedValues {
  const counts = new Int32Array(span);
  let n = 0;
  let max = -Infinity;
  const rows = indexes?.length ?? c.length;
  for (let j = 0; j < rows; j++) {
    const v = c[indexes === undefined ? j : indexes[j]];
    if (v !== v) continue;
    counts[v - min]++;
    n++;
    if (v > max) max = v;
  }
  return { min, counts, n, max };
}

const bool = (b: boolean | null): number | null => (b === null ? null : b ? 1 : 0);

export function buildMetricTable(options: AggregateOptions, stages: string[] = []): MetricDef[] {
  const defs: MetricDef[] = [];
  const { ks, meanOver, minGrade } = options;
  /**
   * WFGY example 08's definitions for the metrics it defines too (docs/golden-sets.md, "Metric profiles"), among
   * them 0 for an empty denominator.
   */
  const wfgy = options.profile === 'wfgy';
  const wfgyEmpty = wfgy ? { emptyValue: 0 } : {};
  const wfgyNote = (text: string) => (wfgy ? `${text} (wfgy profile: 0 when there are none)` : text);
  /**
   * Whether a query with nothing relevant adds 0 to the retrieval means rather than being left out: under
   * --mean-over trec and trec_c, and under the paperbot profile (PaperBot counts a case judged all 0).
   */
  const countsUnjudged = meanOver !== 'default' || options.profile === 'paperbot';
  /** The trec_eval-overlapping metrics follow --mean-over for missing queries and queries with nothing relevant. */
  const trecMean =
    (fn: (r: QueryRecord) => number | null) =>
    (r: QueryRecord): number | null => {
      if (meanOver === 'trec' && r.result === null) return null;
      if (!r.hasExpectations) return countsUnjudged ? 0 : null;
      const v = fn(r);
      return v === null ? (countsUnjudged ? 0 : null) : v;
    };
  const withExpectations =
    options.profile === 'paperbot' && meanOver === 'default'
      ? 'every golden query (paperbot profile: one with nothing relevant adds 0)'
      : 'queries with at least one relevant expectation (see --mean-over)';
  /**
   * nDCG's mean: as trecMean, but a query counts when it has any expectation of grade > 0, whatever --min-grade
   * (nDCG reads grades, not the relevant/not-relevant cut: trec_eval's ndcg_cut ignores -l the same way).
   */
  const gradedMean =
    (fn: (r: QueryRecord) => number | null) =>
    (r: QueryRecord): number | null => {
      if (meanOver === 'trec' && r.result === null) return null;
      const v = fn(r); // null: no expectation of grade > 0
      return v === null ? (countsUnjudged ? 0 : null) : v;
    };

  for (const k of ks) {
    defs.push({
      id: `hit@${k}`,
      family: 'retrieval',
      direction: 'higher',
      unit: 'ratio',
      paired: true,
      definition: `1 when a relevant hit has rank <= ${k} (Recall_any@${k}, evidence hit rate; = trec_eval success_${k})`,
      denominator: withExpectations,
      perQuery: trecMean((r) => hitAtK(r.vec, k)),
    });
  }
  defs.push({
    id: `mrr@${options.mrrCutoff}`,
    family: 'retrieval',
    direction: 'higher',
    unit: 'ratio',
    paired: true,
    definition: `1 / rank of the first relevant hit if its rank <= ${options.mrrCutoff}, else 0`,
    denominator: withExpectations,
    perQuery: trecMean((r) => reciprocalRank(r.vec, options.mrrCutoff)),
  });
  defs.push({
    id: 'rr',
    family: 'retrieval',
    direction: 'higher',
    unit: 'ratio',
    paired: true,
    definition: '1 / rank of the first relevant hit, no cutoff, else 0 (= trec_eval recip_rank)',
    denominator: withExpectations,
    perQuery: trecMean((r) => reciprocalRank(r.vec)),
  });
  for (const k of ks) {
    defs.push({
      id: `P@${k}`,
      family: 'retrieval',
      direction: 'higher',
      unit: 'ratio',
      definition: `relevant hits with rank <= ${k}, divided by ${k} even when fewer hits came back (= trec_eval P_${k})`,
      denominator: withExpectations,
      perQuery: trecMean((r) => precisionAtK(r.vec, k)),
    });
  }
  for (const k of ks) {
    defs.push({
      id: `recall@${k}`,
      family: 'retrieval',
      direction: 'higher',
      unit: 'ratio',
      paired: true,
      definition: `distinct relevant expectations met by hits with rank <= ${k} / all relevant expectations (= trec_eval recall_${k})`,
      denominator: withExpectations,
      perQuery: trecMean((r) => recallAtK(r.vec, k, r.expectations, minGrade)),
    });
  }
  for (const k of ks) {
    defs.push({
      id: `recall_doc@${k}`,
      family: 'retrieval',
      direction: 'higher',
      unit: 'ratio',
      definition: `distinct expected_doc_ids among the doc_ids of hits with rank <= ${k} / all expected_doc_ids`,
      denominator: 'queries with a non-empty expected_doc_ids',
      perQuery: (r) => recallDocAtK(r.expectedDocFirstRank, k),
    });
  }
  for (const k of ks) {
    defs.push({
      id: `nDCG@${k}`,
      family: 'retrieval',
      direction: 'higher',
      unit: 'ratio',
      paired: true,
      definition: `DCG of hits with rank <= ${k} (gain = ${options.ndcgGain === 'linear' ? 'grade' : '2^grade - 1'}, discount log2(rank + 1), each expectation gaining once, at the rank of the first hit that meets it) / DCG of the ideal ranking of all expectation grades, at most 1 (= trec_eval ndcg_cut_${k})`,
      denominator:
        options.profile === 'paperbot' && meanOver === 'default'
          ? 'every golden query (paperbot profile: one with no expectation of grade > 0 adds 0)'
          : 'queries with an expectation of grade > 0 (see --mean-over)',
      perQuery: gradedMean((r) => ndcgAtK(r.vec, k, options.ndcgGain)),
    });
  }
  defs.push({
    id: 'MAP',
    family: 'retrieval',
    direction: 'higher',
    unit: 'ratio',
    definition:
      'mean average precision: precision at the rank of each hit that first meets a relevant expectation, times the expectations it first meets, summed, / all relevant expectations (= trec_eval map)',
    denominator: withExpectations,
    perQuery: trecMean((r) => averagePrecision(r.vec)),
  });
  for (const k of ks) {
    defs.push({
      id: `recall_all@${k}`,
      family: 'retrieval',
      direction: 'higher',
      unit: 'ratio',
      definition: `1 when every required support group has a support met by a relevant hit with rank <= ${k} (multi-hop)`,
      denominator: 'queries with required_support_groups',
      perQuery: (r) =>
        recallAllAtK(
          r.golden.requiredSupportGroups,
          (s) => {
            const e = r.expectations.findIndex((x) => x.kind === 'support' && x.supportIndex === s);
            return e < 0 || r.expectations[e].grade < minGrade ? 0 : r.vec.expectationFirstRank[e];
          },
          k,
        ),
    });
  }
  defs.push({
    id: 'scope_miss_rate',
    family: 'retrieval',
    direction: 'lower',
    unit: 'ratio',
    definition: 'no gold support lies under any selected folder',
    denominator: 'queries with gold_supports run with folder_mode on or on_with_fallback',
    perQuery: (r) => bool(r.scopeMiss),
  });
  defs.push({
    id: 'citation_accuracy',
    family: 'retrieval',
    direction: 'higher',
    unit: 'ratio',
    definition:
      "every hit whose line citation names the expected_lines file cites lines overlapping the expected range (ckv's CitationAccuracy)",
    denominator: 'queries with expected_lines and a relevant hit',
    perQuery: (r) => bool(r.lineCitationsCorrect),
  });
  defs.push({
    id: 'empty_result_rate',
    family: 'retrieval',
    direction: 'lower',
    unit: 'ratio',
    definition: 'zero hits (a query missing from the run counts as empty)',
    denominator: 'all scored queries',
    perQuery: (r) => ((r.result?.hitCount ?? 0) === 0 ? 1 : 0),
  });

  // Answers
  defs.push({
    id: 'citation_coverage',
    family: 'answers',
    direction: 'higher',
    unit: 'ratio',
    definition:
      'every citation resolves to a real chunk (chunks table: by chunk_id, path + line span, path + heading, or for a citation naming no lines, such as a PDF page or a code symbol, a chunk of its path; without it: a chunk_id or path some hit of the query carries); no citations counts as not covered',
    denominator: 'grounded (non-refusal) answers',
    perQuery: (r) => bool(r.citationsResolve),
  });
  defs.push({
    id: 'attribution_hit_rate',
    family: 'answers',
    direction: 'higher',
    unit: 'ratio',
    definition: 'the answer cites at least one relevant chunk (a refusal counts 0)',
    ...(wfgy
      ? {
          // WFGY's citation hit rate (its G4): an answerable question without gold ids counts, as a miss.
          denominator: wfgyNote('answerable queries with an answer object'),
          perQuery: (r: QueryRecord) =>
            r.golden.answerable && r.result?.answer ? (r.answered && r.citedRelevant ? 1 : 0) : null,
          ...wfgyEmpty,
        }
      : {
          denominator: 'answerable queries with a relevant expectation and an answer object',
          perQuery: (r: QueryRecord) =>
            r.golden.answerable && r.hasExpectations && r.result?.answer
              ? r.answered && r.citedRelevant
                ? 1
                : 0
              : null,
        }),
  });
  defs.push({
    id: 'citation_hit_rate',
    family: 'answers',
    direction: 'higher',
    unit: 'ratio',
    definition: 'the answer has at least one citation that is relevant',
    denominator: 'answerable queries with a relevant expectation that were answered (not refused)',
    perQuery: (r) => (r.golden.answerable && r.hasExpectations && r.answered ? (r.citedRelevant ? 1 : 0) : null),
  });
  defs.push({
    id: 'groundedness',
    family: 'answers',
    direction: 'higher',
    unit: 'ratio',
    paired: true,
    definition:
      "every must_contain string is in the answer and no forbidden string is (exact substrings, as kebab's `contains`)",
    denominator: 'answers with must_contain or forbidden, refusals included, errored and timed-out results not',
    perQuery: (r) => bool(r.groundedText),
  });
  defs.push({
    id: 'answer_precision',
    family: 'answers',
    direction: 'higher',
    unit: 'ratio',
    definition: 'the query is answerable and the answer cites a relevant chunk (precision over answered)',
    denominator: wfgyNote('answered queries (not refused)'),
    perQuery: (r) => (r.answered ? (r.golden.answerable && r.citedRelevant ? 1 : 0) : null),
    ...wfgyEmpty,
  });
  defs.push({
    id: 'claim_containment',
    family: 'answers',
    direction: 'higher',
    unit: 'ratio',
    ...(wfgy
      ? {
          // WFGY's: any phrase of 5+ letters, digits, hyphens and spaces of the claim (claimPhraseFound), over every
          // answerable question, one without a claim counting 0.
          definition:
            "a phrase of the gold_claim (a run of 5 or more letters, digits, hyphens and spaces, WFGY's rule) is in the answer, lower-cased (a refusal or no gold_claim counts 0)",
          denominator: wfgyNote('answerable queries with an answer object'),
          perQuery: (r: QueryRecord) =>
            r.golden.answerable && r.result?.answer
              ? r.answered && r.golden.goldClaim !== null && claimPhraseFound(r.golden.goldClaim, r.result.answer.text)
                ? 1
                : 0
              : null,
          ...wfgyEmpty,
        }
      : {
          definition:
            'the gold_claim phrase is in the answer (case-insensitive, white space folded; a refusal counts 0)',
          denominator: 'queries with gold_claim',
          perQuery: (r: QueryRecord) => bool(r.claimFound),
        }),
  });
  defs.push({
    id: 'citation_schema_compliance',
    family: 'answers',
    direction: 'higher',
    unit: 'ratio',
    ...(wfgy
      ? {
          // WFGY's: a citation list, even `citations: []`, or the refusal.
          definition: 'the answer carries a citation list (an empty one too) or is a refusal',
          denominator: wfgyNote('queries with an answer object'),
          perQuery: (r: QueryRecord) =>
            r.result?.answer
              ? (r.result.answer.citationsListed ?? r.result.answer.citations.length > 0) || r.refused === true
                ? 1
                : 0
              : null,
          ...wfgyEmpty,
        }
      : {
          definition: 'the answer carries at least one citation or is a refusal',
          denominator: 'queries with an answer object',
          perQuery: (r: QueryRecord) =>
            r.result?.answer ? (r.result.answer.citations.length > 0 || r.refused === true ? 1 : 0) : null,
        }),
  });
  defs.push({
    id: 'recency_conflict_correctness',
    family: 'answers',
    direction: 'higher',
    unit: 'ratio',
    definition:
      'cite_newer: cites a newer support and no older one; cite_both: cites at least one of each; acknowledge_both: the same, and the result does not say conflict_acknowledged: false',
    denominator: 'queries with recency_conflict_rule',
    perQuery: (r) => bool(r.recencyCorrect),
  });
  defs.push({
    id: 'hit_hallucination_rate',
    family: 'answers',
    direction: 'lower',
    unit: 'ratio',
    definition:
      "hits whose snippet is not found in their chunk's text (white space folded, case-insensitive), or whose chunk is not in `chunks`",
    denominator: 'hits with a snippet, in runs with a chunks table (n counts hits)',
    reduce: {
      quantity: 'hits_snippet_missing',
      value: (r) => r.hitsSnippetMissing,
      by: 'ratio',
      over: { quantity: 'hits_with_snippet', value: (r) => r.hitsWithSnippet },
    },
  });

  // Abstention
  defs.push({
    id: 'refusal_correctness',
    family: 'abstention',
    direction: 'higher',
    unit: 'ratio',
    paired: true,
    definition: 'should-refuse queries that refused (abstention accuracy)',
    denominator: 'unanswerable queries whose refusal is known (abstained flag or an answer)',
    perQuery: (r) => (!r.golden.answerable && r.refused !== null ? (r.refused ? 1 : 0) : null),
  });
  defs.push({
    id: 'under_refusal_rate',
    family: 'abstention',
    direction: 'lower',
    unit: 'ratio',
    definition: 'should-refuse queries that answered (hallucination rate on unanswerable = 1 - refusal_correctness)',
    denominator: wfgyNote('unanswerable queries whose refusal is known'),
    perQuery: (r) => (!r.golden.answerable && r.refused !== null ? (r.refused ? 0 : 1) : null),
    ...wfgyEmpty,
  });
  defs.push({
    id: 'over_refusal_rate',
    family: 'abstention',
    direction: 'lower',
    unit: 'ratio',
    definition: 'answerable queries that refused',
    denominator: wfgyNote('answerable queries whose refusal is known'),
    perQuery: (r) => (r.golden.answerable && r.refused !== null ? (r.refused ? 1 : 0) : null),
    ...wfgyEmpty,
  });

  // LLM judge (stored scores only)
  const judge = (pick: 'groundedness' | 'correctness') => (r: QueryRecord) => r.result?.judge?.[pick] ?? null;
  for (const dim of ['groundedness', 'correctness'] as const) {
    defs.push({
      id: `judge_${dim}_mean`,
      family: 'judge',
      direction: 'higher',
      unit: 'score',
      definition: `mean stored judge ${dim} score (0-5)`,
      denominator: `queries with a judge ${dim} score`,
      perQuery: judge(dim),
    });
    defs.push({
      id: `judge_${dim}_ge4_rate`,
      family: 'judge',
      direction: 'higher',
      unit: 'ratio',
      definition: `share of judge ${dim} scores >= 4`,
      denominator: `queries with a judge ${dim} score`,
      perQuery: (r) => {
        const v = judge(dim)(r);
        return v === null ? null : v >= 4 ? 1 : 0;
      },
    });
  }
  defs.push({
    id: 'judge_disagreement_rate',
    family: 'judge',
    direction: 'lower',
    unit: 'ratio',
    definition: 'judge and spot check differ by more than 1 point on groundedness or correctness (judge reliability)',
    denominator: 'queries with a spot check',
    perQuery: (r) => {
      const j = r.result?.judge;
      if (!j) return null;
      const pairs: Array<[number | null, number | null]> = [
        [j.groundedness, j.spotCheckGroundedness],
        [j.correctness, j.spotCheckCorrectness],
      ];
      const checked = pairs.filter(([a, b]) => a !== null && b !== null);
      if (checked.length === 0) return null;
      return checked.some(([a, b]) => Math.abs(a! - b!) > 1) ? 1 : 0;
    },
  });

  // Operations
  defs.push({
    id: 'total_queries',
    family: 'operations',
    direction: 'neutral',
    unit: 'count',
    definition: 'golden queries scored (pending ones are reported apart)',
    denominator: 'golden queries',
    reduce: { quantity: 'one', value: () => 1, by: 'count' },
  });
  defs.push({
    id: 'missing_queries',
    family: 'operations',
    direction: 'lower',
    unit: 'count',
    definition: 'golden queries with no result in the run',
    denominator: 'golden queries',
    reduce: { quantity: 'missing', value: (r) => (r.result ? 0 : 1), by: 'count' },
  });
  defs.push({
    id: 'failed_queries',
    family: 'operations',
    direction: 'lower',
    unit: 'count',
    definition: 'results with status error or timeout (without a status: a non-null error), plus missing results',
    denominator: 'golden queries',
    reduce: { quantity: 'failed', value: (r) => (r.result?.status !== 'ok' ? 1 : 0), by: 'count' },
  });
  defs.push({
    id: 'error_rate',
    family: 'operations',
    direction: 'lower',
    unit: 'ratio',
    definition:
      "failed, timed out or returned empty (the 001 spec's Error Rate): status error (without a status: a non-null error, even an empty one) or timeout, or an empty answer (as empty_answer_rate)",
    denominator: 'queries with a result',
    perQuery: (r) => (r.result ? (r.result.status !== 'ok' || emptyAnswer(r) ? 1 : 0) : null),
  });
  defs.push({
    id: 'timeout_rate',
    family: 'operations',
    direction: 'lower',
    unit: 'ratio',
    definition: 'status timeout',
    denominator: 'queries with a result',
    perQuery: (r) => (r.result ? (r.result.status === 'timeout' ? 1 : 0) : null),
  });
  defs.push({
    id: 'empty_answer_rate',
    family: 'operations',
    direction: 'lower',
    unit: 'ratio',
    definition:
      "answer text is blank and the answer is not a refusal (the 001 spec's Empty Response Rate); a failed or timed-out result counts 0",
    denominator: 'queries with an answer object, or whose result failed or timed out',
    perQuery: (r) => {
      if (!r.result) return null;
      if (r.result.answer) return emptyAnswer(r) ? 1 : 0;
      return r.result.status !== 'ok' ? 0 : null; // a retrieval-only result: no answer was asked for
    },
  });
  const elapsedMs = { quantity: 'elapsed_ms', value: (r: QueryRecord) => r.result?.elapsedMs ?? null };
  defs.push({
    id: 'latency_mean_ms',
    family: 'operations',
    direction: 'lower',
    unit: 'ms',
    definition: 'mean elapsed_ms',
    denominator: 'results with elapsed_ms',
    reduce: { ...elapsedMs, by: 'mean' },
  });
  defs.push({
    id: 'latency_p50_ms',
    family: 'operations',
    direction: 'lower',
    unit: 'ms',
    definition: 'median elapsed_ms (nearest-rank percentile: the smallest value with >= 50% of values at or below it)',
    denominator: 'results with elapsed_ms',
    reduce: { ...elapsedMs, by: 'p50' },
  });
  defs.push({
    id: 'latency_p95_ms',
    family: 'operations',
    direction: 'lower',
    unit: 'ms',
    definition: '95th percentile of elapsed_ms (nearest rank)',
    denominator: 'results with elapsed_ms',
    reduce: { ...elapsedMs, by: 'p95' },
  });
  defs.push({
    id: 'latency_max_ms',
    family: 'operations',
    direction: 'lower',
    unit: 'ms',
    definition: 'largest elapsed_ms',
    denominator: 'results with elapsed_ms',
    reduce: { ...elapsedMs, by: 'max' },
  });
  for (const stage of stages) {
    const stageMs = { quantity: `timings_ms.${stage}`, value: (r: QueryRecord) => r.result?.timingsMs[stage] ?? null };
    for (const p of [50, 95] as const) {
      defs.push({
        id: `${stage}_latency_p${p}_ms`,
        family: 'operations',
        direction: 'lower',
        unit: 'ms',
        definition: `${p === 50 ? 'median' : '95th percentile'} of timings_ms.${stage} (nearest rank)`,
        denominator: `results with timings_ms.${stage}`,
        reduce: { ...stageMs, by: p === 50 ? 'p50' : 'p95' },
      });
    }
  }
  defs.push({
    id: 'suite_time_ms',
    family: 'operations',
    direction: 'lower',
    unit: 'ms',
    definition: 'sum of elapsed_ms',
    denominator: 'results with elapsed_ms',
    reduce: { ...elapsedMs, by: 'sum' },
  });
  defs.push({
    id: 'prompt_tokens_total',
    family: 'operations',
    direction: 'lower',
    unit: 'tokens',
    definition: 'sum of answer.usage.prompt_tokens',
    denominator: 'answers with usage',
    reduce: { quantity: 'prompt_tokens', value: (r) => r.result?.answer?.promptTokens ?? null, by: 'sum' },
  });
  defs.push({
    id: 'completion_tokens_total',
    family: 'operations',
    direction: 'lower',
    unit: 'tokens',
    definition: 'sum of answer.usage.completion_tokens',
    denominator: 'answers with usage',
    reduce: { quantity: 'completion_tokens', value: (r) => r.result?.answer?.completionTokens ?? null, by: 'sum' },
  });
  // The 001 spec's "Cost: Judge tokens and estimated cost per run".
  defs.push({
    id: 'judge_prompt_tokens_total',
    family: 'operations',
    direction: 'lower',
    unit: 'tokens',
    definition: 'sum of judge.usage.prompt_tokens (the judge model, not the answering one)',
    denominator: 'results with judge usage',
    reduce: { quantity: 'judge_prompt_tokens', value: (r) => r.result?.judge?.promptTokens ?? null, by: 'sum' },
  });
  defs.push({
    id: 'judge_completion_tokens_total',
    family: 'operations',
    direction: 'lower',
    unit: 'tokens',
    definition: 'sum of judge.usage.completion_tokens',
    denominator: 'results with judge usage',
    reduce: {
      quantity: 'judge_completion_tokens',
      value: (r) => r.result?.judge?.completionTokens ?? null,
      by: 'sum',
    },
  });
  defs.push({
    id: 'cost_usd_total',
    family: 'operations',
    direction: 'lower',
    unit: 'usd',
    definition: 'sum of cost_usd',
    denominator: 'results with cost_usd',
    reduce: { quantity: 'cost_usd', value: (r) => r.result?.costUsd ?? null, by: 'sum' },
  });

  // Index coverage (run level)
  const chunkTokens = (run: RunMeta) =>
    Float64Array.from([...(run.chunks?.values() ?? [])].map((c) => c.tokenEstimate)).sort();
  defs.push({
    id: 'documents',
    family: 'index',
    direction: 'neutral',
    unit: 'count',
    definition: 'rows in `documents`',
    denominator: 'run databases with a documents table',
    runLevel: (run) => (run.documents ? { value: run.documents.size, n: run.documents.size } : { value: null, n: 0 }),
  });
  defs.push({
    id: 'documents_without_chunks',
    family: 'index',
    direction: 'lower',
    unit: 'count',
    definition: 'documents with no row in `chunks`',
    denominator: 'run databases with documents and chunks tables',
    runLevel: (run) => {
      if (!run.documents || !run.chunks) return { value: null, n: 0 };
      const withChunks = new Set([...run.chunks.values()].map((c) => c.docId));
      return { value: [...run.documents.keys()].filter((d) => !withChunks.has(d)).length, n: run.documents.size };
    },
  });
  defs.push({
    id: 'documents_without_chunks_rate',
    family: 'index',
    direction: 'lower',
    unit: 'ratio',
    definition: "documents with no row in `chunks` / documents (the 001 spec's No Chunks Generated Rate)",
    denominator: 'documents, in run databases with documents and chunks tables',
    runLevel: (run) => {
      if (!run.documents || !run.chunks || run.documents.size === 0) return { value: null, n: 0 };
      const withChunks = new Set([...run.chunks.values()].map((c) => c.docId));
      const without = [...run.documents.keys()].filter((d) => !withChunks.has(d)).length;
      return { value: without / run.documents.size, n: run.documents.size };
    },
  });
  defs.push({
    id: 'chunks_skipped_rate',
    family: 'index',
    direction: 'lower',
    unit: 'ratio',
    definition:
      "chunks the indexer skipped (e.g. over the context limit) / chunks it attempted, from `config_snapshot_json.index_stats` (the 001 spec's Chunks Skipped Due to Context)",
    denominator: 'chunks attempted, in runs whose config snapshot has index_stats',
    runLevel: (run) => {
      const stats = run.run.chunkIndexing;
      if (!stats || stats.attempted === 0) return { value: null, n: stats?.attempted ?? 0 };
      return { value: stats.skipped / stats.attempted, n: stats.attempted };
    },
  });
  defs.push({
    id: 'chunks',
    family: 'index',
    direction: 'neutral',
    unit: 'count',
    definition: 'rows in `chunks`',
    denominator: 'run databases with a chunks table',
    runLevel: (run) => (run.chunks ? { value: run.chunks.size, n: run.chunks.size } : { value: null, n: 0 }),
  });
  for (const [id, label, pick] of [
    ['chunk_tokens_min', 'smallest', (s: Float64Array) => (s.length ? s[0] : null)],
    ['chunk_tokens_mean', 'mean', (s: Float64Array) => (s.length ? s.reduce((a, b) => a + b, 0) / s.length : null)],
    ['chunk_tokens_p95', '95th percentile (nearest rank) of', (s: Float64Array) => nearestRankPercentile(s, 95)],
    ['chunk_tokens_max', 'largest', (s: Float64Array) => (s.length ? s[s.length - 1] : null)],
  ] as const) {
    defs.push({
      id,
      family: 'index',
      direction: 'neutral',
      unit: 'tokens',
      definition: `${label} chunks.token_estimate`,
      denominator: 'chunks',
      runLevel: (run) => {
        const s = chunkTokens(run);
        return { value: pick(s), n: s.length };
      },
    });
  }
  return defs;
}
