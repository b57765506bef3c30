/**
 * A second simulator of per-query retrieval metrics for the verdict's checks (test/verdictLatent.test.ts), built
 * apart from the rank model of test/helpers/verdictSim.ts: queries with a pool of candidate chunks, latent scores,
 * graded relevance and Gaussian run noise. Its pairs have verdictSim's shape (`SimPair`, the values in SIM_METRICS'
 * order: hit@5, mrr@10, nDCG@10, recall@10), so verdictSim's `gatePair` gates them with today's gate code.
 *
 * Model. Each golden query has 30 candidate chunks (the pool a retriever ranks). 1, 2 or 3 of them (equally likely)
 * are relevant, each with a grade 1, 2 or 3 (equally likely). Latent scores, fixed for the system and the query:
 * a non-relevant chunk N(0, 1); a relevant chunk of grade g 0.7 + 0.5 g + a + N(0, 0.5^2), where a ~ N(0, 0.7^2) is
 * the query's ease, shared by its relevant chunks. A run ranks the pool by latent score + N(0, sigma^2), drawn
 * afresh for every chunk in every run: sigma is the run-to-run noise. Metrics of one run, from the ranks of the
 * relevant chunks: hit@5 = 1 when one is in the top 5; mrr@10 = 1 / the best rank when it is <= 10; recall@10 =
 * the share of the relevant chunks in the top 10; nDCG@10 = sum over relevant chunks in the top 10 of g /
 * log2(rank + 1), over the ideal DCG of the query's grades sorted best first (gain = the grade, linear, as
 * EvalVerdict's nDCG and trec_eval's ndcg_cut; not 2^g - 1).
 *
 * Noise levels (LATENT_LEVELS): sigma set so that hit@5 differs between two runs of the same system on 11%, 18% and
 * 25% of queries, found by bisection on sigma (`calibrateSigma`: 40,000 queries, seed 45, common random numbers, so
 * the share is a step function of sigma that the bisection follows). More noise also lowers the mean: hit@5 is
 * 0.83, 0.79 and 0.74 at the three levels (sigma 0.409, 0.693 and 1.016). The bisection takes about 6 s of CPU a
 * level, so the tests do not rerun it: test/verdictLatent.test.ts measures the shares afresh on other seeds instead.
 *
 * A planted drop lowers the latent score of every relevant chunk of the candidate by one shift, chosen so that the
 * candidate's expected hit@5 is the baseline's minus the requested drop (`shiftFor`). For one run of a query let
 * t = (best relevant score) - (5th best non-relevant score): the run finds a relevant chunk in the top 5 exactly when
 * t > 0, and the shifted candidate exactly when t > shift. Over 20,000 query runs (seed 4545, once per level and
 * drop, about 0.08 s) the shift is the point with the requested share of t in (0, shift]: an empirical quantile,
 * exact for that sample, so no bisection is needed (its sampling error: SE 0.0028 at a drop of 0.2). Shifts for
 * drops 0.05, 0.1 and 0.2: 0.189, 0.357, 0.665 (11%); 0.199, 0.379, 0.685 (18%); 0.211, 0.400, 0.753 (25%). The drop
 * is in hit@5 units; the shift lowers the other three metrics too, each by its own amount (for a hit@5 drop of 0.2,
 * measured on 20,000 other queries: mrr@10 0.17-0.21, nDCG@10 0.17-0.19, recall@10 0.18).
 */
import { seededRandom } from '../../src/stats/random.js';
import type { GateConfig } from '../../src/gate/config.js';
import { gatePair, SIM_METRICS, type SimPair } from './verdictSim.js';

/** Candidate chunks per query. */
export const POOL = 30;
const RELEVANT_BASE = 0.7;
const GRADE_STEP = 0.5;
const RELEVANT_SD = 0.5;
const EASE_SD = 0.7;

export interface LatentLevel {
  /** The share of queries whose hit@5 differs between two runs of one system, that sigma was calibrated to. */
  changed: number;
  /** The run noise's SD, in units of a non-relevant chunk's latent SD. */
  sigma: number;
}

/** The three noise levels, sigma from `calibrateSigma(changed)` (docs above). */
export const LATENT_LEVELS: readonly LatentLevel[] = [
  { changed: 0.11, sigma: 0.409 },
  // biome-ignore lint/suspicious/noApproximativeNumericConstant: calibrated (0.69293 rounded), not ln 2
  { changed: 0.18, sigma: 0.693 },
  { changed: 0.25, sigma: 1.016 },
];

/** Standard normal draws (Box-Muller, both values used) from a uniform generator. */
export function normalsOf(random: () => number): () => number {
  let spare = Number.NaN;
  return () => {
    if (spare === spare) {
      const s = spare;
      spare = Number.NaN;
      return s;
    }
    const r = Math.sqrt(-2 * Math.log(1 - random()));
    const angle = 2 * Math.PI * random();
    spare = r * Math.sin(angle);
    return r * Math.cos(angle);
  };
}

/** One golden query: latent scores of its pool (the first `relevant` are the relevant chunks) and their grades. */
interface LatentQuery {
  latent: Float64Array;
  relevant: number;
  grades: number[];
  idealDcg: number;
}

function drawQuery(random: () => number, normal: () => number, into: LatentQuery): void {
  const relevant = 1 + Math.floor(random() * 3);
  const ease = EASE_SD * normal();
  into.relevant = relevant;
  into.grades.length = 0;
  for (let j = 0; j < POOL; j++) {
    if (j < relevant) {
      const g = 1 + Math.floor(random() * 3);
      into.grades.push(g);
      into.latent[j] = RELEVANT_BASE + GRADE_STEP * g + ease + RELEVANT_SD * normal();
    } else into.latent[j] = normal();
  }
  const ideal = [...into.grades].sort((x, y) => y - x);
  into.idealDcg = ideal.reduce((sum, g, i) => sum + g / Math.log2(i + 2), 0);
}

const newQuery = (): LatentQuery => ({ latent: new Float64Array(POOL), relevant: 0, grades: [], idealDcg: 0 });

/** One run of query `q`: scores into `scores` (relevant ones lowered by `shift`), its four values into `out`[k][i]. */
function runInto(
  q: LatentQuery,
  sigma: number,
  shift: number,
  normal: () => number,
  scores: Float64Array,
  out: Float64Array[],
  i: number,
): void {
  for (let j = 0; j < POOL; j++) scores[j] = q.latent[j] - (j < q.relevant ? shift : 0) + sigma * normal();
  let best = Infinity;
  let found = 0;
  let dcg = 0;
  for (let j = 0; j < q.relevant; j++) {
    let rank = 1;
    for (let k = 0; k < POOL; k++) if (scores[k] > scores[j]) rank++;
    if (rank < best) best = rank;
    if (rank <= 10) {
      found++;
      dcg += q.grades[j] / Math.log2(rank + 1);
    }
  }
  out[0][i] = best <= 5 ? 1 : 0;
  out[1][i] = best <= 10 ? 1 / best : 0;
  out[2][i] = dcg / q.idealDcg;
  out[3][i] = found / q.relevant;
}

/**
 * One baseline/candidate pair of `n` queries at noise `sigma`: each query drawn once, then ranked in two runs with
 * fresh noise each; the candidate's relevant chunks lowered by `shift` (0: an A/A pair, nothing changed).
 */
export function simulateLatentPair(n: number, sigma: number, shift: number, random: () => number): SimPair {
  const normal = normalsOf(random);
  const baseline = SIM_METRICS.map(() => new Float64Array(n));
  const candidate = SIM_METRICS.map(() => new Float64Array(n));
  const q = newQuery();
  const scores = new Float64Array(POOL);
  for (let i = 0; i < n; i++) {
    drawQuery(random, normal, q);
    runInto(q, sigma, 0, normal, scores, baseline, i);
    runInto(q, sigma, shift, normal, scores, candidate, i);
  }
  return { baseline, candidate };
}

/**
 * The share of `queries` queries whose hit@5 differs between two runs of one system at noise `sigma` (seeded; the
 * draws are taken in the same order for every sigma, so one seed gives common random numbers across sigmas), and
 * the mean hit@5 of the first run.
 */
export function hit5Change(sigma: number, queries: number, seed: number): { changed: number; hit5: number } {
  const pair = simulateLatentPair(queries, sigma, 0, seededRandom(seed));
  let changed = 0;
  let hits = 0;
  for (let i = 0; i < queries; i++) {
    if (pair.baseline[0][i] !== pair.candidate[0][i]) changed++;
    hits += pair.baseline[0][i];
  }
  return { changed: changed / queries, hit5: hits / queries };
}

/** The sigma at which hit@5 changes on `target` of queries: bisection on [0, 3] (how LATENT_LEVELS were set). */
export function calibrateSigma(target: number, queries = 40_000, seed = 45, steps = 30): number {
  let low = 0;
  let high = 3;
  for (let s = 0; s < steps; s++) {
    const mid = (low + high) / 2;
    if (hit5Change(mid, queries, seed).changed < target) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

const shifts = new Map<string, number>();

/**
 * The shift of the relevant chunks' latent scores that lowers the expected hit@5 by `drop` at noise `sigma` (docs
 * above: the empirical quantile of t over `queries` query runs), computed once per sigma and drop.
 */
export function shiftFor(sigma: number, drop: number, queries = 20_000, seed = 4545): number {
  if (drop === 0) return 0;
  const key = `${sigma} ${drop} ${queries} ${seed}`;
  const known = shifts.get(key);
  if (known !== undefined) return known;
  const random = seededRandom(seed);
  const normal = normalsOf(random);
  const q = newQuery();
  const scores = new Float64Array(POOL);
  const found: number[] = [];
  const top = new Float64Array(5); // the five best non-relevant scores, best first
  for (let i = 0; i < queries; i++) {
    drawQuery(random, normal, q);
    for (let j = 0; j < POOL; j++) scores[j] = q.latent[j] + sigma * normal();
    let bestRelevant = -Infinity;
    for (let j = 0; j < q.relevant; j++) bestRelevant = Math.max(bestRelevant, scores[j]);
    top.fill(-Infinity);
    for (let j = q.relevant; j < POOL; j++) {
      if (scores[j] <= top[4]) continue;
      let at = 4;
      for (; at > 0 && top[at - 1] < scores[j]; at--) top[at] = top[at - 1];
      top[at] = scores[j];
    }
    const t = bestRelevant - top[4];
    if (t > 0) found.push(t);
  }
  found.sort((x, y) => x - y);
  const k = Math.round(drop * queries);
  if (k < 1 || k > found.length) throw new Error(`a hit@5 drop of ${drop} is not possible at sigma ${sigma}`);
  // Exactly k of the sample's t lie in (0, shift]: the k-th and (k+1)-th smallest positive t's midpoint.
  const shift = k === found.length ? found[k - 1] + 1 : (found[k - 1] + found[k]) / 2;
  shifts.set(key, shift);
  return shift;
}

/** A pair whose candidate has a true expected hit@5 drop of `drop` (0: an A/A pair) at the given noise level. */
export function latentPair(n: number, level: LatentLevel, drop: number, random: () => number): SimPair {
  return simulateLatentPair(n, level.sigma, shiftFor(level.sigma, drop), random);
}

export interface LatentRates {
  trials: number;
  /** Pairs whose verdict is fail. */
  failed: number;
  /** Pairs whose gates all pass. */
  green: number;
  /** Pairs whose verdict is warn (with the default on_inconclusive: warn, an inconclusive gate). */
  warned: number;
}

/** `trials` pairs of `n` queries at `level` with a planted hit@5 drop `drop`, gated with `config`: the counts. */
export function latentRates(
  config: GateConfig,
  level: LatentLevel,
  drop: number,
  trials: number,
  seed: number,
  n = 300,
): LatentRates {
  const random = seededRandom(seed);
  const rates: LatentRates = { trials, failed: 0, green: 0, warned: 0 };
  for (let t = 0; t < trials; t++) {
    const { gates, verdict } = gatePair(latentPair(n, level, drop, random), config, t);
    if (verdict === 'fail') rates.failed++;
    if (verdict === 'warn') rates.warned++;
    if (gates.every((g) => g.result === 'pass')) rates.green++;
  }
  return rates;
}
