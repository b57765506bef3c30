/** The words every output gives a tested gate's numbers in: its p sentence, its bounds, its detectable drop. */
import { formatP, formatValue } from '../numberFormat.js';
import type { TestedNumbers } from './testedGates.js';

const CORRECTION_WORDS: Record<TestedNumbers['correction'], string> = {
  none: 'not adjusted',
  holm: 'Bonferroni-adjusted',
  bh: 'Bonferroni-adjusted',
  primary: 'primary, not adjusted',
};

/**
 * The p of a tested gate's bounds, adjusted where alpha is split: "one-sided p 0.0312, Bonferroni-adjusted 0.1250",
 * "..., not adjusted" (correction: none), "..., primary, not adjusted", "..., primary with its trade,
 * Bonferroni-adjusted 0.0624" (the primary's alpha split with its trade's test: `over` 2). The one sentence every
 * output gives it in.
 */
export function gatePSentence(
  pValue: number,
  pAdjusted: number | null | undefined,
  correction: TestedNumbers['correction'],
  alpha: number,
  over = 1,
): string {
  const adjusted =
    correction === 'primary' && over > 1
      ? `primary with its trade, Bonferroni-adjusted ${formatP(pAdjusted, alpha)}`
      : correction === 'none' || correction === 'primary'
        ? CORRECTION_WORDS[correction]
        : `${CORRECTION_WORDS[correction]} ${formatP(pAdjusted, alpha)}`;
  return `one-sided p ${formatP(pValue, alpha)}, ${adjusted}`;
}

/** "one-sided p 0.0312, Bonferroni-adjusted 0.1250 ≥ α 0.05". */
export function pWords(t: TestedNumbers, alpha: number): string {
  const p = gatePSentence(t.pValue, t.pAdjusted, t.correction, alpha, t.simultaneousOver);
  return `${p} ${t.significant ? '<' : '≥'} α ${alpha}`;
}

/** "change between −0.0533 and +0.0267 (90%, simultaneous over 4 tests; one-sided p 0.66, ...)". */
export function boundsWords(t: TestedNumbers, alpha: number, unit: string | undefined): string {
  const over = t.simultaneousOver > 1 ? `, simultaneous over ${t.simultaneousOver} tests` : '';
  const level = `${+(t.ciLevel * 100).toFixed(2)}%${over}`;
  const signed = (x: number) => `${x >= 0 ? '+' : '−'}${formatValue(Math.abs(x), unit)}`;
  return `change between ${signed(t.ci[0])} and ${signed(t.ci[1])} (${level}; ${pWords(t, alpha)})`;
}

/** "with 18 queries a drop of 0.72 or more is found 80% of the time" (advice for an inconclusive gate). */
export function detectText(t: TestedNumbers, unit: string | undefined): string {
  const queries = `${t.nPaired.toLocaleString('en-US')} ${t.nPaired === 1 ? 'query' : 'queries'}`;
  const from = t.adviceFrom === 'noise floor' ? ' (at the noise the config records)' : '';
  return t.mdd === null
    ? `with ${queries} no drop is found 80% of the time${from}`
    : `with ${queries} a drop of ${formatValue(t.mdd, unit)} or more is found 80% of the time${from}`;
}
