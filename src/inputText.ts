/**
 * Text from an input made safe to print: on one line, with what it holds shown (oneLine, valueText), and never
 * read by the Actions runner as a workflow command (inertLines). Every message and log line quoting an input goes
 * through here; the Markdown escaping is render/escape.ts.
 */

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
