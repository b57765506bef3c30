/**
 * Several runs of one database side by side (`evalverdict aggregate RUN.sqlite --run a,b,c`), as PaperBot compares
 * fts_only, embedding_only and hybrid: each metric's value per run, and which runs have the best value.
 */
import { round4 } from '../numberFormat.js';
import type { AggregateReport, RunSummary } from './aggregate.js';
import type { Direction, Family, MetricDef } from './metrics/types.js';

export interface SideBySideMetric {
  family: Family;
  direction: Direction;
  unit: MetricDef['unit'];
  /** One value per run, in the order of `runs`; null where the run's denominator is 0. */
  values: Array<number | null>;
  /** Each run's denominator, in the same order. */
  n: number[];
  /** The run ids with the best value (all of them on a tie); none for a neutral metric or when every value is null. */
  best: string[];
}

export interface SideBySideReport {
  runs: RunSummary[];
  golden: AggregateReport['golden'];
  options: AggregateReport['options'];
  metrics: Record<string, SideBySideMetric>;
}

/**
 * The runs that have the best of `values`: the largest for a higher-is-better metric, the smallest for a
 * lower-is-better one, compared as printed (rounded to 4 decimals) so that values shown equal tie. Null is never
 * best; a neutral metric (a count such as total_queries) has no best.
 */
export function bestRuns(
  direction: Direction,
  values: ReadonlyArray<number | null>,
  runIds: readonly string[],
): string[] {
  if (direction === 'neutral') return [];
  let best: number | null = null;
  for (const v of values) {
    if (v === null || !Number.isFinite(v)) continue;
    const r = round4(v);
    if (best === null || (direction === 'higher' ? r > best : r < best)) best = r;
  }
  if (best === null) return [];
  return runIds.filter((_, i) => {
    const v = values[i];
    return v !== null && Number.isFinite(v) && round4(v) === best;
  });
}

/**
 * The metrics of `reports` (one per run, each with its metric table) as one table: the first run's metrics in its
 * order, then any metric only a later run has (a timing stage of its own). `defs` comes back in that order.
 */
export function sideBySide(reports: ReadonlyArray<{ report: AggregateReport; defs: MetricDef[] }>): {
  report: SideBySideReport;
  defs: MetricDef[];
} {
  if (reports.length === 0) throw new Error('sideBySide: no runs');
  const defs: MetricDef[] = [];
  const seen = new Set<string>();
  for (const { defs: runDefs } of reports) {
    for (const def of runDefs) {
      if (seen.has(def.id)) continue;
      seen.add(def.id);
      defs.push(def);
    }
  }
  const runIds = reports.map((r) => r.report.run.run_id);
  const metrics: Record<string, SideBySideMetric> = Object.create(null) as Record<string, SideBySideMetric>;
  for (const def of defs) {
    const values = reports.map((r) => r.report.metrics[def.id]?.value ?? null);
    metrics[def.id] = {
      family: def.family,
      direction: def.direction,
      unit: def.unit,
      values,
      n: reports.map((r) => r.report.metrics[def.id]?.n ?? 0),
      best: bestRuns(def.direction, values, runIds),
    };
  }
  const first = reports[0].report;
  return {
    report: { runs: reports.map((r) => r.report.run), golden: first.golden, options: first.options, metrics },
    defs,
  };
}
