/**
 * Prints one plain closing line, `tests: N passed, N failed, N skipped`, after vitest's own summary, so CI
 * logs read the same whatever the runner's formatting. A test that did not run because its file failed outside
 * any test (a `beforeAll` that threw) counts as failed, not skipped. Before it, the five test files that took longest
 * (tests and hooks, each in its own worker), so where the suite's time goes shows in every run.
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
    const slowest = [...testModules]
      .map((m) => ({ file: m.relativeModuleId, seconds: m.diagnostic().duration / 1000 }))
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, 5);
    if (slowest.length > 1)
      process.stdout.write(`\nslowest files: ${slowest.map((s) => `${s.file} ${s.seconds.toFixed(1)} s`).join(', ')}`);
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
