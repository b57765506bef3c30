/** Reads `size` bytes at `position` of an open file into `target` (readSync may return fewer: reads until done). */
export declare function readFully(fd: number, target: Uint8Array, size: number, position: number, file: string): void;
