import type { AggregateOptions } from '../aggregate/score.js';
import type { Correction } from '../stats/familywise.js';
import type { NoiseFloor } from './noise.js';
/** The gate config both entries read when none is named and it exists (relative to the working directory). */
export declare const DEFAULT_CONFIG_PATH = ".github/evalverdict.yml";
export type ThresholdKey = 'min' | 'max' | 'max_drop' | 'max_increase' | 'max_drop_pct' | 'max_increase_pct';
export declare const THRESHOLD_KEYS: ThresholdKey[];
export declare const WHERE_KEYS: readonly ["category", "difficulty", "tag", "answerable", "vault"];
export type WhereKey = (typeof WHERE_KEYS)[number];
export interface GateSpec {
    metric: string;
    where: {
        key: WhereKey;
        value: string;
    } | null;
    level: 'error' | 'warn';
    thresholds: Partial<Record<ThresholdKey, number>>;
    significantOnly: boolean;
    /** A `where` group with fewer queries is reported as informational, not enforced. */
    minN: number;
    /** What a gate whose metric is null on a side it reads does. */
    onNoData: 'fail' | 'warn' | 'pass';
    /** The smallest drop that matters, when the gate sets its own (else the config's `margin`). */
    margin?: number;
    /** What a tested gate does when it can neither fail nor pass (too little power at the margin, or an unproven drop). */
    onInconclusive?: OnInconclusive;
    /** Where it was written: `file:line`, or `preset NAME`. */
    origin: string;
    line?: number;
    /** A tested gate that must also hold in every slice (`per_slice: true`; the config's `slices`). */
    perSlice?: boolean;
    /** One slice's gate, made from a `per_slice` gate (gates.ts, withSliceGates); never written in a config. */
    slice?: boolean;
    /** A drop beyond the margin but under `margin` passes when `cost` falls by `minGain` or more (docs/gates.md, "Trades"). */
    trade?: Trade;
}
/** `trade: {margin: 0.05, metric: latency_ms, min_gain: 0.25}` on a tested gate. */
export interface Trade {
    margin: number;
    cost: TradeCost;
    /** The relative fall of the cost that buys the drop: 0.25 is a quarter lower. */
    minGain: number;
}
/** The costs a quality drop may be traded for: each the per-query quantity it reads, and its name in words. */
export declare const TRADE_COSTS: {
    readonly latency_ms: {
        readonly quantity: "elapsed_ms";
        readonly words: "latency";
    };
    readonly cost_usd: {
        readonly quantity: "cost_usd";
        readonly words: "cost";
    };
    readonly prompt_tokens: {
        readonly quantity: "prompt_tokens";
        readonly words: "prompt tokens";
    };
    readonly completion_tokens: {
        readonly quantity: "completion_tokens";
        readonly words: "completion tokens";
    };
};
export type TradeCost = keyof typeof TRADE_COSTS;
export type OnInconclusive = 'fail' | 'warn' | 'pass';
/** The smallest drop that matters, by default: see docs/gates.md, "Margins" (chosen by test/verdict.test.ts). */
export declare const DEFAULT_MARGIN = 0.1;
export interface GateConfig {
    source: string;
    alpha: number;
    gates: GateSpec[];
    /** The default margin of tested gates. */
    margin: number;
    onInconclusive: OnInconclusive;
    /** How the tested gates' p-values are adjusted together. */
    correction: Correction;
    /** The metric whose tested gates are tested at the full alpha, outside the correction. */
    primary: string | null;
    /** `k` and `mrr_cutoff` when the config sets them (the CLI's --k / --mrr-cutoff win). */
    ks?: number[];
    mrrCutoff?: number;
    /** Lines whose meaning changed (significant_only), for the report's warnings. */
    notices: string[];
    /** The run-to-run noise `evalverdict calibrate` measured, when the config carries it (src/gate/noise.ts). */
    noise?: NoiseFloor;
    /** `slices` and `min_queries` when set: the breakdown fields a `per_slice` gate holds in, value by value. */
    slices?: {
        keys: WhereKey[];
        minQueries: number;
    };
    /** `repeats.may_differ` when set: settings a side's repeats may differ in without a warning (else compare's default). */
    repeatsMayDiffer?: string[];
}
type PresetGate = Omit<GateSpec, 'origin' | 'minN' | 'where' | 'onNoData'> & {
    where?: GateSpec['where'];
    onNoData?: GateSpec['onNoData'];
};
/** The most gates a config may hold (presets' included). */
export declare const MAX_GATES = 200;
/** Shipped presets. Thresholds are the issue's; each is documented in docs/gates.md. */
export declare const PRESETS: Record<string, PresetGate[]>;
/**
 * Used when no config is given: the retrieval preset alone. No count gate such as `regressions: max 0`: a count
 * with no test is yellow on nearly every honest change of a 300-query set (test/verdict.test.ts).
 */
export declare function defaultGateConfig(): GateConfig;
/**
 * The built-in default for a report without a baseline (the action's `baseline: none` with no config): its gates,
 * all relative, have nothing to compare with, and warn instead of failing (docs/action.md).
 */
export declare function candidateOnlyDefaultConfig(): GateConfig;
export declare function parseGateConfig(text: string, source: string): GateConfig;
/** The fewest queries a slice needs for a per_slice gate to hold in it (docs/gates.md, "Slices"). */
export declare const DEFAULT_MIN_SLICE_QUERIES = 20;
/**
 * The settings in force, resolved once, and the config's gates at them: the cutoffs are `given`'s (the command
 * line's, the action's inputs') when set, else the config's `k` and `mrr_cutoff`, else the defaults; the level is the
 * config's alpha. Every k a gate's metric names (`hit@5`, `nDCG@20`, up to CUTOFF_MAX) joins the k list, so the
 * retrieval preset holds under any `k`; the preset's `mrr@10` follows the MRR cutoff, MRR having one. A gate of the
 * config's own on `mrr@N` must name the cutoff in use. The options go to scoring and the comparison; the gates read
 * the level from the comparison (gates.ts, applyGates).
 */
export declare function settingsOf<T extends Partial<AggregateOptions>>(config: GateConfig, given: T): {
    config: GateConfig;
    options: T & {
        ks: number[];
        mrrCutoff: number;
        alpha: number;
    };
};
export {};
