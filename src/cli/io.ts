/** Where the CLI's commands write: a parameter, so tests capture the output without touching the process. */
import type { Trace } from '../pipeline/pipeline.js';

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/**
 * EVALGATE_TRACE=1 (for tests and benchmarks): each phase on stderr as it ends, with the seconds since the start and
 * the process's minor page faults so far (first-touched memory is much of the time: see bench/README).
 */
export function traceTo(io: Io): Trace | undefined {
  if (process.env.EVALGATE_TRACE !== '1') return undefined;
  return (label, seconds, faults) =>
    io.stderr(`evalgate: ${seconds.toFixed(2)} s ${(faults / 1000).toFixed(1).padStart(5)}k faults  ${label}\n`);
}
