/**
 * Simulated comparisons for the verdict's checks (test/verdict.test.ts): per-query values of the retrieval
 * preset's metrics drawn from a rank model, gated as applyGates gates a real comparison, without SQLite.
 *
 * Model: query i finds its one relevant chunk with probability q_i ~ Beta(4, 1) (so 80% on average, some queries
 * nearly always, some rarely), at a rank drawn from a geometric distribution with parameter 0.5 (rank 1 half the
 * time) and cut at 20. A run is one draw per query. An A/A pair redraws 40% of the queries for the candidate from
 * the same q_i; a planted drop also turns each found query into a miss with probability `drop / P(hit@5)`, which
 * lowers hit@5 by `drop` in expectation.
 */
import type { MetricDef } from '../../src/aggregate/metrics/types.js';
import type { ComparedRuns, MetricComparison } from '../../src/compare/types.js';
import type { GateConfig } from '../../src/gate/config.js';
import { evaluateGates, verdictOf } from '../../src/gate/gates.js';
import type { GateResult, Verdict } from '../../src/gate/types.js';
import { seededRandom } from '../../src/stats/random.js';

export const SIM_METRICS = ['hit@5', 'mrr@10', 'nDCG@10', 'recall@10'] as const;

const defs = new Map<string, MetricDef>(
  SIM_METRICS.map((id) => [
    id,
    { id, paired: true, perQuery: true, direction: 'higher', unit: undefined } as unknown as MetricDef,
  ]),
);

/** A Beta(4, 1) draw: the largest of four uniforms. */
const beta41 = (random: () => number) => Math.max(random(), random(), random(), random());

function drawRank(q: number, random: () => number): number | null {
  if (random() >= q) return null;
  let rank = 1;
  while (random() >= 0.5 && rank < 20) rank++;
  return rank;
}

function valuesOf(rank: number | null): number[] {
  if (rank === null) return [0, 0, 0, 0];
  return [rank <= 5 ? 1 : 0, rank <= 10 ? 1 / rank : 0, rank <= 10 ? 1 / Math.log2(rank + 1) : 0, rank <= 10 ? 1 : 0];
}

export interface SimPair {
  baseline: Float64Array[];
  candidate: Float64Array[];
}

/** One baseline/candidate pair of `n` queries: 40% redrawn, and a planted drop of `drop` (hit@5 units). */
export function simulatePair(n: number, drop: number, random: () => number, redrawn = 0.4): SimPair {
  const baseline = SIM_METRICS.map(() => new Float64Array(n));
  const candidate = SIM_METRICS.map(() => new Float64Array(n));
  const hit5 = 0.8 * (1 - 0.5 ** 5);
  for (let i = 0; i < n; i++) {
    const q = beta41(random);
    const b = drawRank(q, random);
    let c = random() < redrawn ? drawRank(q, random) : b;
    if (c !== null && drop > 0 && random() < drop / hit5) c = null;
    valuesOf(b).forEach((v, k) => {
      baseline[k][i] = v;
    });
    valuesOf(c).forEach((v, k) => {
      candidate[k][i] = v;
    });
  }
  return { baseline, candidate };
}

const mean = (xs: Float64Array) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** One metric's comparison of two paired columns, as compare reports it (without its own significance). */
export function comparisonOf(baseline: Float64Array, candidate: Float64Array): MetricComparison {
  const [b, c] = [mean(baseline), mean(candidate)];
  return {
    baseline: b,
    candidate: c,
    delta: c - b,
    rel_delta: b === 0 ? null : (c - b) / b,
    n: baseline.length,
    n_baseline: baseline.length,
    n_paired: baseline.length,
    p_value: null,
    ci: null,
    significant: null,
    comparable: true,
  };
}

/**
 * The pair gated with `config` (its gates must be on SIM_METRICS): the gates and the verdict. `pairedQuantityOf`
 * gives a trade its cost (compare's ComparedRuns.pairedQuantityOf).
 */
export function gatePair(
  pair: SimPair,
  config: GateConfig,
  seed = 1,
  pairedQuantityOf?: ComparedRuns['pairedQuantityOf'],
): { gates: GateResult[]; verdict: Verdict } {
  const metrics: Record<string, MetricComparison> = {};
  const diffs: Record<string, Float64Array> = {};
  SIM_METRICS.forEach((id, k) => {
    metrics[id] = comparisonOf(pair.baseline[k], pair.candidate[k]);
    diffs[id] = pair.candidate[k].map((v, i) => v - pair.baseline[k][i]);
  });
  const gates = evaluateGates(config, {
    defs,
    metrics,
    breakdowns: {},
    groupSizes: {},
    counts: { win: 0, loss: 0, draw: 0, regression: 0, answer_regression: 0 },
    alpha: config.alpha,
    pairedDiffsOf: (id) => diffs[id] ?? null,
    pairedQuantityOf,
    seed,
    permutations: 2000,
  });
  return { gates, verdict: verdictOf(gates) };
}

export { seededRandom };
