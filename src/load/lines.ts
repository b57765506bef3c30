/**
 * A text file's lines, read from its bytes a piece at a time: a log of a gigabyte never sits in memory, only the
 * line being read. Lines end at LF (a CR before it is dropped); each must be valid UTF-8.
 */
import { isUtf8 } from 'node:buffer';
import { closeSync, readSync } from 'node:fs';
import { cannotRead, InputError } from '../errors.js';
import { openRegularFile } from './regularFile.js';

/** Bytes read from the file at a time. */
const PIECE = 1 << 20;
/** A line longer than this is refused: no trace line is near it, and it bounds one JSON.parse. */
export const MAX_LINE_BYTES = 64 << 20;

/** Calls `each` with every line of `file` (blank ones too) and its 1-based number, in order. */
export function forEachLineOfFile(file: string, each: (line: string, lineNumber: number) => void): void {
  let fd: number;
  try {
    fd = openRegularFile(file, 'the file');
  } catch (error) {
    throw cannotRead(file, error);
  }
  try {
    forEachLineOfPieces(
      (buffer) => {
        try {
          return readSync(fd, buffer, 0, buffer.length, null);
        } catch (error) {
          throw cannotRead(file, error);
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
  /** Bytes [from, to) of `bytes` as the next line: its CR dropped; its UTF-8 checked unless known valid. */
  const emit = (bytes: Buffer, from: number, to: number, checked: boolean) => {
    lineNumber++;
    if (to > from && bytes[to - 1] === 13) to--;
    if (!checked && !isUtf8(bytes.subarray(from, to)))
      throw new InputError(`${source}:${lineNumber}: the line is not valid UTF-8`);
    each(bytes.toString('utf8', from, to), lineNumber);
  };
  const tooLong = () =>
    new InputError(`${source}:${lineNumber + 1}: the line is over ${MAX_LINE_BYTES >> 20} MB; one trace is one line`);
  for (;;) {
    const n = read(buffer);
    if (n === 0) break;
    const lastBreak = buffer.lastIndexOf(10, n - 1);
    // The whole lines of the piece are checked at once (a character never spans a line break); the lines are then
    // cut without a view each. Only a piece with a bad byte is checked line by line, to name the line.
    const firstBreak = lastBreak === -1 ? -1 : buffer.indexOf(10);
    const wholeValid = lastBreak !== -1 && isUtf8(buffer.subarray(firstBreak + 1, lastBreak));
    let start = 0;
    for (;;) {
      const end = buffer.indexOf(10, start);
      if (end === -1 || end >= n) break;
      if (carriedBytes > 0) {
        if (carriedBytes + end - start > MAX_LINE_BYTES) throw tooLong();
        carried.push(buffer.subarray(start, end));
        const line = Buffer.concat(carried);
        emit(line, 0, line.length, false);
        carried = [];
        carriedBytes = 0;
      } else {
        if (end - start > MAX_LINE_BYTES) throw tooLong();
        emit(buffer, start, end, start > firstBreak && wholeValid);
      }
      start = end + 1;
    }
    if (start < n) {
      carriedBytes += n - start;
      if (carriedBytes > MAX_LINE_BYTES) throw tooLong();
      carried.push(Buffer.from(buffer.subarray(start, n))); // a copy: the buffer is refilled next
    }
  }
  if (carriedBytes > 0) {
    const line = Buffer.concat(carried);
    emit(line, 0, line.length, false);
  }
}
