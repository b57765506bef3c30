/**
 * Alpha spent over a family of tested gates, fixed before any data is seen (docs/gates.md, "Error control";
 * docs/decisions/0010-decision-rule.md): Bonferroni, each of m tests at alpha / m, so the chance of any false alarm
 * among them is at most alpha whatever their dependence (Bonferroni's inequality). The config's `holm` and `bh`
 * (Holm 1979, Scandinavian Journal of Statistics 6; Benjamini and Hochberg 1995, JRSS B 57) name the family it
 * spends alpha over; bounds read against a margin in advance cannot step down, so both spend it this way.
 * `correction: none` tests each gate at alpha.
 */

export type Correction = 'none' | 'holm' | 'bh';

/** How many tests share alpha: 1 under `none`, else the corrected tests (at least 1). */
export function familySize(correction: Correction, corrected: number): number {
  return correction === 'none' ? 1 : Math.max(1, corrected);
}

/** Each test's level in a family of `size`. */
export function levelInFamily(alpha: number, size: number): number {
  return alpha / size;
}

/** A test's p-value adjusted for a family of `size` (Bonferroni), at most 1. */
export function adjustedP(pValue: number, size: number): number {
  return Math.min(1, size * pValue);
}
