/**
 * The vitest config `npm run mutate` (stryker.config.mjs) uses: only the test files that run the mutated modules in
 * this process. Left out: action.test.ts, fixtures.test.ts, inputErrors.test.ts and validation.test.ts, which spawn
 * the built bundle (dist/, which never holds a mutant), rebuild the fixtures, or test the loaders only; and
 * validation.test.ts needs forks (TZ), while Stryker's vitest runner runs one worker thread.
 * `npm test` keeps vitest.config.ts.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'test/aggregate.test.ts',
      'test/answers.test.ts',
      'test/cli.test.ts',
      'test/compare.test.ts',
      'test/coverage.test.ts',
      'test/escape.test.ts',
      'test/gateConfig.test.ts',
      'test/gates.test.ts',
      'test/golden.test.ts',
      'test/json.test.ts',
      'test/markdown.test.ts',
      'test/metricValues.test.ts',
      'test/retrieval.test.ts',
      'test/significance.test.ts',
      'test/stickyComment.test.ts',
      'test/trecEval.test.ts',
    ],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
