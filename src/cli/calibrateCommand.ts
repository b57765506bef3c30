/**
 * `evalverdict calibrate RUNS.sqlite [MORE.sqlite ...] --golden G`: repeated runs of one commit (A/A) in, per metric
 * the run-to-run spread, the smallest drop a gate detects at that noise, and a suggested gate config out
 * (docs/cli.md, "Thresholds from measured noise").
 */
import { MIN_CALIBRATION_RUNS } from '../compare/calibration.js';
import { TARGET_POWER } from '../stats/power.js';
import { InputError } from '../errors.js';
import { oneLine } from '../inputText.js';
import { runCalibrate } from '../pipeline/calibrateRuns.js';
import type { RunRef } from '../pipeline/calibrateRuns.js';
import { runIdsIn, runsNamed } from '../pipeline/runLists.js';
import { calibrationJson, renderCalibrationText, renderCalibrationYaml } from '../render/calibrationReport.js';
import { stableJson } from '../stableJson.js';
import { summariseWarnings } from '../render/warningText.js';
import { refuseOutputOverInput, writeOutputFiles } from '../write/outputFiles.js';
import { METRIC_FLAGS, metricOptions, parse, wantsHelp } from './args.js';
import type { Io } from './io.js';

export const CALIBRATE_USAGE = `usage: evalverdict calibrate RUNS.sqlite --golden golden.yaml [--run a,b,c | --run all] [--metrics hit@5,mrr@10]
    [--alpha 0.05] [--power 0.8] [--format text|yaml|json] [--json OUT.json] [--k 1,3,5,10] [--mrr-cutoff 10] ...
  evalverdict calibrate RUN1.sqlite RUN2.sqlite ... --golden golden.yaml   (the newest run of each database)
  Reads repeated runs of one commit (at least ${MIN_CALIBRATION_RUNS}; every run of RUNS.sqlite by default) and prints, per metric, the
  run-to-run spread, the smallest drop a gate's one-sided test detects at that noise (--power, default 0.8, at
  --alpha over the metrics, Holm), and a suggested gate config with margins and significant_only (--format yaml:
  the config alone). --metrics: paired per-query metrics (default hit@5,mrr@10,nDCG@10,recall@10).`;

const DEFAULT_METRICS = ['hit@5', 'mrr@10', 'nDCG@10', 'recall@10'];

export async function calibrateCommand(args: string[], io: Io): Promise<number> {
  if (wantsHelp(args, CALIBRATE_USAGE, io)) return 0;
  const { values, positionals } = parse(
    args,
    {
      golden: { type: 'string' },
      run: { type: 'string' },
      metrics: { type: 'string' },
      alpha: { type: 'string' },
      power: { type: 'string' },
      format: { type: 'string' },
      json: { type: 'string' },
      ...METRIC_FLAGS,
    },
    CALIBRATE_USAGE,
  );
  if (positionals.length === 0) throw new InputError(`expected a run database\n${CALIBRATE_USAGE}`);
  if (!values.golden) throw new InputError(`--golden is required\n${CALIBRATE_USAGE}`);
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'yaml' && format !== 'json')
    throw new InputError(`--format must be text, yaml or json, got ${JSON.stringify(format)}\n${CALIBRATE_USAGE}`);
  const alpha = fraction(values.alpha, 'alpha', 0.05);
  const power = fraction(values.power, 'power', TARGET_POWER);
  const metrics = metricList(values.metrics);
  if (values.json !== undefined)
    refuseOutputOverInput(
      [['--json', values.json]],
      [['the golden set', values.golden], ...positionals.map((p) => ['a run database', p] as const)],
    );
  const runs = await runRefs(positionals, values.run);
  const options = metricOptions(values);
  // The cutoffs given here go into the config, so that compare scores the gated metrics (recall@20) the same way.
  const cutoffs = { ks: options.ks, mrrCutoff: options.mrrCutoff };
  const { calibration, warnings } = await runCalibrate({
    runs,
    goldenPath: values.golden,
    options,
    metrics,
    alpha,
    power,
    correction: 'holm',
  });
  for (const w of summariseWarnings(warnings)) io.stderr(`warning: ${w}\n`);
  const json = stableJson(calibrationJson(calibration, cutoffs));
  if (values.json !== undefined) writeOutputFiles([[values.json, json]]);
  if (format === 'json') io.stdout(json);
  else
    io.stdout(
      format === 'yaml' ? renderCalibrationYaml(calibration, cutoffs) : renderCalibrationText(calibration, cutoffs),
    );
  return 0;
}

/** A flag's number strictly between 0 and 1 (alpha, power). */
function fraction(text: string | undefined, flag: string, fallback: number): number {
  if (text === undefined) return fallback;
  const x = /^\s*\d*\.?\d+\s*$/.test(text) ? Number(text) : NaN;
  if (!(x > 0 && x < 1))
    throw new InputError(`--${flag}: ${JSON.stringify(text)} is not a number between 0 and 1\n${CALIBRATE_USAGE}`);
  return x;
}

function metricList(text: string | undefined): string[] {
  if (text === undefined) return DEFAULT_METRICS;
  const ids = text.split(',').map((id) => id.trim());
  if (ids.some((id) => id === '')) throw new InputError(`--metrics: ${JSON.stringify(text)} has an empty metric id`);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice !== undefined) throw new InputError(`--metrics: \`${oneLine(twice)}\` is given twice`);
  return ids;
}

/**
 * The runs to read: one database's `--run a,b,c` or `all` (the default), or the newest run of each of several
 * databases. Fewer than two is refused, naming the database(s).
 */
async function runRefs(paths: string[], run: string | undefined): Promise<RunRef[]> {
  if (paths.length > 1) {
    if (run !== undefined)
      throw new InputError(
        `--run names runs of one database; with ${paths.length} databases each one's newest is read`,
      );
    return paths.map((path) => ({ path, runId: null }));
  }
  const [path] = paths;
  const named = run === undefined ? await runIdsIn(path) : await runsNamed(path, run, '--run');
  const ids = named ?? [run as string];
  if (ids.length < MIN_CALIBRATION_RUNS)
    throw new InputError(
      `${path}: calibrate needs at least ${MIN_CALIBRATION_RUNS} runs of one commit to measure its noise, got ${ids.length}${ids.length === 1 ? ` (\`${oneLine(ids[0])}\`)` : ''}: run the suite again on the same commit, or name several databases`,
    );
  return ids.map((runId) => ({ path, runId }));
}
