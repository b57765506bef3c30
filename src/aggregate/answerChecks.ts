/** Answer-side helpers: refusals, citation resolution and the text checks. Plain functions over plain data. */
import type { AnswerCitation, ChunkRecord, DocumentRecord, Hit, QueryResult } from '../types.js';
import { PathChunks } from './pathChunks.js';
import type { Candidate } from './matching.js';

/** Refusal: the explicit `abstained` flag when present, else `answer.grounded == false`; null when there is no answer at all. */
export function isRefusal(result: QueryResult | null): boolean | null {
  if (!result) return null;
  if (result.abstained !== null) return result.abstained;
  if (!result.answer) return null;
  return !result.answer.grounded;
}

/** Lower-cased with runs of white space folded: the form every text containment check uses. */
export function foldText(text: string): string {
  const lower = text.toLowerCase();
  // The replace only when it changes something (white space other than a lone space): it copies the text even
  // when every run is one space already.
  return (FOLDS.test(lower) ? lower.replace(/\s+/g, ' ') : lower).trim();
}

/** White space that foldText's replace changes: any but a space, or two in a row. */
const FOLDS = /[^\S ]|\s\s/;

export function containsFolded(haystackFolded: string, needle: string): boolean {
  const n = foldText(needle);
  return n !== '' && haystackFolded.includes(n);
}

/** WFGY's phrases of a claim: a letter or digit, then 4 or more letters, digits, hyphens or white space. */
const CLAIM_PHRASES = /[a-z0-9][a-z0-9\-\s]{4,}/g;

/**
 * WFGY example 08's claim containment: some phrase of the lower-cased gold claim (each longest run CLAIM_PHRASES
 * finds, trimmed), 5 or more characters long, is in the lower-cased answer. A claim "X is a constrained mapping."
 * has one phrase, "x is a constrained mapping"; "Paris, the capital" has "paris" and "the capital".
 */
export function claimPhraseFound(goldClaim: string, answer: string): boolean {
  if (goldClaim === '') return false;
  const text = answer.toLowerCase();
  for (const m of goldClaim.toLowerCase().matchAll(CLAIM_PHRASES)) {
    const phrase = m[0].trim();
    if (phrase.length >= 5 && text.includes(phrase)) return true;
  }
  return false;
}

/**
 * Per-run lookups for resolving citations. Building costs O(C + S) for C chunks and S spans (each chunk listed
 * under its paths); a path's span and heading structures are built the first time a citation names it
 * (PathChunks), so a run whose answers cite by chunk_id pays nothing more.
 */
export class CitationIndex {
  private readonly byPath = new Map<string, PathChunks>();

  constructor(
    readonly chunks: Map<string, ChunkRecord> | null,
    readonly documents: Map<string, DocumentRecord> | null,
  ) {
    if (!chunks) return;
    for (const chunk of chunks.values()) {
      const docPath = documents?.get(chunk.docId)?.workspacePath;
      if (docPath) this.listUnder(docPath, chunk);
      for (const s of chunk.spans) if (s.path && s.path !== docPath) this.listUnder(s.path, chunk);
    }
  }

  /** Lists `chunk` under `path` once (two spans of one path list it once: the last one listed is this chunk). */
  private listUnder(path: string, chunk: ChunkRecord): void {
    let list = this.byPath.get(path);
    if (!list) this.byPath.set(path, (list = new PathChunks()));
    list.add(chunk);
  }

  /**
   * foldText of a chunk's text, for the snippet check: each chunk folded once while its fold stays in the cache
   * (FoldedTexts), and only chunks a hit's snippet is checked against are read and folded at all.
   */
  readonly folded = new FoldedTexts();

  docPathOf(chunk: ChunkRecord): string | null {
    return this.documents?.get(chunk.docId)?.workspacePath ?? chunk.spans.find((s) => s.path)?.path ?? null;
  }

  /**
   * The chunk a citation points at: by chunk_id, else by path + overlapping line span, else (a 001 reference
   * without lines) by path + a chunk whose heading path starts with the cited one, else (kebab's PDF-page and
   * code-symbol citations, which name no lines) by path alone: the first chunk of that document. Where several
   * chunks qualify, the first in the chunks table's order. Cost: O(1) by id; O(log^2 n) by lines and O(depth) by
   * heading, for n chunks of the path (after PathChunks' one-time build).
   */
  chunkFor(c: AnswerCitation): ChunkRecord | null {
    if (!this.chunks) return null;
    if (c.chunkId !== null) {
      const chunk = this.chunks.get(c.chunkId);
      if (chunk) return chunk;
    }
    if (c.path === null) return null;
    const list = this.byPath.get(c.path);
    if (list === undefined) return null;
    if (c.start !== null) return list.overlapping(c.start, c.end ?? c.start);
    if (c.headingPath !== undefined && c.headingPath.length > 0) return list.underHeading(c.headingPath);
    // No line at all (an end without a start names a broken span, not a document).
    return c.end === null ? list.first() : null;
  }

  /**
   * Does the citation resolve to a real chunk? With a chunks table: by chunk_id or path + span. Without one:
   * to a chunk_id or path that some hit of the same query carries.
   */
  resolves(c: AnswerCitation, hits: QueryHits): boolean {
    if (this.chunks) return this.chunkFor(c) !== null;
    return (
      (c.chunkId !== null && hits.withChunkId(c.chunkId) !== undefined) || (c.path !== null && hits.namePath(c.path))
    );
  }

  /** The citation as a matching candidate, so cited chunks are judged by the same relevance model as hits. */
  candidateFor(c: AnswerCitation, hits: QueryHits): Candidate {
    // The hit of the cited chunk_id; one of a chunk found by path would go unread: the chunk and the cited path
    // answer everything first.
    const hit = c.chunkId !== null ? hits.withChunkId(c.chunkId) : undefined;
    return new CitedCandidate(c, this.chunkFor(c), hit, this);
  }
}

/** Hits up to this many are searched one by one; more get a Map and a Set (QueryHits). */
const HITS_SCANNED = 16;

/**
 * One query's hits as its citations look them up: the first hit of a chunk_id, and whether some hit names a path
 * (doc_path or line citation). A query's few hits are searched in turn; past HITS_SCANNED, a Map and a Set are built
 * on the first look-up, so c citations against h hits cost O(h + c), not O(h x c).
 */
export class QueryHits {
  private byChunkId: Map<string, Hit> | null = null;
  private paths: Set<string> | null = null;

  constructor(readonly hits: readonly Hit[]) {}

  withChunkId(chunkId: string): Hit | undefined {
    if (this.hits.length <= HITS_SCANNED) return this.hits.find((h) => h.chunkId === chunkId);
    if (this.byChunkId === null) {
      this.byChunkId = new Map();
      for (const h of this.hits)
        if (h.chunkId !== null && !this.byChunkId.has(h.chunkId)) this.byChunkId.set(h.chunkId, h);
    }
    return this.byChunkId.get(chunkId);
  }

  namePath(path: string): boolean {
    if (this.hits.length <= HITS_SCANNED) return this.hits.some((h) => h.docPath === path || h.citation?.path === path);
    if (this.paths === null) {
      this.paths = new Set();
      for (const h of this.hits) {
        if (h.docPath !== null) this.paths.add(h.docPath);
        const cited = h.citation?.path;
        if (cited !== undefined) this.paths.add(cited);
      }
    }
    return this.paths.has(path);
  }
}

/** At most this many UTF-16 units of folded chunk text are kept (one longer text is kept alone). */
export const FOLD_CACHE_UNITS = 32 << 20;

/** Texts shorter than this are folded each time they are checked, never cached. */
export const FOLD_CACHE_MIN_UNITS = 64 << 10;

/**
 * Folded chunk texts of FOLD_CACHE_MIN_UNITS or more, the first folded dropped first once they hold more than FOLD_CACHE_UNITS (a larger one is
 * kept alone). A chunk cited by many hits is folded once, not once a hit (bench/README.md, "What was kept");
 * memory stays within the cap or the largest value. Cost of `of`: O(1) on a hit, O(length) to fold on a miss.
 */
export class FoldedTexts {
  private readonly cache = new Map<ChunkRecord, string>();
  /** Per cached text, answers computed from it (answersOf): dropped with the text. */
  private readonly answers = new Map<ChunkRecord, Map<object, boolean>>();
  private units = 0;

  /** `fold`: foldText by default; matching's gold-support check keeps lower-cased texts the same way. */
  constructor(private readonly fold: (text: string) => string = foldText) {}

  of(chunk: ChunkRecord): string {
    // Looked up before `text` is read: a long text is read from the database on each read (readChunks).
    const cached = this.cache.get(chunk);
    if (cached !== undefined) return cached;
    const text = chunk.text;
    // A short text is folded each time, as cheap as a look-up: the cache holds no copy of a normal run's chunks.
    if (text.length < FOLD_CACHE_MIN_UNITS) return this.fold(text);
    const folded = this.fold(text);
    for (const [old, text] of this.cache) {
      if (this.units + folded.length <= FOLD_CACHE_UNITS) break;
      this.cache.delete(old);
      this.answers.delete(old);
      this.units -= text.length;
    }
    this.cache.set(chunk, folded);
    this.units += folded.length;
    return folded;
  }

  /**
   * Answers a caller computed from the cached fold of `chunk`, by a key of its own (a gold support), so a long text
   * is scanned once per key while its fold stays cached; null for a text not cached (short: a scan is cheap).
   */
  answersOf(chunk: ChunkRecord): Map<object, boolean> | null {
    if (!this.cache.has(chunk)) return null;
    let answers = this.answers.get(chunk);
    if (answers === undefined) this.answers.set(chunk, (answers = new Map()));
    return answers;
  }
}

/**
 * A cited chunk as a matching candidate. Its ids are read for every citation; its heading, text and line only for
 * queries with gold supports or line ranges, so they are looked up when asked for (a hit read by the fast reader decodes its
 * heading from its row then).
 */
class CitedCandidate implements Candidate {
  readonly chunkId: string | null;
  readonly docId: string | null;
  readonly docPath: string | null;

  constructor(
    private readonly c: AnswerCitation,
    readonly chunk: ChunkRecord | null,
    private readonly hit: Hit | undefined,
    index: CitationIndex,
  ) {
    this.chunkId = chunk?.chunkId ?? c.chunkId;
    this.docId = chunk?.docId ?? hit?.docId ?? null;
    this.docPath = c.path ?? (chunk ? index.docPathOf(chunk) : null) ?? hit?.docPath ?? null;
  }

  get line(): Candidate['line'] {
    const c = this.c;
    return c.path !== null && c.start !== null ? { path: c.path, start: c.start, end: c.end ?? c.start } : null;
  }

  get headingPath(): string[] {
    const cited = this.c.headingPath;
    if (cited !== undefined && cited.length > 0) return cited;
    return this.chunk?.headingPath ?? this.hit?.headingPath ?? [];
  }

  get text(): string | null {
    return this.chunk?.text ?? this.hit?.snippet ?? null;
  }
}

/** Where the nearest-rank percentile p of n values sits in their ascending order. */
function nearestRankIndex(n: number, p: number): number {
  return Math.min(Math.max(0, Math.ceil((p / 100) * n) - 1), n - 1);
}

/** Nearest-rank percentile (the smallest value with at least p% of values at or below it); null for no values. */
export function nearestRankPercentile(sortedAscending: ArrayLike<number>, p: number): number | null {
  const n = sortedAscending.length;
  return n === 0 ? null : sortedAscending[nearestRankIndex(n, p)];
}

/**
 * The same percentile of values in any order, found by selection (O(n)) instead of a sort; reorders `values`.
 * Breakdowns take several percentiles of many groups, where sorting each group was most of their time.
 */
export function nearestRankPercentileOf(values: Float64Array, p: number): number | null {
  const n = values.length;
  return n === 0 ? null : kthSmallest(values, nearestRankIndex(n, p));
}

/**
 * The values counted by value when every one is a whole number and they span at most 65,536 (latencies in ms, token
 * counts): then percentiles are read off the counts (percentileOfCounts) instead of selected, and one counting
 * serves p50, p95 and any other. Null otherwise (a fraction; -0, which selection could return as itself).
 */
export function wholeNumberCounts(values: Float64Array): { min: number; counts: Int32Array } | null {
  if (values.length === 0) return null;
  const range = wholeNumberRange([values]);
  if (range === null) return null;
  const counts = new Int32Array(range.span);
  for (let i = 0; i < values.length; i++) counts[values[i] - range.min]++;
  return { min: range.min, counts };
}

/**
 * wholeNumberCounts' rule over the values of `parts` (NaN: no value): their smallest and how many whole numbers
 * from it to their largest (`span`), when every one is a whole number, not -0, and span is at most 65,536; null
 * otherwise. Without values: min 0, span 1.
 */
export function wholeNumberRange(parts: readonly Float64Array[]): { min: number; span: number } | null {
  let min = Infinity;
  let max = -Infinity;
  for (const part of parts) {
    for (let i = 0; i < part.length; i++) {
      const v = part[i];
      if (v !== v) continue;
      if (!Number.isInteger(v) || (v === 0 && 1 / v < 0)) return null;
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  if (min === Infinity) return { min: 0, span: 1 };
  return max - min >= 1 << 16 ? null : { min, span: max - min + 1 };
}

/** nearestRankPercentileOf for values counted by wholeNumberCounts (`n` of them): the same value. */
export function percentileOfCounts(counted: { min: number; counts: Int32Array }, n: number, p: number): number {
  const rank = nearestRankIndex(n, p); // the value with `rank` values before it in ascending order
  const { min, counts } = counted;
  let seen = 0;
  for (let b = 0; b < counts.length; b++) {
    seen += counts[b];
    if (seen > rank) return min + b;
  }
  throw new Error('percentileOfCounts: fewer values than counted');
}

/** The k-th smallest (0-based) of `a` by quickselect with a median-of-three pivot: deterministic, in place. */
function kthSmallest(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    // Order a[lo], a[mid], a[hi]; the median moves to mid and is the pivot.
    if (a[mid] < a[lo]) swap(a, mid, lo);
    if (a[hi] < a[lo]) swap(a, hi, lo);
    if (a[hi] < a[mid]) swap(a, hi, mid);
    const pivot = a[mid];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        swap(a, i, j);
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k];
  }
  return a[k];
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}
