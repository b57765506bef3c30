import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SqlJsStatic } from 'sql.js';

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

export function loadSqlJs(): Promise<SqlJsStatic> {
  if (!sqlPromise) {
    const { script, wasm } = sqlJsFiles();
    const initSqlJs = createRequire(import.meta.url)(script) as InitSqlJs;
    const bytes = readFileSync(wasm);
    sqlPromise = initSqlJs({ wasmBinary: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer });
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
  private window = Buffer.allocUnsafe(0);
  private windowStart = 0;

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
    const offset = start - this.windowStart;
    if (offset >= 0 && offset + n <= this.window.length) return this.window.subarray(offset, offset + n);
    // Read ahead: SQLite scans a table mostly page after page.
    const size = Math.min(Math.max(n, READ_AHEAD), this.length - start);
    if (this.window.length < size) this.window = Buffer.allocUnsafe(size);
    this.readAt(this.window, size, start);
    this.window = this.window.subarray(0, size);
    this.windowStart = start;
    return this.window.subarray(0, n);
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
      this.window = Buffer.allocUnsafe(0);
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
    for (let done = 0; done < size;) {
      const n = readSync(this.fd, target, done, size - done, position + done);
      if (n === 0) throw new Error(`${this.file}: the file shrank while it was read`);
      done += n;
    }
  }
}

const READ_AHEAD = 1 << 20;
