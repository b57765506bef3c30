/**
 * Repeated runs per side and flaky queries (issue 33): run databases written with the repo's writer
 * (test/helpers/runDb.ts, src/write/writeRunDatabase.ts), compared through the CLI (`runCli`, the bin's function).
 * Planted: 10 flaky queries (hit or miss at random per repeat, on both sides) and 5 true regressions among 200
 * queries with 3 baseline and 3 candidate repeats; the rest keep their hit, some at a rank that moves 2 <-> 3.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../src/stats/random.js';
import { hit, removeTempDirs, result, runCli, tempDir, writeGolden, writeRunDb } from './helpers/runDb.js';
import type { Json, RunInput } from './helpers/runDb.js';

afterAll(removeTempDirs);

const N = 200;
const qid = (i: number) => `q${String(i).padStart(3, '0')}`;
const FLAKY = Array.from({ length: 10 }, (_, k) => qid(7 + k * 19)); // q007, q026, ...
const REGRESSED = [3, 50, 99, 150, 190].map(qid);

function goldenJsonl(): string {
  const lines = [];
  for (let i = 0; i < N; i++)
    lines.push(JSON.stringify({ id: qid(i), query: `question ${i}`, expected_chunk_ids: [`c${i}`] }));
  return `${lines.join('\n')}\n`;
}

/** The hits of query i in one repeat: its expected chunk at `rank` (null: not returned) among fillers. */
function hitsAt(i: number, rank: number | null): Json[] {
  return Array.from({ length: 10 }, (_, r) => hit(r + 1, rank === r + 1 ? `c${i}` : `filler-${i}-${r}`));
}

/** 3 repeats of one side; `random` decides the flaky queries' hits (each flaky query hits and misses at least once). */
function repeatsOf(side: 'b' | 'c', random: () => number, withRegressions: boolean): RunInput[] {
  const flakyHits = FLAKY.map(() => {
    const draws = [0, 1, 2].map(() => random() < 0.5);
    if (draws.every((d) => d === draws[0])) draws[Math.floor(random() * 3)] = !draws[0];
    return draws;
  });
  return [0, 1, 2].map((r) => ({
    runId: `${side}${r + 1}`,
    suite: 'smoke',
    createdAt: `2026-11-0${side === 'b' ? 1 : 2}T0${r}:00:00Z`,
    results: Array.from({ length: N }, (_, i) => {
      const id = qid(i);
      const f = FLAKY.indexOf(id);
      let rank: number | null = 1 + (i % 4);
      if (i % 5 === 1) rank = random() < 0.5 ? 2 : 3; // moves within the top 10: not flaky
      if (f >= 0) rank = flakyHits[f][r] ? 2 : null;
      if (withRegressions && side === 'c' && REGRESSED.includes(id)) rank = null;
      return result(id, hitsAt(i, rank));
    }),
  }));
}

async function setUp(withRegressions: boolean, seed: number) {
  const dir = tempDir();
  const random = seededRandom(seed);
  const golden = writeGolden(goldenJsonl(), dir, 'golden.jsonl');
  const base = await writeRunDb({ runs: repeatsOf('b', random, false) }, `${dir}/base.sqlite`);
  const cand = await writeRunDb({ runs: repeatsOf('c', random, withRegressions) }, `${dir}/cand.sqlite`);
  const config = writeGolden('gates:\n  - metric: regressions\n    max: 0\n', dir, 'gates.yml');
  return { dir, golden, base, cand, config };
}

interface Report {
  verdict: string;
  counts: Record<string, number>;
  per_query: Array<{ query_id: string; kind: string }>;
  repeats?: { baseline: { runs: number; run_ids: string[] }; candidate: { runs: number; run_ids: string[] } };
  flaky?: { count: number; queries: Array<{ query_id: string; reasons: string[]; baseline: string[] }> };
  metrics: Record<string, { n: number; n_paired: number | null; baseline: number; candidate: number }>;
}

describe('3 x 3 repeats of 200 queries: 10 planted flaky, 5 planted regressions', () => {
  it('the 5 are the regressions, the 10 are flaky and in no other count, and the verdict fails on them alone', async () => {
    const s = await setUp(true, 33);
    const args = ['compare', s.base, s.cand, '--golden', s.golden, '--config', s.config];
    const out = await runCli([...args, '--baseline-run', 'b1,b2,b3', '--candidate-run', 'all', '--format', 'json']);
    expect(out.stderr).toBe('');
    expect(out.status).toBe(1);
    const report = JSON.parse(out.stdout) as Report;
    expect(report.verdict).toBe('fail');
    expect(report.repeats).toEqual({
      baseline: { runs: 3, run_ids: ['b1', 'b2', 'b3'] },
      candidate: { runs: 3, run_ids: ['c1', 'c2', 'c3'] },
    });
    expect(report.flaky!.count).toBe(10);
    expect(report.flaky!.queries.map((q) => q.query_id)).toEqual([...FLAKY].sort());
    expect(report.flaky!.queries[0].baseline).toHaveLength(3);
    const ofKind = (kind: string) => report.per_query.filter((o) => o.kind === kind).map((o) => o.query_id);
    expect(ofKind('regression')).toEqual(REGRESSED);
    expect(ofKind('flaky')).toEqual(FLAKY);
    expect(report.counts.regression).toBe(5);
    // Every query is counted once: the flaky ones in no count.
    const { win, loss, draw, regression } = report.counts;
    expect(win + loss + draw + regression).toBe(N - 10);
    // Means over every query and the paired test on per-query means: n is the queries, not queries x repeats.
    expect(report.metrics['hit@10'].n).toBe(N);
    expect(report.metrics['hit@10'].n_paired).toBe(N);
    // The text and Markdown say it too.
    const md = await runCli([...args, '--baseline-run', 'b1,b2,b3', '--candidate-run', 'all', '--format', 'markdown']);
    expect(md.stdout).toContain('10 flaky queries set aside');
    expect(md.stdout).toContain('3 runs');
    expect(md.stdout).toContain('Flaky queries (10)');
    const text = await runCli([...args, '--baseline-run', 'all', '--candidate-run', 'all', '--format', 'text']);
    expect(text.stdout).toContain('10 flaky queries set aside');
  });

  it('without the regressions the verdict passes: no flaky query counts as a regression', async () => {
    const s = await setUp(false, 34);
    const out = await runCli([
      ...['compare', s.base, s.cand, '--golden', s.golden, '--config', s.config],
      ...['--baseline-run', 'all', '--candidate-run', 'all', '--format', 'json'],
    ]);
    expect(out.status).toBe(0);
    const report = JSON.parse(out.stdout) as Report;
    expect(report.verdict).toBe('pass');
    expect(report.counts.regression).toBe(0);
    expect(report.flaky!.count).toBe(10);
  });

  it('one repeat per side: the same flaky queries are regressions or wins, and no repeats or flaky key', async () => {
    const s = await setUp(true, 35);
    const out = await runCli([
      ...['compare', s.base, s.cand, '--golden', s.golden, '--config', s.config],
      ...['--baseline-run', 'b1', '--candidate-run', 'c1', '--format', 'json'],
    ]);
    const report = JSON.parse(out.stdout) as Report;
    expect(report.repeats).toBeUndefined();
    expect(report.flaky).toBeUndefined();
    expect(report.per_query.some((o) => o.kind === 'flaky')).toBe(false);
  });
});

describe('run lists on the command line', () => {
  it('an unknown run id in a list: exit 2, naming the file, the flag and the nearest id', async () => {
    const s = await setUp(false, 36);
    const out = await runCli([
      ...['compare', s.base, s.cand, '--golden', s.golden, '--config', s.config],
      ...['--baseline-run', 'b1,b4x', '--candidate-run', 'all'],
    ]);
    expect(out.status).toBe(2);
    expect(out.stderr).toBe(
      `evalverdict: ${s.base}: --baseline-run: no run \`b4x\` in \`eval_runs\`; did you mean \`b1\`? (runs: b1, b2, b3)\n`,
    );
  });

  it('`all` over a database of two suites is refused as ambiguous; `all:SUITE` picks one', async () => {
    const s = await setUp(false, 37);
    const mixed = await writeRunDb(
      { runs: [...repeatsOf('b', seededRandom(1), false), { runId: 'x1', suite: 'nightly', results: [] }] },
      `${s.dir}/mixed.sqlite`,
    );
    const base = ['compare', mixed, s.cand, '--golden', s.golden, '--config', s.config, '--candidate-run', 'all'];
    const ambiguous = await runCli([...base, '--baseline-run', 'all']);
    expect(ambiguous.status).toBe(2);
    expect(ambiguous.stderr).toBe(
      `evalverdict: ${mixed}: --baseline-run all is ambiguous: the database holds runs of 2 suites (\`nightly\` (1 run), \`smoke\` (3 runs)); name one suite (--baseline-run all:nightly) or the runs (--baseline-run a,b,c)\n`,
    );
    const one = await runCli([...base, '--baseline-run', 'all:smoke', '--format', 'json']);
    expect(one.status).toBe(0);
    expect((JSON.parse(one.stdout) as Report).repeats!.baseline.run_ids).toEqual(['b1', 'b2', 'b3']);
    const unknown = await runCli([...base, '--baseline-run', 'all:smok']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('no run of suite `smok`');
    expect(unknown.stderr).toContain('did you mean `smoke`?');
  });

  it('`all` over a database of one run is the one-run comparison, byte for byte', async () => {
    const s = await setUp(true, 38);
    const one = await writeRunDb({ runs: repeatsOf('b', seededRandom(2), false).slice(0, 1) }, `${s.dir}/one.sqlite`);
    const base = ['compare', one, s.cand, '--golden', s.golden, '--config', s.config, '--candidate-run', 'c2'];
    const named = await runCli([...base, '--baseline-run', 'b1', '--format', 'markdown']);
    const all = await runCli([...base, '--baseline-run', 'all', '--format', 'markdown']);
    expect(named.status).toBe(1);
    expect(all).toEqual(named);
    expect(named.stdout).not.toContain('flaky');
    const empty = await runCli([...base, '--baseline-run', 'b1,']);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain('has an empty run id');
  });
});

describe('what a side of several runs must be', () => {
  it('several candidate runs without a baseline are refused (exit 2)', async () => {
    const s = await setUp(false, 39);
    const out = await runCli(['compare', '--baseline', 'none', s.cand, '--golden', s.golden, '--candidate-run', 'all']);
    expect(out.status).toBe(2);
    expect(out.stderr).toBe(
      'evalverdict: --candidate-run: several candidate runs need a baseline (not --baseline none)\n',
    );
  });

  it('runs of one side whose settings differ are compared, and the report says which settings', async () => {
    const s = await setUp(false, 40);
    const runs = repeatsOf('b', seededRandom(3), false);
    runs[2].config = { embedding_model: 'other' };
    const mixed = await writeRunDb({ runs }, `${s.dir}/mixed.sqlite`);
    const args = ['compare', mixed, s.cand, '--golden', s.golden, '--config', s.config];
    const json = await runCli([...args, '--baseline-run', 'all', '--candidate-run', 'all', '--format', 'json']);
    expect((JSON.parse(json.stdout) as Report).repeats!.baseline).toEqual({
      runs: 3,
      run_ids: ['b1', 'b2', 'b3'],
      differences: ['embedding_model'],
    });
    const md = await runCli([...args, '--baseline-run', 'all', '--candidate-run', 'all', '--format', 'markdown']);
    expect(md.stdout).toContain(
      "⚠️ the baseline's runs differ in embedding\\_model: repeats should be runs of one system.",
    );
  });
});

describe('a repeat run missing queries', () => {
  it('is warned about, naming the run and how many, in the words of a single run missing results', async () => {
    const s = await setUp(false, 41);
    const bRuns = repeatsOf('b', seededRandom(5), false);
    const whole = await writeRunDb({ runs: bRuns }, `${s.dir}/whole-base.sqlite`);
    const dropped = bRuns[1].results.slice(0, 50) as Json[];
    const droppedHits = dropped.filter((r, i) => (r.hits_top_k as Json[]).some((h) => h.chunk_id === `c${i}`)).length;
    bRuns[1].results = bRuns[1].results.slice(50); // b2 lacks q000-q049, which b1 and b3 have
    const cRuns = repeatsOf('c', seededRandom(6), false);
    cRuns[2].results = cRuns[2].results.filter((r) => (r as Json).query_id !== qid(7));
    const base = await writeRunDb({ runs: bRuns }, `${s.dir}/gappy-base.sqlite`);
    const cand = await writeRunDb({ runs: cRuns }, `${s.dir}/gappy-cand.sqlite`);
    const args = ['compare', base, cand, '--golden', s.golden, '--config', s.config, '--format', 'json'];
    const out = await runCli([...args, '--baseline-run', 'all', '--candidate-run', 'all']);
    expect(out.status).toBe(0);
    const lines = out.stderr.split('\n').filter((l) => l.includes('no result in this run'));
    expect(lines).toEqual([
      `warning: ${base}: baseline run \`b2\`: 50 queries have no result in this run, only in other baseline runs (counted as misses)`,
      `warning: ${cand}: candidate run \`c3\`: 1 query has no result in this run, only in other candidate runs (counted as misses)`,
    ]);
    // Counted as misses, as the warning says: each of b2's hits among the 50 becomes a 0 in a mean of 3 runs.
    const report = JSON.parse(out.stdout) as Report;
    const wholeOut = await runCli(['compare', whole, cand, ...args.slice(3), '--baseline-run', 'all']);
    const wholeReport = JSON.parse(wholeOut.stdout) as Report;
    expect(droppedHits).toBeGreaterThan(40);
    expect(wholeReport.metrics['hit@10'].baseline - report.metrics['hit@10'].baseline).toBeCloseTo(
      droppedHits / 3 / N,
      3, // each value rounded to 4 decimals in the JSON
    );
    const trec = await runCli([...args, '--baseline-run', 'all', '--mean-over', 'trec']);
    expect(trec.stderr).toContain(
      `warning: ${base}: baseline run \`b2\`: 50 queries have no result in this run, only in other baseline runs (left out of its means: \`--mean-over trec\`)\n`,
    );
    // One run per side: the comparison's own warning, as before.
    const single = await runCli([...args, '--baseline-run', 'b2', '--candidate-run', 'c1']);
    expect(single.stderr).toContain('warning: 50 queries have a result only in the candidate\n');
    expect(single.stderr).not.toContain('no result in this run');
  });

  it('is not warned about when every run of a side has the same queries, or one side is one run', async () => {
    const s = await setUp(false, 42);
    const out = await runCli([
      'compare',
      s.base,
      s.cand,
      '--golden',
      s.golden,
      '--config',
      s.config,
      '--baseline-run',
      'all',
      '--candidate-run',
      'all',
    ]);
    expect(out.stderr).not.toContain('no result in this run');
  });
});

describe("the action's run inputs", () => {
  const env = {
    INPUT_BASELINE: 'b.sqlite',
    INPUT_CANDIDATE: 'c.sqlite',
    INPUT_GOLDEN: 'g.jsonl',
    GITHUB_WORKSPACE: '/ws',
  };

  it('take run lists as the CLI does; write-aggregate with several candidate runs is an input error', async () => {
    const { getInputs } = await import('../src/action/inputs.js');
    const lists = { 'INPUT_BASELINE-RUN': 'b1,b2,b3', 'INPUT_CANDIDATE-RUN': 'all' };
    expect(getInputs({ ...env, ...lists })).toMatchObject({ baselineRun: 'b1,b2,b3', candidateRun: 'all' });
    expect(() => getInputs({ ...env, ...lists, 'INPUT_WRITE-AGGREGATE': 'true' })).toThrow(
      "input `candidate-run` names several runs (all) and `write-aggregate` stores one run's aggregate: give one run id, or leave out write-aggregate",
    );
    expect(getInputs({ ...env, 'INPUT_CANDIDATE-RUN': 'c1', 'INPUT_WRITE-AGGREGATE': 'true' }).candidateRun).toBe('c1');
  });
});
