/**
 * The golden set's fingerprint: sha256 over its content, the same however the file is written (see
 * goldenFingerprint). Written as the queries are read (FingerprintRecorder, used by src/load/golden.ts) or
 * computed from them afterwards; a golden file read in halves by two threads hashes as its halves' bytes.
 */
import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import type { GoldenQuery } from '../types.js';

/**
 * sha256 over the set's content: the queries in id order, each encoded field by field in a fixed order (judgments
 * in key order), streamed into one hash. So key order, comments, formatting and query order in the file do
 * not change it; any field value does. The encoding is unambiguous without escaping: a string is its length, `:`,
 * then its text; a list is `[`, its length, then its items; null is `~` (hashed as UTF-8, so a lone surrogate reads
 * as U+FFFD). Not comparable with fingerprints from before this encoding (which hashed sorted canonical JSON).
 */
export function goldenFingerprint(queries: readonly GoldenQuery[]): string {
  return fingerprintOfParts([queries]);
}

/**
 * What goldenFingerprint hashes for `queries`, as UTF-8 bytes. A set read in parts whose ids all sort below the
 * next part's (in JavaScript's order, the one the fingerprint sorts by) hashes as its parts one after the other:
 * two threads that each read a part of the golden file fingerprint the whole set this way (tested).
 */
export function fingerprintBytes(queries: readonly GoldenQuery[]): Uint8Array {
  const writer = new FingerprintWriter({});
  writeFingerprint(queries, writer);
  return writer.bytes();
}

/**
 * A part's fingerprint as its reader wrote it: the bytes (fingerprintBytes of its queries, kept for another thread
 * to hash after its own), or a hash that has taken them already (the first part's, to be continued).
 */
export type FingerprintPart = Uint8Array | HashedPart;

/** A first part's bytes already in `hash` (see FingerprintRecorder's `hash` sink): continued, never digested twice. */
export class HashedPart {
  constructor(readonly hash: Hash) {}
}

/** The fingerprint of a set given in parts (see fingerprintBytes), each as its queries or as their bytes. */
export function fingerprintOfParts(parts: ReadonlyArray<readonly GoldenQuery[] | Uint8Array>): string {
  const fingerprint = fingerprintInParts();
  for (const part of parts) fingerprint.add(part);
  return fingerprint.digest();
}

/**
 * fingerprintOfParts one part at a time, as the parts become available. A HashedPart can only be the first: its
 * hash is the one continued.
 */
export function fingerprintInParts(): { add(part: readonly GoldenQuery[] | FingerprintPart): void; digest(): string } {
  let hash: Hash | null = null;
  let writer: FingerprintWriter | null = null;
  const hashNow = (): Hash => (hash ??= createHash('sha256'));
  return {
    add(part) {
      if (part instanceof HashedPart) {
        if (hash !== null) throw new Error('a hashed fingerprint part must come first');
        hash = part.hash;
      } else if (part instanceof Uint8Array) hashNow().update(part);
      else writeFingerprint(part, (writer ??= new FingerprintWriter({ hash: hashNow() })));
    },
    digest: () => `sha256:${hashNow().digest('hex')}`,
  };
}

/** The GoldenQuery fields writeQuery encodes. */
type Hashed = 'id' | 'query' | 'lang' | 'expectedDocIds' | 'expectedChunkIds' | 'mustContain' | 'forbidden' | 'difficulty' | 'group'
  | 'category' | 'tags' | 'answerable' | 'goldSupports' | 'requiredSupportGroups' | 'judgments' | 'expectedLines' | 'goldClaim'
  | 'recencyConflictRule' | 'pending';
// A new GoldenQuery field fails to compile here until writeQuery encodes it and `Hashed` names it.
const ALL_FIELDS_HASHED: Record<Exclude<keyof GoldenQuery, Hashed>, never> = {};
void ALL_FIELDS_HASHED;

/** The queries' encodings in id order (a file is usually in id order already: then no sort). */
function writeFingerprint(queries: readonly GoldenQuery[], w: FingerprintWriter): void {
  let inOrder = true;
  for (let i = 1; i < queries.length && inOrder; i++) inOrder = queries[i - 1].id <= queries[i].id;
  const sorted = inOrder ? queries : [...queries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (let i = 0; i < sorted.length; i++) writeQuery(sorted[i], w);
  w.end();
}

/**
 * Where a FingerprintRecorder's bytes go: into a hash (`{hash}`; null: one of its own), digested for a set read
 * whole, or with `continued` handed on unfinished for a first half (FingerprintRecorder.part gives a HashedPart);
 * kept (`{keep}`), for a half another thread hashes after its own, written into `into` while it has room (a buffer
 * the reader is done with: its pages are in memory already, and on these machines a fresh page costs ~12 µs: the
 * encoding of a 100,000-query set is ~24 MB); or not written (null: a reader whose caller computes the fingerprint
 * from the queries, if at all).
 */
export type FingerprintSink = { hash: Hash | null; continued?: boolean } | { keep: true; into?: Uint8Array } | null;

/**
 * A set's fingerprint written as its queries are read: each query is encoded while its strings are fresh in the
 * cache (later, walking 100,000 queries' objects again took twice as long). The encoding is in id order, so this
 * works while the ids ascend, as in a file kept in id order; at the first id that does not, it gives up and the
 * fingerprint is computed from the queries when asked for.
 */
export class FingerprintRecorder {
  private lastId: string | null = null;
  private readonly hash: Hash | null;
  private readonly continued: boolean;
  /** Null once the ids stopped ascending, or when there is no sink. */
  private writer: FingerprintWriter | null;

  /** `sink` as FingerprintSink says; `{hash: null}` makes a hash of its own. */
  constructor(sink: FingerprintSink) {
    if (sink === null) {
      this.hash = null;
      this.continued = false;
      this.writer = null;
    } else if ('keep' in sink) {
      this.hash = null;
      this.continued = false;
      this.writer = new FingerprintWriter({ into: sink.into });
    } else {
      this.hash = sink.hash ?? createHash('sha256');
      this.continued = sink.continued === true;
      this.writer = new FingerprintWriter({ hash: this.hash });
    }
  }

  add(q: GoldenQuery): void {
    const writer = this.writer;
    if (writer === null) return;
    if (this.lastId !== null && !(this.lastId < q.id)) {
      this.writer = null;
      return;
    }
    this.lastId = q.id;
    writeQuery(q, writer);
  }

  /** The fingerprint, or null when the ids did not ascend, the bytes were kept or the hash is to be continued. */
  digest(): string | null {
    if (this.writer === null || this.hash === null || this.continued) return null;
    this.writer.end();
    return `sha256:${this.hash.digest('hex')}`;
  }

  /** The part as read (FingerprintPart), or null when the ids did not ascend or nothing was written. */
  part(): FingerprintPart | null {
    if (this.writer === null) return null;
    if (this.hash === null) return this.writer.bytes();
    if (!this.continued) return null;
    this.writer.end();
    return new HashedPart(this.hash);
  }
}

const BLOCK = 1 << 16;
const COLON_BYTE = 0x3a;
const TILDE_BYTE = 0x7e;
const LIST_BYTE = 0x5b; // [

/**
 * The fingerprint's text written straight to UTF-8 bytes in blocks: each full block goes into `hash`, or, without
 * one, is kept for `bytes()` (the first block being `into` when given). ASCII, nearly all of a golden file, is
 * written char by char; a string with other chars goes through Buffer's UTF-8 encoder from its first such char (a
 * lone surrogate becomes U+FFFD, as Buffer.from(text, 'utf8') makes it).
 */
class FingerprintWriter {
  private block: Buffer;
  private at = 0;
  private readonly hash: Hash | null;
  private readonly kept: Uint8Array[] = [];

  constructor(sink: { hash: Hash } | { into?: Uint8Array }) {
    this.hash = 'hash' in sink ? sink.hash : null;
    const into = 'into' in sink ? sink.into : undefined;
    // A kept block must be an ArrayBuffer of its own (never a slice of Buffer's pool): bytes() is moved to another thread.
    this.block = into !== undefined && into.byteOffset === 0 && into.length >= BLOCK ? Buffer.from(into.buffer, into.byteOffset, into.byteLength) : Buffer.allocUnsafeSlow(BLOCK);
  }

  private flush(bytes: Uint8Array): void {
    if (this.hash !== null) this.hash.update(bytes);
    else this.kept.push(bytes);
  }

  /**
   * Everything written, when there is no hash: a view at the start of an ArrayBuffer of its own, so the buffer can be
   * moved to another thread (it may be longer than the view).
   */
  bytes(): Uint8Array {
    this.emit();
    const kept = this.kept;
    if (kept.length === 1 && kept[0].byteOffset === 0) return kept[0];
    let length = 0;
    for (const block of kept) length += block.length;
    const all = new Uint8Array(length);
    let at = 0;
    for (const block of kept) {
      all.set(block, at);
      at += block.length;
    }
    return all;
  }

  /** Room for `n` more bytes in the block (n <= BLOCK). */
  private room(n: number): void {
    if (this.at + n <= this.block.length) return;
    this.emit();
  }

  private emit(): void {
    if (this.at === 0) return;
    this.flush(this.block.subarray(0, this.at));
    if (this.hash === null) this.block = Buffer.allocUnsafeSlow(BLOCK); // the kept one is not to be written over
    this.at = 0;
  }

  end(): void {
    this.emit();
  }

  byte(b: number): void {
    this.room(1);
    this.block[this.at++] = b;
  }

  /** Text known to be ASCII and short (numbers, markers). */
  ascii(s: string): void {
    this.room(s.length);
    const block = this.block;
    let at = this.at;
    for (let i = 0; i < s.length; i++) block[at++] = s.charCodeAt(i);
    this.at = at;
  }

  /** A non-negative integer in decimal. */
  count(n: number): void {
    if (n < 10) this.byte(0x30 + n);
    else this.ascii(String(n));
  }

  /** A string: its length (UTF-16 units), `:`, then its text. */
  text(s: string): void {
    this.count(s.length);
    this.byte(COLON_BYTE);
    const n = s.length;
    if (3 * n > BLOCK) {
      // Longer than a block can surely hold: its own bytes, after the block's.
      this.emit();
      this.flush(Buffer.from(s, 'utf8'));
      return;
    }
    this.room(3 * n);
    const block = this.block;
    let at = this.at;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        at += block.write(i === 0 ? s : s.slice(i), at, 'utf8');
        break;
      }
      block[at++] = c;
    }
    this.at = at;
  }

  textOrNull(s: string | null): void {
    if (s === null) this.byte(TILDE_BYTE);
    else this.text(s);
  }

  /** A list's opening: `[` and its length. */
  list(n: number): void {
    this.byte(LIST_BYTE);
    this.count(n);
  }

  texts(xs: readonly string[] | null): void {
    if (xs === null) {
      this.byte(TILDE_BYTE);
      return;
    }
    this.list(xs.length);
    for (let i = 0; i < xs.length; i++) this.text(xs[i]);
  }

  /** A number as `n<String(n)>;` (NaN, Infinity and -Infinity stay distinct). */
  num(n: number): void {
    this.byte(0x6e); // n
    if (n >= 0 && n < 10 && Number.isInteger(n)) this.byte(0x30 + n);
    else this.ascii(String(n));
    this.byte(0x3b); // ;
  }

  bool(b: boolean): void {
    this.byte(b ? 0x54 : 0x46); // T, F
  }
}

/**
 * One query's encoding (the fingerprint is sha256 over the queries' encodings in id order). The encoding is
 * unambiguous without escaping: a string is its length, `:`, then its text; a list is `[`, its length, then its
 * items; null is `~`; a number `n`, its JavaScript text, `;`; a boolean `T` or `F`; each query ends with a line
 * break. Hashed as UTF-8, so a lone surrogate reads as U+FFFD.
 */
function writeQuery(q: GoldenQuery, w: FingerprintWriter): void {
  w.text(q.id);
  w.text(q.query);
  w.textOrNull(q.lang);
  w.texts(q.expectedDocIds);
  w.texts(q.expectedChunkIds);
  w.texts(q.mustContain);
  w.texts(q.forbidden);
  w.textOrNull(q.difficulty);
  w.textOrNull(q.group);
  w.textOrNull(q.category);
  w.texts(q.tags);
  w.bool(q.answerable);
  w.list(q.goldSupports.length);
  for (const s of q.goldSupports) {
    w.text(s.relPath);
    w.texts(s.headingPath);
    w.texts(s.snippets);
    w.bool(s.newer);
  }
  w.list(q.requiredSupportGroups.length);
  for (const group of q.requiredSupportGroups) {
    w.list(group.length);
    for (const index of group) w.num(index);
  }
  w.list(q.judgments.size);
  if (q.judgments.size > 0) {
    // In key order (UTF-16 units, as Array#sort orders strings): an insertion sort, as a query judges a few ids.
    const keys: string[] = [];
    const grades: number[] = [];
    for (const [key, grade] of q.judgments) {
      let i = keys.length;
      keys.push(key);
      grades.push(grade);
      for (; i > 0 && keys[i - 1] > key; i--) {
        keys[i] = keys[i - 1];
        grades[i] = grades[i - 1];
      }
      keys[i] = key;
      grades[i] = grade;
    }
    for (let i = 0; i < keys.length; i++) {
      w.text(keys[i]);
      w.num(grades[i]);
    }
  }
  const e = q.expectedLines;
  if (e === null) w.byte(TILDE_BYTE);
  else {
    w.text(e.file);
    w.num(e.start);
    w.num(e.end);
  }
  w.textOrNull(q.goldClaim);
  w.textOrNull(q.recencyConflictRule);
  w.bool(q.pending);
  w.byte(0x0a);
}
