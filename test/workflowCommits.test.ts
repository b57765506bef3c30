/**
 * A run whose database records no commit takes the workflow context's (src/render/reportParts.ts
 * withWorkflowCommits): the candidate's from the commit the workflow run evaluated, the baseline's from the head of
 * the run that uploaded its artifact. The Markdown, the text report and the JSON (`commit_source`) say where it came
 * from; a recorded commit wins, and the candidate-of-another-commit warning stays.
 */
import { describe, expect, it } from 'vitest';
import { compareCandidateOnly } from '../src/compare/compare.js';
import { applyGates } from '../src/gate/gates.js';
import { GITHUB_COMMENT_LIMIT, renderReportMarkdown } from '../src/render/markdown.js';
import { withWorkflowCommits } from '../src/render/reportParts.js';
import type { ReportContext } from '../src/render/reportContext.js';
import { renderReportText } from '../src/render/text.js';
import { chunkQuery, compareAndGate, goldenSet, NO_GATES, rankedResult, runData } from './helpers/compareFixtures.js';

const golden = goldenSet([chunkQuery('q1')]);
const results = [rankedResult('q1', 1)];
const HEAD = 'c'.repeat(40);
const ARTIFACT_RUN_HEAD = 'd'.repeat(40);
const CONTEXT: ReportContext = {
  repoUrl: 'https://github.com/o/r',
  headSha: HEAD,
  baselineFrom: {
    source: 'artifact:evalverdict-baseline',
    runUrl: 'https://github.com/o/r/actions/runs/5',
    commitsBehind: 0,
    baseCommitRun: true,
    headSha: ARTIFACT_RUN_HEAD,
  },
};

function reportOf(commits: { baseline?: string; candidate?: string }, context: ReportContext) {
  const { report, defs } = compareAndGate(
    runData('base-run', results, { commitHash: commits.baseline, createdAt: '2026-11-01T00:00:00Z' }),
    runData('cand-run', results, { commitHash: commits.candidate, createdAt: '2026-11-02T00:00:00Z' }),
    golden,
    NO_GATES,
  );
  return { report: withWorkflowCommits(report, context), defs };
}

const markdownOf = ({ report, defs }: ReturnType<typeof reportOf>, context: ReportContext) =>
  renderReportMarkdown(report, defs, { maxLength: GITHUB_COMMENT_LIMIT, context });
/** The provenance line: the one that starts with the candidate run. */
const provenanceOf = (md: string) => md.split('\n').find((l) => l.startsWith('**Candidate**')) ?? '';

describe('commits from the workflow context', () => {
  it('neither database records a commit: both come from the workflow, and every format says so', () => {
    const out = reportOf({}, CONTEXT);
    expect(out.report.candidate).toMatchObject({ commit_hash: HEAD, commit_source: 'workflow_run' });
    expect(out.report.baseline).toMatchObject({ commit_hash: ARTIFACT_RUN_HEAD, commit_source: 'workflow_run' });

    const line = provenanceOf(markdownOf(out, CONTEXT));
    expect(line).toContain(
      `**Candidate** cand-run at [\`ccccccc\`](https://github.com/o/r/commit/${HEAD}) (from the workflow run; 2026-11-02T00:00:00Z)`,
    );
    expect(line).toContain(
      `**vs baseline** base-run at [\`ddddddd\`](https://github.com/o/r/commit/${ARTIFACT_RUN_HEAD}) (from the artifact's workflow run), 1 day older, from [\`artifact:evalverdict-baseline\`]`,
    );
    expect(line).not.toContain('no commit');

    const text = renderReportText(out.report, out.defs, false, CONTEXT);
    expect(text).toContain('candidate cand-run at cccccccccccc (from the workflow run; 2026-11-02T00:00:00Z)');
    expect(text).toContain(
      "baseline  base-run at dddddddddddd (from the artifact's workflow run; 2026-11-01T00:00:00Z, 1 day older)",
    );
    // The filled commit is the head: no "made at another commit" warning.
    expect(text).not.toContain('warning:');
  });

  it('a commit the database records wins, says nothing of its source, and keeps the other-commit warning', () => {
    const recorded = { baseline: 'a'.repeat(40), candidate: 'b'.repeat(40) };
    const out = reportOf(recorded, CONTEXT);
    expect(out.report.candidate).toMatchObject({ commit_hash: recorded.candidate, commit_source: 'database' });
    expect(out.report.baseline).toMatchObject({ commit_hash: recorded.baseline, commit_source: 'database' });
    const md = markdownOf(out, CONTEXT);
    expect(provenanceOf(md)).not.toContain('from the workflow run');
    expect(provenanceOf(md)).toContain('`bbbbbbb`](https://github.com/o/r/commit/bbbb');
    expect(md).toContain('- ⚠️ The candidate run was made at [`bbbbbbb`]');
    const text = renderReportText(out.report, out.defs, false, CONTEXT);
    expect(text).toContain('candidate cand-run at bbbbbbbbbbbb (2026-11-02T00:00:00Z)');
    expect(text).toContain('warning: the candidate run was made at');
  });

  it('one side recorded, the other not: each says its own', () => {
    const out = reportOf({ candidate: 'b'.repeat(40) }, CONTEXT);
    expect(out.report.candidate.commit_source).toBe('database');
    expect(out.report.baseline).toMatchObject({ commit_hash: ARTIFACT_RUN_HEAD, commit_source: 'workflow_run' });
  });

  it('no context (the CLI, a baseline by path): "no commit" as before, commit_source null', () => {
    const out = reportOf({}, {});
    expect(out.report.candidate).toMatchObject({ commit_hash: null, commit_source: null });
    expect(out.report.baseline).toMatchObject({ commit_hash: null, commit_source: null });
    expect(provenanceOf(markdownOf(out, {}))).toContain('cand-run at no commit (2026-11-02T00:00:00Z)');
    // A baseline given by path has no artifact run: only the candidate takes the workflow's commit.
    const byPath = reportOf({}, { headSha: HEAD });
    expect(byPath.report.baseline).toMatchObject({ commit_hash: null, commit_source: null });
    expect(provenanceOf(markdownOf(byPath, { headSha: HEAD }))).toContain('base-run at no commit');
  });

  it('a candidate-only report fills the candidate alone', () => {
    const { report } = applyGates(compareCandidateOnly(runData('cand-run', results), golden), NO_GATES);
    const filled = withWorkflowCommits(report, CONTEXT);
    expect(filled.baseline).toBeNull();
    expect(filled.candidate).toMatchObject({ commit_hash: HEAD, commit_source: 'workflow_run' });
  });
});
