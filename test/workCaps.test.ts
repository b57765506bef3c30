/**
 * The caps on one query's work (src/aggregate/score.ts): at most MAX_HITS_PER_QUERY hits, the first by rank, and
 * MAX_CITATIONS_PER_ANSWER citations, in order, are scored; a run under the caps scores as it always did, and a run
 * over them gets one warning per run in every output that carries warnings.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { computeAggregate } from '../src/aggregate/aggregate.js';
import { MAX_CITATIONS_PER_ANSWER, MAX_HITS_PER_QUERY } from '../src/aggregate/score.js';
import type { AnswerCitation, QueryResult } from '../src/types.js';
import { chunkQuery, goldenSet, mkAnswer, rankedResult, runData } from './helpers/compareFixtures.js';
import { answer, hit, removeTempDirs, result, runCli, tempDir, writeGolden, writeRunDb } from './helpers/runDb.js';

afterAll(removeTempDirs);

const cite = (chunkId: string): AnswerCitation => ({ marker: null, chunkId, path: null, start: null, end: null });

/** `n` hits with q1's relevant chunk last, and an answer of `n` citations with the relevant one last. */
function lastIsRelevant(n: number): QueryResult {
  const citations = Array.from({ length: n }, (_, i) => cite(i === n - 1 ? 'q1-rel' : `q1-filler-${i + 1}`));
  return rankedResult('q1', n, { answer: mkAnswer('an answer', { citations }) }, n);
}

/** The same result with only its first `hits` hits and `citations` citations. */
function firstOf(r: QueryResult, hits: number, citations: number): QueryResult {
  return {
    ...r,
    hits: r.hits.slice(0, hits),
    answer: { ...r.answer!, citations: r.answer!.citations.slice(0, citations) },
  };
}

const golden = goldenSet([chunkQuery('q1'), chunkQuery('q2')]);
const other = rankedResult('q2', 1);

describe('one query with the most hits and citations scored: every rank read', () => {
  it('the relevant hit at rank 10,000 and the relevant citation 10,000th count, with no warning', () => {
    expect([MAX_HITS_PER_QUERY, MAX_CITATIONS_PER_ANSWER]).toEqual([10_000, 10_000]);
    const report = computeAggregate(runData('r', [lastIsRelevant(MAX_HITS_PER_QUERY), other]), golden);
    // q1 found at rank 10,000, q2 at rank 1: each metric that reads past any cutoff sees q1's last hit
    expect(report.metrics.rr.value).toBeCloseTo((1 / 10_000 + 1) / 2, 12);
    expect(report.metrics.MAP.value).toBeCloseTo((1 / 10_000 + 1) / 2, 12);
    expect(report.metrics['recall@10'].value).toBe(0.5);
    expect(report.metrics.citation_hit_rate).toMatchObject({ n: 1, value: 1 });
    expect(report.capped_query_ids).toBeUndefined();
  });
});

describe('one query over the caps: the first 10,000 hits and citations scored, one warning', () => {
  const over = lastIsRelevant(MAX_HITS_PER_QUERY + 1);

  it('scores exactly as the same result cut to its first 10,000 hits and citations', () => {
    const report = computeAggregate(runData('r', [over, other]), golden);
    const cut = computeAggregate(
      runData('r', [firstOf(over, MAX_HITS_PER_QUERY, MAX_CITATIONS_PER_ANSWER), other]),
      golden,
    );
    expect(report.metrics).toEqual(cut.metrics);
    // the relevant hit at rank 10,001 and citation 10,001 are past the caps: q1 found nothing
    expect(report.metrics.rr.value).toBe(0.5);
    expect(report.metrics.citation_hit_rate).toMatchObject({ n: 1, value: 0 });
    expect(report.capped_query_ids).toEqual(['q1']);
  });

  it('only hits over the cap, or only citations: each alone is cut and counted', () => {
    const hitsOnly = firstOf(over, MAX_HITS_PER_QUERY + 1, 1);
    const citationsOnly = { ...firstOf(over, 10, MAX_CITATIONS_PER_ANSWER + 1), queryId: 'q2' };
    const report = computeAggregate(runData('r', [hitsOnly, citationsOnly]), golden);
    expect(report.capped_query_ids).toEqual(['q1', 'q2']);
    expect(computeAggregate(runData('r', [firstOf(over, 10, 10), other]), golden).capped_query_ids).toBeUndefined();
  });

  it('the warning in stderr (once per run, naming a query), the text, JSON and Markdown reports', async () => {
    const hits = (n: number) => Array.from({ length: n }, (_, i) => hit(i + 1, i === 0 ? 'q1-rel' : `f${i}`, 'd'));
    const citations = Array.from({ length: MAX_CITATIONS_PER_ANSWER + 1 }, () => ({ chunk_id: 'q1-rel' }));
    const results = [
      result('q1', hits(MAX_HITS_PER_QUERY + 5), { answer: answer('a', citations) }),
      result('q2', hits(MAX_HITS_PER_QUERY + 1)),
    ];
    const dir = tempDir();
    const candidate = await writeRunDb({ runs: [{ runId: 'cand', results }] }, `${dir}/candidate.sqlite`);
    const baseline = await writeRunDb(
      { runs: [{ runId: 'base', results: [result('q1', hits(3))] }] },
      `${dir}/b.sqlite`,
    );
    const goldenFile = writeGolden(
      '- id: q1\n  query: a\n  expected_chunk_ids: [q1-rel]\n- id: q2\n  query: b\n  expected_chunk_ids: [q2-rel]\n',
    );
    const note = `${candidate}: run \`cand\`: 2 queries have more than 10,000 hits or 10,000 answer citations; only the first by rank (citations: in order) are scored (e.g. "q1")`;

    const aggregated = await runCli(['aggregate', candidate, '--golden', goldenFile]);
    expect(aggregated.status).toBe(0);
    expect(aggregated.stderr.split(note).length - 1).toBe(1);
    expect(aggregated.stdout).toContain(
      '2 queries have more than 10,000 hits or 10,000 answer citations: only the first by rank (citations: in order) are scored\n',
    );
    const json = await runCli(['aggregate', candidate, '--golden', goldenFile, '--json']);
    expect(JSON.parse(json.stdout).capped_query_ids).toEqual(['q1', 'q2']);
    const rows = await runCli(['aggregate', candidate, '--golden', goldenFile, '--per-query', '--format', 'json']);
    expect(JSON.parse(rows.stdout).capped_query_ids).toEqual(['q1', 'q2']);

    const sentence = 'has 2 queries with more than 10,000 hits or 10,000 answer citations: only the first are scored';
    const compared = await runCli(['compare', baseline, candidate, '--golden', goldenFile, '--format', 'text']);
    expect(compared.stderr.split(note).length - 1).toBe(1);
    expect(compared.stderr).not.toContain('b.sqlite: run `base`: ');
    expect(compared.stdout).toContain(`warning: the candidate ${sentence}`);
    const markdown = await runCli(['compare', baseline, candidate, '--golden', goldenFile, '--format', 'markdown']);
    expect(markdown.stdout).toContain(`- ⚠️ The candidate ${sentence}.`);
    const report = await runCli(['compare', baseline, candidate, '--golden', goldenFile, '--format', 'json']);
    expect(JSON.parse(report.stdout).golden.capped_query_ids).toEqual({ baseline: [], candidate: ['q1', 'q2'] });
    // the same databases compared the other way: the baseline's warning
    const swapped = await runCli(['compare', candidate, baseline, '--golden', goldenFile, '--format', 'text']);
    expect(swapped.stdout).toContain(`warning: the baseline ${sentence}`);
    // candidate-only: no baseline, so no baseline's warning
    const alone = await runCli([
      'compare',
      '--baseline',
      'none',
      candidate,
      '--golden',
      goldenFile,
      '--format',
      'json',
    ]);
    expect(JSON.parse(alone.stdout).golden.capped_query_ids).toEqual({ baseline: [], candidate: ['q1', 'q2'] });
    const aloneText = await runCli([
      'compare',
      '--baseline',
      'none',
      candidate,
      '--golden',
      goldenFile,
      '--format',
      'text',
    ]);
    expect(aloneText.stdout).toContain(`warning: the candidate ${sentence}`);
    expect(aloneText.stdout).not.toContain('warning: the baseline');
  }, 60_000);
});
