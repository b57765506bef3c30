import { type NoiseModel } from '../stats/power.js';
import type { YamlWithLines } from '../yamlLines.js';
export interface MetricNoiseFloor {
    /** SD of a query's difference between two runs. */
    sd_diff: number;
    /** SD of the run mean across runs. */
    sd_mean: number;
    /** Share of queries whose value differs between two runs. */
    changed: number;
    /** The smallest drop the gate detects at that noise; null: none. */
    detects: number | null;
}
export interface NoiseFloor {
    measured: string;
    runs: number;
    commit: string | null;
    metrics: Record<string, MetricNoiseFloor>;
}
/** The `noise` node of a config's root map, checked key by key; every error names the line of the key at fault. */
export declare function parseNoise(node: unknown, { lineOf, keyLine }: YamlWithLines, source: string): NoiseFloor;
/**
 * A metric's measured noise as the detectable drop's model over the n queries a comparison pairs: the share of
 * queries that changed between two runs of one commit, at a typical size sd_diff / sqrt(changed) (graded metrics
 * too: nDCG's small changes keep their own size, not a hit's). The baseline side's noise, not the comparison's.
 */
export declare function noiseFloorModel(floor: MetricNoiseFloor, n: number): NoiseModel;
