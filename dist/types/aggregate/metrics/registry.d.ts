/**
 * The metric registry: every family's declarations in table order, each resolved for the profile the golden set
 * names. The metric table (reports, JSON), docs/metrics.md, `evalverdict metrics` and gate validation read this.
 */
import type { AggregateOptions } from '../score.js';
import type { MetricDef, MetricFamily } from './types.js';
/** The families in the order their metrics are listed. */
export declare const METRIC_FAMILIES: readonly MetricFamily[];
/** Every metric for these options, in table order; `stages` are the timed stages (a latency pair each). */
export declare function buildMetricTable(options: AggregateOptions, stages?: string[]): MetricDef[];
