import { readSync } from 'node:fs';

/** Reads `size` bytes at `position` of an open file into `target` (readSync may return fewer: reads until done). */
export function readFully(fd: number, target: Uint8Array, size: number, position: number, file: string): void {
  for (let done = 0; done < size; ) {
    const n = readSync(fd, target, done, size - done, position + done);
    if (n === 0) throw new Error(`${file}: the file shrank while it was read`);
    done += n;
  }
}
