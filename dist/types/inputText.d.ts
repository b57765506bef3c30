/**
 * Text from an input made safe to print: on one line, with what it holds shown (oneLine, valueText), and never
 * read by the Actions runner as a workflow command (inertLines). Every message and log line quoting an input goes
 * through here; the Markdown escaping is render/escape.ts.
 */
/** `\u001b`, or `\u{e0041}` past the Basic Multilingual Plane. */
export declare function codePointEscape(c: string): string;
/**
 * Text that came from an input (an id, a key, a value), for a message: it stays on one line and shows what it
 * holds, each character of UNPRINTABLE written as an escape (`\n`, `\u001b`), and so it cannot start a line the
 * Actions runner reads as a workflow command.
 */
export declare function oneLine(text: string): string;
/**
 * Output text that the Actions runner cannot read as a workflow command: it reads a line that starts with `::`
 * (after white space; a line ends at `\n` or `\r`) as one, and the older `##[command]` anywhere in a line. Such a
 * line gets a space after its first colon, and `##[` a space before its bracket; nothing else changes.
 */
export declare function inertLines(text: string): string;
/**
 * A value from an input, for a message (`got ...`): JSON as written, cut at 80 characters, on one line; a number that
 * JSON cannot hold by name (YAML's `.nan` and `.inf` read as NaN and Infinity, which JSON.stringify calls `null`).
 */
export declare function valueText(value: unknown): string;
