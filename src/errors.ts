/**
 * A mistake in what the user gave us (a file, a flag, a config line). Entries print
 * `message` alone and exit 2; anything else is a bug and keeps its stack trace.
 */
export class InputError extends Error {
  override readonly name = 'InputError';
  constructor(message: string) {
    super(message);
  }
}

export function isInputError(error: unknown): error is InputError {
  return error instanceof InputError;
}

/**
 * Characters that would break a one-line message or change how it reads: C0 and C1 controls (newlines and escapes
 * included), DEL, the Unicode line and paragraph separators, and the bidi and zero-width formatting characters.
 */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Text that came from an input (an id, a key, a value), for a message: it stays on one line and shows what it
 * holds, each character of UNPRINTABLE written as an escape (`\n`, `\u001b`), and so it cannot start a line the
 * Actions runner reads as a workflow command.
 */
export function oneLine(text: string): string {
  return String(text).replace(
    UNPRINTABLE,
    (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
