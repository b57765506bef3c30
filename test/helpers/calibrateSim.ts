/**
 * Repeated runs of one simulated system for `evalverdict calibrate`'s checks (test/calibrate.test.ts), on the rank model
 * of test/helpers/verdictSim.ts: query i finds its relevant chunk with probability q_i ~ Beta(4, 1), at a rank
 * geometric with parameter 0.5 cut at 20. The system (its commit) fixes one rank per query; each run redraws a query's
 * rank from q_i with probability `redraw` (the run-to-run noise), else keeps the system's. Between two runs a query
 * can differ only when one of them redrew it, so hit@5's per-query difference has E[d^2] =
 * (1 - (1 - redraw)^2) * 2 E[h(1 - h)], h = q (1 - 0.5^5): `trueHit5SdDiff`.
 */
import { SIM_METRICS } from './verdictSim.js';
import type { SimPair } from './verdictSim.js';

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

export interface SimSystem {
  q: Float64Array;
  ranks: (number | null)[];
  redraw: number;
}

export function simulateSystem(n: number, redraw: number, random: () => number): SimSystem {
  const q = Float64Array.from({ length: n }, () => beta41(random));
  return { q, ranks: [...q].map((qi) => drawRank(qi, random)), redraw };
}

/** P(hit@5) of a query found with probability q. */
const HIT5_GIVEN_FOUND = 1 - 0.5 ** 5;

/**
 * One run of the system: per metric of SIM_METRICS, a value per query. A planted `drop` (hit@5 units) turns each
 * found query into a miss with probability drop / P(hit@5), lowering hit@5 by `drop` in expectation.
 */
export function simulateRun(system: SimSystem, random: () => number, drop = 0): Float64Array[] {
  const n = system.q.length;
  const columns = SIM_METRICS.map(() => new Float64Array(n));
  const hit5 = 0.8 * HIT5_GIVEN_FOUND;
  for (let i = 0; i < n; i++) {
    let rank = random() < system.redraw ? drawRank(system.q[i], random) : system.ranks[i];
    if (rank !== null && drop > 0 && random() < drop / hit5) rank = null;
    valuesOf(rank).forEach((v, k) => {
      columns[k][i] = v;
    });
  }
  return columns;
}

/** The true SD of hit@5's per-query difference between two runs (module comment). */
export function trueHit5SdDiff(redraw: number): number {
  const meanH = 0.8 * HIT5_GIVEN_FOUND; // E[q] = 4/5
  const meanH2 = HIT5_GIVEN_FOUND ** 2 * (4 / 6); // E[q^2] = 4/6 for Beta(4, 1)
  return Math.sqrt((1 - (1 - redraw) ** 2) * 2 * (meanH - meanH2));
}

export function pairOf(baseline: Float64Array[], candidate: Float64Array[]): SimPair {
  return { baseline, candidate };
}
