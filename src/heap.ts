import { setFlagsFromString } from 'node:v8';

/**
 * Turns off V8's allocation-site pretenuring, for the whole process (worker threads included). It learns from
 * early allocations which sites make long-lived objects and then allocates there straight in the old generation.
 * Reading the golden set (objects that live) teaches it that, and it then pretenures the short-lived objects that
 * scoring makes at the same sites, which the young-generation collector would have freed for nothing. Measured on
 * the 100,000-query bench run in one thread: with it, one run in three took 6.5 s and 845 MB instead of 4.7 s and
 * 370 MB; without it, every run took 4.5-5.0 s and 345-370 MB. Called by the entries only: a library user's
 * process keeps its own settings.
 */
export function tuneHeapForScoring(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
