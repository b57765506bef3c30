/**
 * Issue 26: src/aggregate/answerChecks.ts in process, for the mutants the aggregate suites left alive. Citation
 * resolution (CitationIndex: by chunk_id, by path + overlapping line span, or without a chunks table by what the
 * query's hits carry), the cited chunk as a matching candidate, the empty needle of a text check, and the value
 * range behind counted percentiles. Each expected value is worked out beside it.
 */
import { describe, expect, it } from 'vitest';
import {
  CitationIndex,
  claimPhraseFound,
  containsFolded,
  QueryHits,
  wholeNumberRange,
} from '../src/aggregate/answerChecks.js';
import type { AnswerCitation, ChunkRecord, DocumentRecord, Hit } from '../src/types.js';

/** A hit with only what a test names; every other field empty. */
const mkHit = (rank: number, chunkId: string | null, docId: string | null, extra: Partial<Hit> = {}): Hit => ({
  rank,
  chunkId,
  docId,
  docPath: null,
  headingPath: [],
  snippet: null,
  score: null,
  citation: null,
  chunkerVersion: null,
  ...extra,
});

const cite = (c: Partial<AnswerCitation>): AnswerCitation => ({
  marker: null,
  chunkId: null,
  path: null,
  start: null,
  end: null,
  ...c,
});

function chunkRecord(
  chunkId: string,
  docId: string,
  spans: ChunkRecord['spans'],
  extra: Partial<ChunkRecord> = {},
): ChunkRecord {
  return {
    chunkId,
    docId,
    text: `text of ${chunkId}`,
    headingPath: [`heading of ${chunkId}`],
    spans,
    tokenEstimate: 10,
    chunkerVersion: 'v1',
    ...extra,
  };
}

const byId = <T extends { chunkId: string }>(xs: T[]) => new Map(xs.map((x) => [x.chunkId, x]));
const docs = (xs: DocumentRecord[]) => new Map(xs.map((d) => [d.docId, d]));

/** One chunk k1 of doc d1 at lines 10-20 of a.md (the span's own path), no documents table. */
const spanIndex = () =>
  new CitationIndex(byId([chunkRecord('k1', 'd1', [{ path: 'a.md', start: 10, end: 20 }])]), null);

describe('a citation by path and line span resolves to the chunk whose span overlaps it', () => {
  it('overlap is inclusive at both ends: 5-10 and 20-25 touch the chunk at lines 10-20; 1-9 and 21-30 do not', () => {
    const index = spanIndex();
    const at = (start: number, end: number) => index.chunkFor(cite({ path: 'a.md', start, end }))?.chunkId ?? null;
    expect(at(5, 10)).toBe('k1'); // the citation ends on the chunk's first line
    expect(at(20, 25)).toBe('k1'); // it starts on the chunk's last line
    expect(at(1, 9)).toBeNull();
    expect(at(21, 30)).toBeNull();
    expect(at(100, 110)).toBeNull(); // same path, far away
  });

  it("the citation's end counts: 5-15 overlaps lines 10-20 though its start line 5 does not", () => {
    expect(spanIndex().chunkFor(cite({ path: 'a.md', start: 5, end: 15 }))?.chunkId).toBe('k1');
    // without an end the citation is its start line alone
    expect(spanIndex().chunkFor(cite({ path: 'a.md', start: 5 }))).toBeNull();
  });

  it('a chunk of several spans resolves when any one of them overlaps (lines 3-4 of spans 1-5 and 40-50)', () => {
    const index = new CitationIndex(
      byId([
        chunkRecord('k1', 'd1', [
          { path: 'a.md', start: 1, end: 5 },
          { path: 'a.md', start: 40, end: 50 },
        ]),
      ]),
      null,
    );
    expect(index.chunkFor(cite({ path: 'a.md', start: 3, end: 4 }))?.chunkId).toBe('k1');
  });

  it('two chunks at one path are both found: lines 3 resolve to the first, 12 to the second', () => {
    const index = new CitationIndex(
      byId([
        chunkRecord('k1', 'd1', [{ path: 'a.md', start: 1, end: 5 }]),
        chunkRecord('k2', 'd1', [{ path: 'a.md', start: 10, end: 15 }]),
      ]),
      null,
    );
    expect(index.chunkFor(cite({ path: 'a.md', start: 3 }))?.chunkId).toBe('k1');
    expect(index.chunkFor(cite({ path: 'a.md', start: 12 }))?.chunkId).toBe('k2');
  });

  it('with a chunks table a citation resolves by the table, whatever the hits carry', () => {
    const index = spanIndex();
    // k1 is in the table though no hit of the query is k1
    expect(index.resolves(cite({ chunkId: 'k1' }), new QueryHits([]))).toBe(true);
    // a hit carries k9, but the table has no k9
    expect(index.resolves(cite({ chunkId: 'k9' }), new QueryHits([mkHit(1, 'k9', 'd9')]))).toBe(false);
  });

  it('a citation with a path and an end but no start line names no span, so resolves to nothing', () => {
    expect(spanIndex().chunkFor(cite({ path: 'a.md', end: 15 }))).toBeNull();
    // an empty heading path is no heading: not a heading every chunk of the path sits under
    expect(spanIndex().chunkFor(cite({ path: 'a.md', end: 15, headingPath: [] }))).toBeNull();
    expect(spanIndex().chunkFor(cite({ path: 'a.md', headingPath: [] }))?.chunkId).toBe('k1');
  });

  it("the path is the document's workspace path, or else the span's own; an empty path is no path", () => {
    const chunks = byId([
      chunkRecord('k1', 'd1', [{ path: null, start: 1, end: 5 }]),
      chunkRecord('k2', 'd2', [{ path: 'b.md', start: 1, end: 5 }]),
      chunkRecord('k3', 'd3', [{ path: '', start: 1, end: 5 }]),
    ]);
    // d2 and d3 are not in the documents table; d3's path is empty (a document row without one)
    const index = new CitationIndex(chunks, docs([{ docId: 'd1', workspacePath: 'docs/a.md' }]));
    expect(index.chunkFor(cite({ path: 'docs/a.md', start: 2 }))?.chunkId).toBe('k1');
    expect(index.chunkFor(cite({ path: 'b.md', start: 2 }))?.chunkId).toBe('k2');
    expect(index.chunkFor(cite({ path: '', start: 2 }))).toBeNull();
    const emptyDocPath = new CitationIndex(
      byId([chunkRecord('k1', 'd1', [{ path: null, start: 1, end: 5 }])]),
      docs([{ docId: 'd1', workspacePath: '' }]),
    );
    expect(emptyDocPath.chunkFor(cite({ path: '', start: 2 }))).toBeNull();
  });
});

describe('without a chunks table a citation resolves to a chunk_id or path some hit of the query carries', () => {
  const index = new CitationIndex(null, null);

  it("by the hit's doc_path or the path of its line citation", () => {
    expect(index.resolves(cite({ path: 'a.md' }), new QueryHits([mkHit(1, 'k1', 'd1', { docPath: 'a.md' })]))).toBe(
      true,
    );
    const lineHit = mkHit(1, 'k1', 'd1', { citation: { kind: 'line', path: 'a.md', start: 1, end: 2 } });
    expect(index.resolves(cite({ path: 'a.md' }), new QueryHits([lineHit]))).toBe(true);
    // a hit with another doc_path and no line citation
    expect(index.resolves(cite({ path: 'a.md' }), new QueryHits([mkHit(1, 'k1', 'd1', { docPath: 'b.md' })]))).toBe(
      false,
    );
  });

  it('a citation with neither chunk_id nor path resolves to nothing, not to a hit that has neither either', () => {
    expect(index.resolves(cite({}), new QueryHits([mkHit(1, null, 'd1')]))).toBe(false);
    // a path citation does not resolve to a hit only because both have no chunk_id
    expect(index.resolves(cite({ path: 'a.md' }), new QueryHits([mkHit(1, null, 'd1', { docPath: 'b.md' })]))).toBe(
      false,
    );
  });
});

describe('many hits: the look-ups by Map and Set (QueryHits) answer as the search through a few hits does', () => {
  const index = new CitationIndex(null, null);
  const many = (extra: Hit[]) => [
    ...Array.from({ length: 30 }, (_, i) => mkHit(i + 1, `f${i}`, `fd${i}`, { docPath: `f${i}.md` })),
    ...extra,
  ];

  it('the first hit of a chunk_id, a doc_path or a line citation path, and nothing for a hit without either', () => {
    const lineHit = mkHit(32, 'k2', 'd2', { citation: { kind: 'line', path: 'a.md', start: 1, end: 2 } });
    const hits = new QueryHits(many([mkHit(31, 'k1', 'd1'), mkHit(33, 'k1', 'd9'), lineHit, mkHit(34, null, 'd3')]));
    expect(index.candidateFor(cite({ chunkId: 'k1' }), hits).docId).toBe('d1');
    expect(index.resolves(cite({ chunkId: 'k1' }), hits)).toBe(true);
    expect(index.resolves(cite({ path: 'a.md' }), hits)).toBe(true);
    expect(index.resolves(cite({ path: 'f29.md' }), hits)).toBe(true);
    expect(index.resolves(cite({ chunkId: 'k9' }), hits)).toBe(false);
    expect(index.resolves(cite({ path: 'b.md' }), hits)).toBe(false);
    expect(index.resolves(cite({}), hits)).toBe(false);
  });
});

describe('a cited chunk as a matching candidate', () => {
  it("takes the citation's heading path, else the chunk's (an empty one cited is none)", () => {
    const index = new CitationIndex(byId([chunkRecord('k1', 'd1', [{ path: 'a.md', start: 1, end: 5 }])]), null);
    const headingOf = (c: Partial<AnswerCitation>) => index.candidateFor(cite(c), new QueryHits([])).headingPath;
    expect(headingOf({ chunkId: 'k1', headingPath: ['Cited', 'Section'] })).toEqual(['Cited', 'Section']);
    expect(headingOf({ chunkId: 'k1', headingPath: [] })).toEqual(['heading of k1']);
    expect(headingOf({ chunkId: 'k1' })).toEqual(['heading of k1']);
  });

  it('takes doc_id from the chunk record, and with none from the hit of the same chunk_id, else has none', () => {
    const chunks = byId([chunkRecord('k1', 'd1', [{ path: 'a.md', start: 1, end: 5 }])]);
    const withChunks = new CitationIndex(chunks, null);
    expect(withChunks.candidateFor(cite({ chunkId: 'k1' }), new QueryHits([])).docId).toBe('d1');
    expect(withChunks.candidateFor(cite({ chunkId: 'k1' }), new QueryHits([mkHit(1, 'k1', 'd9')])).docId).toBe('d1');
    const none = new CitationIndex(null, null);
    expect(none.candidateFor(cite({ chunkId: 'k1' }), new QueryHits([mkHit(1, 'k1', 'd9')])).docId).toBe('d9');
    // a citation without chunk_id is not the hit that has none
    expect(none.candidateFor(cite({ path: 'a.md', start: 1 }), new QueryHits([mkHit(1, null, 'd9')])).docId).toBeNull();
  });

  it("takes its path from the citation, else the chunk's document, else the chunk's first span with a path", () => {
    const chunks = byId([
      chunkRecord('k1', 'd1', [{ path: 'span.md', start: 1, end: 5 }]),
      chunkRecord('k2', 'd2', [
        { path: null, start: 1, end: 5 },
        { path: 'second.md', start: 9, end: 12 },
      ]),
      chunkRecord('k3', 'd3', [{ path: null, start: 1, end: 5 }]),
    ]);
    // only d1 is in the documents table
    const index = new CitationIndex(chunks, docs([{ docId: 'd1', workspacePath: 'docs/one.md' }]));
    expect(index.candidateFor(cite({ chunkId: 'k1', path: 'cited.md' }), new QueryHits([])).docPath).toBe('cited.md');
    expect(index.candidateFor(cite({ chunkId: 'k1' }), new QueryHits([])).docPath).toBe('docs/one.md');
    expect(index.candidateFor(cite({ chunkId: 'k2' }), new QueryHits([])).docPath).toBe('second.md');
    expect(index.candidateFor(cite({ chunkId: 'k3' }), new QueryHits([])).docPath).toBeNull();
    // no documents table at all
    const noDocs = new CitationIndex(chunks, null);
    expect(noDocs.candidateFor(cite({ chunkId: 'k1' }), new QueryHits([])).docPath).toBe('span.md');
    expect(noDocs.candidateFor(cite({ chunkId: 'k3' }), new QueryHits([])).docPath).toBeNull();
    // no chunk: the cited path, else the hit's
    const none = new CitationIndex(null, null);
    expect(none.candidateFor(cite({ path: 'cited.md', start: 1 }), new QueryHits([])).docPath).toBe('cited.md');
    expect(
      none.candidateFor(cite({ chunkId: 'k1' }), new QueryHits([mkHit(1, 'k1', 'd1', { docPath: 'hit.md' })])).docPath,
    ).toBe('hit.md');
  });

  it('has a line only with both a path and a start; the end defaults to the start', () => {
    const none = new CitationIndex(null, null);
    const line = (c: Partial<AnswerCitation>) => none.candidateFor(cite(c), new QueryHits([])).line;
    expect(line({ path: 'a.md', start: 3, end: 7 })).toEqual({ path: 'a.md', start: 3, end: 7 });
    expect(line({ path: 'a.md', start: 3 })).toEqual({ path: 'a.md', start: 3, end: 3 });
    expect(line({ chunkId: 'k1', path: 'a.md', end: 7 })).toBeNull();
    expect(line({ start: 3, end: 7 })).toBeNull();
  });

  it('reads heading and text from the chunk, else the hit, else none (a citation of nothing known)', () => {
    const chunks = byId([chunkRecord('k1', 'd1', [{ path: 'a.md', start: 1, end: 5 }])]);
    const fromChunk = new CitationIndex(chunks, null).candidateFor(cite({ chunkId: 'k1' }), new QueryHits([]));
    expect([fromChunk.headingPath, fromChunk.text]).toEqual([['heading of k1'], 'text of k1']);
    const none = new CitationIndex(null, null);
    const fromHit = none.candidateFor(
      cite({ chunkId: 'k1' }),
      new QueryHits([mkHit(1, 'k1', 'd1', { headingPath: ['H'], snippet: 'the snippet' })]),
    );
    expect([fromHit.headingPath, fromHit.text]).toEqual([['H'], 'the snippet']);
    const nothing = none.candidateFor(cite({ chunkId: 'k1', path: 'a.md' }), new QueryHits([]));
    expect([nothing.headingPath, nothing.text]).toEqual([[], null]);
  });
});

describe('text checks', () => {
  it('a needle that folds to nothing (white space only) is contained nowhere, not everywhere', () => {
    expect(containsFolded('any answer', '  \t ')).toBe(false);
    expect(containsFolded('any answer', '')).toBe(false);
    expect(containsFolded('any answer', ' ANY  ')).toBe(true);
  });
});

describe('wholeNumberRange', () => {
  it('skips NaN (no value) and reads min and span from the rest: [5, NaN, 2] and [NaN, 9] span 2..9', () => {
    expect(wholeNumberRange([Float64Array.of(5, Number.NaN, 2), Float64Array.of(Number.NaN, 9)])).toEqual({
      min: 2,
      span: 8,
    });
  });

  it('counts span at most 65,536 whole numbers: 0..65535 is counted, 0..65536 is not', () => {
    expect(wholeNumberRange([Float64Array.of(0, 65535)])).toEqual({ min: 0, span: 65536 });
    expect(wholeNumberRange([Float64Array.of(0, 65536)])).toBeNull();
  });

  it('no value at all is min 0, span 1 (one empty count)', () => {
    expect(wholeNumberRange([Float64Array.of(Number.NaN), new Float64Array(0)])).toEqual({ min: 0, span: 1 });
  });
});

describe("WFGY's claim phrases are trimmed before their length is counted (claimPhraseFound)", () => {
  it('a run of 5 characters that is 2 letters and 3 spaces is a 2-letter phrase: too short to count', () => {
    // "ab   ," : the regex takes "ab   " (5 characters); trimmed it is "ab", under WFGY's 5
    expect(claimPhraseFound('Ab   , zzzzzzz', 'about it')).toBe(false);
  });

  it('a phrase followed by spaces is found without them: "fast cars  ," is "fast cars"', () => {
    expect(claimPhraseFound('Fast cars  , x', 'They like fast cars.')).toBe(true);
  });
});
