/**
 * Runs the longest test files first, so the suite does not end with one long file on one core while the other idles.
 * vitest orders by the durations in its cache, but a fresh clone (CI) has none and falls back to file size, which put
 * the 28 s hostileLargeValues.test.ts last. Order only: a stale list costs time, never a result.
 */
import type { TestSpecification } from 'vitest/node';
import { BaseSequencer } from 'vitest/node';

/** Longest first, as vitest's summary line names them on the 2-core machine. */
export const LONGEST_FIRST = [
  'test/hostileLargeValues.test.ts',
  'test/actionThreads.test.ts',
  'test/baselineArtifact.test.ts',
  'test/actionBounds.test.ts',
  'test/actionReports.test.ts',
  'test/actionAcceptComment.test.ts',
  'test/actionFailures.test.ts',
  'test/actionAccept.test.ts',
  'test/action.test.ts',
  'test/markdown.test.ts',
  'test/docsCommands.test.ts',
  'test/repeatsNoise.test.ts',
  'test/unjudgedTemplate.test.ts',
  'test/hostile.test.ts',
  'test/outputFiles.test.ts',
  'test/compareEndToEnd.test.ts',
];

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const projects = [...new Set(base.map((spec) => spec.project.name))];
    const rank = (spec: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    // The projects in vitest's order (they run one after the other), the listed files first in each, the rest in
    // vitest's order (the sort is stable).
    return [...base].sort(
      (a, b) => projects.indexOf(a.project.name) - projects.indexOf(b.project.name) || rank(a) - rank(b),
    );
  }
}
