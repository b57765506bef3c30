/**
 * One-sided bounds of a paired mean drop, the interval every tested gate reads against its margin
 * (docs/decisions/0010): Student's t with the variance floored as Agresti and Min's added discordant pairs floor
 * it (Agresti and Min, "Simple improved confidence intervals for comparing matched proportions", Statistics in
 * Medicine 24, 2005).
 */
import { normalPointOf, normalQuantile, normalUpperTail, studentPoint } from './distributions.js';

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

export function dropBounds(drops: ArrayLike<number>, beta: number, step: number): DropBounds {
  const n = drops.length;
  if (n === 0) return { n, meanDrop: 0, se: 0, lower: 0, upper: 0, pValue: 1 };
  let sum = 0;
  for (let i = 0; i < n; i++) sum += drops[i];
  const meanDrop = sum / n;
  let squares = 0;
  for (let i = 0; i < n; i++) squares += (drops[i] - meanDrop) ** 2;
  const variance = Math.max(n > 1 ? squares / (n - 1) : 0, (2 * step * step) / (n + 1));
  const se = Math.sqrt(variance / n);
  const df = Math.max(1, n - 1);
  const half = studentPoint(normalQuantile(beta), df) * se;
  const pValue = se > 0 ? normalUpperTail(normalPointOf(meanDrop / se, df)) : meanDrop > 0 ? 0 : 1;
  return { n, meanDrop, se, lower: meanDrop - half, upper: meanDrop + half, pValue };
}
