/**
 * Issue 35: PathChunks answers citation look-ups through a merge sort tree (lines) and a trie (headings) once a path
 * has more than 16 chunks. Each answer must equal the scan over every chunk in table order that it replaces; checked
 * on seeded random paths against that scan.
 */
import { describe, expect, it } from 'vitest';
import { normaliseHeading } from '../src/aggregate/matching.js';
import { PathChunks } from '../src/aggregate/pathChunks.js';
import type { ChunkRecord } from '../src/types.js';

/** A small seeded generator (mulberry32): the same cases every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const chunk = (i: number, spans: ChunkRecord['spans'], headingPath: string[]): ChunkRecord => ({
  chunkId: `c${i}`,
  docId: 'd',
  text: '',
  headingPath,
  spans,
  tokenEstimate: 1,
  chunkerVersion: 'v',
});

/** The scan PathChunks replaces: the first chunk in order with a span overlapping [a, b]. */
const scanLines = (chunks: ChunkRecord[], a: number, b: number) =>
  chunks.find((c) => c.spans.some((s) => s.start <= b && a <= s.end)) ?? null;

const scanHeading = (chunks: ChunkRecord[], cited: string[]) => {
  const want = normaliseHeading(cited);
  return (
    chunks.find((c) => {
      const h = normaliseHeading(c.headingPath);
      return h.length >= want.length && want.every((x, i) => h[i] === x);
    }) ?? null
  );
};

describe('PathChunks gives the scan answer through its tree and trie', () => {
  it('line look-ups: 40 paths of 17 to 300 chunks with 0-3 spans each (some inverted), 200 look-ups each', () => {
    const rnd = random(35);
    const int = (n: number) => Math.floor(rnd() * n);
    let compared = 0;
    for (let p = 0; p < 40; p++) {
      const n = 17 + int(284);
      const chunks = Array.from({ length: n }, (_, i) =>
        chunk(
          i,
          Array.from({ length: int(4) }, () => {
            const start = int(500);
            return { path: null, start, end: rnd() < 0.1 ? start - int(20) : start + int(40) };
          }),
          [],
        ),
      );
      const list = new PathChunks();
      for (const c of chunks) list.add(c);
      for (let q = 0; q < 200; q++) {
        const a = int(560) - 20;
        const b = a + int(30);
        expect(list.overlapping(a, b)?.chunkId ?? null).toBe(scanLines(chunks, a, b)?.chunkId ?? null);
        compared++;
      }
    }
    expect(compared).toBe(8000);
  });

  it('heading look-ups: paths of 17 to 200 chunks with headings from a small alphabet, white space folded', () => {
    const rnd = random(36);
    const int = (n: number) => Math.floor(rnd() * n);
    const word = () => ['A', 'B', ' B ', 'C  d', 'C d'][int(5)];
    for (let p = 0; p < 30; p++) {
      const n = 17 + int(184);
      const chunks = Array.from({ length: n }, (_, i) => chunk(i, [], Array.from({ length: int(4) }, word)));
      const list = new PathChunks();
      for (const c of chunks) list.add(c);
      for (let q = 0; q < 100; q++) {
        const cited = Array.from({ length: 1 + int(3) }, word);
        expect(list.underHeading(cited)?.chunkId ?? null).toBe(scanHeading(chunks, cited)?.chunkId ?? null);
      }
    }
  });

  it('a chunk added twice in a row is listed once; first() is the first added', () => {
    const list = new PathChunks();
    const a = chunk(0, [{ path: null, start: 1, end: 2 }], []);
    list.add(a);
    list.add(a);
    expect(list.first()).toBe(a);
    expect(list.overlapping(1, 1)).toBe(a);
  });
});
