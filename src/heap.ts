import { setFlagsFromString } from 'node:v8';

/**
 * Turns off V8's allocation-site pretenuring, for the whole process (worker threads included). It learns from
 * early allocations which sites make long-lived objects and then allocates there straight in the old generation.
 * Reading the golden set (objects that live) teaches it that, and it then pretenures the short-lived objects that
 * scoring makes at the same sites, which the young-generation collector would have freed for nothing: some runs
 * then took far longer and far more memory (bench/README.md, "What was kept"; docs/decisions/0004-heap-settings.md).
 * Called by the entries only: a library user's process keeps its own settings.
 */
export function tuneHeapForScoring(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
