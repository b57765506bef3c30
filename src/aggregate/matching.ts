/**
 * Matching: one relevance model. For one query, every expectation of the golden query becomes an
 * `Expectation` with a grade; a hit (or a cited chunk) is relevant with the highest grade of the
 * expectations it satisfies. Every retrieval metric is a function of that graded vector and of the
 * expectations (see docs/metrics.md, "Matching").
 */
import { mapPacked } from '../arrays.js';
import type { ChunkRecord, GoldenQuery, GoldSupport, Hit } from '../types.js';

export type ChunkMatchMode = 'exact' | 'fallback_doc_span' | 'fallback_doc';

/**
 * How one query's expected chunks were matched, loosest first wins: `fallback_expected_doc` when an expected chunk
 * is in no chunks table (a re-chunk) and the query's expected_doc_ids name its document, so any hit of those
 * documents meets it; otherwise as ChunkMatchMode. `exact` also for a query none of whose expected chunks could fall
 * back (no expected_chunk_ids, or one in no table and no expected_doc_ids).
 */
export type QueryChunkMatch = ChunkMatchMode | 'fallback_expected_doc';

/** QueryChunkMatch as a number (a table column), in order of looseness. */
export const QUERY_CHUNK_MATCHES: readonly QueryChunkMatch[] = [
  'exact',
  'fallback_doc_span',
  'fallback_doc',
  'fallback_expected_doc',
];

export interface MatchOptions {
  /** Grade at or above which an expectation counts as relevant for binary metrics (trec_eval -l). */
  minGrade: number;
  /**
   * How an expected chunk id is matched. `exact`: chunk_id equality. The fallbacks are for runs whose
   * chunker_version differs from the one the golden set was written against: also match a hit of the same
   * document whose span covers >= 50% of the expected chunk's span (`fallback_doc_span`), and where spans are
   * unknown, the document alone.
   */
  chunkMatch: ChunkMatchMode;
  /** Chunk records used to find the expected chunk's document and span (both runs' chunk tables). */
  referenceChunks: Map<string, ChunkRecord> | null;
  /** This run's own chunk table, for the text and span of a hit's chunk. */
  runChunks: Map<string, ChunkRecord> | null;
  /**
   * Lower-cased chunk texts for the gold-support snippet check, kept per run (FoldedTexts with toLowerCase): a long
   * text cited by many hits is read and lower-cased once, not once per hit, and searched once per gold support
   * (answersOf). Without it, per candidate.
   */
  lowerTexts?: { of(chunk: ChunkRecord): string; answersOf(chunk: ChunkRecord): Map<object, boolean> | null };
}

export interface Expectation {
  grade: number;
  kind: 'id' | 'doc' | 'support' | 'lines';
  /** Index into gold_supports for support expectations. */
  supportIndex: number;
}

/** A ranked hit or a cited chunk, reduced to what matching looks at. */
export interface Candidate {
  chunkId: string | null;
  docId: string | null;
  docPath: string | null;
  headingPath: string[];
  text: string | null;
  line: { path: string; start: number; end: number } | null;
  /** The chunk record `text` is read from, when there is one (for MatchOptions.lowerTexts). */
  readonly chunk?: ChunkRecord | null;
}

export function normaliseHeading(path: string[]): string[] {
  return mapPacked(path, (s) => s.trim().replace(/\s+/g, ' ')).filter((s) => s !== '');
}

function rangesOverlap(a0: number, a1: number, b0: number, b1: number): boolean {
  return a0 <= b1 && b0 <= a1;
}

function overlapLength(a0: number, a1: number, b0: number, b1: number): number {
  return Math.max(0, Math.min(a1, b1) - Math.max(a0, b0) + 1);
}

const NONE: readonly never[] = [];

/** Lists longer than this get a Map as well (see IdLookup). */
const SCAN_MAX = 16;

/**
 * A query's expected ids (or documents) and their expectation indexes, found by comparing a hit's id with each: a
 * query expects a handful, and comparing is cheaper than hashing every hit's chunk_id and doc_id for a Map lookup
 * (a new string's hash reads all of it, and each query built its Maps; bench/README.md, "What was kept").
 * Past SCAN_MAX ids (qrels can judge hundreds), a Map as before.
 */
class IdLookup {
  private readonly keys: string[] = [];
  private readonly values: number[] = [];
  private map: Map<string, number> | null = null;

  /** The value of `key`, or -1. */
  get(key: string): number {
    if (this.map !== null) return this.map.get(key) ?? -1;
    const keys = this.keys;
    for (let i = 0; i < keys.length; i++) if (keys[i] === key) return this.values[i];
    return -1;
  }

  /** Adds `key` (not yet present) with `value`. */
  add(key: string, value: number): void {
    this.keys.push(key);
    this.values.push(value);
    if (this.map !== null) this.map.set(key, value);
    else if (this.keys.length > SCAN_MAX) this.map = new Map(this.keys.map((k, i) => [k, this.values[i]]));
  }
}

/**
 * Under a fallback chunk match, the expected chunk ids the reference chunks know, with the document (and spans) a
 * hit of a re-chunked index is matched by; `mode` is the loosest QUERY_CHUNK_MATCHES index they need. Null under
 * exact matching or with nothing to fall back on.
 */
function fallbackExpectations(
  chunkIds: readonly string[],
  options: MatchOptions,
  byId: IdLookup,
): { ids: Array<{ index: number; docId: string; spans: ChunkRecord['spans'] }>; mode: number } | null {
  if (options.chunkMatch === 'exact' || !options.referenceChunks || chunkIds.length === 0) return null;
  const ids: Array<{ index: number; docId: string; spans: ChunkRecord['spans'] }> = [];
  let mode = 0;
  for (const id of chunkIds) {
    const ref = options.referenceChunks.get(id);
    if (!ref) continue; // in no table and no expected document to stand for it: exact only
    const spans = options.chunkMatch === 'fallback_doc' ? [] : ref.spans;
    ids.push({ index: byId.get(id), docId: ref.docId, spans });
    mode = Math.max(mode, spans.length > 0 ? 1 : 2);
  }
  return { ids, mode };
}

/**
 * A re-chunk: expected chunk ids that no chunks table holds (so no hit can carry them, and their documents are
 * unknown) are replaced by the query's expected_doc_ids that no other expected chunk belongs to, each one
 * expectation met by any hit of that document (kebab's doc_id criterion, with no span to check). Only when some
 * chunks table exists (else nothing says the chunk is gone), the query has no judgments (qrels judge as they
 * judge), and such a document is left; otherwise the ids stay, matched exactly. `docsForMissing`: those documents.
 */
function rechunked(
  golden: GoldenQuery,
  tables: Map<string, ChunkRecord> | null,
): { chunkIds: readonly string[]; docsForMissing: string[] | null } {
  const chunkIds = golden.expectedChunkIds ?? NONE;
  const docIds = golden.expectedDocIds;
  if (tables === null || chunkIds.length === 0 || docIds === null || docIds.length === 0 || golden.judgments.size > 0)
    return { chunkIds, docsForMissing: null };
  let known: string[] | null = null;
  for (const id of chunkIds) if (!tables.has(id)) known ??= [];
  if (known === null) return { chunkIds, docsForMissing: null };
  const knownDocs = new Set<string>();
  for (const id of chunkIds) {
    const chunk = tables.get(id);
    if (chunk) {
      known.push(id);
      knownDocs.add(chunk.docId);
    }
  }
  const docsForMissing = [...new Set(docIds)].filter((d) => !knownDocs.has(d));
  return docsForMissing.length === 0 ? { chunkIds, docsForMissing: null } : { chunkIds: known, docsForMissing };
}

/**
 * The relevant (grade >= minGrade) and judged non-relevant (0 <= grade < minGrade) expectations, and the grades > 0
 * in descending order (nDCG's ideal ranking). Plain loops: a matcher is built for every query of every run.
 */
function gradeCounts(
  expectations: readonly Expectation[],
  minGrade: number,
): { relevantCount: number; nonRelevantCount: number; idealGrades: number[] } {
  let relevantCount = 0;
  let positive = 0;
  let nonRelevantCount = 0;
  for (const e of expectations) {
    if (e.grade >= minGrade) relevantCount++;
    else if (e.grade >= 0) nonRelevantCount++;
    if (e.grade > 0) positive++;
  }
  // Exactly `positive` long: records keep this list, and an array grown by push keeps spare room.
  const idealGrades = new Array<number>(positive);
  let at = 0;
  for (const e of expectations) if (e.grade > 0) idealGrades[at++] = e.grade;
  // Descending, by insertion: a query has a handful of grades, and Array.prototype.sort allocates its work
  // arrays for every call (bench/README.md, "What was kept").
  for (let i = 1; i < positive; i++) {
    const g = idealGrades[i];
    let j = i - 1;
    for (; j >= 0 && idealGrades[j] < g; j--) idealGrades[j + 1] = idealGrades[j];
    idealGrades[j + 1] = g;
  }
  return { relevantCount, nonRelevantCount, idealGrades };
}

/** A gold support as matching compares it: heading normalised, snippets lower-cased; `support` keys memoised answers. */
interface Support {
  index: number;
  support: GoldSupport;
  relPath: string;
  heading: string[];
  snippets: string[];
}

/** The compiled expectations of one query; `match` is called once per hit. */
export class QueryMatcher {
  readonly expectations: Expectation[] = [];
  /** Expectations with grade >= minGrade: the denominator of recall and MAP. */
  readonly relevantCount: number;
  /** Expectations with 0 <= grade < minGrade: judged not relevant (bpref's N). */
  readonly nonRelevantCount: number;
  /** Grades > 0, sorted descending: the ideal ranking of nDCG (trec_eval ndcg_cut ignores -l). */
  readonly idealGrades: number[];
  /** Judged ids (expectations 0 .. judgedCount - 1) and expected chunk ids, to their expectations. */
  private readonly byId = new IdLookup();
  private readonly judgedCount: number;
  // Allocated only for a query that has them (a matcher is built for every query of every run).
  private readonly byDoc: IdLookup | null = null;
  private readonly supports: readonly Support[] = NONE;
  private readonly lines: { file: string; start: number; end: number; index: number } | null = null;
  private readonly fallbackIds: ReadonlyArray<{ index: number; docId: string; spans: ChunkRecord['spans'] }> = NONE;
  /** How this query's expected chunks are matched: an index into QUERY_CHUNK_MATCHES. */
  readonly chunkMatch: number = 0;

  constructor(
    readonly golden: GoldenQuery,
    readonly options: MatchOptions,
  ) {
    const add = (grade: number, kind: Expectation['kind'], supportIndex = -1): number => {
      this.expectations.push({ grade, kind, supportIndex });
      return this.expectations.length - 1;
    };
    // Chunk ids and judged ids share one namespace so a judged id listed again in expected_chunk_ids is one expectation.
    for (const [id, grade] of golden.judgments) this.byId.add(id, add(grade, 'id'));
    this.judgedCount = this.expectations.length;
    const { chunkIds, docsForMissing } = rechunked(golden, options.referenceChunks);
    for (const id of chunkIds) {
      const existing = this.byId.get(id);
      if (existing !== -1) this.expectations[existing].grade = Math.max(this.expectations[existing].grade, 1);
      else this.byId.add(id, add(1, 'id'));
    }
    // expected_doc_ids define relevance only for queries with no chunk-level expectation (judgments, chunk ids,
    // supports, lines): a document listed beside its expected chunk would otherwise count twice and let any
    // chunk of it pass for the expected one. They always define recall_doc@k (see recallDocAtK).
    const hasChunkLevel =
      golden.judgments.size > 0 ||
      chunkIds.length > 0 ||
      golden.goldSupports.length > 0 ||
      golden.expectedLines !== null;
    const docIds = docsForMissing ?? (hasChunkLevel ? null : golden.expectedDocIds);
    if (docIds !== null && docIds.length > 0) {
      const byDoc = (this.byDoc = new IdLookup());
      for (const id of docIds) {
        if (byDoc.get(id) === -1) byDoc.add(id, add(1, 'doc'));
      }
    }
    if (golden.goldSupports.length > 0) {
      this.supports = mapPacked(golden.goldSupports, (s, i) => ({
        index: add(1, 'support', i),
        support: s,
        relPath: s.relPath,
        heading: normaliseHeading(s.headingPath),
        snippets: mapPacked(s.snippets, (x) => x.toLowerCase()),
      }));
    }
    if (golden.expectedLines) {
      this.lines = { ...golden.expectedLines, index: add(1, 'lines') };
    }
    const fallback = fallbackExpectations(chunkIds, options, this.byId);
    if (fallback !== null) this.fallbackIds = fallback.ids;
    this.chunkMatch = Math.max(docsForMissing !== null ? 3 : 0, fallback?.mode ?? 0);
    const counts = gradeCounts(this.expectations, options.minGrade);
    this.relevantCount = counts.relevantCount;
    this.nonRelevantCount = counts.nonRelevantCount;
    this.idealGrades = counts.idealGrades;
  }

  get hasExpectations(): boolean {
    return this.relevantCount > 0;
  }

  /**
   * Indexes of the expectations `c` satisfies. Returns a shared array: copy before keeping it.
   * Judged ids match chunk_id or doc_id (TREC qrels judge documents); expected_chunk_ids match chunk_id.
   */
  match(c: Candidate, out: number[]): number[] {
    if (out.length !== 0) out.length = 0; // most hits match nothing: skip the setter, a runtime call
    if (c.chunkId !== null) {
      const i = this.byId.get(c.chunkId);
      if (i !== -1) out.push(i);
    }
    if (c.docId !== null) {
      if (this.byDoc !== null) {
        const d = this.byDoc.get(c.docId);
        if (d !== -1) out.push(d);
      }
      if (this.judgedCount > 0 && c.docId !== c.chunkId) {
        // Judged ids are expectations 0 .. judgedCount - 1: an id only listed in expected_chunk_ids matches chunk_id alone.
        const j = this.byId.get(c.docId);
        if (j !== -1 && j < this.judgedCount && !out.includes(j)) out.push(j);
      }
    }
    for (const s of this.supports) {
      if (this.matchesSupport(s, c)) out.push(s.index);
    }
    if (this.lines) {
      const line = c.line;
      if (
        line &&
        line.path === this.lines.file &&
        rangesOverlap(line.start, line.end, this.lines.start, this.lines.end)
      )
        out.push(this.lines.index);
    }
    for (const f of this.fallbackIds) {
      if (out.includes(f.index) || c.docId !== f.docId) continue;
      if (f.spans.length === 0 || this.spanCovers(f.spans, c)) out.push(f.index);
    }
    return out;
  }

  /**
   * Path, heading, then a snippet in the candidate's lower-cased text. Cost of the snippet search: O(length of the
   * text x snippets) once per distinct (long chunk text, gold support) pair while its lower-cased text stays cached
   * (MatchOptions.lowerTexts; the same chunk cited by many hits, or by a repeated result, gives the same answer), so
   * O(total text of distinct cited chunks x snippets); a text under the cache's 64 Ki units is searched per check.
   */
  private matchesSupport(s: Support, c: Candidate): boolean {
    if (c.docPath !== s.relPath) return false;
    const heading = normaliseHeading(c.headingPath);
    if (heading.length < s.heading.length) return false;
    for (let i = 0; i < s.heading.length; i++) if (heading[i] !== s.heading[i]) return false;
    if (s.snippets.length === 0) return true;
    const chunk = c.chunk;
    const lower = this.options.lowerTexts;
    if (!chunk || !lower) {
      const own = (c.text ?? '').toLowerCase();
      return s.snippets.some((snip) => own.includes(snip));
    }
    const known = lower.answersOf(chunk)?.get(s.support);
    if (known !== undefined) return known;
    const text = lower.of(chunk);
    const found = s.snippets.some((snip) => text.includes(snip));
    lower.answersOf(chunk)?.set(s.support, found); // null for a short text, searched per check
    return found;
  }

  /** >= 50% of the expected span covered by the candidate's span (from its chunk record, else its line citation). */
  private spanCovers(expected: ChunkRecord['spans'], c: Candidate): boolean {
    const own = c.chunkId !== null ? this.options.runChunks?.get(c.chunkId)?.spans : undefined;
    const line = own && own.length > 0 ? null : c.line;
    const spans = own && own.length > 0 ? own : line ? [line] : [];
    if (spans.length === 0) return true; // span of the hit unknown: the document alone decides
    let expectedLen = 0;
    let covered = 0;
    for (const e of expected) {
      expectedLen += e.end - e.start + 1;
      for (const s of spans) covered += overlapLength(e.start, e.end, s.start, s.end);
    }
    return expectedLen > 0 && covered * 2 >= expectedLen;
  }
}

/**
 * A hit as a matching candidate. Only chunk_id and doc_id are read for every hit; the path, heading, text and line
 * are read only for queries with gold supports or line ranges, so they are looked up when asked for (a hit read by
 * the fast reader decodes them from its row then).
 */
class HitCandidate implements Candidate {
  readonly chunkId: string | null;
  readonly docId: string | null;

  constructor(
    private readonly hit: Hit,
    readonly chunk: ChunkRecord | undefined,
  ) {
    this.chunkId = hit.chunkId;
    this.docId = hit.docId ?? chunk?.docId ?? null;
  }

  get docPath(): string | null {
    return this.hit.docPath;
  }

  get headingPath(): string[] {
    const own = this.hit.headingPath;
    return own.length > 0 ? own : (this.chunk?.headingPath ?? []);
  }

  get text(): string | null {
    return this.chunk?.text ?? this.hit.snippet;
  }

  get line(): Candidate['line'] {
    const c = this.hit.citation;
    return c ? { path: c.path, start: c.start, end: c.end } : null;
  }
}

export function candidateFromHit(hit: Hit, runChunks: Map<string, ChunkRecord> | null): Candidate {
  return new HitCandidate(hit, hit.chunkId !== null && runChunks ? runChunks.get(hit.chunkId) : undefined);
}
