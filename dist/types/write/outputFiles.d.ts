import { InputError } from '../errors.js';
export declare function cannotWrite(file: string, error: unknown): InputError;
/**
 * `bytes` as the whole content of a new file, in pieces of at most `chunk` bytes. The file is created exclusively
 * (a file or link put there meanwhile is not followed) with `mode` from its first byte: a private database's bytes
 * are never readable by others, not even while they are written.
 */
export declare function writeWhole(file: string, bytes: Uint8Array | string, chunk?: number, mode?: number): void;
/**
 * Writes every file or none: first each to a temporary sibling (any failure removes them all and throws
 * `PATH: cannot write (reason)`), then each temporary file renamed over its target. A target that exists is checked
 * first: a directory, or a file that may not be written (read-only, which a rename would replace all the same), is
 * refused before anything is written. A standard stream or a device is written through (writtenThrough), after
 * the temporary files are written and before they are renamed.
 */
export declare function writeOutputFiles(files: ReadonlyArray<readonly [file: string, bytes: Uint8Array | string]>): void;
/** One file, written atomically; `PATH: cannot write (reason)` when it cannot be. */
export declare function writeFileAtomically(file: string, bytes: Uint8Array | string): void;
/**
 * Output files that must not exist yet (a command that creates files refuses to replace one unless told to):
 * `PATH: already exists (hint)` for the first that does.
 */
export declare function refuseExisting(files: ReadonlyArray<string>, hint: string): void;
/** Refuses two output flags naming one file (`--a and --b name the same file PATH`); unset flags are skipped. */
export declare function refuseSameOutput(outputs: ReadonlyArray<readonly [flag: string, file: string | undefined]>): void;
/**
 * Refuses an output path that is one of the inputs (the same path after symbolic links, or the same file by device
 * and inode: a hard link), before anything is read or written: `--json c.sqlite` would replace the candidate
 * database with the report. Unset outputs and inputs are skipped.
 */
export declare function refuseOutputOverInput(outputs: ReadonlyArray<readonly [flag: string, file: string | null | undefined]>, inputs: ReadonlyArray<readonly [what: string, file: string | null | undefined]>): void;
