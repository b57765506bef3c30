/**
 * Issue 26: src/aggregate/matching.ts in process, for the mutants the aggregate suites left alive: the expectations
 * a golden query compiles to (kinds, grades, which fields define relevance), the ideal grades of nDCG, lookups past
 * the 16 ids a query scans, heading and snippet rules of gold supports, and the chunker-version fallbacks
 * (fallback_doc_span: >= 50% of the expected span covered; fallback_doc: the document alone). Each case is worked
 * out beside it.
 */
import { describe, expect, it } from 'vitest';
import { FOLD_CACHE_UNITS, FoldedTexts } from '../src/aggregate/answerChecks.js';
import { candidateFromHit, QueryMatcher } from '../src/aggregate/matching.js';
import type { Candidate, MatchOptions } from '../src/aggregate/matching.js';
import type { ChunkRecord, GoldenQuery, GoldSupport, Hit } from '../src/types.js';
import { computeAggregate } from '../src/aggregate/aggregate.js';
import { chunk, goldenQuery, goldenSet, mkHit, queryResult, runData } from './helpers/compareFixtures.js';

const EXACT: MatchOptions = { minGrade: 1, chunkMatch: 'exact', referenceChunks: null, runChunks: null };

const matcher = (q: Partial<GoldenQuery>, options: Partial<MatchOptions> = {}) =>
  new QueryMatcher(goldenQuery('q', q), { ...EXACT, ...options });

const candidate = (c: Partial<Candidate>): Candidate => ({
  chunkId: null,
  docId: null,
  docPath: null,
  headingPath: [],
  text: null,
  line: null,
  ...c,
});

/** The expectation indexes `c` meets, copied. */
const matches = (m: QueryMatcher, c: Candidate) => [...m.match(c, [])];

const support = (s: Partial<GoldSupport>): GoldSupport => ({
  relPath: 'docs/a.md',
  headingPath: [],
  snippets: [],
  newer: false,
  ...s,
});

function chunkRecord(chunkId: string, docId: string, spans: Array<[number, number]>): ChunkRecord {
  return {
    chunkId,
    docId,
    text: `text of ${chunkId}`,
    headingPath: [],
    spans: spans.map(([start, end]) => ({ path: null, start, end })),
    tokenEstimate: 10,
    chunkerVersion: 'v1',
  };
}

const byId = (xs: ChunkRecord[]) => new Map(xs.map((x) => [x.chunkId, x]));

describe('the expectations of a golden query', () => {
  it('each field gives expectations of its kind, in order: judged ids, chunk ids, supports, lines', () => {
    const m = matcher({
      judgments: new Map([['j', 2]]),
      expectedChunkIds: ['c'],
      goldSupports: [support({}), support({ relPath: 'docs/b.md' })],
      expectedLines: { file: 'a.py', start: 1, end: 2 },
    });
    expect(m.expectations).toEqual([
      { grade: 2, kind: 'id', supportIndex: -1 },
      { grade: 1, kind: 'id', supportIndex: -1 },
      { grade: 1, kind: 'support', supportIndex: 0 },
      { grade: 1, kind: 'support', supportIndex: 1 },
      { grade: 1, kind: 'lines', supportIndex: -1 },
    ]);
  });

  it('expected_doc_ids give one doc expectation per distinct id: [d1, d1, d2] is two', () => {
    const m = matcher({ expectedDocIds: ['d1', 'd1', 'd2'] });
    expect(m.expectations).toEqual([
      { grade: 1, kind: 'doc', supportIndex: -1 },
      { grade: 1, kind: 'doc', supportIndex: -1 },
    ]);
    expect(m.relevantCount).toBe(2);
  });

  it('expected_doc_ids define no relevance beside any chunk-level field (each alone is enough)', () => {
    const docs = { expectedDocIds: ['d1'] };
    const kinds = (q: Partial<GoldenQuery>) => matcher({ ...docs, ...q }).expectations.map((e) => e.kind);
    expect(kinds({ judgments: new Map([['j', 1]]) })).toEqual(['id']);
    expect(kinds({ expectedChunkIds: ['c'] })).toEqual(['id']);
    expect(kinds({ goldSupports: [support({})] })).toEqual(['support']);
    expect(kinds({ expectedLines: { file: 'a.py', start: 1, end: 2 } })).toEqual(['lines']);
    expect(kinds({})).toEqual(['doc']);
  });

  it('a judged id listed again in expected_chunk_ids is one expectation, of grade at least 1', () => {
    // judged 0 (not relevant) and expected: grade 1; judged 3 and expected: grade 3 (not lowered to 1)
    const m = matcher({
      judgments: new Map([
        ['a', 0],
        ['b', 3],
      ]),
      expectedChunkIds: ['a', 'b'],
    });
    expect(m.expectations.map((e) => e.grade)).toEqual([1, 3]);
  });

  it('the ideal grades are the positive grades, descending: judged {a: 0, b: 2, c: 1, d: 3} give [3, 2, 1]', () => {
    const m = matcher({
      judgments: new Map([
        ['a', 0],
        ['b', 2],
        ['c', 1],
        ['d', 3],
      ]),
    });
    expect(m.idealGrades).toEqual([3, 2, 1]);
    expect(m.relevantCount).toBe(3);
  });
});

describe('ids past the 16 a query scans are found through a map', () => {
  it('every one of 20 judged ids matches its chunk, the first and the last included', () => {
    const ids = Array.from({ length: 20 }, (_, i) => `c${i}`);
    const m = matcher({ judgments: new Map(ids.map((id) => [id, 1])) });
    for (let i = 0; i < ids.length; i++) expect(matches(m, candidate({ chunkId: ids[i] }))).toEqual([i]);
    expect(matches(m, candidate({ chunkId: 'c20' }))).toEqual([]);
  });
});

describe('gold supports', () => {
  it('empty heading segments are dropped before comparing: ["", " Guide ", "  "] is ["Guide"]', () => {
    const m = matcher({ goldSupports: [support({ headingPath: ['Guide'] })] });
    expect(matches(m, candidate({ docPath: 'docs/a.md', headingPath: ['', ' Guide ', '  '] }))).toEqual([0]);
    expect(matches(m, candidate({ docPath: 'docs/a.md', headingPath: ['Other', 'Guide'] }))).toEqual([]);
  });

  it('any one of several snippets is enough', () => {
    const m = matcher({ goldSupports: [support({ snippets: ['first fact', 'second fact'] })] });
    expect(matches(m, candidate({ docPath: 'docs/a.md', text: 'only the Second Fact here' }))).toEqual([0]);
    expect(matches(m, candidate({ docPath: 'docs/a.md', text: 'neither' }))).toEqual([]);
    // the same through a chunk record's text, as a scored run reads it (lower-cased by MatchOptions.lowerTexts)
    const q = { goldSupports: [support({ snippets: ['first fact', 'second fact'] })] };
    const lowerTexts = new FoldedTexts((t) => t.toLowerCase());
    for (const [text, met] of [
      ['only the Second Fact here', [0]],
      ['neither', []],
    ] as const) {
      const runChunks = new Map([['k1', { ...chunkRecord('k1', 'd1', [[1, 5]]), text }]]);
      const hit = mkHit(1, 'k1', 'd1', { docPath: 'docs/a.md' });
      expect(matches(matcher(q, { runChunks, lowerTexts }), candidateFromHit(hit, runChunks))).toEqual(met);
    }
  });

  it('a hit with no text (and no chunk record) meets no snippet, not even one letter; the path alone then decides', () => {
    const withSnippet = matcher({ goldSupports: [support({ snippets: ['e'] })] });
    expect(matches(withSnippet, candidate({ docPath: 'docs/a.md', text: null }))).toEqual([]);
    expect(matches(withSnippet, candidate({ docPath: 'docs/a.md', text: 'see' }))).toEqual([0]);
    const noSnippet = matcher({ goldSupports: [support({ snippets: [] })] });
    expect(matches(noSnippet, candidate({ docPath: 'docs/a.md', text: null }))).toEqual([0]);
  });

  it("a hit without its own heading takes its chunk's heading", () => {
    const runChunks = byId([{ ...chunkRecord('k1', 'd1', [[1, 5]]), headingPath: ['Guide'] }]);
    const m = matcher({ goldSupports: [support({ headingPath: ['Guide'] })] });
    const hit = mkHit(1, 'k1', 'd1', { docPath: 'docs/a.md' });
    expect(matches(m, candidateFromHit(hit, runChunks))).toEqual([0]);
    // its own heading wins when it has one
    const own = mkHit(1, 'k1', 'd1', { docPath: 'docs/a.md', headingPath: ['Elsewhere'] });
    expect(matches(m, candidateFromHit(own, runChunks))).toEqual([]);
  });

  it('a hit is a candidate without a chunks table', () => {
    const c = candidateFromHit(mkHit(1, 'k1', null, { snippet: 'the snippet' }), null);
    expect([c.chunkId, c.docId, c.text]).toEqual(['k1', null, 'the snippet']);
  });
});

describe('chunker-version fallbacks', () => {
  // expected chunk old-1 of doc d1 spans lines 10-29 (20 lines) in the reference run
  const referenceChunks = byId([chunkRecord('old-1', 'd1', [[10, 29]])]);
  const q = { expectedChunkIds: ['old-1'] };
  const span = (runSpans: Array<[number, number]>) => {
    const runChunks = byId([chunkRecord('new-1', 'd1', runSpans)]);
    const m = matcher(q, { chunkMatch: 'fallback_doc_span', referenceChunks, runChunks });
    return matches(m, candidateFromHit(mkHit(1, 'new-1', 'd1'), runChunks));
  };

  it('fallback_doc_span: a chunk of the same document covering half the expected span matches (10 of 20 lines)', () => {
    expect(span([[20, 29]])).toEqual([0]); // 10 lines of 20: exactly 50%
    expect(span([[21, 29]])).toEqual([]); // 9 of 20
    expect(span([[0, 19]])).toEqual([0]); // lines 10-19 covered
    expect(span([[1, 9]])).toEqual([]); // touches nothing
    // two spans of the chunk add up: 10-14 and 25-29 are 10 lines
    expect(
      span([
        [10, 14],
        [25, 29],
      ]),
    ).toEqual([0]);
  });

  it('fallback_doc_span: the expected chunk of several spans counts all its lines (10 of 1-10 and 21-30 is 50%)', () => {
    const refs = byId([
      chunkRecord('old-1', 'd1', [
        [1, 10],
        [21, 30],
      ]),
    ]);
    const run = (spans: Array<[number, number]>) => {
      const runChunks = byId([chunkRecord('new-1', 'd1', spans)]);
      const m = matcher(q, { chunkMatch: 'fallback_doc_span', referenceChunks: refs, runChunks });
      return matches(m, candidateFromHit(mkHit(1, 'new-1', 'd1'), runChunks));
    };
    expect(run([[1, 10]])).toEqual([0]);
    expect(run([[2, 10]])).toEqual([]);
  });

  it("fallback_doc_span: without the hit's chunk spans, its line citation decides; without either, the document", () => {
    const m = (runChunks: Map<string, ChunkRecord> | null) =>
      matcher(q, { chunkMatch: 'fallback_doc_span', referenceChunks, runChunks });
    const cited = (start: number, end: number): Hit =>
      mkHit(1, 'new-1', 'd1', { citation: { kind: 'line', path: 'a.md', start, end } });
    // no chunks table of this run
    expect(matches(m(null), candidateFromHit(cited(20, 29), null))).toEqual([0]);
    expect(matches(m(null), candidateFromHit(cited(25, 29), null))).toEqual([]);
    // a chunks table without this hit's chunk, or with it but no spans
    const other = byId([chunkRecord('unrelated', 'd9', [[1, 2]])]);
    expect(matches(m(other), candidateFromHit(cited(20, 29), other))).toEqual([0]);
    const spanless = byId([chunkRecord('new-1', 'd1', [])]);
    expect(matches(m(spanless), candidateFromHit(cited(25, 29), spanless))).toEqual([]);
    expect(matches(m(spanless), candidateFromHit(cited(20, 29), spanless))).toEqual([0]);
    // neither spans nor a line: the document alone
    expect(matches(m(spanless), candidateFromHit(mkHit(1, 'new-1', 'd1'), spanless))).toEqual([0]);
    // a hit without a chunk_id is placed by its line
    expect(matches(m(null), candidate({ docId: 'd1', line: { path: 'a.md', start: 25, end: 29 } }))).toEqual([]);
  });

  it('fallback_doc: any chunk of the document matches, whatever its span; another document does not', () => {
    const runChunks = byId([chunkRecord('new-1', 'd1', [[100, 101]]), chunkRecord('new-2', 'd2', [[10, 29]])]);
    const m = matcher(q, { chunkMatch: 'fallback_doc', referenceChunks, runChunks });
    expect(matches(m, candidateFromHit(mkHit(1, 'new-1', 'd1'), runChunks))).toEqual([0]);
    expect(matches(m, candidateFromHit(mkHit(1, 'new-2', 'd2'), runChunks))).toEqual([]);
  });

  it('the expected chunk itself matches once, not again through the fallback', () => {
    const m = matcher(q, { chunkMatch: 'fallback_doc', referenceChunks, runChunks: referenceChunks });
    expect(matches(m, candidateFromHit(mkHit(1, 'old-1', 'd1'), referenceChunks))).toEqual([0]);
  });

  it('no fallback in exact mode, without reference chunks, or for an id the reference chunks lack', () => {
    const hit = mkHit(1, 'new-1', 'd1');
    expect(matches(matcher(q, { chunkMatch: 'exact', referenceChunks }), candidateFromHit(hit, null))).toEqual([]);
    expect(
      matches(matcher(q, { chunkMatch: 'fallback_doc', referenceChunks: null }), candidateFromHit(hit, null)),
    ).toEqual([]);
    const unknown = matcher({ expectedChunkIds: ['old-9'] }, { chunkMatch: 'fallback_doc', referenceChunks });
    expect(matches(unknown, candidateFromHit(hit, null))).toEqual([]);
  });
});

describe('a re-chunk: expected chunks in no chunks table stand by their named documents (rechunked)', () => {
  // The run's chunks table: c1 and c1b of D1, h9 of D9. `gone` and `old` are in no table.
  const tables = [chunk('c1', 'D1', [], 'v2'), chunk('c1b', 'D1', [], 'v2'), chunk('h9', 'D9', [], 'v2')];
  const metrics = (q: GoldenQuery, hits: Hit[]) =>
    computeAggregate(runData('r', [queryResult(q.id, hits)], { chunks: tables }), goldenSet([q])).metrics;

  it('one chunk kept, one gone: the kept one exactly, the gone one by D9 (the named document no kept chunk is in)', () => {
    const q = goldenQuery('q', { expectedChunkIds: ['c1', 'gone'], expectedDocIds: ['D1', 'D9', 'D9'] });
    // c1b is D1's other chunk: D1 has a kept chunk, so it does not stand for anything. h9 meets D9.
    const m = metrics(q, [mkHit(1, 'c1b', 'D1'), mkHit(2, 'h9', 'D9')]);
    expect(m['hit@1'].value).toBe(0);
    expect(m['recall@10'].value).toBe(0.5); // 2 expectations (c1, D9), D9 met
    expect(m['mrr@10'].value).toBe(0.5);
  });

  it("the gone chunk's document is a kept chunk's: no document is left to stand for it, every id stays exact", () => {
    const q = goldenQuery('q', { expectedChunkIds: ['c1', 'gone'], expectedDocIds: ['D1'] });
    expect(metrics(q, [mkHit(1, 'c1', 'D1')])['recall@10'].value).toBe(0.5); // c1 of c1 and gone
  });

  it('every expected chunk in the table: exact ids, and the named documents add nothing', () => {
    const q = goldenQuery('q', { expectedChunkIds: ['c1'], expectedDocIds: ['D1', 'D9'] });
    expect(metrics(q, [mkHit(1, 'h9', 'D9')])['hit@1'].value).toBe(0);
  });

  it('a query with judgments keeps its ids exact: qrels judge what they judge', () => {
    const q = goldenQuery('q', {
      expectedChunkIds: ['old'],
      expectedDocIds: ['D9'],
      judgments: new Map([['zz', 1]]),
    });
    expect(metrics(q, [mkHit(1, 'h9', 'D9')])['hit@1'].value).toBe(0);
    // without the judgment the same query falls back to D9
    expect(metrics({ ...q, judgments: new Map() }, [mkHit(1, 'h9', 'D9')])['hit@1'].value).toBe(1);
  });
});

describe('a long chunk text is read and lower-cased once for all the hits that cite it', () => {
  it('200 hits on one 100,000-character chunk read its text once (MatchOptions.lowerTexts), with the same matches', () => {
    let reads = 0;
    const big = `${'Filler '.repeat(14_285)}the Second Fact`;
    const record = { ...chunkRecord('k1', 'd1', [[1, 5]]) };
    Object.defineProperty(record, 'text', {
      get: () => {
        reads++;
        return big;
      },
    });
    const runChunks = new Map([['k1', record]]);
    const q = { goldSupports: [support({ snippets: ['second fact'] }), support({ snippets: ['absent'] })] };
    const lowerTexts = new FoldedTexts((t) => t.toLowerCase());
    const cached = matcher(q, { runChunks, lowerTexts });
    const hits = Array.from({ length: 200 }, (_, i) => mkHit(i + 1, 'k1', 'd1', { docPath: 'docs/a.md' }));
    for (const h of hits) expect(matches(cached, candidateFromHit(h, runChunks))).toEqual([0]);
    // two supports x 200 hits: one read (the first), then the cache
    expect(reads).toBe(1);
    // without the cache: the same answer, a read per support and hit
    const plain = matcher(q, { runChunks });
    for (const h of hits) expect(matches(plain, candidateFromHit(h, runChunks))).toEqual([0]);
    expect(reads).toBe(1 + 400);
  });
});

describe('a long chunk text is searched once per gold support, however many hits cite it', () => {
  it('200 hits and a repeated result on one long chunk: one search per support (FoldedTexts.answersOf), the same matches', () => {
    const big = `${'Filler '.repeat(14_285)}the Second Fact`;
    const runChunks = new Map([['k1', { ...chunkRecord('k1', 'd1', [[1, 5]]), text: big }]]);
    const q = { goldSupports: [support({ snippets: ['second fact'] }), support({ snippets: ['absent'] })] };
    const folded = new FoldedTexts((t) => t.toLowerCase());
    let searches = 0; // `of` is asked only when the answer is not known yet
    const counted = {
      of: (c: ChunkRecord) => {
        searches++;
        return folded.of(c);
      },
      answersOf: (c: ChunkRecord) => folded.answersOf(c),
    };
    const hits = Array.from({ length: 200 }, (_, i) => mkHit(i + 1, 'k1', 'd1', { docPath: 'docs/a.md' }));
    // the same golden query scored twice (a repeated result row): its supports are the same objects
    const golden = { ...matcher(q).golden };
    for (const round of [1, 2]) {
      const m = new QueryMatcher(golden, { ...EXACT, runChunks, lowerTexts: counted });
      for (const h of hits) expect(matches(m, candidateFromHit(h, runChunks))).toEqual([0]);
      expect([round, searches]).toEqual([round, 2]);
    }
    // a text under the cache's minimum is searched per check, with the same answers
    const small = new Map([['k1', { ...chunkRecord('k1', 'd1', [[1, 5]]), text: 'the second fact' }]]);
    searches = 0;
    const m = new QueryMatcher(golden, { ...EXACT, runChunks: small, lowerTexts: counted });
    for (const h of hits) expect(matches(m, candidateFromHit(h, small))).toEqual([0]);
    expect(searches).toBe(400);
  });

  it('answers are dropped with the text they were computed from', () => {
    const folded = new FoldedTexts((t) => t.toLowerCase());
    const chunks = [0, 1, 2].map((i) => ({
      ...chunkRecord(`k${i}`, 'd1', []),
      text: 'x'.repeat(FOLD_CACHE_UNITS / 2),
    }));
    expect(folded.answersOf(chunks[0])).toBeNull(); // not folded yet
    folded.of(chunks[0]);
    folded.answersOf(chunks[0])!.set(chunks, true);
    expect(folded.answersOf(chunks[0])!.get(chunks)).toBe(true);
    folded.of(chunks[1]);
    folded.of(chunks[2]); // the first is dropped to keep FOLD_CACHE_UNITS
    expect(folded.answersOf(chunks[0])).toBeNull();
    folded.of(chunks[0]);
    expect(folded.answersOf(chunks[0])!.get(chunks)).toBeUndefined();
  });
});
