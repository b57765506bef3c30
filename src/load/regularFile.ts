/**
 * Opening input files as regular files only. A FIFO blocks an open for reading until a writer comes (for ever),
 * and a device such as /dev/zero never ends: each is refused at once, by opening without blocking and asking the
 * open file what it is. Text inputs (golden set, gate config) are read up to a size cap.
 */
import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { InputError } from '../errors.js';
import { readFully } from './readFully.js';

/** What a file that is not a regular file is, in words. */
function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * A descriptor of `file` opened for reading, after checking it is a regular file (`what` names it in the message:
 * `FILE: the run database is a FIFO (named pipe), not a regular file`). Errors of the open itself are thrown as
 * they are (ENOENT...), for the caller's message.
 */
export function openRegularFile(file: string, what: string): number {
  // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting; a regular file ignores it.
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  let stats: Stats;
  try {
    stats = fstatSync(fd);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  if (!stats.isFile()) {
    closeSync(fd);
    throw new InputError(`${file}: ${what} is ${kindOf(stats)}, not a regular file`);
  }
  return fd;
}

/**
 * The bytes of the regular file `file`, at most `maxBytes` (a larger file is refused before it is read:
 * `FILE: the golden set is 2.1 GiB, more than the 1 GiB EvalVerdict reads`).
 */
export function readRegularFile(file: string, what: string, maxBytes: number): Buffer {
  const fd = openRegularFile(file, what);
  try {
    const size = fstatSync(fd).size;
    if (size > maxBytes) {
      throw new InputError(
        `${file}: ${what} is ${sizeText(size)}, more than the ${sizeText(maxBytes)} EvalVerdict reads`,
      );
    }
    const bytes = Buffer.allocUnsafe(size);
    readFully(fd, bytes, size, 0, file);
    return bytes;
  } finally {
    closeSync(fd);
  }
}

export function sizeText(bytes: number): string {
  if (bytes >= 1 << 30) return `${Number((bytes / (1 << 30)).toFixed(1))} GiB`;
  if (bytes >= 1 << 20) return `${Number((bytes / (1 << 20)).toFixed(1))} MiB`;
  if (bytes >= 1 << 10) return `${Number((bytes / (1 << 10)).toFixed(1))} KiB`;
  return `${bytes} bytes`;
}

/** The most bytes of a golden set EvalVerdict reads (a 100,000-query set with long queries is ~100 MB). */
export const MAX_GOLDEN_BYTES = 1 << 30;
/** The most bytes of a gate config file. */
export const MAX_CONFIG_BYTES = 1 << 20;
