/**
 * Scoring one run against a golden set: the join done once. Each golden query becomes a QueryRecord holding
 * its relevance vector and its answer-side facts; every metric in metrics.ts reads records only.
 */
import type { GoldenQuery, GoldenSet, QueryResult, RunData } from '../types.js';
import { CitationIndex, containsFolded, foldText, isRefusal } from './answers.js';
import { candidateFromHit, QueryMatcher } from './matching.js';
import type { Candidate, ChunkMatchMode } from './matching.js';
import { relevanceVector } from './retrieval.js';
import type { GainKind, RelevanceVector } from './retrieval.js';

export type MeanOver = 'default' | 'trec' | 'trec_c';

export interface AggregateOptions {
  /** Cutoffs for every @k metric. */
  ks: number[];
  /** Cutoff of MRR (`mrr@10`); `rr` has none. */
  mrrCutoff: number;
  ndcgGain: GainKind;
  /** trec_eval -l: grade at or above which a judgment is relevant. */
  minGrade: number;
  /**
   * Which queries a retrieval mean is over. default: queries with at least one relevant expectation, a query
   * missing from the run counting as a miss. trec: queries in both run and golden set, those without relevant
   * expectations adding 0 (trec_eval's default). trec_c: every golden query, missing ones adding 0 (trec_eval -c).
   */
  meanOver: MeanOver;
  chunkMatch: ChunkMatchMode;
  /** Chunk records to find expected chunks' documents and spans when chunkMatch is a fallback. */
  referenceChunks: RunData['chunks'];
}

export const DEFAULT_OPTIONS: AggregateOptions = {
  ks: [1, 3, 5, 10],
  mrrCutoff: 10,
  ndcgGain: 'linear',
  minGrade: 1,
  meanOver: 'default',
  chunkMatch: 'exact',
  referenceChunks: null,
};

export interface QueryRecord {
  golden: GoldenQuery;
  /** Null when the run has no result for this golden query (scored as a miss with no answer). */
  result: QueryResult | null;
  matcher: QueryMatcher;
  vec: RelevanceVector;
  docIds: Array<string | null>;
  refused: boolean | null;
  /** An answer object exists and is not a refusal. */
  answered: boolean;
  /** The answer cites at least one chunk that is relevant under the relevance model. */
  citedRelevant: boolean;
  /** For grounded answers: every citation resolves to a real chunk (false when there are none). */
  citationsResolve: boolean | null;
  /** For answered queries with must_contain or forbidden. */
  groundedText: boolean | null;
  claimFound: boolean | null;
  recencyCorrect: boolean | null;
  hitsWithSnippet: number;
  hitsSnippetMissing: number;
  scopeMiss: boolean | null;
}

export interface ScoredRun {
  run: RunData;
  golden: GoldenSet;
  options: AggregateOptions;
  /** Non-pending golden queries, in golden-set order. */
  records: QueryRecord[];
  /** Pending golden queries: scored and reported apart, never gated. */
  pendingRecords: QueryRecord[];
  /** Result query ids that the golden set does not know. */
  unknownResultIds: string[];
}

export function scoreRun(run: RunData, golden: GoldenSet, options: AggregateOptions = DEFAULT_OPTIONS): ScoredRun {
  const byId = new Map<string, QueryResult>();
  for (const r of run.results) byId.set(r.queryId, r);
  const goldenIds = new Set(golden.queries.map((q) => q.id));
  const unknownResultIds = run.results.filter((r) => !goldenIds.has(r.queryId)).map((r) => r.queryId);
  const citations = new CitationIndex(run.chunks, run.documents);
  const matchOptions = {
    minGrade: options.minGrade,
    chunkMatch: options.chunkMatch,
    referenceChunks: options.referenceChunks ?? run.chunks,
    runChunks: run.chunks,
  };
  const records: QueryRecord[] = [];
  const pendingRecords: QueryRecord[] = [];
  for (const q of golden.queries) {
    const record = scoreQuery(q, byId.get(q.id) ?? null, new QueryMatcher(q, matchOptions), citations, run);
    (q.pending ? pendingRecords : records).push(record);
  }
  return { run, golden, options, records, pendingRecords, unknownResultIds };
}

const scratch: number[] = [];

function scoreQuery(q: GoldenQuery, result: QueryResult | null, matcher: QueryMatcher, citations: CitationIndex, run: RunData): QueryRecord {
  const hits = result?.hits ?? [];
  const candidates: Candidate[] = new Array(hits.length);
  const ranks = new Int32Array(hits.length);
  const docIds: Array<string | null> = new Array(hits.length);
  for (let i = 0; i < hits.length; i++) {
    candidates[i] = candidateFromHit(hits[i], run.chunks);
    ranks[i] = hits[i].rank;
    docIds[i] = candidates[i].docId;
  }
  const vec = relevanceVector(matcher, candidates, ranks);

  const refused = isRefusal(result);
  const answer = result?.answer ?? null;
  const answered = answer !== null && refused === false;
  const minGrade = matcher.options.minGrade;
  const exps = matcher.expectations;
  let citedRelevant = false;
  const citedSupportNewer = { newer: false, older: false };
  if (answer) {
    for (const c of answer.citations) {
      for (const e of matcher.match(citations.candidateFor(c, hits), scratch)) {
        if (exps[e].grade >= minGrade) citedRelevant = true;
        if (exps[e].kind === 'support') {
          if (q.goldSupports[exps[e].supportIndex].newer) citedSupportNewer.newer = true;
          else citedSupportNewer.older = true;
        }
      }
    }
  }
  const textFolded = answer ? foldText(answer.text) : '';

  let hitsWithSnippet = 0;
  let hitsSnippetMissing = 0;
  if (run.chunks) {
    for (const h of hits) {
      if (!h.snippet || h.snippet.trim() === '') continue;
      hitsWithSnippet++;
      const chunk = h.chunkId !== null ? run.chunks.get(h.chunkId) : undefined;
      if (!chunk || !foldText(chunk.text).includes(foldText(h.snippet))) hitsSnippetMissing++;
    }
  }

  let scopeMiss: boolean | null = null;
  if (result && (result.folderMode === 'on' || result.folderMode === 'on_with_fallback') && q.goldSupports.length > 0) {
    const folders = result.selectedFolders.map((f) => f.replace(/\/+$/, ''));
    const under = (path: string) => folders.some((f) => f === '' || f === '.' || path === f || path.startsWith(`${f}/`));
    scopeMiss = !q.goldSupports.some((s) => under(s.relPath));
  }

  let recencyCorrect: boolean | null = null;
  if (q.recencyConflictRule) {
    // cite_newer: the newer support and no older one; cite_both / acknowledge_both: at least one of each side.
    recencyCorrect = answered && (q.recencyConflictRule === 'cite_newer'
      ? citedSupportNewer.newer && !citedSupportNewer.older
      : citedSupportNewer.newer && citedSupportNewer.older);
  }

  return {
    golden: q,
    result,
    matcher,
    vec,
    docIds,
    refused,
    answered,
    citedRelevant,
    citationsResolve: answer && answered && answer.grounded
      ? answer.citations.length > 0 && answer.citations.every((c) => citations.resolves(c, hits))
      : null,
    groundedText: answered && (q.mustContain.length > 0 || q.forbidden.length > 0)
      ? q.mustContain.every((m) => containsFolded(textFolded, m)) && !q.forbidden.some((f) => containsFolded(textFolded, f))
      : null,
    claimFound: q.goldClaim !== null ? answered && containsFolded(textFolded, q.goldClaim) : null,
    recencyCorrect,
    hitsWithSnippet,
    hitsSnippetMissing,
    scopeMiss,
  };
}
