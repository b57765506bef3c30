/**
 * The vitest config `npm run mutate` (stryker.config.mjs) uses: only the test files that run the mutated modules in
 * this process. Left out: action.test.ts, fixtures.test.ts, inputErrors.test.ts and runDatabaseErrors.test.ts, which
 * spawn the built bundle (dist/, which never holds a mutant), rebuild the fixtures, or test the loaders only; and
 * runDatabaseErrors.test.ts needs forks (TZ), while Stryker's vitest runner runs one worker thread.
 * `npm test` keeps vitest.config.ts.
 */
import { relative } from 'node:path';
import { BaseSequencer } from 'vitest/node';
import type { TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The files, quickest first (time of the whole file in one vitest run, 2026-11-26). Stryker runs a mutant's tests
 * in one worker and stops at the first failure, so the unit suites, which kill most mutants, go before the
 * end-to-end ones; vitest's own order (slowest first, for parallel workers) made a killed mutant wait for them.
 */
const QUICKEST_FIRST = [
  'test/escape.test.ts', // 2 ms
  'test/retrieval.test.ts', // 8 ms
  'test/answers.test.ts', // 13 ms
  'test/matching.test.ts', // 15 ms
  'test/gateConfig.test.ts', // 31 ms
  'test/gateConfigEdges.test.ts', // 40 ms (2026-11-28: the config's testing keys and scoring cutoffs)
  'test/acceptCommand.test.ts', // 0.1 s (keepStateLine among its cases)
  'test/missingAndUnknownQueries.test.ts', // 86 ms
  'test/kebabSpec.test.ts', // 0.2 s (kebab's definitions, compareRuns in process)
  'test/coreSpec.test.ts', // 0.3 s (the 001 runner's spellings and definitions)
  'test/stickyComment.test.ts', // 0.1 s
  'test/trecEval.test.ts', // 0.3 s
  'test/compareEdges.test.ts', // 0.1 s (2026-11-28)
  'test/significance.test.ts', // 0.4 s
  'test/verdictUnits.test.ts', // 0.1 s (2026-11-28: verdict.test.ts's unit cases)
  'test/testedGates.test.ts', // 0.2 s (2026-11-28: tested gates on contexts built by hand)
  'test/scoringCutoffs.test.ts', // 0.8 s
  'test/cutoffEdges.test.ts', // 0.3 s
  'test/gates.test.ts', // 0.5 s
  'test/stableJson.test.ts', // 0.7 s
  'test/metricValues.test.ts', // 1.9 s
  'test/unjudged.test.ts', // 1 s (2026-11-28: judged@k and bpref, run databases in temp dirs)
  'test/cli.test.ts', // 4 s
  'test/aggregate.test.ts', // 7 s
  'test/golden.test.ts', // 7 s
  'test/markdown.test.ts', // 11 s
  'test/compare.test.ts', // 2 s (runs in memory; 15 s before the end-to-end suites moved out)
  'test/compareEndToEnd.test.ts', // 15 s
  'test/importWfgy.test.ts', // 15 s (WFGY's text rules by hand; the rest spawns the CLI)
];

class QuickestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => QUICKEST_FIRST.indexOf(relative(this.ctx.config.root, f.moduleId));
    return [...files].sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: QUICKEST_FIRST,
    sequence: { sequencer: QuickestFirst },
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
