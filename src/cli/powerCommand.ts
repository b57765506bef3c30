/**
 * `evalverdict power --golden G [--baseline RUN.sqlite [--run ID]] [--config C] [--churn 0.4]`: for each tested gate of
 * the config, the smallest drop its test detects with 80% power, and how many queries would bring that to the margin,
 * before anyone runs a comparison (docs/cli.md, "Before a comparison: evalverdict power").
 *
 * There are no paired differences yet. The noise is the baseline side's: measured over its repeated runs when `--run`
 * names several (as calibrate measures it), else the config's measured `noise:` block for the metric; else assumed: a share `churn` of the queries is
 * redrawn between two runs with no real change, a redrawn query taking another of the baseline's per-query values
 * (src/stats/power.ts, redrawnNoiseModel: a hit at 2v(1 - v) for hit@k, its own spread for nDCG or MRR), or a hit
 * at 0.5 (the noisiest) without a baseline.
 */
import { checkResultsMatchGolden, metricTableFor, resultsMatched } from '../aggregate/aggregate.js';
import { buildMetricTable } from '../aggregate/metrics/registry.js';
import { PerQueryValues } from '../aggregate/perQueryValues.js';
import { DEFAULT_OPTIONS } from '../aggregate/score.js';
import { scoreToTable } from '../aggregate/table.js';
import { MIN_CALIBRATION_RUNS } from '../compare/calibration.js';
import {
  measuredNoiseModel,
  minimumDetectableDrop,
  queriesNeeded,
  redrawnNoiseModel,
  TARGET_POWER,
} from '../stats/power.js';
import type { NoiseModel } from '../stats/power.js';
import { familySize, levelInFamily } from '../stats/familywise.js';
import { InputError } from '../errors.js';
import { formatValue } from '../numberFormat.js';
import { checkGates } from '../gate/gates.js';
import { noiseFloorModel } from '../gate/noise.js';
import { isTested, primaryFamilySize, testsOf } from '../gate/testedGates.js';
import { settingsOf } from '../gate/config.js';
import type { GateConfig } from '../gate/config.js';
import type { AggregateOptions } from '../aggregate/score.js';
import { readGoldenFile } from '../load/golden.js';
import { openRunStream } from '../load/runDatabase.js';
import { runCalibrate } from '../pipeline/calibrateRuns.js';
import { loadGateConfig } from '../pipeline/gateConfigFile.js';
import { runsNamed } from '../pipeline/runLists.js';
import { summariseWarnings } from '../render/warningText.js';
import type { Warning } from '../warnings.js';
import { METRIC_FLAGS, metricOptions, parse, wantsHelp } from './args.js';
import type { Io } from './io.js';

export const POWER_USAGE = `usage: evalverdict power --golden golden.yaml [--baseline RUN.sqlite [--run ID | a,b,c | all]] [--config evalverdict.yml] [--churn 0.4]
  The smallest drop each tested gate detects (80% power, at the level its correction gives it), and the queries
  that would bring it to the margin. The noise: measured over the baseline's runs when --run names several (repeats
  of one commit); else the config's measured \`noise:\` block where it has the metric; else --churn, the share of
  queries assumed to change between two runs with no real change (default 0.4), each redrawn from the baseline's
  own per-query values.`;

export async function powerCommand(args: string[], io: Io): Promise<number> {
  if (wantsHelp(args, POWER_USAGE, io)) return 0;
  const { values, positionals } = parse(
    args,
    {
      golden: { type: 'string' },
      baseline: { type: 'string' },
      run: { type: 'string' },
      config: { type: 'string' },
      churn: { type: 'string' },
      ...METRIC_FLAGS,
    },
    POWER_USAGE,
  );
  if (positionals.length > 0)
    throw new InputError(`unexpected argument ${JSON.stringify(positionals[0])}\n${POWER_USAGE}`);
  if (!values.golden) throw new InputError(`--golden is required\n${POWER_USAGE}`);
  const churn = values.churn === undefined ? 0.4 : Number(values.churn);
  if (!(churn > 0 && churn <= 1))
    throw new InputError(`--churn must be a number above 0 and at most 1\n${POWER_USAGE}`);
  const { config, options } = checkedConfig(values.config ?? null, metricOptions(values));
  const tested = config.gates.filter((g) => isTested(g) && !g.where);
  if (tested.length === 0)
    throw new InputError(`the gate config ${config.source} has no tested gate (significant_only or margin)`);
  const metrics = [...new Set(tested.map((g) => g.metric))];
  const side = await baselineValues({ ...values, golden: values.golden }, options, metrics);
  // Over repeats, calibrate's warnings: runs that record different commits (a real change counted as noise), an
  // empty run left out, the golden set's.
  for (const w of summariseWarnings(side.warnings)) io.stderr(`warning: ${w}\n`);
  // As compare splits alpha: a trade's gain test is one more test of its gate's family.
  const family = tested.filter((g) => g.metric !== config.primary).reduce((n, g) => n + testsOf(g), 0);
  const lines = [
    `${'gate'.padEnd(12)}  ${'queries'.padStart(7)}  ${'value'.padStart(6)}  detects  margin  queries for the margin`,
  ];
  const sources: Record<NoiseSource, string[]> = { repeats: [], config: [], assumed: [] };
  for (const g of tested) {
    const level =
      g.metric === config.primary
        ? levelInFamily(config.alpha, primaryFamilySize(g, config.correction))
        : levelInFamily(config.alpha, familySize(config.correction, family));
    const known = side.of(g.metric);
    const { model, source } = noiseOf(g.metric, known, config, churn);
    sources[source].push(g.metric);
    lines.push(gateRow(g.metric, known, model, level, g.margin ?? config.margin));
  }
  const test = `one-sided, α ${config.alpha}${config.correction === 'none' ? '' : `, ${config.correction} over ${family} tests (each at α/${family})`}`;
  lines.push('', [test, ...noiseWords(sources, config, side.runs, churn, values.baseline !== undefined)].join('; '));
  io.stdout(`${lines.join('\n')}\n`);
  return 0;
}

type NoiseSource = 'repeats' | 'config' | 'assumed';

/**
 * A gate's noise, by what is known of the baseline side: measured over the baseline's repeated runs (`--run a,b,c`
 * or `all`: its share changed and size of a change between two runs, as calibrate measures them); else the
 * config's measured `noise:` block for the metric; else a share `churn` of the baseline run's queries redrawn from
 * its own per-query values (a hit's size for hit@k, its own spread for nDCG or MRR); else a hit at 0.5.
 */
function noiseOf(
  metric: string,
  side: BaselineSide,
  config: GateConfig,
  churn: number,
): { model: NoiseModel; source: NoiseSource } {
  const { n, v, values, measured } = side;
  if (measured) return { model: measured, source: 'repeats' };
  const floor = config.noise?.metrics[metric];
  if (floor) return { model: noiseFloorModel(floor, n), source: 'config' };
  if (values) return { model: redrawnNoiseModel(values, churn), source: 'assumed' };
  return { model: { n, rho: churn * 2 * v * (1 - v), size: 1 }, source: 'assumed' };
}

function gateRow(metric: string, side: BaselineSide, model: NoiseModel, level: number, margin: number): string {
  const mdd = minimumDetectableDrop(model, level);
  const needed = mdd > margin ? queriesNeeded(model, level, margin) : null;
  return `${metric.padEnd(12)}  ${String(side.n).padStart(7)}  ${side.v.toFixed(4)}  ${Number.isFinite(mdd) ? mdd.toFixed(4) : ' none '}   ${formatValue(margin)}  ${mdd <= margin ? 'reached' : needed === null ? 'more than 10,000,000' : `about ${needed.toLocaleString('en-US')}`}`;
}

/** Where each gate's noise came from: the baseline's repeats, the config's measured noise, the churn assumed. */
function noiseWords(
  sources: Record<NoiseSource, string[]>,
  config: GateConfig,
  runs: string[] | null,
  churn: number,
  hasBaseline: boolean,
): string[] {
  const words: string[] = [];
  const { repeats, config: floor, assumed } = sources;
  if (repeats.length > 0 && runs)
    words.push(
      `${repeats.join(', ')} from the noise measured over the baseline's ${runs.length} runs (${runs.join(', ')})`,
    );
  if (floor.length > 0 && config.noise)
    words.push(
      `${floor.join(', ')} from the noise measured in ${config.source} (evalverdict calibrate, ${config.noise.runs} runs, ${config.noise.measured})`,
    );
  if (assumed.length > 0)
    words.push(
      `${words.length > 0 ? 'the others assume' : 'assumes'} ${Math.round(churn * 100)}% of queries change between runs with no real change${hasBaseline ? '' : ', at a value of 0.5 (no --baseline)'}`,
    );
  return words;
}

/**
 * The gate config at its scoring cutoffs, every gate checked as compare checks it (checkGates: an unknown metric, a
 * test on a metric without one, ... refused in compare's words, exit 2). A stage's latency (`retrieve_latency_p95_ms`)
 * is a metric of the runs that time that stage, which are not read yet: such a gate is let through.
 */
function checkedConfig(path: string | null, flags: Partial<AggregateOptions>) {
  const { config: loaded } = loadGateConfig(path, null);
  const checked = settingsOf(loaded, flags);
  const stages = checked.config.gates.flatMap((g) => STAGE_LATENCY.exec(g.metric)?.[1] ?? []);
  checkGates(checked.config, buildMetricTable({ ...DEFAULT_OPTIONS, ...checked.options }, stages));
  return checked;
}

/** A stage's latency metric id (src/aggregate/metrics/operations.ts): the stage, then the percentile. */
const STAGE_LATENCY = /^(.+)_latency_p(?:50|95)_ms$/;

/** What power knows of a metric on the baseline side: its query count, value, per-query values, measured noise. */
interface BaselineSide {
  n: number;
  v: number;
  values: Float64Array | null;
  /** The noise measured over the baseline's repeated runs; null with one run or none. */
  measured: NoiseModel | null;
}

/**
 * Each metric's query count, value and per-query values in the baseline run (scored as compare scores a side); its
 * measured noise when `--run` names several runs (their mean value); or the golden set's answerable count at 0.5.
 */
async function baselineValues(
  values: { golden: string; baseline?: string; run?: string },
  scoring: Partial<AggregateOptions>,
  metrics: string[],
): Promise<{ of: (metric: string) => BaselineSide; runs: string[] | null; warnings: Warning[] }> {
  const options = { ...DEFAULT_OPTIONS, ...scoring };
  if (typeof values.baseline !== 'string') {
    const golden = readGoldenFile(values.golden);
    const n = golden.queries.filter((q) => !q.pending && q.answerable).length;
    return { of: () => ({ n, v: 0.5, values: null, measured: null }), runs: null, warnings: [] };
  }
  const named = typeof values.run === 'string' ? await runsNamed(values.baseline, values.run, '--run') : null;
  if (named && named.length >= MIN_CALIBRATION_RUNS)
    return repeatedBaseline(values.baseline, named, values.golden, options, metrics);
  const runId = named?.[0] ?? values.run ?? null;
  const columns = await baselineColumns(values.baseline, runId, values.golden, options);
  const of = (metric: string): BaselineSide => {
    const column = columns.column(metric).filter((x) => !Number.isNaN(x));
    const n = column.length;
    return { n, v: n === 0 ? 0.5 : column.reduce((a, x) => a + x, 0) / n, values: column, measured: null };
  };
  return { of, runs: null, warnings: [] };
}

/** Repeats of the baseline: the noise between two of its runs, measured as `evalverdict calibrate` measures it. */
async function repeatedBaseline(
  path: string,
  runIds: string[],
  goldenPath: string,
  options: AggregateOptions,
  metrics: string[],
): Promise<{ of: (metric: string) => BaselineSide; runs: string[]; warnings: Warning[] }> {
  const { calibration, warnings } = await runCalibrate({
    runs: runIds.map((runId) => ({ path, runId })),
    goldenPath,
    options,
    metrics,
    alpha: 0.05,
    power: TARGET_POWER,
    correction: 'none',
  });
  const noise = new Map(calibration.metrics.map((m) => [m.metric, m]));
  const of = (metric: string): BaselineSide => {
    const m = noise.get(metric)!;
    const v = m.means.length === 0 ? 0.5 : m.means.reduce((a, x) => a + x, 0) / m.means.length;
    return { n: m.n, v, values: null, measured: measuredNoiseModel(m.n, m.changed, m.sdDiff) };
  };
  return { of, runs: calibration.runs, warnings };
}

/** The baseline run's per-query columns; the golden file's error first when both files are wrong, as aggregate. */
async function baselineColumns(
  runPath: string,
  runId: string | null,
  goldenPath: string,
  options: AggregateOptions,
): Promise<PerQueryValues> {
  let stream: Awaited<ReturnType<typeof openRunStream>>;
  try {
    stream = await openRunStream(runPath, runId);
  } catch (error) {
    if (error instanceof InputError) readGoldenFile(goldenPath);
    throw error;
  }
  try {
    const table = scoreToTable(stream, readGoldenFile(goldenPath), options);
    checkResultsMatchGolden(table.run, resultsMatched(table), table.unknownResultIds);
    return new PerQueryValues(metricTableFor(table), table.queries.length, table.columns);
  } finally {
    stream.release?.();
  }
}
