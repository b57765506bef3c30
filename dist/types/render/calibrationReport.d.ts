/**
 * `evalverdict calibrate`'s outputs (docs/cli.md): the noise table, the suggested gate config as YAML that
 * src/gate/config.ts reads back (noise block included), the JSON, and the one line a compare report gives the noise
 * floor its config carries.
 */
import type { Calibration } from '../compare/calibration.js';
import type { NoiseFloor } from '../gate/noise.js';
export declare function renderCalibrationText(c: Calibration, cutoffs?: CalibratedCutoffs): string;
/** Cutoffs the runs were scored with other than the defaults: the config must name them for its gates' metrics. */
export interface CalibratedCutoffs {
    ks?: number[];
    mrrCutoff?: number;
}
/** The suggested gate config: one tested gate per metric, and the noise it was measured at (src/gate/noise.ts). */
export declare function renderCalibrationYaml(c: Calibration, cutoffs?: CalibratedCutoffs): string;
/** The JSON of `--format json` and `--json FILE` (numbers to 4 decimals). */
export declare function calibrationJson(c: Calibration, cutoffs?: CalibratedCutoffs): unknown;
/**
 * The report's one line on the noise floor its config carries, e.g. `Noise floor (evalverdict calibrate, 5 runs of
 * 0123456789ab, 2026-11-28T04:00:00Z): hit@5 sd(diff) 0.2828, detects 0.0412; ...`. The config is input: `id`
 * and `text` make its strings safe for the format (plain text: as given).
 */
export declare function noiseFloorLine(noise: NoiseFloor, id?: (metric: string) => string, text?: (value: string) => string): string;
/** The line in Markdown: metric ids as code when they are plain ids, else escaped text. */
export declare function noiseFloorMarkdown(noise: NoiseFloor): string;
