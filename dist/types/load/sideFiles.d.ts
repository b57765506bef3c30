/**
 * Refuses a database whose newest state is not in its file alone: a log whose first frame carries its header's
 * salts, unless all its committed pages are in the file already; or a hot journal (a write interrupted or under
 * way). `--write` would otherwise also leave a file that does not match the log beside it.
 */
export declare function checkSideFiles(file: string): void;
/**
 * Refuses to replace a database file (`--write`) beside a log SQLite may read (checksums unchecked: erring on the
 * side of refusing), even one whose pages are all in the file: SQLite would lay the log's pages over the new file
 * on the next open.
 */
export declare function checkReplaceable(file: string): void;
/** Whether the database file is in WAL mode (its header's read and write versions, bytes 18 and 19, are 2). */
export declare function isWalMode(file: string): boolean;
