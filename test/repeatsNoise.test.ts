/**
 * The default gates on repeated runs of one system (A/A): false alarms at most alpha. Runs are built in memory and
 * compared through compareRepeatedRuns and applyGates, the code `compare --baseline-run a,b,c` runs.
 *
 * Noise model (verdictSim.ts's, per repeat): query i finds its one relevant chunk with probability q_i ~ Beta(4, 1),
 * at a rank drawn from a geometric distribution with parameter 0.5 (rank 1 half the time) and cut at 20. The
 * system's own behaviour is one such draw per query (shared by every run of the pair); each of the six runs (3
 * baseline, 3 candidate, the same system) redraws each query with probability 0.4, so repeats disagree as real
 * ones do and many queries are flaky.
 */
import { describe, expect, it } from 'vitest';
import { compareRepeatedRuns } from '../src/compare/repeats.js';
import { seededRandom } from '../src/stats/random.js';
import { defaultGateConfig } from '../src/gate/config.js';
import { applyGates } from '../src/gate/gates.js';
import type { RunData } from '../src/types.js';
import { chunkQuery, goldenSet, rankedResult, runData } from './helpers/compareFixtures.js';

const QUERIES = 100;
const golden = goldenSet(Array.from({ length: QUERIES }, (_, i) => chunkQuery(`q${i}`)));

function drawRank(q: number, random: () => number): number | null {
  if (random() >= q) return null;
  let rank = 1;
  while (random() >= 0.5 && rank < 20) rank++;
  return rank;
}

/** Six runs of one system: its draw per query, each run redrawing 40% of the queries. */
function aaRuns(random: () => number): { baseline: RunData[]; candidate: RunData[] } {
  const q = Array.from({ length: QUERIES }, () => Math.max(random(), random(), random(), random()));
  const own = q.map((p) => drawRank(p, random));
  const run = (id: string) =>
    runData(
      id,
      own.map((rank, i) => rankedResult(`q${i}`, random() < 0.4 ? drawRank(q[i], random) : rank, {}, 20)),
    );
  return { baseline: ['b1', 'b2', 'b3'].map(run), candidate: ['c1', 'c2', 'c3'].map(run) };
}

const se = (p: number, n: number) => Math.sqrt((p * (1 - p)) / n);

describe('A/A with 3 x 3 repeats of 100 queries, the default gates', () => {
  it('fail in at most alpha + 2 binomial SE of 200 pairs (0.05 + 2 x 0.0154)', () => {
    const trials = 200;
    const random = seededRandom(3333);
    const config = defaultGateConfig();
    let failed = 0;
    let flaky = 0;
    for (let t = 0; t < trials; t++) {
      const { baseline, candidate } = aaRuns(random);
      const compared = compareRepeatedRuns(
        baseline.map((r) => () => r),
        candidate.map((r) => () => r),
        golden,
        { permutations: 1000, seed: t, alpha: config.alpha },
      );
      flaky += compared.report.flaky!.count;
      if (applyGates(compared, config).report.verdict === 'fail') failed++;
    }
    // the model makes repeats disagree: a good share of the queries is flaky in each pair
    expect(flaky / trials).toBeGreaterThan(10);
    // alpha 0.05 over 200 trials: SE 0.0154, so at most 16 fails (measured with this seed: 6 of 200, 3%; ~40 of
    // the 100 queries flaky per pair).
    expect(failed / trials).toBeLessThanOrEqual(config.alpha + 2 * se(config.alpha, trials));
  });
});
