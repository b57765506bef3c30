/**
 * The metric table's values: per-query columns reduced to means, sums, ratios and percentiles (PerQueryValues).
 * The metrics themselves are declared in src/aggregate/metrics/, one module per family (registry.ts lists them).
 */
import type { RunMeta } from '../types.js';
import { nearestRankPercentileOf, percentileOfCounts, wholeNumberCounts, wholeNumberRange } from './answerChecks.js';
import type { MetricDef, MetricValue, Reducer } from './metrics/types.js';
import type { QueryRecord } from './score.js';

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

  /** A per-query quantity's column (`elapsed_ms`, `cost_usd`; NaN where the result has none), or null if no metric reads it. */
  quantity(name: string): Float64Array | null {
    return this.quantities.get(name) ?? null;
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
   * (bench/README.md, "What was kept"). Each sum adds its values in sumOf's order, so every value is the same.
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
