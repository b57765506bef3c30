/**
 * Main histories for the change-point simulations (test/changePointAutocorrelated.test.ts,
 * test/changePointMeasure.test.ts): seeded series of independent or AR(1) runs, with or without a planted shift.
 */
import { changePointOf } from '../../src/stats/changePoint.js';
import type { ChangePoint } from '../../src/stats/changePoint.js';
import { seededRandom } from '../../src/stats/random.js';

export type Random = () => number;
/** A series of n runs (oldest first) drawn from `random`. */
export type Model = (n: number, random: Random) => number[];

/** A standard normal draw (Box-Muller). */
export function normal(random: Random): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** A centred, unit-variance exponential draw: skewed noise. */
export function skewed(random: Random): number {
  return -Math.log(1 - random()) - 1;
}

/**
 * Stationary AR(1) runs with coefficient `phi` and standard deviation 1 (each run's noise, the "noise SD" shifts are
 * measured in): x_t = phi x_{t-1} + sqrt(1 - phi^2) u_t, u from `innovation` (mean 0, variance 1).
 */
export function ar1(phi: number, innovation: (random: Random) => number = normal): Model {
  return (n, random) => {
    const scale = Math.sqrt(1 - phi * phi);
    const x = [normal(random)];
    for (let i = 1; i < n; i++) x.push(phi * x[i - 1] + scale * innovation(random));
    return x;
  };
}

/** hit@5 of `queries` queries, each found with probability `rate` (the run's noise is binomial: ties common). */
export function hitRate(queries: number, rate: number): Model {
  return (n, random) =>
    Array.from({ length: n }, () => {
      let hits = 0;
      for (let q = 0; q < queries; q++) if (random() < rate) hits++;
      return hits / queries;
    });
}

/**
 * hit@5 of 200 queries whose common hit probability drifts from run to run as AR(1) `phi` around 0.7 (sd 0.03, a
 * slowly changing index or corpus), plus each run's binomial sampling noise: a second, non-Gaussian model.
 */
export function driftingHitRate(phi: number): Model {
  const latent = ar1(phi);
  return (n, random) =>
    latent(n, random).map((z) => {
      const rate = 0.7 + 0.03 * z;
      let hits = 0;
      for (let q = 0; q < 200; q++) if (random() < rate) hits++;
      return hits / 200;
    });
}

/** `model`'s series with `size` added to every run from index `start` on. */
export function shifted(model: Model, start: number, size: number): Model {
  return (n, random) => model(n, random).map((x, i) => (i >= start ? x + size : x));
}

export interface Outcome {
  trials: number;
  /** Series marked (any direction, any start). */
  marked: number;
  /** Marks in `direction` whose start is `start` exactly, and within one run. */
  exact: number;
  withinOne: number;
  found: number;
}

/** `trials` series of n runs from `model` (seed `seed`), each tested; with `planted`, its marks counted. */
export function simulate(
  model: Model,
  n: number,
  trials: number,
  seed: number,
  planted?: { start: number; direction: ChangePoint['direction'] },
): Outcome {
  const random = seededRandom(seed);
  const outcome: Outcome = { trials, marked: 0, exact: 0, withinOne: 0, found: 0 };
  for (let t = 0; t < trials; t++) {
    const mark = changePointOf(model(n, random));
    if (!mark) continue;
    outcome.marked++;
    if (!planted || mark.direction !== planted.direction) continue;
    outcome.found++;
    if (mark.start === planted.start) outcome.exact++;
    if (Math.abs(mark.start - planted.start) <= 1) outcome.withinOne++;
  }
  return outcome;
}

/** The binomial standard error of a rate p over `trials`. */
export function binomialSE(p: number, trials: number): number {
  return Math.sqrt((p * (1 - p)) / trials);
}
