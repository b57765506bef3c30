/**
 * Scoring one run against a golden set: the join done once. Each golden query becomes a QueryRecord holding
 * its relevance vector and its answer-side facts; every metric (src/aggregate/metrics/, one module per family,
 * listed in registry.ts) reads records only.
 */
import type {
  ChunkRecord,
  GoldenQuery,
  GoldenSet,
  Hit,
  MetricProfile,
  QueryResult,
  RunData,
  RunMeta,
  RunStream,
} from '../types.js';
import { inRange } from '../load/runDatabase.js';
import type { QueryIdRange } from '../load/runDatabase.js';
import { CitationIndex, containsFolded, FoldedTexts, foldText, isRefusal, QueryHits } from './answerChecks.js';
import { candidateFromHit, QueryMatcher } from './matching.js';
import type { Candidate, ChunkMatchMode, Expectation } from './matching.js';
import { expectedDocFirstRanks, relevanceVector } from './rankMetrics.js';
import type { GainKind, RelevanceVector } from './rankMetrics.js';

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
  /**
   * Whose definitions the metrics WFGY example 08 also defines follow (absent: evalverdict). The golden set's header
   * names it, and scoring takes it from there (withGoldenProfile).
   */
  profile?: MetricProfile;
}

/** The options with the golden set's metric profile, when its header names one (it wins over the options'). */
export function withGoldenProfile<T extends AggregateOptions>(options: T, golden: GoldenSet): T {
  return golden.profile === undefined || golden.profile === options.profile
    ? options
    : { ...options, profile: golden.profile };
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

/** A result as a record keeps it: everything but the hits, which scoring has reduced to the relevance vector. */
export type ResultSummary = Omit<QueryResult, 'hits'> & { hitCount: number };

export interface QueryRecord {
  golden: GoldenQuery;
  /** Null when the run has no result for this golden query (scored as a miss with no answer). */
  result: ResultSummary | null;
  /** The query's compiled expectations (see matching.ts); `vec.expectationFirstRank` is indexed like them. */
  expectations: Expectation[];
  /** At least one expectation with grade >= minGrade. */
  hasExpectations: boolean;
  vec: RelevanceVector;
  /** Per distinct expected_doc_id, the rank of the first hit of that document (recall_doc@k); null without any. */
  expectedDocFirstRank: readonly number[] | null;
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
  /**
   * Why the first hit (by rank) counted in hitsSnippetMissing is: `chunk_missing` (no chunk of its chunk_id in
   * `chunks`) or `snippet_not_found` (not in its chunk's text); null when none is (ckv's hallucination_reason).
   */
  hallucinationReason: HallucinationReason | null;
  scopeMiss: boolean | null;
  /**
   * For queries with expected_lines whose hits found it: every hit that cites the expected file cites lines that
   * overlap the expected range (ckv's citation_correct).
   */
  lineCitationsCorrect: boolean | null;
  /** How the query's expected chunks were matched: an index into QUERY_CHUNK_MATCHES (matching.ts). */
  chunkMatch: number;
}

export type HallucinationReason = 'chunk_missing' | 'snippet_not_found';

export interface ScoredRun {
  /** The run without its results: the results live on only as records. */
  run: RunMeta;
  golden: GoldenSet;
  options: AggregateOptions;
  /** Non-pending golden queries, in golden-set order. */
  records: QueryRecord[];
  /** Pending golden queries: scored and reported apart, never gated. */
  pendingRecords: QueryRecord[];
  /** Result query ids that the golden set does not know. */
  unknownResultIds: string[];
  /**
   * Golden query ids the run has more than one result for, each once, in reading order (the last result read
   * counts). A table made by kebab's schema cannot hold these (its primary key is (run_id, query_id)); one without
   * that key can, and the user is told (duplicateResultsWarning).
   */
  duplicateResultIds: string[];
  /** Query ids the run has a result for. */
  resultIds: Set<string>;
  /** Distinct chunker_version values carried by the hits, sorted. */
  hitChunkerVersions: string[];
  /** Some hit carries a line citation (a span for matching across chunker versions). */
  hitsHaveCitations: boolean;
  /**
   * Golden query ids whose result had more than MAX_HITS_PER_QUERY hits or MAX_CITATIONS_PER_ANSWER citations, in
   * reading order: those past the cap were dropped before scoring (cappedResultsWarning).
   */
  cappedResultIds: string[];
}

/**
 * The most hits of one result that are scored: the first by rank. A runner returns its top k, and a cutoff k is at
 * most 1,000, so no run under the cap scores differently; past it, the hits only cost time (every hit is matched
 * against every expectation) and are dropped before scoring, for every metric (MAP and bpref read every rank).
 */
export const MAX_HITS_PER_QUERY = 10_000;

/** The most citations of one answer that are read, in their order (each is resolved and matched like a hit). */
export const MAX_CITATIONS_PER_ANSWER = 10_000;

/** The caps as the warnings name them. */
export const CAPS_TEXT = `${MAX_HITS_PER_QUERY.toLocaleString('en-US')} hits or ${MAX_CITATIONS_PER_ANSWER.toLocaleString('en-US')} answer citations`;

/**
 * `result` with at most MAX_HITS_PER_QUERY hits (the first by rank: `hits` is in rank order) and
 * MAX_CITATIONS_PER_ANSWER citations; `result` itself when it is within both.
 */
export function withinWorkCaps(result: QueryResult): QueryResult {
  const answer = result.answer;
  const hitsOver = result.hits.length > MAX_HITS_PER_QUERY;
  const citationsOver = answer !== null && answer.citations.length > MAX_CITATIONS_PER_ANSWER;
  if (!hitsOver && !citationsOver) return result;
  return {
    ...result,
    hits: hitsOver ? result.hits.slice(0, MAX_HITS_PER_QUERY) : result.hits,
    answer: citationsOver ? { ...answer, citations: answer.citations.slice(0, MAX_CITATIONS_PER_ANSWER) } : answer,
  };
}

/** The results of `run` one at a time, whether they are in memory or streamed from a database. */
export function resultsOf(run: RunData | RunStream): RunStream {
  if ('forEachResult' in run) return run;
  return {
    ...run,
    forEachResult: (each) => {
      for (const r of run.results) each(r);
    },
  };
}

/** What scoring learns of a run besides its records. */
export type ScoringInfo = Pick<
  ScoredRun,
  | 'run'
  | 'unknownResultIds'
  | 'duplicateResultIds'
  | 'resultIds'
  | 'hitChunkerVersions'
  | 'hitsHaveCitations'
  | 'cappedResultIds'
>;

/**
 * Scores every result against the golden set as it is read (one pass, the hits dropped after each query) and hands
 * each golden query's record to `sink` with the query's index, then gives golden queries the run has no result
 * for a record of their own (a miss with no answer). A later result for the same query replaces an earlier one.
 * Without `collectResultIds`, `resultIds` stays empty.
 */
export function scoreEach(
  run: RunData | RunStream,
  golden: GoldenSet,
  options: AggregateOptions,
  sink: (index: number, record: QueryRecord) => void,
  range?: QueryIdRange,
  collectResultIds = true,
): ScoringInfo {
  const stream = resultsOf(run);
  const indexOf = new Map<string, number>();
  golden.queries.forEach((q, i) => {
    indexOf.set(q.id, i);
  });
  const scored = new Uint8Array(golden.queries.length);
  const unknownResultIds: string[] = [];
  const duplicateResultIds: string[] = [];
  const cappedResultIds: string[] = [];
  const resultIds = new Set<string>();
  const chunkerVersions = new Set<string>();
  let hitsHaveCitations = false;
  let lastVersion: string | null = null;
  const citations = new CitationIndex(stream.chunks, stream.documents);
  const matchOptions = {
    minGrade: options.minGrade,
    chunkMatch: options.chunkMatch,
    referenceChunks: options.referenceChunks ?? stream.chunks,
    runChunks: stream.chunks,
    lowerTexts: new FoldedTexts((text) => text.toLowerCase()),
  };
  stream.forEachResult((read) => {
    const result = withinWorkCaps(read);
    if (collectResultIds) resultIds.add(result.queryId); // a ScoredRun's; a table has no use for them
    for (const h of result.hits) {
      // Hits of one run nearly always carry one version: skip the set for a repeat of the last one.
      const version = h.chunkerVersion;
      if (version !== null && version !== lastVersion) chunkerVersions.add((lastVersion = version));
      if (!hitsHaveCitations && h.citation !== null) hitsHaveCitations = true;
    }
    const i = indexOf.get(result.queryId);
    if (i === undefined) {
      unknownResultIds.push(result.queryId);
      return;
    }
    const q = golden.queries[i];
    if (result !== read) cappedResultIds.push(result.queryId);
    if (scored[i] === 1) duplicateResultIds.push(result.queryId);
    scored[i] = Math.min(scored[i] + 1, 2); // 2: repeated, listed once
    sink(i, scoreQuery(q, result, new QueryMatcher(q, matchOptions), citations, stream));
  });
  golden.queries.forEach((q, i) => {
    if (!scored[i] && inRange(q.id, range))
      sink(i, scoreQuery(q, null, new QueryMatcher(q, matchOptions), citations, stream));
  });
  return {
    run: { source: stream.source, run: stream.run, chunks: stream.chunks, documents: stream.documents },
    unknownResultIds,
    duplicateResultIds,
    resultIds,
    hitChunkerVersions: [...chunkerVersions].sort(),
    hitsHaveCitations,
    cappedResultIds,
  };
}

/**
 * Part of a run's results by query_id, as SQLite orders query_id (by UTF-8 bytes): `from` and `through` inclusive,
 * `after` and `to` exclusive. Two threads score a large run in such parts.
 */
/** Every golden query's record, non-pending and pending apart, in golden-set order (see scoreEach). */
export function scoreRun(
  run: RunData | RunStream,
  golden: GoldenSet,
  options: AggregateOptions = DEFAULT_OPTIONS,
): ScoredRun {
  const byGolden: QueryRecord[] = new Array(golden.queries.length);
  options = withGoldenProfile(options, golden);
  const info = scoreEach(run, golden, options, (i, record) => {
    byGolden[i] = record;
  });
  const records: QueryRecord[] = [];
  const pendingRecords: QueryRecord[] = [];
  golden.queries.forEach((q, i) => {
    (q.pending ? pendingRecords : records).push(byGolden[i]);
  });
  return { ...info, golden, options, records, pendingRecords };
}

const scratch: number[] = [];
const NO_HITS: Hit[] = [];

function scoreQuery(
  q: GoldenQuery,
  result: QueryResult | null,
  matcher: QueryMatcher,
  citations: CitationIndex,
  run: RunMeta,
): QueryRecord {
  const hits = result?.hits ?? NO_HITS;
  const candidates: Candidate[] = new Array(hits.length);
  const ranks = new Array<number>(hits.length); // not an Int32Array: those cost several times more to make
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
  // Citations look hits up by chunk_id and path: through a Map past a few hits (QueryHits).
  const hitLookup = answer !== null && answer.citations.length > 0 ? new QueryHits(hits) : null;
  const cited = citedFacts(q, answer, hitLookup, matcher, citations);
  // Folded only for the queries whose check reads it (gold_claim).
  const textFolded = answer && q.goldClaim !== null ? foldText(answer.text) : '';
  const snippets = run.chunks ? snippetCounts(hits, run.chunks, citations) : NO_SNIPPETS;

  const scopeMiss = scopeMissOf(q, result);
  const recencyCorrect = recencyCorrectOf(q, answered, answer, cited);

  return {
    golden: q,
    result: result === null ? null : summaryOf(result),
    expectations: matcher.expectations, // the matcher is this query's alone (scoreEach makes one per query)
    hasExpectations: matcher.hasExpectations,
    vec,
    expectedDocFirstRank: expectedDocFirstRanks(q.expectedDocIds, docIds, ranks),
    refused,
    answered,
    citedRelevant: cited.relevant,
    citationsResolve:
      answer && answered && answer.grounded
        ? answer.citations.length > 0 && answer.citations.every((c) => citations.resolves(c, hitLookup!))
        : null,
    groundedText: groundedText(q, result),
    claimFound: q.goldClaim !== null ? answered && containsFolded(textFolded, q.goldClaim) : null,
    recencyCorrect,
    ...snippets,
    scopeMiss,
    lineCitationsCorrect:
      q.expectedLines !== null && vec.firstRelevantRank > 0 ? lineCitationsCorrect(q.expectedLines, hits) : null,
    chunkMatch: matcher.chunkMatch,
  };
}

/** Whether a folder-scoped search left out every gold support's folder; null where no scope or no support. */
function scopeMissOf(q: GoldenQuery, result: QueryResult | null): boolean | null {
  if (result && (result.folderMode === 'on' || result.folderMode === 'on_with_fallback') && q.goldSupports.length > 0) {
    return !q.goldSupports.some((s) => underSomeFolder(s.relPath, result.selectedFolders));
  }
  return null;
}

/** Whether the answer cited the sides its recency-conflict rule asks for; null for a query with no such rule. */
function recencyCorrectOf(
  q: GoldenQuery,
  answered: boolean,
  answer: QueryResult['answer'],
  cited: { newer: boolean; older: boolean },
): boolean | null {
  if (!q.recencyConflictRule) return null;
  // cite_newer: the newer support and no older one; cite_both / acknowledge_both: at least one of each side.
  const correct =
    answered && (q.recencyConflictRule === 'cite_newer' ? cited.newer && !cited.older : cited.newer && cited.older);
  // 001: acknowledge_both "must acknowledge conflict and cite both": a result that says it did not fails; one
  // that does not say is judged by its citations alone.
  if (q.recencyConflictRule === 'acknowledge_both' && answer?.conflictAcknowledged === false) return false;
  return correct;
}

/**
 * kebab's groundedness (000, p5-2): over RAG answers excluding errors, so a refusal counts (and fails a
 * must_contain it lacks) and an errored or timed-out result does not; strings are matched exactly, as kebab's
 * `contains` does. Null for a query with neither must_contain nor forbidden (nothing to check).
 */
function groundedText(q: GoldenQuery, result: QueryResult | null): boolean | null {
  const answer = result?.answer;
  if (!answer || result!.status !== 'ok' || (q.mustContain.length === 0 && q.forbidden.length === 0)) return null;
  const text = answer.text;
  return q.mustContain.every((m) => text.includes(m)) && !q.forbidden.some((f) => text.includes(f));
}

/** Whether the answer cites a relevant expectation, and a newer and an older gold support (`hits`: null without citations). */
function citedFacts(
  q: GoldenQuery,
  answer: QueryResult['answer'],
  hits: QueryHits | null,
  matcher: QueryMatcher,
  citations: CitationIndex,
): { relevant: boolean; newer: boolean; older: boolean } {
  const cited = { relevant: false, newer: false, older: false };
  if (!answer) return cited;
  const exps = matcher.expectations;
  for (const c of answer.citations) {
    for (const e of matcher.match(citations.candidateFor(c, hits!), scratch)) {
      if (exps[e].grade >= matcher.options.minGrade) cited.relevant = true;
      if (exps[e].kind === 'support') {
        if (q.goldSupports[exps[e].supportIndex].newer) cited.newer = true;
        else cited.older = true;
      }
    }
  }
  return cited;
}

/** Every hit whose line citation names `expected.file` cites lines overlapping the expected range. */
function lineCitationsCorrect(expected: NonNullable<GoldenQuery['expectedLines']>, hits: Hit[]): boolean {
  for (const h of hits) {
    const c = h.citation;
    if (c !== null && c.path === expected.file && (c.end < expected.start || expected.end < c.start)) return false;
  }
  return true;
}

type SnippetCounts = Pick<QueryRecord, 'hitsWithSnippet' | 'hitsSnippetMissing' | 'hallucinationReason'>;

const NO_SNIPPETS: SnippetCounts = { hitsWithSnippet: 0, hitsSnippetMissing: 0, hallucinationReason: null };

/** Hits with a snippet, those whose snippet is not in their chunk's text, and why the first of those is. */
function snippetCounts(hits: Hit[], chunks: Map<string, ChunkRecord>, citations: CitationIndex): SnippetCounts {
  let hitsWithSnippet = 0;
  let hitsSnippetMissing = 0;
  let hallucinationReason: HallucinationReason | null = null;
  for (const h of hits) {
    if (!h.snippet || h.snippet.trim() === '') continue;
    hitsWithSnippet++;
    const chunk = h.chunkId !== null ? chunks.get(h.chunkId) : undefined;
    if (!chunk || !citations.folded.of(chunk).includes(foldText(h.snippet))) {
      hitsSnippetMissing++;
      hallucinationReason ??= chunk ? 'snippet_not_found' : 'chunk_missing';
    }
  }
  return { hitsWithSnippet, hitsSnippetMissing, hallucinationReason };
}

/**
 * `path` lies under one of `folders` (trailing slashes ignored; `''` and `.` are the root). Without a regex or a
 * new string per folder unless one ends with a slash: scope is checked for every query of a run.
 */
export function underSomeFolder(path: string, folders: readonly string[]): boolean {
  for (let f of folders) {
    if (f.charCodeAt(f.length - 1) === SLASH) f = f.replace(/\/+$/, '');
    if (
      f === '' ||
      f === '.' ||
      path === f ||
      (path.length > f.length && path.charCodeAt(f.length) === SLASH && path.startsWith(f))
    )
      return true;
  }
  return false;
}

const SLASH = 0x2f;

function summaryOf(r: QueryResult): ResultSummary {
  return {
    queryId: r.queryId,
    query: r.query,
    mode: r.mode,
    hitCount: r.hits.length,
    answer: r.answer,
    elapsedMs: r.elapsedMs,
    error: r.error,
    status: r.status,
    abstained: r.abstained,
    timingsMs: r.timingsMs,
    costUsd: r.costUsd,
    folderMode: r.folderMode,
    selectedFolders: r.selectedFolders,
    judge: r.judge,
  };
}
