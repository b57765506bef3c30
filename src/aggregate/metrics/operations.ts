/** The operations family: counts, failures, latency, tokens and cost of a run's results. */
import type { QueryRecord } from '../score.js';
import type { MetricDecl, MetricFamily, Quantity } from './types.js';

/** An answer object whose text is blank and that is not a refusal: the 001 spec's "returned empty answer". */
function emptyAnswer(r: QueryRecord): boolean {
  const answer = r.result?.answer;
  return !!answer && answer.text.trim() === '' && r.refused !== true;
}

const elapsedMs: Quantity = { quantity: 'elapsed_ms', value: (r) => r.result?.elapsedMs ?? null };

/** A sum over results (tokens, cost) of one per-result quantity. */
const total = (
  id: string,
  unit: 'tokens' | 'usd',
  definition: string,
  denominator: string,
  q: Quantity,
): MetricDecl => ({
  id,
  direction: 'lower',
  unit,
  definition,
  denominator,
  reduce: { ...q, by: 'sum' },
});

const COUNTS_AND_FAILURES: MetricDecl[] = [
  {
    id: 'total_queries',
    direction: 'neutral',
    unit: 'count',
    definition: 'golden queries scored (pending ones are reported apart)',
    denominator: 'golden queries',
    reduce: { quantity: 'one', value: () => 1, by: 'count' },
  },
  {
    id: 'missing_queries',
    direction: 'lower',
    unit: 'count',
    definition: 'golden queries with no result in the run',
    denominator: 'golden queries',
    reduce: { quantity: 'missing', value: (r) => (r.result ? 0 : 1), by: 'count' },
  },
  {
    id: 'failed_queries',
    direction: 'lower',
    unit: 'count',
    definition: 'results with status error or timeout (without a status: a non-null error), plus missing results',
    denominator: 'golden queries',
    reduce: { quantity: 'failed', value: (r) => (r.result?.status !== 'ok' ? 1 : 0), by: 'count' },
  },
  {
    id: 'error_rate',
    direction: 'lower',
    unit: 'ratio',
    definition:
      "failed, timed out or returned empty (the 001 spec's Error Rate): status error (without a status: a non-null error, even an empty one) or timeout, or an empty answer (as empty_answer_rate)",
    denominator: 'queries with a result',
    perQuery: (r) => (r.result ? (r.result.status !== 'ok' || emptyAnswer(r) ? 1 : 0) : null),
  },
  {
    id: 'timeout_rate',
    direction: 'lower',
    unit: 'ratio',
    definition: 'status timeout',
    denominator: 'queries with a result',
    perQuery: (r) => (r.result ? (r.result.status === 'timeout' ? 1 : 0) : null),
  },
  {
    id: 'empty_answer_rate',
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
  },
];

const LATENCY: MetricDecl[] = [
  ['latency_mean_ms', 'mean elapsed_ms', 'mean'],
  [
    'latency_p50_ms',
    'median elapsed_ms (nearest-rank percentile: the smallest value with >= 50% of values at or below it)',
    'p50',
  ],
  ['latency_p95_ms', '95th percentile of elapsed_ms (nearest rank)', 'p95'],
  ['latency_max_ms', 'largest elapsed_ms', 'max'],
].map(([id, definition, by]) => ({
  id,
  direction: 'lower',
  unit: 'ms',
  definition,
  denominator: 'results with elapsed_ms',
  reduce: { ...elapsedMs, by: by as 'mean' | 'p50' | 'p95' | 'max' },
}));

/** Median and 95th percentile of each stage's timings_ms. */
const stageLatency = (stages: string[]): MetricDecl[] =>
  stages.flatMap((stage) => {
    const stageMs: Quantity = { quantity: `timings_ms.${stage}`, value: (r) => r.result?.timingsMs[stage] ?? null };
    return ([50, 95] as const).map((p) => ({
      id: `${stage}_latency_p${p}_ms`,
      direction: 'lower',
      unit: 'ms',
      definition: `${p === 50 ? 'median' : '95th percentile'} of timings_ms.${stage} (nearest rank)`,
      denominator: `results with timings_ms.${stage}`,
      reduce: { ...stageMs, by: p === 50 ? 'p50' : 'p95' },
    }));
  });

const TOTALS: MetricDecl[] = [
  {
    id: 'suite_time_ms',
    direction: 'lower',
    unit: 'ms',
    definition: 'sum of elapsed_ms',
    denominator: 'results with elapsed_ms',
    reduce: { ...elapsedMs, by: 'sum' },
  },
  total('prompt_tokens_total', 'tokens', 'sum of answer.usage.prompt_tokens', 'answers with usage', {
    quantity: 'prompt_tokens',
    value: (r) => r.result?.answer?.promptTokens ?? null,
  }),
  total('completion_tokens_total', 'tokens', 'sum of answer.usage.completion_tokens', 'answers with usage', {
    quantity: 'completion_tokens',
    value: (r) => r.result?.answer?.completionTokens ?? null,
  }),
  // The 001 spec's "Cost: Judge tokens and estimated cost per run".
  total(
    'judge_prompt_tokens_total',
    'tokens',
    'sum of judge.usage.prompt_tokens (the judge model, not the answering one)',
    'results with judge usage',
    { quantity: 'judge_prompt_tokens', value: (r) => r.result?.judge?.promptTokens ?? null },
  ),
  total('judge_completion_tokens_total', 'tokens', 'sum of judge.usage.completion_tokens', 'results with judge usage', {
    quantity: 'judge_completion_tokens',
    value: (r) => r.result?.judge?.completionTokens ?? null,
  }),
  total('cost_usd_total', 'usd', 'sum of cost_usd', 'results with cost_usd', {
    quantity: 'cost_usd',
    value: (r) => r.result?.costUsd ?? null,
  }),
];

export const operationsFamily: MetricFamily = {
  family: 'operations',
  declare: ({ stages }) => [...COUNTS_AND_FAILURES, ...LATENCY, ...stageLatency(stages), ...TOTALS],
};
