export declare const EXACT_POWER_MAX = 100;
export declare const TARGET_POWER = 0.8;
export interface NoiseModel {
    n: number;
    /** Share of queries whose value changed. */
    rho: number;
    /** Typical size of a change (root mean square). */
    size: number;
}
/**
 * The noise of a comparison's own paired differences with the mean change removed, for when no baseline-side noise
 * is known: the share of queries that changed, at the size their spread about the mean gives (the variance of the
 * differences, not their mean square: sqrt(variance / share)). A real change, better or worse, then does not count
 * as noise by its mean. No spread about the mean (nothing changed, or every query by the same amount): no noise, at
 * the changes' size (1 when none changed). On the latent model (test/powerAdvice.test.ts) its detectable drop at 300
 * queries is 0.96-1.23 times the A/A noise's (median) under true drops of up to twice the margin; twice the rarer
 * side's share, the other way to remove a change, fell to 0.45, since a real drop also removes wins.
 */
export declare function noiseModel(diffs: ArrayLike<number>): NoiseModel;
/**
 * The model of a measured noise floor (the config's `noise:` block, `evalverdict calibrate`): a share `changed` of the
 * queries differs between two runs with no change, with a mean squared difference sdDiff^2, so a typical change of
 * sdDiff / sqrt(changed) (1 when nothing changed), over the n queries a comparison pairs.
 */
export declare function measuredNoiseModel(n: number, changed: number, sdDiff: number): NoiseModel;
/**
 * The noise when a share `churn` of the queries is redrawn between two runs with no change, a redrawn query taking
 * another value of the same run's per-query values (NaN: left out): it differs with probability 1 - sum p_v^2 over
 * the distinct values v, by a mean square of twice their variance. A hit@k at value v gives 2v(1 - v) and size 1;
 * nDCG or MRR get the size of their own spread instead of a hit's.
 */
export declare function redrawnNoiseModel(values: ArrayLike<number>, churn: number): NoiseModel;
/**
 * Per query, P(loss) and P(win) under a drop of d (in units of the typical size): from unchanged queries first, then
 * from wins, so that P(loss) - P(win) = d for every d in [0, 1] (module comment).
 */
export declare function lossWinShares(rho: number, d: number): {
    loss: number;
    win: number;
};
/** The minimum detectable drop (in the metric's unit) at `level` (one-sided) and `target` power (80%); Infinity: none. */
export declare function minimumDetectableDrop(model: NoiseModel, level: number, target?: number): number;
/** The fewest queries, with the same share and size of changes, whose MDD is at most `margin` (null: over 10^7). */
export declare function queriesNeeded(model: NoiseModel, level: number, margin: number): number | null;
