/**
 * A mistake in what the user gave us (a file, a flag, a config line). Entries print
 * `message` alone and exit 2; anything else is a bug and keeps its stack trace.
 */
export class InputError extends Error {
  override readonly name = 'InputError';
  constructor(message: string) {
    super(oneLineMessage(message));
  }
}

/**
 * A message is one line whatever the ids and values quoted in it hold: every control character is shown escaped
 * (oneLine), except in a command's usage the CLI appends after a line break (`...\nusage: evalverdict ...`).
 */
function oneLineMessage(message: string): string {
  const usage = /(^|\n)usage: evalverdict /.exec(message);
  if (usage === null) return oneLine(message);
  const head = message.slice(0, usage.index);
  return `${oneLine(head)}${message.slice(usage.index)}`;
}

export function isInputError(error: unknown): error is InputError {
  return error instanceof InputError;
}

/**
 * A file that could not be read, as one message: `FILE: cannot read WHAT (no such file)`, or the system's code
 * (EACCES, EISDIR...). An InputError (a FIFO, a file too large) is returned as it is: it already names the file.
 */
export function cannotRead(file: string, error: unknown, what?: string): InputError {
  if (error instanceof InputError) return error;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const reason = code === 'ENOENT' ? 'no such file' : (code ?? String(error));
  return new InputError(`${file}: cannot read${what === undefined ? '' : ` ${what}`} (${reason})`);
}

/**
 * Characters that would break a one-line message or change how it reads: C0 and C1 controls (newlines and escapes
 * included), DEL, the Unicode line and paragraph separators, every default-ignorable code point (the bidi and
 * zero-width formatting characters, tag characters, Hangul fillers: what renders as nothing), and lone surrogates.
 */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u180e\u2028\u2029\p{Default_Ignorable_Code_Point}\ud800-\udfff]/gu;

/** `\u001b`, or `\u{e0041}` past the Basic Multilingual Plane. */
export function codePointEscape(c: string): string {
  const cp = c.codePointAt(0)!;
  return cp > 0xffff ? `\\u{${cp.toString(16)}}` : `\\u${cp.toString(16).padStart(4, '0')}`;
}

const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Text that came from an input (an id, a key, a value), for a message: it stays on one line and shows what it
 * holds, each character of UNPRINTABLE written as an escape (`\n`, `\u001b`), and so it cannot start a line the
 * Actions runner reads as a workflow command.
 */
export function oneLine(text: string): string {
  return String(text).replace(UNPRINTABLE, (c) => SHORT_ESCAPES[c] ?? codePointEscape(c));
}

/**
 * Output text that the Actions runner cannot read as a workflow command: it reads a line that starts with `::`
 * (after white space; a line ends at `\n` or `\r`) as one, and the older `##[command]` anywhere in a line. Such a
 * line gets a space after its first colon, and `##[` a space before its bracket; nothing else changes.
 */
export function inertLines(text: string): string {
  return text.replace(/(^|[\r\n])(\s*):(?=:)/g, '$1$2: ').replace(/##\[/g, '## [');
}

/**
 * A value from an input, for a message (`got ...`): JSON as written, cut at 80 characters, on one line; a number that
 * JSON cannot hold by name (YAML's `.nan` and `.inf` read as NaN and Infinity, which JSON.stringify calls `null`).
 */
export function valueText(value: unknown): string {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    return `${Number.isNaN(value) ? '.nan (not a number)' : `${value < 0 ? '-' : ''}.inf (infinite)`}`;
  }
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return oneLine(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}
