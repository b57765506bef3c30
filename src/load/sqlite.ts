import { closeSync, existsSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SqlJsStatic } from 'sql.js';
import { readFully } from './readFully.js';

type InitSqlJs = (config: { wasmBinary: ArrayBuffer }) => Promise<SqlJsStatic>;

let sqlPromise: Promise<SqlJsStatic> | null = null;

/**
 * sql.js is loaded at run time, not bundled: its Emscripten glue does not survive webpack's rewriting of
 * `typeof module`. The build copies sql-wasm.js (as .cjs: dist is an ES module package) and sql-wasm.wasm next to each bundle in dist/; from
 * source they come from node_modules.
 */
function sqlJsFiles(): { script: string; wasm: string } {
  const here = dirname(fileURLToPath(import.meta.url));
  const script = join(here, 'sql-wasm.cjs');
  if (existsSync(script)) return { script, wasm: join(here, 'sql-wasm.wasm') };
  const resolved = createRequire(import.meta.url).resolve(['sql', 'js'].join('.'));
  return { script: resolved, wasm: join(dirname(resolved), 'sql-wasm.wasm') };
}

/**
 * sql.js, loaded once. Its files are read now and its WebAssembly compiled in the background, so a caller can start
 * it early; a failure (a broken install) is the promise's, never a throw.
 */
export function loadSqlJs(): Promise<SqlJsStatic> {
  if (!sqlPromise) {
    try {
      const { script, wasm } = sqlJsFiles();
      const initSqlJs = createRequire(import.meta.url)(script) as InitSqlJs;
      const bytes = readFileSync(wasm);
      sqlPromise = initSqlJs({ wasmBinary: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer });
    } catch (error) {
      sqlPromise = Promise.reject(error);
    }
  }
  return sqlPromise;
}

/**
 * A database file as sql.js sees it, read from disk on demand instead of held in memory.
 *
 * sql.js keeps a database in Emscripten's in-memory file system (MEMFS): `new SQL.Database(bytes)` stores
 * `bytes.slice(0, length)` as the file's contents, and every page SQLite reads is copied out with
 * `contents.subarray(from, to)`. This object answers those two calls from the file itself (a whole-length `slice`
 * is the object, `subarray` reads through a 1 MB read-ahead window), so a 750 MB run database costs a few MB of
 * memory instead of 750 MB. A write (`--write`) goes through `set` and first loads the whole file, after which it
 * is an ordinary in-memory file. If a future sql.js touched the contents any other way, it would fail loudly in
 * the tests (test/validation.test.ts reads databases through this path), never read wrong bytes silently.
 */
export class FileBackedBytes {
  readonly length: number;
  private fd: number | null;
  private bytes: Uint8Array | null = null;
  /** Read-ahead windows, most recently used first (at most WINDOWS). */
  private windows: Array<{ start: number; data: Buffer }> = [];

  constructor(private readonly file: string) {
    this.fd = openSync(file, 'r');
    this.length = fstatSync(this.fd).size;
  }

  /** The first `n` bytes (the header checks). */
  head(n: number): Uint8Array {
    return Uint8Array.from(this.subarray(0, Math.min(n, this.length)));
  }

  subarray(start = 0, end = this.length): Uint8Array {
    if (this.bytes) return this.bytes.subarray(start, end);
    end = Math.min(end, this.length);
    const n = Math.max(0, end - start);
    const windows = this.windows;
    for (let i = 0; i < windows.length; i++) {
      const w = windows[i];
      const offset = start - w.start;
      if (offset >= 0 && offset + n <= w.data.length) {
        if (i > 0) {
          windows.splice(i, 1);
          windows.unshift(w);
        }
        return w.data.subarray(offset, offset + n);
      }
    }
    // Read ahead, far when the read continues a window (SQLite reads a table mostly page after page), a little when
    // it starts elsewhere (an index walk touches pages spread over the file). The least recently used window makes room.
    // Windows start at a 64 KB boundary: SQLite sometimes reads a page just before the one it read last.
    let ahead = NEAR_AHEAD;
    for (const w of windows) {
      const from = start - w.start;
      if (from >= 0 && from <= w.data.length + NEAR_AHEAD) ahead = READ_AHEAD;
    }
    const from = start - (start % NEAR_AHEAD);
    const size = Math.min(Math.max(start + n, from + ahead), this.length) - from;
    // Reuse the evicted window's memory (its own ArrayBuffer: allocUnsafeSlow never hands out the shared pool).
    const evicted = windows.length >= WINDOWS ? windows.pop()!.data.buffer : null;
    const data = Buffer.from(evicted !== null && evicted.byteLength >= size ? evicted : Buffer.allocUnsafeSlow(size).buffer, 0, size);
    this.readAt(data, size, from);
    windows.unshift({ start: from, data });
    return data.subarray(start - from, start - from + n);
  }

  /** MEMFS stores the file with `slice(0, length)`: hand over this object itself. */
  slice(start = 0, end = this.length): Uint8Array | FileBackedBytes {
    if (start === 0 && end >= this.length) return this;
    return Uint8Array.from(this.subarray(start, end));
  }

  /** A write into the file (an UPDATE): from here on the file lives in memory like any MEMFS file. */
  set(source: ArrayLike<number>, offset = 0): void {
    if (!this.bytes) {
      const bytes = new Uint8Array(this.length);
      this.readAt(bytes, this.length, 0);
      this.bytes = bytes;
      this.windows = [];
      this.close();
    }
    this.bytes.set(source, offset);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private readAt(target: Uint8Array, size: number, position: number): void {
    if (this.fd === null) throw new Error(`${this.file}: read after close`);
    readFully(this.fd, target, size, position, this.file);
  }
}

/**
 * Read-ahead sizes and windows kept. A scan in query_id order walks the primary-key index and fetches each row
 * from the table, and the index's pages lie spread over the file (rows and index grew together). With one 1 MB
 * window, each index page read 1 MB and every switch back read the table's 1 MB again: a 100,000-query run of
 * 511 MB was read as 1.7 GB, and opening it (one index scan) as 0.5 GB. Now a read far from every window reads
 * 64 KB, one that continues a window 1 MB, and the index and the table keep windows of their own (four in all:
 * two read as much as eight or thirty-two did, and each window is memory).
 */
const READ_AHEAD = 1 << 20;
const NEAR_AHEAD = 64 << 10;
const WINDOWS = 4;
