/**
 * The files SQLite keeps beside a database (`FILE-wal`, `FILE-journal`). sql.js reads the database file alone, so
 * a log with committed changes not yet copied into the file, or a hot journal, means stale or torn data.
 */
import { closeSync, fstatSync, readSync, realpathSync } from 'node:fs';
import { InputError } from '../errors.js';
import { openRegularFile } from './regularFile.js';

const JOURNAL_MAGIC = Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]);

// WAL header (32 bytes, big-endian): magic, version, page size, checkpoint sequence, salt-1, salt-2, checksum-1,
// checksum-2. Frame header (24 bytes): page number, database size in pages after a commit (0 otherwise), salt-1,
// salt-2, checksum-1, checksum-2; the page follows.
const WAL_MAGIC = 0x377f0682; // low bit 1: the checksums read big-endian words; 0: little-endian
const WAL_HEADER = 32;
const FRAME_HEADER = 24;

/**
 * The first `n` bytes of `file` (fewer when it is shorter), or null when there is no such file. A side file that is
 * not a regular file (a FIFO would block the read for ever; a directory) is refused, naming it.
 */
function headOf(file: string, n: number, what = 'a file SQLite keeps beside the database'): Buffer | null {
  let fd: number;
  try {
    fd = openRegularFile(file, what);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const head = Buffer.alloc(n);
    return head.subarray(0, readSync(fd, head, 0, n, 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * Refuses a database whose newest state is not in its file alone: a log whose first frame carries its header's
 * salts, unless all its committed pages are in the file already; or a hot journal (a write interrupted or under
 * way). `--write` would otherwise also leave a file that does not match the log beside it.
 */
export function checkSideFiles(file: string): void {
  const real = sideFilesBase(file);
  if (hasCurrentWalFrames(real) && !walAlreadyInFile(real, `${real}-wal`)) {
    throw new InputError(
      `${file}: its write-ahead log ${real}-wal may hold changes that are not in the database file yet ` +
        '(a program has it open, or was not closed); close the program or checkpoint the log first: ' +
        `sqlite3 ${JSON.stringify(real)} "PRAGMA wal_checkpoint(TRUNCATE)"`,
    );
  }
  const journal = headOf(`${real}-journal`, JOURNAL_MAGIC.length, 'the rollback journal');
  if (journal?.equals(JOURNAL_MAGIC)) {
    throw new InputError(
      `${file}: its rollback journal ${real}-journal is hot (a write was interrupted, or is under way), so the file ` +
        'may be half-written; let the writing program finish, or open the database once with sqlite3 to roll the ' +
        'write back',
    );
  }
}

/**
 * Whether every change the log holds is in the database file already, reading the log as SQLite does: frames from
 * the start while each carries the header's salts and continues the checksum, up to the last commit frame; each
 * page's last committed version must equal the file's page, and the committed size the file's. This tells a log
 * that was checkpointed and kept (a writer still has it open) from one with new changes. False on anything else,
 * a log SQLite would ignore included, so the caller refuses.
 */
function walAlreadyInFile(dbFile: string, walFile: string): boolean {
  let wal: number | null = null;
  let db: number | null = null;
  try {
    wal = openRegularFile(walFile, 'the write-ahead log');
    db = openRegularFile(dbFile, 'the run database');
    const header = Buffer.alloc(WAL_HEADER);
    if (readSync(wal, header, 0, WAL_HEADER, 0) !== WAL_HEADER) return false;
    const pageSize = header.readUInt32BE(8);
    if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return false;
    const bigEndian = (header.readUInt32BE(0) & 1) === 1;
    let sum = walChecksum(header, 0, 24, 0, 0, bigEndian);
    if (sum[0] !== header.readUInt32BE(24) || sum[1] !== header.readUInt32BE(28)) return false;
    const frame = Buffer.alloc(FRAME_HEADER + pageSize);
    const latest = new Map<number, number>(); // page number -> offset of its last frame, up to the last commit
    const pending = new Map<number, number>(); // ... of frames after the last commit so far
    let committedPages = -1;
    for (let at = WAL_HEADER; readSync(wal, frame, 0, frame.length, at) === frame.length; at += frame.length) {
      if (frame.readUInt32BE(8) !== header.readUInt32BE(16) || frame.readUInt32BE(12) !== header.readUInt32BE(20)) {
        break;
      }
      const page = frame.readUInt32BE(0);
      if (page === 0) break;
      sum = walChecksum(frame, 0, 8, sum[0], sum[1], bigEndian);
      sum = walChecksum(frame, FRAME_HEADER, frame.length, sum[0], sum[1], bigEndian);
      if (sum[0] !== frame.readUInt32BE(16) || sum[1] !== frame.readUInt32BE(20)) break;
      pending.set(page, at);
      const pagesAfterCommit = frame.readUInt32BE(4);
      if (pagesAfterCommit !== 0) {
        for (const [p, offset] of pending) latest.set(p, offset);
        pending.clear();
        committedPages = pagesAfterCommit;
      }
    }
    if (committedPages === -1) return true; // no committed frame: nothing of the log is current
    if (fstatSync(db).size !== committedPages * pageSize) return false;
    const inFile = Buffer.alloc(pageSize);
    for (const [page, offset] of latest) {
      if (page > committedPages) continue; // cut off by the commit's size
      if (readSync(wal, frame, 0, frame.length, offset) !== frame.length) return false;
      if (readSync(db, inFile, 0, pageSize, (page - 1) * pageSize) !== pageSize) return false;
      if (!inFile.equals(frame.subarray(FRAME_HEADER))) return false;
    }
    return true;
  } catch {
    return false;
  } finally {
    if (wal !== null) closeSync(wal);
    if (db !== null) closeSync(db);
  }
}

/** SQLite's log checksum of `data[from, to)` (a multiple of 8 bytes) continuing from (s1, s2). */
function walChecksum(
  data: Buffer,
  from: number,
  to: number,
  s1: number,
  s2: number,
  bigEndian: boolean,
): [number, number] {
  for (let i = from; i < to; i += 8) {
    const x0 = bigEndian ? data.readUInt32BE(i) : data.readUInt32LE(i);
    const x1 = bigEndian ? data.readUInt32BE(i + 4) : data.readUInt32LE(i + 4);
    s1 = (s1 + x0 + s2) >>> 0;
    s2 = (s2 + x1 + s1) >>> 0;
  }
  return [s1, s2];
}

/** Where SQLite keeps a database's side files: beside the file a symbolic link points at. */
function sideFilesBase(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file; // the file itself was opened already: a path realpath cannot follow is looked for as given
  }
}

/** Whether `FILE-wal` exists and its first frame carries its header's salts: SQLite reads such a log. */
function hasCurrentWalFrames(real: string): boolean {
  const wal = headOf(`${real}-wal`, WAL_HEADER + FRAME_HEADER, 'the write-ahead log');
  if (wal === null || wal.length !== WAL_HEADER + FRAME_HEADER) return false;
  return (
    (wal.readUInt32BE(0) & 0xfffffffe) === WAL_MAGIC &&
    wal.readUInt32BE(WAL_HEADER + 8) === wal.readUInt32BE(16) &&
    wal.readUInt32BE(WAL_HEADER + 12) === wal.readUInt32BE(20)
  );
}

/**
 * Refuses to replace a database file (`--write`) beside a log SQLite may read (checksums unchecked: erring on the
 * side of refusing), even one whose pages are all in the file: SQLite would lay the log's pages over the new file
 * on the next open.
 */
export function checkReplaceable(file: string): void {
  const real = sideFilesBase(file);
  let walFrames: boolean;
  try {
    checkSideFiles(file); // a log with changes the file lacks, or a hot journal: the message reading gives
    walFrames = hasCurrentWalFrames(real);
  } catch (error) {
    if (error instanceof InputError) throw error;
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new InputError(`${file}: cannot write into it: its write-ahead log ${real}-wal cannot be read (${reason})`);
  }
  if (walFrames) {
    throw new InputError(
      `${file}: cannot write into it while its write-ahead log ${real}-wal holds frames (SQLite would lay them over ` +
        'the new file); close the program that has it open, or checkpoint and empty the log first: ' +
        `sqlite3 ${JSON.stringify(real)} "PRAGMA wal_checkpoint(TRUNCATE)"`,
    );
  }
}

/** Whether the database file is in WAL mode (its header's read and write versions, bytes 18 and 19, are 2). */
export function isWalMode(file: string): boolean {
  const head = headOf(file, 20);
  return head !== null && head.length === 20 && head[18] === 2 && head[19] === 2;
}
