/**
 * The aggregate_json we store with `--write`: kebab's own keys filled (so kebab's tools still read it) plus ours.
 * kebab reads most of its keys as plain f32 (serde rejects null) and writes 0.0 where it has no data, so an
 * undefined metric is 0 there (only citation_coverage and refusal_correctness take null); ours (`evalverdict`) keep null.
 */
import { round4 } from '../numberFormat.js';
import type { AggregateReport } from './aggregate.js';

export function kebabAggregateJson(report: AggregateReport): Record<string, unknown> {
  const value = (id: string) => {
    const v = report.metrics[id]?.value;
    return v === null || v === undefined ? null : round4(v);
  };
  const f32 = (id: string) => value(id) ?? 0; // a key kebab reads as a plain f32
  const byK = (prefix: string) => Object.fromEntries(report.options.ks.map((k) => [String(k), f32(`${prefix}@${k}`)]));
  return {
    hit_at_k: byK('hit'),
    mrr: f32(`mrr@${report.options.mrr_cutoff}`),
    recall_at_k_doc: byK('recall_doc'),
    precision_at_k_chunk: byK('P'),
    citation_coverage: value('citation_coverage'),
    groundedness: f32('groundedness'),
    empty_result_rate: f32('empty_result_rate'),
    refusal_correctness: value('refusal_correctness'),
    total_queries: f32('total_queries'),
    failed_queries: f32('failed_queries'),
    evalverdict: report,
  };
}
