/**
 * One-sided bounds of a mean drop (positive = worse), each at level 1 - `beta` (docs/decisions/0010): the mean
 * plus or minus Student's t point (n - 1 degrees of freedom) standard errors. The variance of a query's drop is taken as at least that of two queries
 * in n + 1 changing by `step` (the metric's full step: 1 for a rate), the spread Agresti and Min's two added
 * discordant pairs give paired proportions, so a set in which nothing changed is not proof that nothing could: 18
 * unchanged queries cannot rule out a drop of 0.1. `pValue` is the one-sided p of "no drop" for the same
 * statistic, so `lower > 0` exactly when `pValue < beta`.
 */
export interface DropBounds {
    n: number;
    meanDrop: number;
    se: number;
    lower: number;
    upper: number;
    pValue: number;
}
export declare function dropBounds(drops: ArrayLike<number>, beta: number, step: number): DropBounds;
