/**
 * Prints one plain closing line, `tests: N passed, N failed, N skipped`, after vitest's own summary, so CI
 * logs read the same whatever the runner's formatting. A test that did not run because its file failed outside
 * any test (a `beforeAll` that threw) counts as failed, not skipped.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      const moduleFailed = module.state() === 'failed';
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed' || moduleFailed) failed++;
        else skipped++;
      }
    }
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
