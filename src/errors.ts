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
