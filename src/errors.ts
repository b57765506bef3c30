import { oneLine } from './inputText.js';

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
