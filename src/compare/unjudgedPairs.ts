/**
 * The unjudged (query, document) pairs of the runs' top k and the TREC qrels template `compare --unjudged` writes
 * of them (docs/compare.md, "Documents nobody judged"). "Unjudged" is exactly what judged@k counts as not judged:
 * a hit with rank <= k of a query with graded judgments that meets no expectation of grade >= 0 (a negative
 * grade is trec_eval's unjudged, so a hit judged -1 is listed again).
 */
import { candidateFromHit, QueryMatcher } from '../aggregate/matching.js';
import type { ChunkMatchMode } from '../aggregate/matching.js';
import { resultsOf } from '../aggregate/score.js';
import type { ChunkRecord, GoldenSet, Hit, RunData, RunStream } from '../types.js';

/** How the comparison matched expected chunks: exact, or the fallback with both runs' chunk tables. */
export interface UnjudgedMatching {
  chunkMatch: ChunkMatchMode;
  /** Null: each run's own chunk table (as exact scoring reads it). */
  referenceChunks: Map<string, ChunkRecord> | null;
}

/** Per query with graded judgments, the ids of its unjudged hits with rank <= k (the last result read counts). */
export type UnjudgedHits = Map<string, string[]>;

/** The relevance the template leaves for an assessor: negative, which evalverdict and trec_eval read as unjudged. */
export const UNJUDGED_GRADE = -1;

const scratch: number[] = [];

/**
 * One run's unjudged hits in its top k. A hit is named by its chunk_id, else its doc_id (a judgment's id matches
 * either, see QueryMatcher.match); a hit with neither cannot be judged by id and is counted in `unnamed`.
 */
export function unjudgedHitsOf(
  run: RunData | RunStream,
  golden: GoldenSet,
  k: number,
  matching: UnjudgedMatching,
): { hits: UnjudgedHits; unnamed: number } {
  const stream = resultsOf(run);
  const judgedQueries = new Map(golden.queries.filter((q) => q.judgments.size > 0).map((q) => [q.id, q]));
  const options = {
    // Matching only finds the expectation a hit meets; 'judged' (any grade >= 0) is read off it after, whatever -l.
    minGrade: 1,
    chunkMatch: matching.chunkMatch,
    referenceChunks: matching.referenceChunks ?? stream.chunks,
    runChunks: stream.chunks,
  };
  const hits: UnjudgedHits = new Map();
  const unnamedBy = new Map<string, number>();
  stream.forEachResult((result) => {
    const q = judgedQueries.get(result.queryId);
    if (q === undefined) return;
    const matcher = new QueryMatcher(q, options);
    const ids: string[] = [];
    let unnamed = 0;
    for (const h of result.hits) {
      if (h.rank > k || isJudged(matcher, h, stream.chunks)) continue;
      const id = h.chunkId ?? h.docId;
      if (id === null) unnamed++;
      else ids.push(id);
    }
    hits.set(q.id, ids);
    unnamedBy.set(q.id, unnamed);
  });
  let unnamed = 0;
  for (const n of unnamedBy.values()) unnamed += n;
  return { hits, unnamed };
}

function isJudged(matcher: QueryMatcher, h: Hit, chunks: Map<string, ChunkRecord> | null): boolean {
  for (const e of matcher.match(candidateFromHit(h, chunks), scratch))
    if (matcher.expectations[e].grade >= 0) return true;
  return false;
}

export interface UnjudgedTemplate {
  /** `QUERY_ID 0 DOC_ID -1` lines, sorted by query id then id (code units), each pair once. */
  text: string;
  pairs: number;
  /** Pairs left out because a qrels field cannot hold the id (empty, or with whitespace), sorted. */
  skipped: Array<{ queryId: string; id: string }>;
}

/** The template of every side's unjudged hits: the union, deduplicated and sorted. */
export function unjudgedTemplate(sides: readonly UnjudgedHits[]): UnjudgedTemplate {
  const byQuery = new Map<string, Set<string>>();
  for (const side of sides)
    for (const [queryId, ids] of side) {
      let set = byQuery.get(queryId);
      if (!set) byQuery.set(queryId, (set = new Set()));
      for (const id of ids) set.add(id);
    }
  const lines: string[] = [];
  const skipped: UnjudgedTemplate['skipped'] = [];
  for (const queryId of [...byQuery.keys()].sort(byCodeUnits)) {
    for (const id of [...byQuery.get(queryId)!].sort(byCodeUnits)) {
      if (fitsQrelsField(queryId) && fitsQrelsField(id)) lines.push(`${queryId} 0 ${id} ${UNJUDGED_GRADE}\n`);
      else skipped.push({ queryId, id });
    }
  }
  return { text: lines.join(''), pairs: lines.length, skipped };
}

/** A qrels line is split on whitespace: a field must be non-empty and hold none. */
function fitsQrelsField(text: string): boolean {
  return text !== '' && !/\s/.test(text);
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
