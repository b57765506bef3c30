/**
 * A mistake in what the user gave us (a file, a flag, a config line). Entries print
 * `message` alone and exit 2; anything else is a bug and keeps its stack trace.
 */
export declare class InputError extends Error {
    readonly name = "InputError";
    constructor(message: string);
}
export declare function isInputError(error: unknown): error is InputError;
/**
 * A file that could not be read, as one message: `FILE: cannot read WHAT (no such file)`, or the system's code
 * (EACCES, EISDIR...). An InputError (a FIFO, a file too large) is returned as it is: it already names the file.
 */
export declare function cannotRead(file: string, error: unknown, what?: string): InputError;
