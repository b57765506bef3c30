/**
 * `evalverdict power`'s printed lines, pinned against values computed here from the model docs/gates.md states, apart
 * from src/stats/power.ts: the exact one-sided sign test for up to 100 queries (binomial tails summed in BigInt), its
 * normal approximation above (the normal tail integrated numerically), and the detectable drop found by bisection.
 *
 * The model (docs/gates.md, "Minimum detectable drop"): n queries, a share rho = churn * 2v(1 - v) of them changed by
 * one hit (size 1), as likely better as worse; a drop d moves unchanged queries to losses first, then wins to losses,
 * so that P(loss) - P(win) = d.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, runCli, tempDir, writeGolden, writeRunDb } from './helpers/runDb.js';
import { hit, result } from './helpers/runDb.js';

afterAll(removeTempDirs);

/** P(loss) and P(win) per query under a drop d. */
function shares(rho: number, d: number): { loss: number; win: number } {
  const unchanged = 1 - rho;
  if (d <= unchanged) return { loss: rho / 2 + d, win: rho / 2 };
  const moved = (d - unchanged) / 2; // each win turned into a loss moves the mean by 2
  return { loss: rho / 2 + unchanged + moved, win: rho / 2 - moved };
}

/** For m changed queries, the fewest losses with P(X >= losses) < level, X ~ Bin(m, 1/2), in exact integers. */
function fewestRejected(m: number, level: number): number {
  const total = 2n ** BigInt(m);
  let tail = 0n;
  let choose = 1n; // C(m, k) for k running down from m
  for (let k = m; k >= 0; k--) {
    if (k < m) choose = (choose * BigInt(k + 1)) / BigInt(m - k);
    // tail + C(m, k) over 2^m < level, compared without rounding: level is a float, so scale it by 2^60
    const next = tail + choose;
    if (Number((next * 2n ** 60n) / total) / 2 ** 60 >= level) return k + 1;
    tail = next;
  }
  return 0;
}

const rejected = new Map<string, number[]>();

function exactPower(n: number, rho: number, d: number, level: number): number {
  const { loss, win } = shares(rho, d);
  const same = Math.max(0, 1 - loss - win);
  const key = `${n} ${level}`;
  if (!rejected.has(key))
    rejected.set(
      key,
      Array.from({ length: n + 1 }, (_, m) => fewestRejected(m, level)),
    );
  const least = rejected.get(key)!;
  const logFact = [0];
  for (let i = 1; i <= n; i++) logFact.push(logFact[i - 1] + Math.log(i));
  const term = (p: number, k: number) => (k === 0 ? 0 : k * Math.log(p));
  let power = 0;
  for (let l = 0; l <= n; l++)
    for (let w = 0; l + w <= n; w++) {
      if (l < least[l + w]) continue;
      const s = n - l - w;
      power += Math.exp(
        logFact[n] - logFact[l] - logFact[w] - logFact[s] + term(loss, l) + term(win, w) + term(same, s),
      );
    }
  return power;
}

/** P(Z > x) for a standard normal, by Simpson's rule on the density from x to 12. */
function upperTail(x: number): number {
  if (x < 0) return 1 - upperTail(-x);
  const steps = 20_000;
  const h = (12 - x) / steps;
  const f = (t: number) => Math.exp((-t * t) / 2) / Math.sqrt(2 * Math.PI);
  let sum = f(x) + f(12);
  for (let i = 1; i < steps; i++) sum += (i % 2 ? 4 : 2) * f(x + i * h);
  return (sum * h) / 3;
}

const quantiles = new Map<number, number>();

/** The z with P(Z > z) = level, by bisection. */
function quantile(level: number): number {
  if (!quantiles.has(level)) quantiles.set(level, bisectQuantile(level));
  return quantiles.get(level)!;
}

function bisectQuantile(level: number): number {
  let lo = -10;
  let hi = 10;
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    if (upperTail(mid) > level) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** The sign test's normal approximation: reject when the sum of drops passes z * sqrt(sum of squares). */
function normalPower(n: number, rho: number, d: number, level: number): number {
  const { loss, win } = shares(rho, d);
  const changed = loss + win;
  return upperTail((quantile(level) * Math.sqrt(n * changed) - n * d) / Math.sqrt(n * (changed - d * d)));
}

function detectableDrop(n: number, rho: number, level: number): number {
  const power = (d: number) => (n <= 100 ? exactPower(n, rho, d, level) : normalPower(n, rho, d, level));
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 50; i++) {
    const mid = (lo + hi) / 2;
    if (power(mid) >= 0.8) hi = mid;
    else lo = mid;
  }
  return hi;
}

interface Row {
  gate: string;
  queries: number;
  value: number;
  detects: number;
  margin: number;
  needed: string;
}

function rows(stdout: string): Row[] {
  return stdout
    .split('\n')
    .slice(1)
    .filter((l) => /^\S+ +\d+ /.test(l))
    .map((l) => {
      const [gate, queries, value, detects, margin, ...needed] = l.split(/ +/);
      return {
        gate,
        queries: Number(queries),
        value: Number(value),
        detects: Number(detects),
        margin: Number(margin),
        needed: needed.join(' '),
      };
    });
}

// 30 answerable queries, 2 to refuse and 1 pending: power counts the 30.
const golden = [
  ...Array.from({ length: 30 }, (_, i) => `- id: q${i}\n  query: query ${i}\n  expected_chunk_ids: [c${i}]\n`),
  '- id: r1\n  query: refuse 1\n  expected_doc_ids: []\n',
  '- id: r2\n  query: refuse 2\n  expected_doc_ids: []\n',
  '- id: p1\n  query: pending\n  expected_chunk_ids: [cp]\n  pending: true\n',
].join('');

describe('evalverdict power, against an independent computation', () => {
  it('without a baseline: 30 queries at 0.5, the default config at α/4, exact sign test', async () => {
    const res = await runCli(['power', '--golden', writeGolden(golden)]);
    expect(res.status).toBe(0);
    const printed = rows(res.stdout);
    expect(printed.map((r) => r.gate)).toEqual(['hit@5', 'mrr@10', 'nDCG@10', 'recall@10']);
    // churn 0.4 at v = 0.5: rho = 0.4 * 2 * 0.25 = 0.2; holm over the 4 default gates: each at 0.05 / 4
    const mdd = detectableDrop(30, 0.2, 0.05 / 4);
    // The four gates share the model (the same n, value and level): one row's figures are every row's.
    for (const r of printed) expect({ ...r, gate: '' }, r.gate).toEqual({ ...printed[0], gate: '' });
    expect(printed[0]).toMatchObject({ queries: 30, value: 0.5, margin: 0.1 });
    expect(printed[0].detects.toFixed(4)).toBe(mdd.toFixed(4));
    // The queries needed: the printed count detects the margin, one fewer does not (the normal branch, past 100).
    const needed = Number(/^about ([\d,]+)$/.exec(printed[0].needed)![1].replace(/,/g, ''));
    expect(needed).toBeGreaterThan(100);
    expect(detectableDrop(needed, 0.2, 0.05 / 4)).toBeLessThanOrEqual(0.1);
    expect(detectableDrop(needed - 1, 0.2, 0.05 / 4)).toBeGreaterThan(0.1);
    expect(res.stdout.trimEnd().split('\n').at(-1)).toBe(
      'one-sided, α 0.05, holm over 4 tests (each at α/4); assumes 40% of queries change between runs with no real change, at a value of 0.5 (no --baseline)',
    );
  });

  it('correction none, its own margin and churn: each gate at the full α; a margin within reach says "reached"', async () => {
    const dir = tempDir();
    const config = writeGolden(
      'alpha: 0.05\ncorrection: none\ngates:\n  - metric: hit@5\n    margin: 0.5\n  - metric: mrr@10\n    margin: 0.2\n',
      dir,
      'gates.yml',
    );
    const res = await runCli(['power', '--golden', writeGolden(golden), '--config', config, '--churn', '0.6']);
    expect(res.status).toBe(0);
    const [hit5, mrr] = rows(res.stdout);
    const rho = 0.6 * 2 * 0.25;
    const mdd = detectableDrop(30, rho, 0.05);
    expect(hit5).toMatchObject({ gate: 'hit@5', queries: 30, margin: 0.5, needed: 'reached' });
    expect(hit5.detects.toFixed(4)).toBe(mdd.toFixed(4));
    expect(mdd).toBeLessThan(0.5);
    expect(mrr).toMatchObject({ gate: 'mrr@10', margin: 0.2 });
    expect(mrr.detects.toFixed(4)).toBe(mdd.toFixed(4));
    expect(mdd).toBeGreaterThan(0.2);
    const needed = Number(/^about ([\d,]+)$/.exec(mrr.needed)![1].replace(/,/g, ''));
    expect(detectableDrop(needed, rho, 0.05)).toBeLessThanOrEqual(0.2);
    expect(detectableDrop(needed - 1, rho, 0.05)).toBeGreaterThan(0.2);
    expect(res.stdout).toContain('one-sided, α 0.05; assumes 60% of queries change');
  });

  it("a trade's gain test counts in the family, as compare counts it: two gates and a trade, each at α/3", async () => {
    const config = writeGolden(
      'gates:\n  - metric: hit@5\n    margin: 0.1\n    trade: {margin: 0.2, metric: latency_ms, min_gain: 0.25}\n  - metric: mrr@10\n    margin: 0.1\n',
      tempDir(),
      'gates.yml',
    );
    const res = await runCli(['power', '--golden', writeGolden(golden), '--config', config]);
    expect(res.status).toBe(0);
    expect(rows(res.stdout)[0].detects.toFixed(4)).toBe(detectableDrop(30, 0.2, 0.05 / 3).toFixed(4));
    expect(res.stdout).toContain('one-sided, α 0.05, holm over 3 tests (each at α/3)');
  });

  it("with a baseline: its value and query count, and the normal branch's drop for 120 queries", async () => {
    // 120 answerable queries; the baseline finds 90 at rank 1: hit@5 = 0.75.
    const ids = Array.from({ length: 120 }, (_, i) => `q${i}`);
    const dir = tempDir();
    const g = writeGolden(
      ids.map((id) => `- id: ${id}\n  query: query ${id}\n  expected_chunk_ids: [c-${id}]\n`).join(''),
      dir,
    );
    const db = await writeRunDb(
      {
        runs: [
          {
            runId: 'base',
            results: ids.map((id, i) => result(id, i < 90 ? [hit(1, `c-${id}`)] : [hit(1, 'other')])),
          },
        ],
      },
      `${dir}/base.sqlite`,
    );
    const res = await runCli(['power', '--golden', g, '--baseline', db]);
    expect(res.status).toBe(0);
    const [hit5] = rows(res.stdout);
    expect(hit5).toMatchObject({ gate: 'hit@5', queries: 120, value: 0.75 });
    const rho = 0.4 * 2 * 0.75 * 0.25;
    expect(hit5.detects.toFixed(4)).toBe(detectableDrop(120, rho, 0.05 / 4).toFixed(4));
    expect(res.stdout).not.toContain('no --baseline');
  });
});

describe('evalverdict power checks the gate config as compare does', () => {
  /** A golden set and a baseline run of its 30 answerable queries (each found), for compare to read. */
  async function setUp() {
    const dir = tempDir();
    const g = writeGolden(golden, dir);
    const runs = [{ runId: 'base', results: Array.from({ length: 30 }, (_, i) => result(`q${i}`, [hit(1, `c${i}`)])) }];
    const db = await writeRunDb({ runs }, `${dir}/base.sqlite`);
    return { dir, g, db };
  }

  it('refuses each gate compare refuses, with exit 2 and the same message, with or without a baseline', async () => {
    const { dir, g, db } = await setUp();
    const configs: Array<[string, string, RegExp]> = [
      [
        'a tested gate on an unknown metric',
        '  - metric: hit@banana\n    max_drop: 0\n    significant_only: true\n',
        /^evalverdict: .*banana\.yml:3: unknown metric `hit@banana`.* \(run `evalverdict metrics` for the list\)\n$/,
      ],
      [
        'an untested gate on an unknown metric beside a tested one',
        '  - metric: hit@5\n    margin: 0.1\n  - metric: nDCG@banana\n    min: 0.5\n',
        /^evalverdict: .*banana\.yml:5: unknown metric `nDCG@banana`/,
      ],
      [
        'a test on a metric without a paired test',
        '  - metric: latency_p50_ms\n    max_increase: 100\n    significant_only: true\n',
        /^evalverdict: .*banana\.yml:3: `significant_only` needs a metric with a paired test \(.*\); `latency_p50_ms` has none\n$/,
      ],
    ];
    for (const [what, gates, message] of configs) {
      const config = writeGolden(`alpha: 0.05\ngates:\n${gates}`, dir, 'banana.yml');
      const compare = await runCli(['compare', db, db, '--golden', g, '--config', config]);
      expect(compare.status, what).toBe(2);
      expect(compare.stderr, what).toMatch(message);
      for (const baseline of [[], ['--baseline', db]]) {
        const power = await runCli(['power', '--golden', g, '--config', config, ...baseline]);
        expect(power, what).toMatchObject({ status: 2, stdout: '', stderr: compare.stderr });
      }
    }
  });

  it("lets a stage's latency through (the runs that time the stage are compare's), and the cutoffs the config sets", async () => {
    const { dir, g } = await setUp();
    const config = writeGolden(
      'k: [5, 20]\ngates:\n  - metric: recall@20\n    margin: 0.1\n  - metric: retrieve_latency_p95_ms\n    max: 500\n',
      dir,
      'stages.yml',
    );
    const res = await runCli(['power', '--golden', g, '--config', config]);
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    expect(rows(res.stdout).map((r) => r.gate)).toEqual(['recall@20']);
  });
});

describe("evalverdict power: the baseline side's noise, graded metrics included", () => {
  // 120 answerable queries: the baseline's one relevant chunk at rank 1, at rank 2 or missing, 40 each.
  async function gradedBaseline() {
    const ids = Array.from({ length: 120 }, (_, i) => `q${i}`);
    const dir = tempDir();
    const g = writeGolden(
      ids.map((id) => `- id: ${id}\n  query: query ${id}\n  expected_chunk_ids: [c-${id}]\n`).join(''),
      dir,
    );
    const hits = (id: string, i: number) =>
      i < 40 ? [hit(1, `c-${id}`)] : i < 80 ? [hit(1, 'other'), hit(2, `c-${id}`)] : [hit(1, 'other')];
    const runs = [{ runId: 'base', results: ids.map((id, i) => result(id, hits(id, i))) }];
    return { dir, g, db: await writeRunDb({ runs }, `${dir}/base.sqlite`) };
  }

  it("MRR's changes at the size of its own spread, not a hit's", async () => {
    const { dir, g, db } = await gradedBaseline();
    const config = writeGolden(
      'gates:\n  - metric: hit@5\n    margin: 0.1\n  - metric: mrr@10\n    margin: 0.1\n',
      dir,
      'c.yml',
    );
    const res = await runCli(['power', '--golden', g, '--baseline', db, '--config', config]);
    expect(res.status).toBe(0);
    const [hit5, mrr] = rows(res.stdout);
    // hit@5 at 2/3, as before: 0.4 * 2v(1 - v) changed by a hit
    expect(hit5).toMatchObject({ gate: 'hit@5', queries: 120, value: 0.6667 });
    expect(hit5.detects.toFixed(4)).toBe(detectableDrop(120, 0.4 * 2 * (2 / 3) * (1 / 3), 0.05 / 2).toFixed(4));
    // MRR 1, 0.5, 0 a third each: two draws differ 2/3 of the time, by a root mean square of sqrt(2 var / (2/3))
    expect(mrr).toMatchObject({ gate: 'mrr@10', queries: 120, value: 0.5 });
    const size = Math.sqrt((2 * (1 / 6)) / (2 / 3));
    expect(mrr.detects.toFixed(4)).toBe((detectableDrop(120, 0.4 * (2 / 3), 0.05 / 2) * size).toFixed(4));
  });

  it("the config's measured noise: its share changed and size per metric, named in the last line", async () => {
    const { dir, g, db } = await gradedBaseline();
    const config = writeGolden(
      [
        'gates:\n  - metric: hit@5\n    margin: 0.1\n  - metric: nDCG@10\n    margin: 0.05\n  - metric: mrr@10\n    margin: 0.1',
        'noise:\n  measured: "2026-11-24T00:00:00Z"\n  runs: 5\n  metrics:',
        '    hit@5: { sd_diff: 0.2, sd_mean: 0.01, changed: 0.04, detects: null }',
        '    nDCG@10: { sd_diff: 0.06, sd_mean: 0.004, changed: 0.36, detects: null }\n',
      ].join('\n'),
      dir,
      'noisy.yml',
    );
    for (const baseline of [['--baseline', db], []]) {
      const res = await runCli(['power', '--golden', g, '--config', config, ...baseline]);
      expect(res.stderr).toBe('');
      const [hit5, ndcg, mrr] = rows(res.stdout);
      // hit@5: 4% changed by sqrt(0.04 / 0.04) = 1; nDCG@10: 36% changed by 0.06 / 0.6 = 0.1; each at α/3
      expect(hit5.detects.toFixed(4)).toBe(detectableDrop(120, 0.04, 0.05 / 3).toFixed(4));
      expect(ndcg.detects.toFixed(4)).toBe((detectableDrop(120, 0.36, 0.05 / 3) * 0.1).toFixed(4));
      // mrr@10 has no measured noise: the churn assumed, over the baseline's values (MRR 1, 0.5, 0) or at 0.5
      const rho = baseline.length > 0 ? 0.4 * (2 / 3) : 0.4 * 2 * 0.25;
      const size = baseline.length > 0 ? Math.sqrt(0.5) : 1;
      expect(mrr.detects.toFixed(4)).toBe((detectableDrop(120, rho, 0.05 / 3) * size).toFixed(4));
      expect(res.stdout.trimEnd().split('\n').at(-1)).toBe(
        `one-sided, α 0.05, holm over 3 tests (each at α/3); hit@5, nDCG@10 from the noise measured in ${config} (evalverdict calibrate, 5 runs, 2026-11-24T00:00:00Z); the others assume 40% of queries change between runs with no real change${baseline.length > 0 ? '' : ', at a value of 0.5 (no --baseline)'}`,
      );
    }
  });
});

describe("evalverdict power over the baseline's repeated runs: their noise, measured", () => {
  it('--run a,b,c: the share changed between two runs and the size of a change, as calibrate measures them', async () => {
    // 60 queries in 3 runs: 30 found at rank 1 in each, 10 at rank 1, 2, 1 (MRR 1, 0.5, 1), 20 never found.
    const ids = Array.from({ length: 60 }, (_, i) => `q${i}`);
    const dir = tempDir();
    const g = writeGolden(
      ids.map((id) => `- id: ${id}\n  query: query ${id}\n  expected_chunk_ids: [c-${id}]\n`).join(''),
      dir,
    );
    const hits = (id: string, i: number, run: number) =>
      i < 30 || (i < 40 && run !== 1)
        ? [hit(1, `c-${id}`)]
        : i < 40
          ? [hit(1, 'other'), hit(2, `c-${id}`)]
          : [hit(1, 'other')];
    const runs = [0, 1, 2].map((run) => ({
      runId: `r${run + 1}`,
      results: ids.map((id, i) => result(id, hits(id, i, run))),
    }));
    const db = await writeRunDb({ runs }, `${dir}/base.sqlite`);
    const config = writeGolden(
      'gates:\n  - metric: hit@5\n    margin: 0.1\n  - metric: mrr@10\n    margin: 0.1\n',
      dir,
      'c.yml',
    );
    const res = await runCli(['power', '--golden', g, '--baseline', db, '--run', 'r1,r2,r3', '--config', config]);
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    const [hit5, mrr] = rows(res.stdout);
    // hit@5 never changes between the runs: no noise, every change a drop (at α/2)
    expect(hit5).toMatchObject({ gate: 'hit@5', queries: 60, value: 0.6667 });
    expect(hit5.detects.toFixed(4)).toBe(detectableDrop(60, 0, 0.025).toFixed(4));
    // MRR: 10 of 60 queries differ in 2 of 3 pairs (share 1/9), mean square 10 * (0.25 * 2 / 3) / 60 = 1/36, so a
    // change of sqrt((1/36) / (1/9)) = 0.5, not a hit; value (40 + 35 + 40) / 180
    expect(mrr).toMatchObject({ gate: 'mrr@10', queries: 60, value: 0.6389 });
    expect(mrr.detects.toFixed(4)).toBe((detectableDrop(60, 1 / 9, 0.025) * 0.5).toFixed(4));
    expect(res.stdout.trimEnd().split('\n').at(-1)).toBe(
      "one-sided, α 0.05, holm over 2 tests (each at α/2); hit@5, mrr@10 from the noise measured over the baseline's 3 runs (r1, r2, r3)",
    );
    // repeats that record different commits: measured all the same, with calibrate's warning on stderr
    const mixed = await writeRunDb(
      { runs: runs.map((r, i) => ({ ...r, commitHash: i === 2 ? 'bbbbbbbbbbbb' : 'aaaaaaaaaaaa' })) },
      `${dir}/mixed.sqlite`,
    );
    const warned = await runCli(['power', '--golden', g, '--baseline', mixed, '--run', 'all', '--config', config]);
    expect(warned.status).toBe(0);
    expect(rows(warned.stdout)).toEqual(rows(res.stdout));
    expect(warned.stderr).toMatch(/^warning: the runs record different commits \(aaaaaaaaaaaa, bbbbbbbbbbbb\)/);
    // one run named: that run's values and the churn assumed, as without --run
    const one = await runCli(['power', '--golden', g, '--baseline', db, '--run', 'r2', '--config', config]);
    expect(rows(one.stdout)[1]).toMatchObject({ gate: 'mrr@10', value: 0.5833 });
    expect(one.stdout).toContain('assumes 40% of queries change');
  });
});
