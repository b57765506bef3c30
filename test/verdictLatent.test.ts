/**
 * The verdict's statistics on a second, independent model (issue 45): latent scores with graded relevance and
 * Gaussian run noise at three levels (test/helpers/latentSim.ts), gated by today's gate code with the default config
 * (the `retrieval` preset) through verdictSim's gatePair. What is asserted is what holds today; the rest is reported
 * here, measured, and not asserted.
 *
 * Measured with latentRates(defaultGateConfig(), level, drop, 1000, 4500): 1,000 pairs of 300 queries per cell,
 * the drop a true expected hit@5 drop (the margin is 0.1); binomial SE in brackets:
 *
 *   hit@5 changes on   | A/A: fail     all gates green  warn (inconclusive) | drop 0.05: fail  | drop 0.2: fail
 *   11% (sigma 0.409)  |   3.2% (0.6)  96.8% (0.6)       0.0%               | 99.0% (0.3)      | 100% (1000 of 1000)
 *   18% (sigma 0.693)  |   3.1% (0.5)  92.7% (0.8)       4.2% (0.6)         | 87.9% (1.0)      | 100% (1000 of 1000)
 *   25% (sigma 1.016)  |   2.9% (0.5)   8.4% (0.9)      88.7% (1.0)         | 69.6% (1.5)      | 100% (1000 of 1000)
 *
 * The A/A false fails stay under alpha (92 of 3,000 pooled, 3.1%): asserted below on fewer pairs. The rest is
 * today's rule, not issue 45's, and is not asserted: the preset's gates are `max_drop: 0`, so a significant drop of
 * any size fails, and a true drop of half the margin fails 70-99% of the time (issue 45 asks <= alpha); at 25% the
 * honest pairs are inconclusive, not green (issue 45 asks >= 80% green), nearly always on the hit@5 gate alone,
 * whose detectable drop, read off the observed churn, averages 0.106 there (0.077 at 11%, 0.093 at 18%; the other
 * three gates detect 0.04-0.08 and pass). A drop of twice the margin always fails.
 */
import { describe, expect, it } from 'vitest';
import { defaultGateConfig } from '../src/gate/config.js';
import { seededRandom } from '../src/compare/significance.js';
import { hit5Change, LATENT_LEVELS, latentRates, shiftFor, simulateLatentPair } from './helpers/latentSim.js';

/** Binomial standard error of a rate p over n trials. */
const se = (p: number, n: number) => Math.sqrt((p * (1 - p)) / n);

describe('the latent model (test/helpers/latentSim.ts) is calibrated', () => {
  it('hit@5 changes between two identical runs on 11%, 18% and 25% of queries (10,000 queries a level, ±0.015)', () => {
    // 10,000 queries, a seed apart from the calibration's: binomial SE 0.0031 at 11%, 0.0043 at 25%, so the
    // tolerance 0.015 is 3.5 SE or more. Measured: 0.1139, 0.1802, 0.2501.
    const queries = 10_000;
    LATENT_LEVELS.forEach((level, i) => {
      const { changed } = hit5Change(level.sigma, queries, 2027 + i);
      expect(Math.abs(changed - level.changed), `level ${level.changed}: measured ${changed}`).toBeLessThanOrEqual(
        0.015,
      );
    });
  });

  it('a planted drop lowers the expected hit@5 by the amount asked (0.2 at each level, 10,000 queries)', () => {
    const queries = 10_000;
    LATENT_LEVELS.forEach((level, i) => {
      const pair = simulateLatentPair(queries, level.sigma, shiftFor(level.sigma, 0.2), seededRandom(77 + i));
      const diffs = pair.baseline[0].map((b, q) => b - pair.candidate[0][q]);
      const mean = diffs.reduce((a, b) => a + b, 0) / queries;
      const sd = Math.sqrt(diffs.reduce((a, d) => a + (d - mean) ** 2, 0) / (queries - 1));
      // 3 SE of the two errors: this mean paired drop's (about 0.0045) and the shift's own, set on 20,000 query runs
      // (se(0.2, 20000) = 0.0028). Measured: 0.2042, 0.1909, 0.2018.
      const error = Math.hypot(sd / Math.sqrt(queries), se(0.2, 20_000));
      expect(Math.abs(mean - 0.2), `level ${level.changed}: drop ${mean}`).toBeLessThanOrEqual(3 * error);
    });
  });
});

describe('the default config on 300-query pairs of the latent model', () => {
  it('A/A pairs fail in at most alpha at every noise level (120 pairs a level, + 3 binomial SE)', () => {
    // 120 pairs a level (about 1 s of CPU each; the gate code's tests are most of it): SE at 5% 0.0199, so at most
    // 0.05 + 0.060 a level; pooled over 360, SE 0.0115: at most 0.05 + 0.034. Measured with these seeds: 3, 5 and 5
    // of 120 (2.5%, 4.2%, 4.2%), 13 of 360 pooled (3.6%); all gates green in 117, 108 and 14 of 120. The 1,000-pair
    // runs above: 3.2%, 3.1%, 2.9%.
    const trials = 120;
    let pooled = 0;
    LATENT_LEVELS.forEach((level, i) => {
      const { failed } = latentRates(defaultGateConfig(), level, 0, trials, 4545 + i);
      pooled += failed;
      expect(failed / trials, `level ${level.changed}: ${failed} of ${trials}`).toBeLessThanOrEqual(
        0.05 + 3 * se(0.05, trials),
      );
    });
    const all = trials * LATENT_LEVELS.length;
    expect(pooled / all, `${pooled} of ${all}`).toBeLessThanOrEqual(0.05 + 3 * se(0.05, all));
  });
});
