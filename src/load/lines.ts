/**
 * A text file's lines, read from its bytes a piece at a time: a log of a gigabyte never sits in memory, only the
 * line being read. Lines end at LF (a CR before it is dropped); each must be valid UTF-8.
 */
import { isUtf8 } from 'node:buffer';
import { closeSync, openSync, readSync } from 'node:fs';
import { InputError } from '../errors.js';

/** Bytes read from the file at a time. */
const PIECE = 1 << 20;
/** A line longer than this is refused: no trace line is near it, and it bounds one JSON.parse. */
export const MAX_LINE_BYTES = 64 << 20;

/** Calls `each` with every line of `file` (blank ones too) and its 1-based number, in order. */
export function forEachLineOfFile(file: string, each: (line: string, lineNumber: number) => void): void {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(`${file}: cannot read (${code === 'ENOENT' ? 'no such file' : (code ?? String(error))})`);
  }
  try {
    forEachLineOfPieces(
      (buffer) => {
        try {
          return readSync(fd, buffer, 0, buffer.length, null);
        } catch (error) {
          throw new InputError(`${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
        }
      },
      file,
      each,
    );
  } finally {
    closeSync(fd);
  }
}

/**
 * The lines of the bytes `read` fills a buffer with (0: the end), as forEachLineOfFile gives them. Apart from the file
 * so tests can cut the bytes anywhere.
 */
export function forEachLineOfPieces(
  read: (buffer: Buffer) => number,
  source: string,
  each: (line: string, lineNumber: number) => void,
  pieceBytes = PIECE,
): void {
  const buffer = Buffer.allocUnsafe(pieceBytes);
  /** The start of the current line when it began in an earlier piece. */
  let carried: Buffer[] = [];
  let carriedBytes = 0;
  let lineNumber = 0;
  const emit = (bytes: Buffer) => {
    lineNumber++;
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === 13) end--;
    const line = bytes.subarray(0, end);
    if (!isUtf8(line)) throw new InputError(`${source}:${lineNumber}: the line is not valid UTF-8`);
    each(line.toString('utf8'), lineNumber);
  };
  const tooLong = () =>
    new InputError(`${source}:${lineNumber + 1}: the line is over ${MAX_LINE_BYTES >> 20} MB; one trace is one line`);
  for (;;) {
    const n = read(buffer);
    if (n === 0) break;
    let start = 0;
    for (;;) {
      const end = buffer.indexOf(10, start);
      if (end === -1 || end >= n) break;
      if (carriedBytes > 0) {
        if (carriedBytes + end - start > MAX_LINE_BYTES) throw tooLong();
        carried.push(buffer.subarray(start, end));
        emit(Buffer.concat(carried));
        carried = [];
        carriedBytes = 0;
      } else {
        if (end - start > MAX_LINE_BYTES) throw tooLong();
        emit(buffer.subarray(start, end));
      }
      start = end + 1;
    }
    if (start < n) {
      carriedBytes += n - start;
      if (carriedBytes > MAX_LINE_BYTES) throw tooLong();
      carried.push(Buffer.from(buffer.subarray(start, n))); // a copy: the buffer is refilled next
    }
  }
  if (carriedBytes > 0) emit(Buffer.concat(carried));
}
