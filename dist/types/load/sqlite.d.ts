import type { SqlJsStatic } from 'sql.js';
/**
 * sql.js, loaded once. Its files are read now and its WebAssembly compiled in the background, so a caller can start
 * it early; a failure (a broken install) is the promise's, never a throw.
 */
export declare function loadSqlJs(): Promise<SqlJsStatic>;
/**
 * A database file as sql.js sees it, read from disk on demand instead of held in memory
 * (docs/decisions/0003-run-database-read-on-demand.md). sql.js's in-memory file system stores
 * `bytes.slice(0, length)` as the file's contents and copies every page SQLite reads out with
 * `contents.subarray(from, to)`: this object answers both from the file. A write (`--write`) goes through `set`,
 * which loads the whole file first. Should a future sql.js touch the contents another way, test/runDatabaseErrors.test.ts
 * fails; wrong bytes are never read silently.
 */
export declare class FileBackedBytes {
    private readonly file;
    readonly length: number;
    private fd;
    private bytes;
    /** Read-ahead windows, most recently used first (at most WINDOWS). */
    private windows;
    constructor(file: string);
    /** The first `n` bytes (the header checks). */
    head(n: number): Uint8Array;
    subarray(start?: number, end?: number): Uint8Array;
    /** MEMFS stores the file with `slice(0, length)`: hand over this object itself. */
    slice(start?: number, end?: number): Uint8Array | FileBackedBytes;
    /** A write into the file (an UPDATE): from here on the file lives in memory like any MEMFS file. */
    set(source: ArrayLike<number>, offset?: number): void;
    close(): void;
    private readAt;
}
