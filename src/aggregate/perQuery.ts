/**
 * Per-query rows of one run (`evalverdict aggregate --per-query`): ckv's PerQuery fields and WFGY example 08's
 * per-question label, one row per golden query. The compare report carries the same fields (RowFacts) for
 * each regression, so a regression's row can be found by its query id.
 */
import type { GoldenSet, Hit, QueryResult, RunData, RunStream } from '../types.js';
import { checkResultsMatchGolden, distinctSorted } from './aggregate.js';
import type { RunSummary } from './aggregate.js';
import { resultsOf, scoreEach, withGoldenProfile } from './score.js';
import type { AggregateOptions, QueryRecord } from './score.js';
import type { RecordFacts } from './table.js';

/** WFGY example 08's per-question label (its score.md.py, in its order of tests). */
export type WfgyLabel = 'OK' | 'REFUSAL_OK' | 'OVER_REFUSAL' | 'HALLUCINATION' | 'ANS_NO_HIT';

/**
 * The label of one question: null when whether it was refused is unknown (no result, or a result with neither an
 * answer nor an abstained flag: a retrieval-only run). `hit` is WFGY's citation hit: the answer cites a relevant id.
 */
export function wfgyLabel(answerable: boolean, refused: boolean | null, hit: boolean): WfgyLabel | null {
  if (refused === null) return null;
  if (answerable && !refused && hit) return 'OK';
  if (!answerable && refused) return 'REFUSAL_OK';
  if (answerable && refused) return 'OVER_REFUSAL';
  if (!answerable && !refused) return 'HALLUCINATION';
  return 'ANS_NO_HIT';
}

/** What a row is computed from that fits in a number: what the compare report's table also keeps per query. */
export interface RowFacts {
  answerable: boolean;
  hasExpectations: boolean;
  /** Rank of the first relevant hit; 0 when none. */
  firstRelevantRank: number;
  hitsReturned: number;
  refused: boolean | null;
  /** The answer cites a relevant chunk (WFGY's hit); false without an answer. */
  citedRelevant: boolean;
  lineCitationsCorrect: boolean | null;
  /** Null when the run has no chunks table (a snippet cannot be checked). */
  hallucinationCount: number | null;
}

/** The row fields the compare report carries for a regression, with the same names and values as PerQueryRow. */
export interface RowCore {
  /** Null: no relevant hit (a miss, or the query has nothing relevant). */
  first_relevant_rank: number | null;
  hits_returned: number;
  /** 1 / first_relevant_rank, 0 on a miss; null when the query has no relevant expectation. */
  reciprocal_rank: number | null;
  /** ckv's citation_correct: null without expected_lines or without a relevant hit. */
  citation_correct: boolean | null;
  /** WFGY's citation hit; null when whether the query was refused is unknown (as label). */
  citation_hit: boolean | null;
  hallucination_count: number | null;
  label: WfgyLabel | null;
}

export interface PerQueryRow extends RowCore {
  query_id: string;
  query: string;
  /** Pending in the golden set (scored apart from the others by aggregate; listed here in place). */
  pending: boolean;
  /** The result's status; `missing` when the run has no result for the query. */
  status: QueryResult['status'] | 'missing';
  /** The top hit's chunk_id, else its cited or document path, else its doc_id; null without hits. */
  top_hit: string | null;
  top_hit_score: number | null;
  /** Why the first hallucinated hit is (`chunk_missing`, `snippet_not_found`); null when none is. */
  hallucination_reason: string | null;
}

export function rowCore(f: RowFacts): RowCore {
  const rank = f.firstRelevantRank > 0 ? f.firstRelevantRank : null;
  return {
    first_relevant_rank: rank,
    hits_returned: f.hitsReturned,
    reciprocal_rank: f.hasExpectations ? (rank === null ? 0 : 1 / rank) : null,
    citation_correct: f.lineCitationsCorrect,
    citation_hit: f.refused === null ? null : f.citedRelevant,
    hallucination_count: f.hallucinationCount,
    label: wfgyLabel(f.answerable, f.refused, f.citedRelevant),
  };
}

/** A record's facts for its row; `checksSnippets`: the run has a chunks table. */
export function rowFactsOf(r: QueryRecord, checksSnippets: boolean): RowFacts {
  return {
    answerable: r.golden.answerable,
    hasExpectations: r.hasExpectations,
    firstRelevantRank: r.vec.firstRelevantRank,
    hitsReturned: r.result?.hitCount ?? 0,
    refused: r.refused,
    citedRelevant: r.citedRelevant,
    lineCitationsCorrect: r.lineCitationsCorrect,
    hallucinationCount: checksSnippets ? r.hitsSnippetMissing : null,
  };
}

/** Row `i` of a scored run's table as a row's facts (the compare report's rows for regressions). */
export function rowFactsAt(facts: RecordFacts, i: number, answerable: boolean, checksSnippets: boolean): RowFacts {
  const refused = facts.refused[i];
  const citation = facts.lineCitationsCorrect[i];
  return {
    answerable,
    hasExpectations: facts.hasExpectations[i] === 1,
    firstRelevantRank: facts.firstRelevantRank[i],
    hitsReturned: facts.hitsReturned[i],
    refused: refused < 0 ? null : refused === 1,
    citedRelevant: facts.citedRelevant[i] === 1,
    lineCitationsCorrect: citation < 0 ? null : citation === 1,
    hallucinationCount: checksSnippets ? facts.hitsSnippetMissing[i] : null,
  };
}

/** What a row shows of the hit ranked first (ckv's top hit). */
export interface TopHit {
  label: string | null;
  score: number | null;
}

/** The top hit's chunk_id, else its cited path, else its doc_path, else its doc_id. */
export function topHitOf(hits: readonly Hit[]): TopHit | null {
  if (hits.length === 0) return null;
  const h = hits[0];
  return { label: h.chunkId ?? h.citation?.path ?? h.docPath ?? h.docId, score: h.score };
}

export function perQueryRow(r: QueryRecord, checksSnippets: boolean, top: TopHit | null): PerQueryRow {
  return {
    query_id: r.golden.id,
    query: r.golden.query,
    pending: r.golden.pending,
    status: r.result?.status ?? 'missing',
    ...rowCore(rowFactsOf(r, checksSnippets)),
    top_hit: top?.label ?? null,
    top_hit_score: top?.score ?? null,
    hallucination_reason: checksSnippets ? r.hallucinationReason : null,
  };
}

/** The columns of the Markdown, text and CSV tables, in order (the JSON rows have the same keys). */
export const PER_QUERY_COLUMNS = [
  'query_id',
  'query',
  'status',
  'first_relevant_rank',
  'hits_returned',
  'top_hit',
  'top_hit_score',
  'reciprocal_rank',
  'citation_correct',
  'citation_hit',
  'hallucination_count',
  'hallucination_reason',
  'label',
  'pending',
] as const satisfies ReadonlyArray<keyof PerQueryRow>;

/** The JSON of `aggregate --per-query`: the run, the golden set and every row. */
export interface PerQueryReport {
  run: RunSummary;
  /** Golden queries scored (not pending) and pending, as aggregate counts them. */
  golden: { fingerprint: string; queries: number; pending: number };
  rows: PerQueryRow[];
  unknown_query_ids: string[];
  duplicate_query_ids: string[];
  /** Golden query ids whose hits or citations were cut to the caps; present only when there is one. */
  capped_query_ids?: string[];
}

export interface PerQueryRows {
  rows: PerQueryRow[];
  /** Result query ids the golden set does not have (not scored), each once, sorted. */
  unknownQueryIds: string[];
  /** Golden query ids with more than one result row (the last one read is scored), sorted. */
  duplicateQueryIds: string[];
  /** Golden query ids whose hits or citations were cut to the caps (ScoredRun.cappedResultIds), sorted. */
  cappedQueryIds: string[];
}

/**
 * One row per golden query, in golden-set order (pending ones in place), each made as its query is scored: the
 * records (and hits) are dropped as aggregate drops them. A run none of whose results the golden set knows is
 * refused, as aggregate refuses it.
 */
export function perQueryRows(run: RunData | RunStream, golden: GoldenSet, options: AggregateOptions): PerQueryRows {
  const rows: PerQueryRow[] = new Array(golden.queries.length);
  const checksSnippets = run.chunks !== null;
  let matched = 0;
  // Scoring drops each result's hits and keeps no top hit (aggregate has no use for one): the top hit of the
  // result being scored is taken as it passes, and the record of that result is handed over before the next.
  const stream = resultsOf(run);
  let top: TopHit | null = null;
  const watched: RunStream = {
    ...stream,
    forEachResult: (each) =>
      stream.forEachResult((result) => {
        top = topHitOf(result.hits);
        each(result);
      }),
  };
  const info = scoreEach(
    watched,
    golden,
    withGoldenProfile(options, golden),
    (i, record) => {
      if (record.result !== null && rows[i] === undefined) matched++;
      rows[i] = perQueryRow(record, checksSnippets, record.result === null ? null : top);
    },
    undefined,
    false,
  );
  checkResultsMatchGolden(info.run, matched, info.unknownResultIds);
  return {
    rows,
    unknownQueryIds: distinctSorted(info.unknownResultIds),
    duplicateQueryIds: [...info.duplicateResultIds].sort(),
    cappedQueryIds: distinctSorted(info.cappedResultIds),
  };
}
