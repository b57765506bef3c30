/**
 * The 001 core-metrics runner's fixture (fixtures/core-spec/, built by scripts/build-core-spec-fixture.ts): a notes
 * vault of 13 notes, 11 test cases, a baseline run (chunker md-v1) and a candidate run (md-v2: a re-chunk, and the
 * expenses note's heading renamed). Each run is aggregated and the two compared through the code paths of
 * `evalverdict aggregate` and `evalverdict compare`; every expected value is worked out by hand beside it from the spec
 * (../shared/seeds/001-core-eval-metrics-spec.txt), naming its section.
 *
 * The cases, first relevant rank baseline -> candidate (retrieval: 8 answerable, non-pending questions):
 *   q01 work      Staging > Network             1 -> 1 (re-chunked to Staging > Network > Ports: still a prefix match)
 *   q02 work      Expenses > Approval           3 -> miss (heading renamed "Approvals": no prefix match)
 *   q03 personal  Car > Maintenance             2 -> 1
 *   q04 personal  unanswerable                  refused -> answered
 *   q05 work      unanswerable                  answered -> refused
 *   q06 work      cite_newer (on-call)          1 -> 1; cites the older note -> cites the newer only
 *   q07 personal  acknowledge_both (dentist)    1 -> 1; acknowledged -> conflict_acknowledged: false
 *   q08 work      Secrets > Rotation            1 -> status error (no hits, no answer)
 *   q09 personal  Soups > Lentil (snippet)      status timeout -> rank 1 with an empty answer
 *   q10 work      pending (retro note)          baseline skipped the note's chunk; candidate finds it
 *   q11 work      VPN > Setup                   1 -> no result row (missing)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AggregateReport } from '../src/aggregate/aggregate.js';
import type { CompareReport } from '../src/gate/types.js';
import { runAggregate } from '../src/pipeline/runAggregate.js';
import { runCompare } from '../src/pipeline/runCompare.js';
import { buildCoreSpecFixture, CORE_SPEC_FILES } from '../scripts/build-core-spec-fixture.js';
import { repoRoot } from './shared.js';

const dir = join(repoRoot, 'fixtures', 'core-spec');
const golden = join(dir, 'golden.yaml');

let baseline: AggregateReport;
let candidate: AggregateReport;
let compared: CompareReport;

beforeAll(async () => {
  baseline = (await runAggregate({ runPath: join(dir, 'baseline.sqlite'), goldenPath: golden })).report;
  candidate = (await runAggregate({ runPath: join(dir, 'candidate.sqlite'), goldenPath: golden })).report;
  ({ report: compared } = await runCompare({
    baselinePath: join(dir, 'baseline.sqlite'),
    candidatePath: join(dir, 'candidate.sqlite'),
    goldenPath: golden,
  }));
});

/** value and n of a metric; values to 10 places, as the hand fractions are not exact in binary. */
function metric(report: AggregateReport, name: string): { value: number | null; n: number } {
  const m = report.metrics[name];
  expect(m, name).toBeDefined();
  return m;
}
function expectMetric(report: AggregateReport, name: string, value: number | null, n: number): void {
  const m = metric(report, name);
  expect(m.n, `${name}: n`).toBe(n);
  if (value === null) expect(m.value, name).toBeNull();
  else expect(m.value, name).toBeCloseTo(value, 10);
}

describe('fixtures/core-spec: the 001 runner, aggregated', () => {
  it('reads both runs whole: 10 scored questions and 1 pending, the candidate missing q11', () => {
    expect(baseline.golden.queries).toBe(10);
    expect(baseline.golden.pending).toBe(1);
    expectMetric(baseline, 'missing_queries', 0, 10);
    expectMetric(candidate, 'missing_queries', 1, 10); // q11 has no row
  });

  it('§1 Recall_any@K by rel_path + heading-prefix: a re-chunk still matches, a renamed heading does not', () => {
    // Baseline first relevant ranks over q01 q02 q03 q06 q07 q08 q09 q11: 1, 3, 2, 1, 1, 1, miss (timeout), 1.
    expectMetric(baseline, 'hit@1', 5 / 8, 8); // ranks 1: q01 q06 q07 q08 q11
    expectMetric(baseline, 'hit@3', 7 / 8, 8); // all but q09
    // Candidate: 1 (Staging > Network > Ports starts with Staging > Network), miss (Expenses > Approvals is not
    // the segment Approval), 1, 1, 1, miss (error), 1 (snippet "red lentils" in the chunk text), miss (missing).
    expectMetric(candidate, 'hit@1', 5 / 8, 8);
    expectMetric(candidate, 'hit@3', 5 / 8, 8);
    // Multi-hop Recall_all@K: no test case has required_support_groups.
    expectMetric(baseline, 'recall_all@10', null, 0);
  });

  it('§2 MRR and §3 Precision@K', () => {
    expectMetric(baseline, 'mrr@10', (1 + 1 / 3 + 1 / 2 + 1 + 1 + 1 + 0 + 1) / 8, 8);
    expectMetric(candidate, 'mrr@10', (1 + 0 + 1 + 1 + 1 + 0 + 1 + 0) / 8, 8);
    // §3: matching chunks among the top 3, / 3. Baseline: q01 1, q02 1, q03 1, q06 2 (either note), q07 2, q08 1,
    // q09 0, q11 1. Candidate: q01 2 (Ports and DNS are both under Staging > Network), q02 0, q03 2 (Schedule,
    // Tyres), q06 2, q07 2, q08 0, q09 1, q11 0.
    expectMetric(baseline, 'P@3', 9 / 3 / 8, 8);
    expectMetric(candidate, 'P@3', 9 / 3 / 8, 8);
  });

  it('§5 Attribution Hit Rate over answerable questions with an answer; citation coverage over answers', () => {
    // Baseline answers of q01 q02 q03 q06 q07 q08 q11 (q09 timed out: no answer): q03 cites Car > Insurance (0);
    // q06 cites the 2023 note's On-call > Rotation, which meets the older support (1).
    expectMetric(baseline, 'attribution_hit_rate', 6 / 7, 7);
    // Candidate q01 q02 q03 q06 q07 q09 (q08 errored, q11 missing): q02 cites Approvals (0), q09's empty answer
    // cites nothing (0).
    expectMetric(candidate, 'attribution_hit_rate', 4 / 6, 6);
    // Every reference resolves to a chunk of its path whose heading starts with it; no references = not covered.
    // Baseline non-refusals q01 q02 q03 q05 q06 q07 q08 q11: q01 also cites Staging > Firewall, a section no chunk
    // has (0); q06's "On-call" reference resolves (On-call > Rotation starts with it).
    expectMetric(baseline, 'citation_coverage', 7 / 8, 8);
    // Candidate non-refusals q01 q02 q03 q04 q06 q07 q09: q09 empty, no references (0); Approvals is a chunk here.
    expectMetric(candidate, 'citation_coverage', 6 / 7, 7);
  });

  it('§6 Groundedness, §7 Correctness and the Judge Reliability Spot-Check, as the runner stored them', () => {
    // Baseline judged q01 q02 q03 q05 q06 q07 q08 q11: groundedness 4 5 3 1 4 5 5 4, correctness 5 5 2 0 2 4 5 4.
    expectMetric(baseline, 'judge_groundedness_mean', 31 / 8, 8);
    expectMetric(baseline, 'judge_groundedness_ge4_rate', 6 / 8, 8);
    expectMetric(baseline, 'judge_correctness_mean', 27 / 8, 8);
    // Candidate q01 q02 q03 q04 q06 q07 q09: groundedness 5 5 5 0 5 4 0, correctness 5 4 5 0 5 3 0.
    expectMetric(candidate, 'judge_groundedness_mean', 24 / 7, 7);
    expectMetric(candidate, 'judge_correctness_mean', 22 / 7, 7);
    // Spot checks ("score difference > 1 point"): baseline q02 5/5 vs 5/5, q05 1/0 vs 3/0 (2 points: disagree),
    // q08 5/5 vs 4/5 (1 point: agree); candidate q01 agrees, q07 4/3 vs 2/3 disagrees.
    expect(baseline.judge_reliability).toEqual({ disagreement_rate: 1 / 3, spot_check_n: 3 });
    expect(candidate.judge_reliability).toEqual({ disagreement_rate: 1 / 2, spot_check_n: 2 });
    // Performance Metrics, Cost: judge.usage, 1200 prompt tokens per judged answer.
    expectMetric(baseline, 'judge_prompt_tokens_total', 8 * 1200, 8);
  });

  it('§8 Abstention Accuracy and §9 Hallucination Rate on Unanswerable (q04, q05)', () => {
    // Baseline refuses q04 (abstained: true) and answers q05; the candidate the other way round: 1 of 2 each.
    expectMetric(baseline, 'refusal_correctness', 1 / 2, 2);
    expectMetric(baseline, 'under_refusal_rate', 1 / 2, 2);
    expectMetric(candidate, 'refusal_correctness', 1 / 2, 2);
    // No answerable question is refused; the empty answer (abstained: false) is no refusal.
    expectMetric(candidate, 'over_refusal_rate', 0, 6);
  });

  it('§1 Recency/Conflict Cases: cite_newer (q06) and acknowledge_both (q07)', () => {
    // Baseline: q06 cites the older note (0); q07 cites both and acknowledges the conflict (1).
    expectMetric(baseline, 'recency_conflict_correctness', 1 / 2, 2);
    // Candidate: q06 cites the newer note only (1); q07 cites both but says conflict_acknowledged: false (0).
    expectMetric(candidate, 'recency_conflict_correctness', 1 / 2, 2);
  });

  it('Operational Metrics: error, timeout and empty response rates over the questions with a result', () => {
    // Baseline: 10 results (q10 pending is apart), q09 timed out.
    expectMetric(baseline, 'error_rate', 1 / 10, 10);
    expectMetric(baseline, 'timeout_rate', 1 / 10, 10);
    expectMetric(baseline, 'empty_answer_rate', 0, 10);
    // Candidate: 9 results (q11 missing); q08 errored and q09 returned empty: "failed / timed out / returned empty".
    expectMetric(candidate, 'error_rate', 2 / 9, 9);
    expectMetric(candidate, 'timeout_rate', 0, 9);
    expectMetric(candidate, 'empty_answer_rate', 1 / 9, 9); // 8 answers + q08's failure
  });

  it('Indexing Coverage: chunks skipped due to context and documents without chunks', () => {
    // Baseline index_stats: 16 attempted, 1 skipped (the retro note's one 9,000-token section).
    expectMetric(baseline, 'chunks_skipped_rate', 1 / 16, 16);
    // Candidate: 19 embedded, 0 skipped, no chunks_attempted (taken as 19 + 0).
    expectMetric(candidate, 'chunks_skipped_rate', 0, 19);
    // No Chunks Generated Rate: 13 notes; baseline has no chunk of the scanned PDF nor of the retro note.
    expectMetric(baseline, 'documents_without_chunks_rate', 2 / 13, 13);
    expectMetric(candidate, 'documents_without_chunks_rate', 1 / 13, 13);
    expect(baseline.coverage_by_doc_type).toEqual({
      md: { documents: 12, without_chunks: 1, without_chunks_rate: 1 / 12 },
      pdf: { documents: 1, without_chunks: 1, without_chunks_rate: 1 },
    });
  });

  it('Breakdown Metrics, "Vault": work and personal apart', () => {
    const vault = (r: AggregateReport, name: string) => r.breakdowns.vault![name]['hit@1'];
    // Baseline work q01 q02 q06 q08 q11: 1 0 1 1 1; personal q03 q07 q09: 0 1 0.
    expect(vault(baseline, 'work')).toEqual({ value: 4 / 5, n: 5 });
    expect(vault(baseline, 'personal').value).toBeCloseTo(1 / 3, 10);
    // Candidate work: 1 0 1 0 0; personal: 1 1 1.
    expect(vault(candidate, 'work')).toEqual({ value: 2 / 5, n: 5 });
    expect(vault(candidate, 'personal')).toEqual({ value: 1, n: 3 });
  });

  it('pending q10 is scored apart: a miss in the baseline, found at rank 1 by the candidate', () => {
    expect(baseline.pending_metrics?.['hit@1']).toEqual({ value: 0, n: 1 });
    expect(candidate.pending_metrics?.['hit@1']).toEqual({ value: 1, n: 1 });
  });
});

describe('fixtures/core-spec: baseline vs candidate, compared', () => {
  const outcome = (id: string) => compared.per_query.find((o) => o.query_id === id)!;

  it('per query: the rename and the error are regressions, the re-chunk a draw, the missing q11 a regression', () => {
    expect(compared.golden.removed).toEqual(['q11']);
    expect(compared.golden.pending).toBe(1);
    expect(compared.per_query.map((o) => o.query_id)).not.toContain('q10'); // pending: never compared
    expect([outcome('q01').kind, outcome('q01').note]).toEqual(['draw', 'rank 1 -> rank 1']);
    expect([outcome('q02').kind, outcome('q02').note]).toEqual(['regression', 'rank 3 -> miss']);
    expect([outcome('q03').kind, outcome('q03').note]).toEqual(['win', 'rank 2 -> rank 1']);
    expect([outcome('q08').kind, outcome('q08').note]).toEqual(['regression', 'rank 1 -> miss']);
    expect([outcome('q09').kind, outcome('q09').note]).toEqual(['win', 'miss -> rank 1']);
    expect([outcome('q11').kind, outcome('q11').note]).toEqual(['regression', 'rank 1 -> missing']);
    // §8/§9: q04 refused -> answered is an answer regression; q05 the other way is not.
    expect([outcome('q04').answer_changes, outcome('q04').answer_regression]).toEqual([
      ['refused -> answered (should refuse)'],
      true,
    ]);
    expect(outcome('q05').answer_regression).toBe(false);
    expect(compared.counts).toEqual({ win: 2, loss: 0, draw: 5, regression: 3, answer_regression: 1 });
  });

  it('the metrics side by side match each run aggregated alone', () => {
    expect(compared.metrics['mrr@10'].baseline).toBeCloseTo(35 / 48, 10); // (5 + 1/3 + 1/2) / 8
    expect(compared.metrics['mrr@10'].candidate).toBeCloseTo(5 / 8, 10);
    expect(compared.metrics.error_rate.candidate).toBeCloseTo(2 / 9, 10);
    expect(compared.differences).toEqual(['chunker_version', 'index_stats', 'index_version']);
    // Three regressions warn; with 8 paired questions no drop is significant, so no error-level gate fails.
    expect(compared.verdict).toBe('warn');
  });

  it('is up to date: rebuilding gives the committed bytes (else run: node --import tsx scripts/build-core-spec-fixture.ts)', async () => {
    const out = mkdtempSync(join(tmpdir(), 'evalverdict-core-spec-'));
    try {
      await buildCoreSpecFixture(out);
      for (const file of CORE_SPEC_FILES) {
        const fresh = readFileSync(join(out, file));
        expect(fresh.equals(readFileSync(join(dir, file))), `fixtures/core-spec/${file} is out of date`).toBe(true);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
