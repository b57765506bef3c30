/**
 * Issue 46, "A runner's typo can still look like a regression in the comment": compare's runner-mistake warnings
 * (a misspelt key, hits that can match nothing) are in the Markdown's warning lines, the text report and the JSON,
 * with the count `evalverdict validate` gives for the same run (every row checked once one is found).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runCompare } from '../src/pipeline/runCompare.js';
import { renderReportText } from '../src/render/text.js';
import { checkRunFile } from '../src/validate/checkRunFile.js';
import { formatFinding, RunChecker } from '../src/validate/findings.js';
import { PIPELINE_CHECK_ROWS } from '../src/validate/pipelineChecks.js';
import { openRunStream } from '../src/load/runDatabase.js';
import { runAggregate } from '../src/pipeline/runAggregate.js';
import { hit, removeTempDirs, result, runCli, spawnCli, writeGolden, writeRunDb } from './helpers/runDb.js';
import type { Json } from './helpers/runDb.js';

afterAll(removeTempDirs);

const QUERIES = 600;
const id = (i: number) => `q${String(i).padStart(3, '0')}`;

/** 600 queries, each expecting its own document `d<i>`. */
function golden(): string {
  return writeGolden(
    Array.from(
      { length: QUERIES },
      (_, i) => `- id: ${id(i)}\n  query: question ${i}\n  expected_doc_ids: [d${i}]\n`,
    ).join(''),
  );
}

/** A run whose query i retrieves `d<i>` first; where `typo(i)`, its hits name the document `docId` (no id read). */
function run(runId: string, typo: (i: number) => boolean, createdAt = '2026-11-02T00:00:00Z') {
  const hitsOf = (i: number): Json[] =>
    typo(i)
      ? [
          { rank: 1, docId: `d${i}`, score: 0.9 },
          { rank: 2, docId: 'd-other', score: 0.5 },
        ]
      : [hit(1, `c${i}`, `d${i}`), hit(2, 'c-other', 'd-other')];
  return {
    runs: [{ runId, createdAt, results: Array.from({ length: QUERIES }, (_, i) => result(id(i), hitsOf(i))) }],
  };
}

/** Typo on every other query: q001, q003, ... (300 queries, spread through the run as a runner's bug is). */
const everyOther = (i: number) => i % 2 === 1;

describe("a runner's typo on half the queries of a 600-query candidate", () => {
  it('is in the Markdown, the text report and the JSON, with the count validate prints', async () => {
    const goldenPath = golden();
    const baseline = await writeRunDb(run('base', () => false, '2026-11-01T00:00:00Z'));
    const candidate = await writeRunDb(run('cand', everyOther));

    const validated = await runCli(['validate', candidate, '--golden', goldenPath]);
    expect(validated.status).toBe(1);
    expect(validated.stdout).toContain(
      'unknown key `hits_top_k[].docId` in `result_json` (ignored); did you mean `doc_id`? (in 300 queries; the first is shown)',
    );
    expect(validated.stdout).toContain('2 hits have no `chunk_id`, `doc_id` or `doc_path`');

    const out = await runCompare({ baselinePath: baseline, candidatePath: candidate, goldenPath });
    const typoLine =
      '- ⚠️ The candidate run cand has an unknown key `hits_top_k[].docId` in 300 of its 600 results (ignored; did you mean `doc_id`?).';
    const unmatchableLine =
      '- ⚠️ The candidate run cand has hits with no `chunk_id`, `doc_id` or `doc_path` in 300 of its 600 results: they can match nothing in the golden set.';
    expect(out.markdown).toContain(typoLine);
    expect(out.markdown).toContain(unmatchableLine);
    expect(out.markdownFull).toContain(typoLine);

    const text = renderReportText(out.report, out.defs, false, out.context);
    expect(text).toContain(
      'warning: the candidate run cand has an unknown key hits_top_k[].docId in 300 of its 600 results (ignored; did you mean doc_id?)',
    );

    const json = JSON.parse(out.json);
    expect(json.runner_warnings).toEqual([
      {
        side: 'candidate',
        run: 'cand',
        check: 'unknown-key',
        field: 'hits_top_k[].docId',
        meant: 'doc_id',
        queries: 300,
        results: 600,
        first_query: 'q001',
        most_results: false,
      },
      {
        side: 'candidate',
        run: 'cand',
        check: 'unmatchable-hit',
        field: 'hits_top_k[]',
        meant: null,
        queries: 300,
        results: 600,
        first_query: 'q001',
        most_results: false,
      },
    ]);
    // stderr keeps validate's own words, with validate's count, once each
    const stderr = out.warnings.map((w) => ('text' in w ? w.text : '')).join('\n');
    expect(stderr).toContain('did you mean `doc_id`? (in 300 queries; the first is shown)');
    expect(stderr.match(/docId/g)).toHaveLength(1);
  });

  it('the CLI prints the same line in each format, and exits 1 on the regression it explains', async () => {
    const goldenPath = golden();
    const baseline = await writeRunDb(run('base', () => false, '2026-11-01T00:00:00Z'));
    const candidate = await writeRunDb(run('cand', everyOther));
    const md = await runCli(['compare', baseline, candidate, '--golden', goldenPath, '--format', 'markdown']);
    expect(md.status).toBe(1);
    expect(md.stdout).toContain('unknown key `hits_top_k[].docId` in 300 of its 600 results');
    const json = await runCli(['compare', baseline, candidate, '--golden', goldenPath, '--format', 'json']);
    expect(JSON.parse(json.stdout).runner_warnings.map((w: { queries: number }) => w.queries)).toEqual([300, 300]);
  });

  it("a baseline's mistake is named as the baseline's", async () => {
    const goldenPath = golden();
    const baseline = await writeRunDb(run('base', everyOther, '2026-11-01T00:00:00Z'));
    const candidate = await writeRunDb(run('cand', () => false));
    const out = await runCompare({ baselinePath: baseline, candidatePath: candidate, goldenPath });
    expect(out.markdown).toContain(
      'The baseline run base has an unknown key `hits_top_k[].docId` in 300 of its 600 results',
    );
    expect(JSON.parse(out.json).runner_warnings[0]).toMatchObject({ side: 'baseline', run: 'base', queries: 300 });
  });

  it('a key from the inputs is escaped in the Markdown: no mention, no cell break', async () => {
    const goldenPath = golden();
    const baseline = await writeRunDb(run('base', () => false, '2026-11-01T00:00:00Z'));
    const hostile = (i: number) =>
      result(id(i), i % 2 === 1 ? [{ rank: 1, 'doc_@d': `d${i}`, chunk_id: `c${i}` }] : [hit(1, `c${i}`, `d${i}`)]);
    const candidate = await writeRunDb({
      runs: [{ runId: 'cand|@team', results: Array.from({ length: QUERIES }, (_, i) => hostile(i)) }],
    });
    const out = await runCompare({ baselinePath: baseline, candidatePath: candidate, goldenPath });
    const line = out.markdown.split('\n').find((l) => l.includes('unknown key'));
    expect(line).toBe(
      '- ⚠️ The candidate run cand\\|@&#8203;team has an unknown key hits\\_top\\_k\\[\\].doc\\_@d in 300 of its 600 results (ignored; did you mean `doc_id`?).',
    );
    expect(JSON.parse(out.json).runner_warnings).toMatchObject([{ field: 'hits_top_k[].doc_@d', meant: 'doc_id' }]);
  });

  it('a clean run: no warning line and no runner_warnings key', async () => {
    const goldenPath = golden();
    const baseline = await writeRunDb(run('base', () => false, '2026-11-01T00:00:00Z'));
    const candidate = await writeRunDb(run('cand', () => false));
    const out = await runCompare({ baselinePath: baseline, candidatePath: candidate, goldenPath });
    expect(out.markdown).not.toContain('⚠️');
    expect(JSON.parse(out.json)).not.toHaveProperty('runner_warnings');
  });
});

describe('repeated runs', () => {
  it('each run of a side is checked and named: the mistake of one candidate run of two', async () => {
    const goldenPath = writeGolden(
      Array.from({ length: QUERIES }, (_, i) => `- id: ${id(i)}\n  query: q\n  expected_chunk_ids: [c${i}]\n`).join(''),
    );
    const hits = (i: number, typo: boolean): Json[] =>
      typo ? [{ rank: 1, chunkId: `c${i}`, doc_path: 'x.md' }] : [hit(1, `c${i}`, `d${i}`)];
    const runOf = (runId: string, typo: (i: number) => boolean, createdAt: string) => ({
      runId,
      createdAt,
      results: Array.from({ length: QUERIES }, (_, i) => result(id(i), hits(i, typo(i)))),
    });
    const baseline = await writeRunDb({ runs: [runOf('b1', () => false, '2026-11-01T00:00:00Z')] });
    const candidate = await writeRunDb({
      runs: [runOf('c1', () => false, '2026-11-02T00:00:00Z'), runOf('c2', (i) => i % 3 === 0, '2026-11-02T01:00:00Z')],
    });
    const out = await runCompare({ baselinePath: baseline, candidatePath: candidate, goldenPath, candidateRun: 'all' });
    expect(JSON.parse(out.json).runner_warnings).toEqual([
      {
        side: 'candidate',
        run: 'c2',
        check: 'unknown-key',
        field: 'hits_top_k[].chunkId',
        meant: 'chunk_id',
        queries: 200,
        results: 600,
        first_query: 'q000',
        most_results: false,
      },
    ]);
    expect(out.markdown).toContain(
      'The candidate run c2 has an unknown key `hits_top_k[].chunkId` in 200 of its 600 results',
    );
  });
});

describe('how much of a run compare checks', () => {
  it(`a clean run: the first ${PIPELINE_CHECK_ROWS} results, then on only to a usable hit`, async () => {
    const goldenPath = golden();
    const candidate = await writeRunDb(run('cand', () => false));
    const check = await checkRunFile(candidate, 'cand', null, { rows: PIPELINE_CHECK_ROWS });
    expect(check).toMatchObject({ rows: PIPELINE_CHECK_ROWS, partial: true, findings: [] });
    expect(goldenPath).toBeTruthy();
  });

  it('a mistake in the first rows: every row, so the count is the whole run’s (as validate counts)', async () => {
    const candidate = await writeRunDb(run('cand', everyOther));
    const bounded = await checkRunFile(candidate, 'cand', null, { rows: PIPELINE_CHECK_ROWS });
    const whole = await checkRunFile(candidate, 'cand', null);
    expect(bounded.partial).toBe(false);
    expect(bounded.rows).toBe(QUERIES);
    expect(bounded.findings).toEqual(whole.findings);
  });

  it("checkRunFile alone, bounded: a mistake only past the bound is not read (the reader's notice closes this in compare)", async () => {
    const candidate = await writeRunDb(run('cand', (i) => i >= 500));
    const bounded = await checkRunFile(candidate, 'cand', null, { rows: PIPELINE_CHECK_ROWS });
    expect(bounded).toMatchObject({ partial: true, findings: [] });
  });

  it('a finding that is no runner mistake (an unknown key with no key meant) keeps the bound, counted of the rows read', async () => {
    const candidate = await writeRunDb({
      runs: [
        {
          runId: 'cand',
          results: Array.from({ length: QUERIES }, (_, i) =>
            result(id(i), [hit(1, `c${i}`, `d${i}`)], { zz_trace: 1 }),
          ),
        },
      ],
    });
    const bounded = await checkRunFile(candidate, 'cand', null, { rows: PIPELINE_CHECK_ROWS });
    expect(bounded).toMatchObject({ rows: PIPELINE_CHECK_ROWS, partial: true });
    expect(bounded.findings.map(formatFinding)).toEqual([
      `${candidate}: run \`cand\`, query \`q000\`: unknown key \`zz_trace\` in \`result_json\` (ignored) (in 200 of the first 200 results; the first is shown)`,
    ]);
    expect(bounded.mistakes).toEqual([]);
  });

  it('the checker says which findings are runner mistakes', () => {
    const checker = new RunChecker('f.sqlite', 'r');
    checker.addRow('q1', JSON.stringify(result('q1', [{ rank: 1, docId: 'd1' }], { zz_trace: 1 })));
    expect(checker.hasRunnerMistake()).toBe(true);
    checker.finish(null);
    expect(checker.runnerMistakes().map((m) => [m.finding.check, m.finding.field, m.meant])).toEqual([
      ['unknown-key', 'hits_top_k[].docId', 'doc_id'],
      ['unmatchable-hit', 'hits_top_k[]', null],
    ]);
  });
});

describe('a runner mistake only past the rows compare checks first: the reader looks at every row', () => {
  const late = (i: number) => i >= 500;
  const json = (text: string) => JSON.parse(text) as { runner_warnings?: Array<Record<string, unknown>> };

  it('a misspelt key in the last 100 queries: named with the count validate prints (every row checked then)', async () => {
    const goldenPath = golden();
    const baseline = await writeRunDb(run('base', () => false, '2026-11-01T00:00:00Z'));
    const candidate = await writeRunDb(run('cand', late));
    const validated = await runCli(['validate', candidate, '--golden', goldenPath]);
    expect(validated.stdout).toContain('did you mean `doc_id`? (in 100 queries; the first is shown)');
    const out = await runCompare({ baselinePath: baseline, candidatePath: candidate, goldenPath });
    expect(json(out.json).runner_warnings).toEqual([
      expect.objectContaining({ side: 'candidate', check: 'unknown-key', field: 'hits_top_k[].docId', queries: 100 }),
      expect.objectContaining({ side: 'candidate', check: 'unmatchable-hit', queries: 100, first_query: 'q500' }),
    ]);
    expect(out.markdown).toContain('hits_top_k[].docId');
  });

  it('hits that can match nothing in the last 100 queries alone: named, with their count', async () => {
    const goldenPath = golden();
    const baseline = await writeRunDb(run('base', () => false, '2026-11-01T00:00:00Z'));
    const hitsOf = (i: number) => (late(i) ? [{ rank: 1, score: 0.9 }] : [hit(1, `c${i}`, `d${i}`)]);
    const candidate = await writeRunDb({
      runs: [{ runId: 'cand', results: Array.from({ length: QUERIES }, (_, i) => result(id(i), hitsOf(i))) }],
    });
    const out = await runCompare({ baselinePath: baseline, candidatePath: candidate, goldenPath });
    expect(json(out.json).runner_warnings).toEqual([
      expect.objectContaining({ check: 'unmatchable-hit', queries: 100, first_query: 'q500' }),
    ]);
  });

  it('an unknown key in every row that is no mistake keeps the bound: the check of the first rows found it', async () => {
    const goldenPath = golden();
    const baseline = await writeRunDb(run('base', () => false, '2026-11-01T00:00:00Z'));
    const candidate = await writeRunDb({
      runs: [
        {
          runId: 'cand',
          results: Array.from({ length: QUERIES }, (_, i) =>
            result(id(i), [hit(1, `c${i}`, `d${i}`)], { zz_trace: 1 }),
          ),
        },
      ],
    });
    const out = await runCompare({ baselinePath: baseline, candidatePath: candidate, goldenPath });
    expect(out.warnings.map((w) => JSON.stringify(w)).join('\n')).toContain('in 200 of the first 200 results');
  });

  it("aggregate too: the late typo is named with validate's count", async () => {
    const goldenPath = golden();
    const candidate = await writeRunDb(run('cand', late));
    const out = await runAggregate({ runPath: candidate, goldenPath });
    expect(out.warnings.map((w) => JSON.stringify(w)).join('\n')).toContain('did you mean `doc_id`? (in 100 queries');
  });

  it('through the bundle with the candidate scored in a worker thread: the same count', async () => {
    const goldenPath = golden();
    const baseline = await writeRunDb(run('base', () => false, '2026-11-01T00:00:00Z'));
    const candidate = await writeRunDb(run('cand', late));
    const res = await spawnCli(['compare', baseline, candidate, '--golden', goldenPath, '--format', 'json'], {
      EVALVERDICT_WORKERS: '2',
      EVALVERDICT_TRACE: '1',
    });
    expect(res.stderr).toContain('worker: run scored into its table');
    expect(json(res.stdout).runner_warnings).toEqual([
      expect.objectContaining({ check: 'unknown-key', field: 'hits_top_k[].docId', queries: 100 }),
      expect.objectContaining({ check: 'unmatchable-hit', queries: 100 }),
    ]);
    // aggregate in two threads, a golden half each (JSON Lines): the typo is in the worker's half only
    const lines = Array.from({ length: QUERIES }, (_, i) =>
      JSON.stringify({ id: id(i), query: `question ${i}`, expected_doc_ids: [`d${i}`] }),
    );
    const jsonl = writeGolden(`${lines.join('\n')}\n`, undefined, 'golden.jsonl');
    const aggregated = await spawnCli(['aggregate', candidate, '--golden', jsonl], {
      EVALVERDICT_WORKERS: '2',
      EVALVERDICT_TRACE: '1',
    });
    expect(aggregated.stderr).toContain('worker: its half scored into its table');
    expect(aggregated.stderr).toContain('did you mean `doc_id`? (in 100 queries');
  });

  it('a clean run, and the fixtures: nothing noticed, so compare checks only the first rows', async () => {
    for (const file of ['fixtures/baseline.sqlite', 'fixtures/candidate.sqlite']) {
      const stream = await openRunStream(file);
      stream.forEachResult(() => {});
      expect([[...stream.notice!.unknownKeys], stream.notice!.unmatchableHit]).toEqual([[], false]);
      stream.release?.();
    }
    const clean = await openRunStream(await writeRunDb(run('cand', () => false)));
    clean.forEachResult(() => {});
    expect([[...clean.notice!.unknownKeys], clean.notice!.unmatchableHit]).toEqual([[], false]);
    clean.release?.();
  });
});
