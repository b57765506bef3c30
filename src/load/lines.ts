/**
 * A text file's lines, read from its bytes a piece at a time: a log of a gigabyte never sits in memory, only the
 * line being read. Lines end at LF (a CR before it is dropped); each must be valid UTF-8.
 */
import { isUtf8 } from 'node:buffer';
import { closeSync, readSync } from 'node:fs';
import { cannotRead, InputError } from '../errors.js';
import { suggest } from '../suggest.js';
import { describe, FieldError, isObject } from './json.js';
import type { JsonObject } from './json.js';
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

/**
 * Every non-blank line of `file` as a JSON object, in order: the one JSON Lines reader of the importers. A line that
 * is not JSON, or not an object, stops the read with `FILE:LINE` and what it is (`what`: "a result line"); a
 * FieldError thrown by `each` is named the same way. `each` also gets the line's text (a reader may keep it flat).
 */
export function forEachJsonObjectOfFile(
  file: string,
  what: string,
  each: (value: JsonObject, lineNumber: number, text: string) => void,
): number {
  let lines = 0;
  forEachLineOfFile(file, (text, lineNumber) => {
    // Blank lines are skipped (JSON.parse reads past white space around a value itself).
    if (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim() === '')) return;
    lines++;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new InputError(`${file}:${lineNumber}: not valid JSON (${(error as Error).message})`);
    }
    if (!isObject(value))
      throw new InputError(`${file}:${lineNumber}: ${what} must be a JSON object, got ${describe(value)}`);
    try {
      each(value, lineNumber, text);
    } catch (error) {
      if (error instanceof FieldError) throw new InputError(`${file}:${lineNumber}: ${error.message}`);
      throw error;
    }
  });
  return lines;
}

/**
 * Strict keys: a key of `value` that is not in `known` is refused with the nearest known key (`hit` -> `hits`) when
 * one is close, and otherwise returned, for the caller to count (a system's own output may carry more fields).
 * `at` names the object (`hits[2]`) or is '' for the line itself.
 */
export function unknownKeys(value: JsonObject, known: ReadonlySet<string>, at: string): string[] {
  let others: string[] | null = null;
  for (const key in value) {
    if (known.has(key)) continue;
    const hint = suggest(key, known);
    const path = at === '' ? key : `${at}.${key}`;
    if (hint !== '') throw new FieldError(path, `unknown key \`${path}\`${hint}`);
    (others ??= []).push(key);
  }
  return others ?? [];
}

/** A list of where something happened, counted past the first few. */
export interface Tally<T> {
  count: number;
  first: T[];
}

/** How many examples a tally keeps. */
export const TALLY_FIRST = 5;

export const emptyTally = <T>(): Tally<T> => ({ count: 0, first: [] });

/** Counts one more; `item` (made only while it is kept) is one of the first few. */
export function tallied<T>(tally: Tally<T>, item: () => T): void {
  tally.count++;
  if (tally.first.length < TALLY_FIRST) tally.first.push(item());
}

/** ", and N more" after a tally's first few, or ''. */
export const moreOf = (t: Tally<unknown>): string =>
  t.count > t.first.length ? `, and ${t.count - t.first.length} more` : '';

/**
 * The refusal of a line that says neither what it found nor that it failed: its keys, with the nearest expected
 * key named when one is close (`hit` is refused earlier, as a near miss).
 */
export function neitherHitsNorError(who: string, line: JsonObject, expected: string[]): FieldError {
  const keys = Object.keys(line);
  const near = keys.map((k) => suggest(k, expected)).find((hint) => hint !== '') ?? '';
  const named = expected.map((k) => `\`${k}\``);
  const list = `${named.slice(0, -1).join(', ')} nor ${named.at(-1)}`;
  return new FieldError(
    expected[0],
    `${who} has neither ${list} (an empty list is no hits); its keys: ${keys.join(', ') || 'none'}${near}`,
  );
}
