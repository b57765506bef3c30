import { closeSync, existsSync, fstatSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SqlJsStatic } from 'sql.js';
import { readFully } from './readFully.js';
import { openRegularFile } from './regularFile.js';

type InitSqlJs = (config: { wasmBinary: ArrayBuffer }) => Promise<SqlJsStatic>;

let sqlPromise: Promise<SqlJsStatic> | null = null;

/**
 * sql.js is loaded at run time, not bundled: its Emscripten glue does not survive webpack's rewriting of
 * `typeof module`. The build copies sql-wasm.js (as .cjs: dist is an ES module package) and sql-wasm.wasm next to
 * each bundle in dist/; from source they come from node_modules.
 */
function sqlJsFiles(): { script: string; wasm: string } {
  const here = dirname(fileURLToPath(import.meta.url));
  const script = join(here, 'sql-wasm.cjs');
  if (existsSync(script)) return { script, wasm: join(here, 'sql-wasm.wasm') };
  // Not the literal 'sql.js', which the bundler would follow and bundle.
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
      const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      sqlPromise = initSqlJs({ wasmBinary });
    } catch (error) {
      sqlPromise = Promise.reject(error);
    }
  }
  return sqlPromise;
}

/**
 * A database file as sql.js sees it, read from disk on demand instead of held in memory
 * (docs/decisions/0003-run-database-read-on-demand.md). sql.js's in-memory file system stores
 * `bytes.slice(0, length)` as the file's contents and copies every page SQLite reads out with
 * `contents.subarray(from, to)`: this object answers both from the file. A write (`--write`) goes through `set`,
 * which loads the whole file first. Should a future sql.js touch the contents another way, test/runDatabaseErrors.test.ts
 * fails; wrong bytes are never read silently.
 */
export class FileBackedBytes {
  readonly length: number;
  private fd: number | null;
  private bytes: Uint8Array | null = null;
  /** Read-ahead windows, most recently used first (at most WINDOWS). */
  private windows: Array<{ start: number; data: Buffer }> = [];

  constructor(private readonly file: string) {
    this.fd = openRegularFile(file, 'the run database');
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
    let ahead = NEAR_AHEAD;
    for (const w of windows) {
      const from = start - w.start;
      if (from >= 0 && from <= w.data.length + NEAR_AHEAD) ahead = READ_AHEAD;
    }
    // A 64 KB boundary: SQLite sometimes reads a page just before the one it read last.
    const from = start - (start % NEAR_AHEAD);
    const size = Math.min(Math.max(start + n, from + ahead), this.length) - from;
    // The least recently used window makes room, its memory reused (its own ArrayBuffer: allocUnsafeSlow never
    // hands out the shared pool).
    const evicted = windows.length >= WINDOWS ? windows.pop()!.data.buffer : null;
    const memory = evicted !== null && evicted.byteLength >= size ? evicted : Buffer.allocUnsafeSlow(size).buffer;
    const data = Buffer.from(memory, 0, size);
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

// Read ahead far when a read continues a window (a table is read mostly page after page), a little when it starts
// elsewhere (a query_id scan walks an index whose pages lie spread over the file). The index and the table keep
// windows of their own; each window is memory.
const READ_AHEAD = 1 << 20;
const NEAR_AHEAD = 64 << 10;
const WINDOWS = 4;
