/**
 * Trades (docs/gates.md, "Trades"): a tested gate's drop beyond its margin but under the trade's margin passes when
 * a cost (latency, money, tokens) is shown to have fallen by the trade's min_gain or more. The gain's test is one
 * more test of the gate's family, at the gate's level, so the error control counts it.
 */
import type { ComparedRuns } from '../compare/types.js';
import { formatValue, plural } from '../numberFormat.js';
import { adjustedP } from '../stats/familywise.js';
import { MIN_TRADE_QUERIES, tradeGain } from '../stats/tradeGain.js';
import { TRADE_COSTS } from './config.js';
import type { Trade } from './config.js';
import { gatePSentence } from './gateWords.js';
import type { TestedNumbers } from './testedGates.js';
import type { GateResult, TradeResult } from './types.js';

/** The family a gate's test and its trade's are in, as its words name it. */
type Family = Pick<TestedNumbers, 'correction' | 'simultaneousOver'>;

/** A trade's terms and its gain's test, before the gate's bounds are read against its margin. */
export type TradeTest = Omit<TradeResult, 'margin_holds' | 'traded'>;

/** The gain's test over the queries with the cost on both sides, at the level of its gate (`gate`'s family). */
export function tradeResultOf(
  trade: Trade,
  pairedQuantityOf: ComparedRuns['pairedQuantityOf'],
  gate: Pick<TestedNumbers, 'simultaneousOver'>,
  alpha: number,
): TradeTest {
  const cost = TRADE_COSTS[trade.cost];
  const paired = pairedQuantityOf?.(cost.quantity) ?? null;
  const g = paired ? tradeGain(paired.baseline, paired.candidate, trade.minGain) : null;
  const p = g?.pValue ?? null;
  // Bought on the adjusted p itself, so `bought` and `p_adjusted < alpha` are one comparison, never two roundings.
  const adjusted = p === null ? null : adjustedP(p, gate.simultaneousOver);
  return {
    metric: trade.cost,
    margin: trade.margin,
    min_gain: trade.minGain,
    gain: g?.gain ?? null,
    p_value: p,
    p_adjusted: adjusted,
    n_paired: g?.n ?? 0,
    one_sided_zeros: g?.oneSidedZeros ?? 0,
    bought: adjusted !== null && adjusted < alpha,
  };
}

/** "47% lower latency" (a rise reads "12% higher latency"). */
export function gainText(t: Pick<TradeTest, 'gain' | 'metric'>): string {
  const words = TRADE_COSTS[t.metric].words;
  if (t.gain === null) return `no ${words} to compare`;
  return `${percent(Math.abs(t.gain))} ${t.gain >= 0 ? 'lower' : 'higher'} ${words}`;
}

/** A share in percent: whole above 1% ("49%"), else to a tenth ("0.4%"); a min_gain as written ("12.5%"). */
const percent = (share: number, exact = false) =>
  `${exact || share < 0.01 ? +(share * 100).toFixed(exact ? 2 : 1) : Math.round(share * 100)}%`;

/** "or < 0.0500 for 25% lower latency", the part of a gate's threshold its trade adds. */
export function tradeThresholdText(trade: Trade, unit: string | undefined): string {
  return `or < ${formatValue(trade.margin, unit)} for ${percent(trade.minGain, true)} lower ${TRADE_COSTS[trade.cost].words}`;
}

/**
 * "47% lower latency, a fall of 25% or more shown (1,000 queries; one-sided p 0.0001, Bonferroni-adjusted 0.0004 <
 * α 0.05)", in the p sentence of the gate's own test.
 */
export function gainWords(t: TradeTest, family: Family, alpha: number): string {
  const quantity = TRADE_COSTS[t.metric].quantity;
  if (t.n_paired === 0) return `no query has ${quantity} in both runs, so the trade's gain cannot be tested`;
  if (t.gain === null) return `${quantity} is 0 for every query of both runs, so the trade's gain cannot be tested`;
  if (t.p_value === null && t.one_sided_zeros > 0)
    return `${gainText(t)}, but ${plural(t.one_sided_zeros, 'query has', 'queries have')} ${quantity} 0 in one run only: a ratio cannot say how far a free query fell, so the gain is not tested`;
  if (t.p_value === null)
    return `${gainText(t)}, but only ${plural(t.n_paired, 'query has', 'queries have')} ${quantity} in both runs, fewer than the ${MIN_TRADE_QUERIES} a gain is tested on`;
  const need = `a fall of ${percent(t.min_gain, true)} or more`;
  const p = `${gatePSentence(t.p_value, t.p_adjusted, family.correction, alpha, family.simultaneousOver)} ${t.bought ? '<' : '≥'} α ${alpha}`;
  return `${gainText(t)}, ${t.bought ? `${need} shown` : `${need} not shown`} (${plural(t.n_paired, 'query', 'queries')}; ${p})`;
}

/**
 * Why a gate with a trade was not traded: "not traded: a drop of the trade's margin 0.0600 is not ruled out (49% lower
 * latency)", or "not traded: the trade's margin 0.0600 holds, but 5% lower latency, a fall of 25% or more not shown
 * (...)".
 */
export function untradedText(t: TradeResult, family: Family, alpha: number, unit: string | undefined): string {
  const margin = formatValue(t.margin, unit);
  return t.margin_holds
    ? `not traded: the trade's margin ${margin} holds, but ${gainWords(t, family, alpha)}`
    : `not traded: a drop of the trade's margin ${margin} is not ruled out (${gainText(t)})`;
}

/** The gates a trade passed, for the verdict line. */
export const tradedGates = (gates: readonly GateResult[]) => gates.filter((g) => g.trade?.traded === true);
