import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/longestFirstSequencer.js';

/**
 * Test files that read module state of src/ as it is in a fresh process (resultJson.ts's count of template reads):
 * they run isolated, each in a process of its own. Every other file shares its worker's modules with the files the
 * worker ran before it (`isolate: false`): importing src/ and its dependencies again for each of ~80 files was
 * ~90 s of the suite's CPU time.
 */
const NEEDS_FRESH_MODULES = [
  'test/coreSpec.test.ts',
  'test/kebabHitFields.test.ts',
  'test/readerNotice.test.ts',
  'test/resultJson.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // forks, not threads: in a worker thread `process.env.TZ = ...` does not change the time zone, and
    // runDatabaseErrors.test.ts sets it to prove the newest run does not depend on the machine's zone.
    pool: 'forks',
    // vitest's default for `run` is one worker fewer than the CPUs: one on these 2-core machines, where the files
    // then ran one after another. Twice the CPUs: the action and bundle files (test/action*.test.ts, split so they
    // spread over the workers) spend much of their time waiting on child processes and on the stand-in API's delays,
    // retries and write spacing, and the other workers fill those waits (bench/README.md, "The test suite's own
    // speed").
    maxWorkers: availableParallelism() * 2,
    reporters: ['default', './test/summaryReporter.ts'],
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          isolate: false,
          exclude: [...configDefaults.exclude, ...NEEDS_FRESH_MODULES],
          // The smaller Cranfield fixtures the end-to-end action tests run the bundle on, written once per run.
          globalSetup: ['./test/helpers/smallFixturesSetup.ts'],
        },
      },
      { extends: true, test: { name: 'isolated', include: NEEDS_FRESH_MODULES } },
    ],
  },
});
