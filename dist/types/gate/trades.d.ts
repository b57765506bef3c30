/**
 * Trades (docs/gates.md, "Trades"): a tested gate's drop beyond its margin but under the trade's margin passes when
 * a cost (latency, money, tokens) is shown to have fallen by the trade's min_gain or more. The gain's test is one
 * more test of the gate's family, at the gate's level, so the error control counts it.
 */
import type { ComparedRuns } from '../compare/types.js';
import type { Trade } from './config.js';
import type { TestedNumbers } from './testedGates.js';
import type { GateResult, TradeResult } from './types.js';
/** The family a gate's test and its trade's are in, as its words name it. */
type Family = Pick<TestedNumbers, 'correction' | 'simultaneousOver'>;
/** A trade's terms and its gain's test, before the gate's bounds are read against its margin. */
export type TradeTest = Omit<TradeResult, 'margin_holds' | 'traded'>;
/** The gain's test over the queries with the cost on both sides, at the level of its gate (`gate`'s family). */
export declare function tradeResultOf(trade: Trade, pairedQuantityOf: ComparedRuns['pairedQuantityOf'], gate: Pick<TestedNumbers, 'simultaneousOver'>, alpha: number): TradeTest;
/** "47% lower latency" (a rise reads "12% higher latency"). */
export declare function gainText(t: Pick<TradeTest, 'gain' | 'metric'>): string;
/** "or < 0.0500 for 25% lower latency", the part of a gate's threshold its trade adds. */
export declare function tradeThresholdText(trade: Trade, unit: string | undefined): string;
/**
 * "47% lower latency, a fall of 25% or more shown (1,000 queries; one-sided p 0.0001, Bonferroni-adjusted 0.0004 <
 * α 0.05)", in the p sentence of the gate's own test.
 */
export declare function gainWords(t: TradeTest, family: Family, alpha: number): string;
/**
 * Why a gate with a trade was not traded: "not traded: a drop of the trade's margin 0.0600 is not ruled out (49% lower
 * latency)", or "not traded: the trade's margin 0.0600 holds, but 5% lower latency, a fall of 25% or more not shown
 * (...)".
 */
export declare function untradedText(t: TradeResult, family: Family, alpha: number, unit: string | undefined): string;
/** The gates a trade passed, for the verdict line. */
export declare const tradedGates: (gates: readonly GateResult[]) => GateResult[];
export {};
