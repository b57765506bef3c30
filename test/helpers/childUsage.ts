/**
 * What test/helpers/maxRss.mjs reports at a child's exit: its CPU time and peak memory, the bounds the tests assert
 * on a child's work. Never its wall time: on a busy machine (four other processes on two cores) the wall clock of
 * the same work grows several times over, its CPU time hardly at all.
 */
import { join } from 'node:path';
import { repoRoot } from '../shared.js';

/** The probe, for `node --import PROBE ...`. */
export const USAGE_PROBE = join(repoRoot, 'test', 'helpers', 'maxRss.mjs');

/** The probe's pair of lines; a worker thread that loaded the probe too writes one at its own exit. */
const USAGE_LINES = /\nevalverdict-test-cpu-us=(\d+)\nevalverdict-test-maxrss-kib=(\d+)\n/g;

export interface ChildUsage {
  /** stderr without the probe's lines. */
  stderr: string;
  /** The process's CPU time (user + system, every thread), in seconds; NaN if the probe never wrote (killed). */
  cpuSeconds: number;
  /** The process's peak resident set, in MB; NaN if the probe never wrote. */
  maxRssMb: number;
}

/** The largest figures of the probe's lines in `stderr` (the main thread exits last), and stderr without them. */
export function childUsage(stderr: string): ChildUsage {
  const lines = [...stderr.matchAll(USAGE_LINES)];
  const largest = (i: number) => (lines.length > 0 ? Math.max(...lines.map((m) => Number(m[i]))) : Number.NaN);
  return {
    stderr: stderr.replace(USAGE_LINES, ''),
    cpuSeconds: largest(1) / 1e6,
    maxRssMb: largest(2) / 1024,
  };
}
