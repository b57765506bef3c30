/**
 * The metric registry: every family's declarations in table order, each resolved for the profile the golden set
 * names. The metric table (reports, JSON), docs/metrics.md, `evalverdict metrics` and gate validation read this.
 */
import type { AggregateOptions } from '../score.js';
import { abstentionFamily } from './abstention.js';
import { answersFamily } from './answers.js';
import { indexFamily } from './indexStats.js';
import { judgeFamily } from './judge.js';
import { operationsFamily } from './operations.js';
import { retrievalFamily } from './retrieval.js';
import type { Family, MetricDecl, MetricDef, MetricFamily } from './types.js';
import type { MetricProfile } from '../../types.js';

/** The families in the order their metrics are listed. */
export const METRIC_FAMILIES: readonly MetricFamily[] = [
  retrievalFamily,
  answersFamily,
  abstentionFamily,
  judgeFamily,
  operationsFamily,
  indexFamily,
];

/** A declaration as the table holds it: its family set and the profile's own definition, if any, in place. */
function resolve({ profiles, ...decl }: MetricDecl, family: Family, profile: MetricProfile): MetricDef {
  const override = profiles?.[profile];
  return override ? { ...decl, ...override, family } : { ...decl, family };
}

/** Every metric for these options, in table order; `stages` are the timed stages (a latency pair each). */
export function buildMetricTable(options: AggregateOptions, stages: string[] = []): MetricDef[] {
  const profile = options.profile ?? 'evalverdict';
  const defs: MetricDef[] = [];
  for (const { family, declare } of METRIC_FAMILIES) {
    for (const decl of declare({ options, stages })) defs.push(resolve(decl, family, profile));
  }
  return defs;
}
