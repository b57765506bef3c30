/** The library: the pure core of EvalGate, with no `@actions/*` import. */
export { computeAggregate, aggregateScored } from './aggregate/aggregate.js';
export type { AggregateReport, MetricMap } from './aggregate/aggregate.js';
export { buildMetricTable } from './aggregate/metrics.js';
export type { MetricDef, MetricValue } from './aggregate/metrics.js';
export { scoreRun, DEFAULT_OPTIONS } from './aggregate/score.js';
export type { AggregateOptions } from './aggregate/score.js';
export { compareRuns, DEFAULT_COMPARE_OPTIONS } from './compare/compare.js';
export type { CompareOptions, RunSource } from './compare/compare.js';
export type { CompareReport, GateResult, MetricComparison, QueryOutcome } from './compare/types.js';
export { parseGateConfig, defaultGateConfig, PRESETS } from './gate/config.js';
export { renderReportMarkdown } from './render/markdown.js';
export { stableJson } from './render/json.js';
export { deferRunStream, openRunStream, readRunDatabase } from './load/runDatabase.js';
export { readGoldenFile, parseGoldenYaml } from './load/golden.js';
export { runFromTrec } from './load/trec.js';
export { InputError } from './errors.js';
export type * from './types.js';
