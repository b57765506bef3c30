/**
 * The chunks of one cited path, for citation look-ups that cost a logarithm, not a walk over every chunk of the path
 * (a walk per citation made the work grow with citations x chunks). Small lists are scanned: cheaper than an index.
 */
import type { ChunkRecord } from '../types.js';
import { normaliseHeading } from './matching.js';

/** Up to this many chunks a path's list is scanned: cheaper than building anything. */
const SCAN_MAX = 16;

/** A node of the heading trie: the first chunk (in list order) whose heading path starts with the node's path. */
interface HeadingNode {
  first: number;
  children: Map<string, HeadingNode>;
}

export class PathChunks {
  private readonly chunks: ChunkRecord[] = [];
  private spans: SpanTree | null = null;
  private headings: HeadingNode | null = null;

  /** Appends `chunk` unless it is the last one added (a chunk with two spans of the path is listed once). */
  add(chunk: ChunkRecord): void {
    if (this.chunks[this.chunks.length - 1] !== chunk) this.chunks.push(chunk);
  }

  first(): ChunkRecord | null {
    return this.chunks[0] ?? null;
  }

  /**
   * The first chunk with a span overlapping lines [start, end]. Cost: O(n) for n <= SCAN_MAX chunks; else
   * O(log^2 s) for s spans, after a one-time O(s log s) build of the SpanTree (O(s log s) memory).
   */
  overlapping(start: number, end: number): ChunkRecord | null {
    if (this.chunks.length <= SCAN_MAX) {
      for (const chunk of this.chunks) if (chunk.spans.some((s) => s.start <= end && start <= s.end)) return chunk;
      return null;
    }
    this.spans ??= new SpanTree(this.chunks);
    const at = this.spans.firstOverlapping(start, end);
    return at === -1 ? null : this.chunks[at];
  }

  /**
   * The first chunk whose normalised heading path starts with the cited one. Cost: O(n x depth) for n <= SCAN_MAX;
   * else O(depth) through a trie built once in O(total heading segments).
   */
  underHeading(cited: string[]): ChunkRecord | null {
    const want = normaliseHeading(cited);
    if (this.chunks.length <= SCAN_MAX) {
      for (const chunk of this.chunks) {
        const heading = normaliseHeading(chunk.headingPath);
        if (heading.length >= want.length && want.every((h, i) => heading[i] === h)) return chunk;
      }
      return null;
    }
    this.headings ??= headingTrie(this.chunks);
    let node: HeadingNode | undefined = this.headings;
    for (const h of want) {
      node = node.children.get(h);
      if (node === undefined) return null;
    }
    return this.chunks[node.first];
  }
}

function headingTrie(chunks: ChunkRecord[]): HeadingNode {
  const root: HeadingNode = { first: 0, children: new Map() };
  chunks.forEach((chunk, order) => {
    let node = root;
    for (const h of normaliseHeading(chunk.headingPath)) {
      let child = node.children.get(h);
      if (child === undefined) node.children.set(h, (child = { first: order, children: new Map() }));
      node = child;
    }
  });
  return root;
}

/**
 * Every span of a path's chunks, for "the first chunk (smallest list order) with a span overlapping [a, b]": a merge
 * sort tree. Spans sorted by start; level L cuts that order into blocks of 2^L, each block sorted by end descending
 * with the running minimum of the chunk order. The spans starting at or before b are a prefix of the start order,
 * made of at most log2(s) + 1 blocks; in each, those ending at or after a are a prefix found by binary search, whose
 * minimum order is read off. Build O(s log s) time and memory; a query O(log^2 s).
 */
class SpanTree {
  private readonly starts: Float64Array;
  /** Per level: ends (descending within each block) and the running minimum of order within each block. */
  private readonly ends: Float64Array[] = [];
  private readonly minOrder: Int32Array[] = [];

  constructor(chunks: ChunkRecord[]) {
    const spans: Array<{ start: number; end: number; order: number }> = [];
    chunks.forEach((chunk, order) => {
      // NaN overlaps nothing (and would break the sort).
      for (const s of chunk.spans)
        if (s.start === s.start && s.end === s.end) spans.push({ start: s.start, end: s.end, order });
    });
    spans.sort((x, y) => x.start - y.start);
    const n = spans.length;
    this.starts = Float64Array.from(spans, (s) => s.start);
    let ends: Float64Array = Float64Array.from(spans, (s) => s.end);
    let orders: Int32Array = Int32Array.from(spans, (s) => s.order);
    for (let size = 1; ; size *= 2) {
      this.ends.push(ends);
      this.minOrder.push(runningMin(orders, size));
      if (size >= n) break;
      [ends, orders] = mergeLevel(ends, orders, size);
    }
  }

  /** The smallest order of a span overlapping [a, b], or -1. */
  firstOverlapping(a: number, b: number): number {
    // k: how many spans start at or before b.
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.starts[mid] <= b) lo = mid + 1;
      else hi = mid;
    }
    const k = lo;
    let best = -1;
    let pos = 0;
    for (let level = this.ends.length - 1; level >= 0; level--) {
      const size = 2 ** level;
      if (pos + size > k) continue;
      const ends = this.ends[level];
      // Ends descend within the block [pos, pos + size): count those >= a.
      let l = pos;
      let h = pos + size;
      while (l < h) {
        const mid = (l + h) >>> 1;
        if (ends[mid] >= a) l = mid + 1;
        else h = mid;
      }
      if (l > pos) {
        const order = this.minOrder[level][l - 1];
        if (best === -1 || order < best) best = order;
      }
      pos += size;
    }
    return best;
  }
}

/** Within each block of `size`, the minimum of `orders` from the block's start to each position. */
function runningMin(orders: Int32Array, size: number): Int32Array {
  const out = new Int32Array(orders.length);
  for (let i = 0; i < orders.length; i++) {
    out[i] = i % size === 0 ? orders[i] : Math.min(out[i - 1], orders[i]);
  }
  return out;
}

/** The next level: each pair of neighbouring blocks of `size` merged, ends descending. */
function mergeLevel(ends: Float64Array, orders: Int32Array, size: number): [Float64Array, Int32Array] {
  const n = ends.length;
  const outEnds = new Float64Array(n);
  const outOrders = new Int32Array(n);
  for (let from = 0; from < n; from += 2 * size) {
    const mid = Math.min(from + size, n);
    const to = Math.min(from + 2 * size, n);
    let i = from;
    let j = mid;
    for (let o = from; o < to; o++) {
      const takeLeft = j >= to || (i < mid && ends[i] >= ends[j]);
      const src = takeLeft ? i++ : j++;
      outEnds[o] = ends[src];
      outOrders[o] = orders[src];
    }
  }
  return [outEnds, outOrders];
}
