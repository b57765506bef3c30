/**
 * A descriptor of `file` opened for reading, after checking it is a regular file (`what` names it in the message:
 * `FILE: the run database is a FIFO (named pipe), not a regular file`). Errors of the open itself are thrown as
 * they are (ENOENT...), for the caller's message.
 */
export declare function openRegularFile(file: string, what: string): number;
/**
 * The bytes of the regular file `file`, at most `maxBytes` (a larger file is refused before it is read:
 * `FILE: the golden set is 2.1 GiB, more than the 1 GiB EvalVerdict reads`).
 */
export declare function readRegularFile(file: string, what: string, maxBytes: number): Buffer;
export declare function sizeText(bytes: number): string;
/** The most bytes of a golden set EvalVerdict reads (a 100,000-query set with long queries is ~100 MB). */
export declare const MAX_GOLDEN_BYTES: number;
/** The most bytes of a gate config file. */
export declare const MAX_CONFIG_BYTES: number;
