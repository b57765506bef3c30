/**
 * A golden set in which no query states an expectation is read (an ops-only suite gates latency, cost, error and
 * timeout rates, which need none); a gate that compares with the golden set refuses it, naming itself, rather than
 * pass or fail on a metric that could only be n/a (or 0).
 */
import type { ComparedRuns } from '../compare/types.js';
import { InputError } from '../errors.js';
import { expectationKeysText } from '../load/golden.js';
import type { GoldenSet } from '../types.js';
import type { GateConfig, GateSpec } from './config.js';
import { COUNT_METRICS } from './gates.js';

/** Per-query outcomes compare relevance ranks: without an expectation every query is a draw. */
const RELEVANCE_COUNTS = new Set(['regressions', 'losses', 'wins']);

/** Retrieval and answer metrics that read no expectation: the hits and the answer alone. */
const WITHOUT_EXPECTATION = new Set([
  'empty_result_rate',
  'citation_coverage',
  'citation_schema_compliance',
  'hit_hallucination_rate',
]);

/**
 * Whether gate `spec` needs an expectation: a retrieval or answer metric that compares with the golden set (with
 * none, `answer_precision` is 0 and `hit@5` under `--mean-over trec_c` too, not n/a), a per-query win/loss count, or
 * an abstention metric with no query in its denominator.
 */
export function needsExpectation(spec: GateSpec, compared: ComparedRuns): boolean {
  if (COUNT_METRICS[spec.metric] !== undefined) return RELEVANCE_COUNTS.has(spec.metric);
  const def = compared.defs.find((d) => d.id === spec.metric);
  if (def === undefined) return false; // an unknown metric: the gate stage names it
  if (def.family === 'retrieval' || def.family === 'answers') return !WITHOUT_EXPECTATION.has(def.id);
  if (def.family === 'abstention') return (compared.report.metrics[def.id]?.n ?? 0) === 0;
  return false;
}

/** Throws when `golden` states no expectation and a gate of `config` needs one, naming the gates. */
export function requireExpectations(golden: GoldenSet, config: GateConfig, compared: ComparedRuns): void {
  if (golden.noExpectation === undefined) return;
  const needing = config.gates.filter((g) => needsExpectation(g, compared));
  if (needing.length === 0) return;
  const named = needing.slice(0, 5).map((g) => `\`${g.metric}\` (${g.origin})`);
  if (needing.length > 5) named.push(`and ${needing.length - 5} more`);
  throw new InputError(
    `${golden.source}: ${golden.noExpectation}, and the gate config ${config.source} gates ` +
      `${needing.length === 1 ? 'a metric that compares' : 'metrics that compare'} with it: ${named.join(', ')}; ` +
      `${expectationKeysText()}, or gate only metrics that need none (latency, cost, error and timeout rates)`,
  );
}
