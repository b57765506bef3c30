/** Where the CLI's commands write: a parameter, so tests capture the output without touching the process. */
import { InputError } from '../errors.js';
import type { Trace } from '../pipeline/trace.js';

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** stdout is a terminal: reports default to plain text there (Markdown into a pipe or file). */
  tty?: boolean;
  /** Colour the text report: a terminal, and NO_COLOR unset. */
  color?: boolean;
}

export type OutputFormat = 'text' | 'markdown' | 'json';

/** `--format`, checked; the default is text on a terminal and Markdown elsewhere (what a workflow log or a pipe reads). */
export function outputFormat(value: unknown, io: Io, usage: string): OutputFormat {
  if (value === undefined) return io.tty ? 'text' : 'markdown';
  if (value === 'text' || value === 'markdown' || value === 'json') return value;
  throw new InputError(`--format must be text, markdown or json, got ${JSON.stringify(value)}\n${usage}`);
}

/**
 * EVALVERDICT_TRACE=1 (for tests and benchmarks): each phase on stderr as it ends, with the seconds since the start and
 * the process's minor page faults so far (first-touched memory is much of the time: bench/README.md, "Method").
 */
export function traceTo(io: Io): Trace | undefined {
  if (process.env.EVALVERDICT_TRACE !== '1') return undefined;
  return (label, seconds, faults) =>
    io.stderr(`evalverdict: ${seconds.toFixed(2)} s ${(faults / 1000).toFixed(1).padStart(5)}k faults  ${label}\n`);
}
