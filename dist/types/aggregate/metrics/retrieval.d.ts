/**
 * The retrieval family: ranking metrics over each query's relevance vector (src/aggregate/rankMetrics.ts holds the
 * formulas). Those trec_eval also has follow --mean-over and are equal to trec_eval's (test/trecEval.test.ts).
 */
import type { MetricProfile } from '../../types.js';
import type { GainKind } from '../rankMetrics.js';
import type { MetricFamily } from './types.js';
/** How a metric profile's retrieval metrics treat cutoffs and queries with nothing relevant (docs/golden-sets.md). */
interface RetrievalRules {
    /** A query with nothing relevant counts in the means rather than being left out, whatever --mean-over. */
    countsNothingRelevant: boolean;
    /**
     * What the metrics PaperBot defines at top_k (hit, recall, MRR, nDCG) score such a query under --mean-over
     * default: hit@k 0 always; this for recall@k, mrr@K and nDCG@k. The other retrieval metrics add 0.
     */
    nothingRelevantScore: number;
    /** The cutoff of a query without its own top_k; null: none (the metric's k). */
    defaultTopK: number | null;
    /** nDCG's gain whatever --ndcg-gain; null: --ndcg-gain's. */
    ndcgGain: GainKind | null;
}
/**
 * PaperBot's document evidence bench (its retrieval_benchmark.py and document_evidence_benchmark.py): means over
 * every case; a case's top_k defaults to 5; recall, MRR and nDCG score 1.0 for a case with nothing relevant (its
 * evidence hit 0); nDCG gains 2^grade - 1 with the ideal ranking cut at top_k.
 */
export declare const RETRIEVAL_PROFILES: Record<MetricProfile, RetrievalRules>;
export declare const retrievalFamily: MetricFamily;
export {};
