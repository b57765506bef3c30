// @ts-check
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/**
 * Mutation testing of the core modules (issue 26). `npm run mutate` (scripts/mutate.mjs) runs it one module at a
 * time with that module's test files; `npx stryker run` alone mutates the whole list below against every file of
 * vitest.mutate.config.ts (slower: end-to-end suites then run against mutants too). Not in CI: docs/mutation.md has
 * the last scores. Per-test coverage: each mutant runs only the tests that reached it.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  // scripts/mutate.mjs names another config for a module whose test files vitest.mutate.config.ts does not list.
  vitest: { configFile: process.env.EVALVERDICT_MUTATE_VITEST_CONFIG || 'vitest.mutate.config.ts' },
  coverageAnalysis: 'perTest',
  mutate: [
    'src/aggregate/rankMetrics.ts',
    'src/aggregate/answerChecks.ts',
    'src/aggregate/matching.ts',
    'src/compare/compare.ts',
    'src/stats/signFlip.ts',
    'src/gate/gates.ts',
    'src/gate/testedGates.ts',
    'src/gate/config.ts',
    'src/render/escape.ts',
    'src/publish/stickyComment.ts',
    'src/action/parseCommand.ts',
    'src/acceptance/state.ts',
    'src/acceptance/runDecision.ts',
    'src/acceptance/decision.ts',
    'src/render/errorPanel.ts',
  ],
  concurrency: 2,
  // A mutant's timeout: 1.5 x its tests' time in the dry run plus this (Stryker's default). Each timeout also
  // restarts a test runner (~45 s lost a timeout with 10 s here); the mutants that time out are loops that no
  // longer end.
  timeoutMS: 5_000,
  // Tests build much of their data in describe bodies and at module level, outside any test: Stryker counts a
  // mutant reached there as static, and would rerun every test file for it (1841 of 2427 mutants: hours). With
  // ignoreStatic, a mutant also reached inside tests runs those tests with the mutant switched on for them only;
  // one reached only outside tests is left out of the score ("Ignored" in the report).
  ignoreStatic: true,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  // Outside the tree: biome (npm run lint) refuses a second biome.jsonc, the sandbox copy's, while a run is going or
  // after one was stopped. Named after the checkout, so two worktrees can run at once.
  tempDirName: join(tmpdir(), `evalverdict-stryker-${basename(process.cwd())}`),
  cleanTempDir: true,
};
