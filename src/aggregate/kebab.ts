/** The aggregate_json we store with `--write`: kebab's own keys filled (so kebab's tools still read it) plus ours. */
import { round4 } from '../render/json.js';
import type { AggregateReport } from './aggregate.js';

export function kebabAggregateJson(report: AggregateReport): Record<string, unknown> {
  const value = (id: string) => {
    const v = report.metrics[id]?.value;
    return v === null || v === undefined ? null : round4(v);
  };
  const byK = (prefix: string) => Object.fromEntries(report.options.ks.map((k) => [String(k), value(`${prefix}@${k}`)]));
  return {
    hit_at_k: byK('hit'),
    mrr: value(`mrr@${report.options.mrr_cutoff}`),
    recall_at_k_doc: byK('recall_doc'),
    precision_at_k_chunk: byK('P'),
    citation_coverage: value('citation_coverage'),
    groundedness: value('groundedness'),
    empty_result_rate: value('empty_result_rate'),
    refusal_correctness: value('refusal_correctness'),
    total_queries: value('total_queries'),
    failed_queries: value('failed_queries'),
    evalgate: report,
  };
}
