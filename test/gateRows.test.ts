/**
 * Gate rows that explain themselves (issue 34) and the commands around the verdict (issue 32): the relative change
 * where the threshold is relative, no p where there is no test, a `where` group below min_n said in every format,
 * `k` / `mrr_cutoff` from the config, and `evalverdict power`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatDelta, formatDeltaKeepingSign } from '../src/numberFormat.js';
import type { GateResult } from '../src/gate/types.js';
import { renderReportMarkdown } from '../src/render/markdown.js';
import { gateDeltaText, gateResultWords } from '../src/render/reportParts.js';
import { renderReportText } from '../src/render/text.js';
import {
  chunkQuery,
  compareAndGate,
  gates,
  goldenSet,
  mkAnswer,
  rankedResult,
  runData,
} from './helpers/compareFixtures.js';
import { runCli, removeTempDirs, tempDir } from './helpers/runDb.js';

afterAll(removeTempDirs);

const FIXTURES = ['fixtures/baseline.sqlite', 'fixtures/candidate.sqlite', '--golden', 'fixtures/golden.yaml'];

describe('gate rows', () => {
  it('a relative threshold shows the relative change beside the delta: +187 (+22%)', () => {
    const g = {
      metric: 'latency_p95_ms',
      level: 'error',
      max_increase_pct: 10,
      baseline: 850,
      candidate: 1037,
      delta: 187,
      result: 'fail',
      effect: 'fail',
      threshold: 'increase ≤ 10%',
      note: '',
    } as GateResult;
    expect(gateDeltaText(g, 'ms', 0.05)).toBe('+187 (+22%)');
    expect(gateDeltaText({ ...g, candidate: 800, delta: -50 }, 'ms', 0.05)).toBe('−50 (−5.9%)');
    // an absolute threshold: the delta alone
    expect(gateDeltaText({ ...g, max_increase_pct: undefined, max_increase: 100 }, 'ms', 0.05)).toBe('+187');
  });

  // 24 queries in category a, 3 in b; the candidate loses b's 3 hits.
  const golden = goldenSet([
    ...Array.from({ length: 24 }, (_, i) => chunkQuery(`a${i}`, { category: 'a' })),
    ...Array.from({ length: 3 }, (_, i) => chunkQuery(`b${i}`, { category: 'b' })),
  ]);
  const base = runData(
    'base',
    golden.queries.map((q) => rankedResult(q.id, 1)),
  );
  const cand = runData(
    'cand',
    golden.queries.map((q) => rankedResult(q.id, q.category === 'a' ? 1 : null)),
  );
  const { report, defs } = compareAndGate(
    base,
    cand,
    golden,
    gates('gates:\n  - metric: hit@5\n    min: 0.5\n  - metric: hit@5\n    where: { category: b }\n    min: 0.9\n'),
  );

  it('a gate without a test has no p in the JSON, the comment or the text', () => {
    expect(report.gates[0].p_value).toBeUndefined();
    const md = renderReportMarkdown(report, defs);
    const row = md.split('\n').find((l) => l.startsWith('| `hit@5` |'))!;
    expect(row).not.toMatch(/p \d|p </);
    expect(
      renderReportText(report, defs)
        .split('\n')
        .find((l) => l.startsWith('  hit@5 ')),
    ).not.toMatch(/ p /);
  });

  it('a `where` group below min_n says so in every format', () => {
    const small = report.gates[1];
    expect(small).toMatchObject({ result: 'info', effect: 'none' });
    expect(small.note).toMatch(/^informational: group category=b has 3 queries, fewer than min_n 20; not enforced$/);
    expect(gateResultWords(small)).toBe('below min_n, not enforced');
    expect(renderReportMarkdown(report, defs)).toContain('ℹ️ below min_n');
    expect(renderReportText(report, defs)).toContain('below min_n, not enforced');
  });
});

describe('a failed answer gate names its failing queries', () => {
  // groundedness: every must_contain string is in the answer; the candidate leaves it out on q1 and q4.
  const golden = goldenSet(Array.from({ length: 6 }, (_, i) => chunkQuery(`q${i}`, { mustContain: ['Paris'] })));
  const answered = (ungrounded: string[]) =>
    golden.queries.map((q) =>
      rankedResult(q.id, 1, { answer: mkAnswer(ungrounded.includes(q.id) ? 'Lyon' : 'Paris') }),
    );
  const { report, defs } = compareAndGate(
    runData('base', answered([])),
    runData('cand', answered(['q1', 'q4'])),
    golden,
    gates('gates:\n  - metric: groundedness\n    min: 0.9\n'),
  );

  it('in the JSON, in a collapsed section of the comment, and under the verdict of the text', () => {
    expect(report.gates[0]).toMatchObject({ result: 'fail', failing_queries: ['q1', 'q4'], failing_count: 2 });
    expect(renderReportMarkdown(report, defs)).toContain(
      '<details><summary>Queries that failed `groundedness` (2)</summary>\n\nq1, q4\n\n</details>',
    );
    expect(renderReportText(report, defs)).toContain('    failed by 2 queries: q1, q4\n');
  });
});

describe('the config sets k and mrr_cutoff; --k wins', () => {
  it('recall@20 can be gated from the config alone', async () => {
    const dir = tempDir();
    const config = join(dir, 'gates.yml');
    writeFileSync(config, 'k: [5, 10, 20]\ngates:\n  - metric: recall@20\n    min: 0\n');
    const res = await runCli(['compare', ...FIXTURES, '--config', config, '--format', 'json']);
    expect(res.stderr).toBe('');
    expect(JSON.parse(res.stdout).options.ks).toEqual([5, 10, 20]);
    // --k wins over the config's k, and the k a gate names joins it: the gate is never left without its metric.
    const flag = await runCli(['compare', ...FIXTURES, '--config', config, '--format', 'json', '--k', '3']);
    expect(flag.stderr).toBe('');
    expect(JSON.parse(flag.stdout).options.ks).toEqual([3, 20]);
  });

  it('a significant_only line gets a warning naming it', async () => {
    const dir = tempDir();
    const config = join(dir, 'gates.yml');
    writeFileSync(config, 'gates:\n  - metric: hit@5\n    max_drop: 0\n    significant_only: true\n');
    const res = await runCli(['compare', ...FIXTURES, '--config', config, '--format', 'json']);
    expect(res.stderr).toContain(`${config}:2: \`significant_only\` now reads the gate's`);
  });
});

describe('evalverdict power', () => {
  it('prints each tested gate of the default config with what it detects and the queries for the margin', async () => {
    const res = await runCli(['power', '--golden', 'fixtures/golden.yaml', '--baseline', 'fixtures/baseline.sqlite']);
    expect(res.status).toBe(0);
    const lines = res.stdout.split('\n');
    expect(lines[0]).toMatch(/^gate +queries +value +detects +margin +queries for the margin$/);
    expect(lines.slice(1, 5).map((l) => l.split(/ +/)[0])).toEqual(['hit@5', 'mrr@10', 'nDCG@10', 'recall@10']);
    // hit@5 of the baseline is 0.7733 over 225 queries
    expect(lines[1]).toMatch(/^hit@5 +225 +0\.7733 +0\.\d{4} +0\.1000 +(reached|about [\d,]+)$/);
    expect(res.stdout).toContain('one-sided, α 0.05, holm over 4 tests (each at α/4)');
  });

  it('refuses a bad --churn and a missing --golden (exit 2)', async () => {
    expect((await runCli(['power', '--golden', 'fixtures/golden.yaml', '--churn', '2'])).status).toBe(2);
    expect((await runCli(['power'])).status).toBe(2);
  });
});

describe("unjudged documents next to the retrieval gates (coded against the metrics helper's `judged@10`)", () => {
  const golden = goldenSet(Array.from({ length: 20 }, (_, i) => chunkQuery(`q${i}`)));
  const run = (id: string) =>
    runData(
      id,
      golden.queries.map((q) => rankedResult(q.id, 1)),
    );
  const gated = compareAndGate(run('base'), run('cand'), golden, gates('preset: retrieval\n'));
  const withJudged = (baseline: number, candidate: number) => ({
    ...gated.report,
    metrics: {
      ...gated.report.metrics,
      'judged@10': { ...gated.report.metrics['hit@5'], baseline, candidate, delta: candidate - baseline, n: 20 },
    },
  });

  it('a candidate judged@10 more than 0.05 below the baseline is said in the comment and the text', () => {
    // 20 queries x 10 places, 40% of them without a judged document: 80 places
    const report = withJudged(0.9, 0.6);
    const sentence =
      "In the candidate's top 10, 80 places hold a document nobody judged or none (judged@10 0.6000 against the baseline's 0.9000): P, nDCG and MAP may understate it.";
    expect(renderReportMarkdown(report, gated.defs)).toContain(`⚠️ ${sentence.replace('judged@10', '`judged@10`')}`);
    expect(renderReportText(report, gated.defs)).toContain(`warning: ${sentence}`);
  });

  it('a gap of 0.05 or less, or no judged@10, says nothing', () => {
    expect(renderReportMarkdown(withJudged(0.9, 0.85), gated.defs)).not.toContain(
      'places hold a document nobody judged',
    );
    expect(renderReportMarkdown(gated.report, gated.defs)).not.toContain('places hold a document nobody judged');
  });
});

describe('a gate interval end near 0 keeps its side when printed', () => {
  it('formatDeltaKeepingSign: more decimals until the sign shows; 0 and ordinary values as formatDelta', () => {
    expect(formatDeltaKeepingSign(-0.00002)).toBe('−0.00002');
    expect(formatDeltaKeepingSign(0.0000004)).toBe('+0.0000004');
    expect(formatDeltaKeepingSign(0)).toBe(formatDelta(0));
    expect(formatDeltaKeepingSign(-0.0547)).toBe('−0.0547');
    expect(formatDeltaKeepingSign(null)).toBe('n/a');
    // formatDelta alone prints both as ±0.0000: a significant fail's interval would read as reaching 0.
    expect(formatDelta(-0.00002)).toBe('±0.0000');
  });
});
