/**
 * `evalgate power --golden G [--baseline RUN.sqlite [--run ID]] [--config C] [--churn 0.4]`: for each tested gate of
 * the config, the smallest drop its test detects with 80% power, and how many queries would bring that to the margin,
 * before anyone runs a comparison (docs/gates.md, "Minimum detectable drop").
 *
 * There are no paired differences yet, so the noise is assumed: a share `churn` of the queries is redrawn between two
 * runs with no real change, and a redrawn query changes as a hit or a miss would at the metric's value v (with
 * probability 2 v (1 - v)); v is the baseline's value, or 0.5 (the noisiest) without a baseline.
 */
import { buildMetricTable } from '../aggregate/metrics/registry.js';
import { DEFAULT_OPTIONS } from '../aggregate/score.js';
import { minimumDetectableDrop, queriesNeeded } from '../compare/power.js';
import { InputError } from '../errors.js';
import { formatValue } from '../format.js';
import { checkGates } from '../gate/gates.js';
import { isTested } from '../gate/tested.js';
import { atScoringCutoffs } from '../gate/config.js';
import type { GateConfig } from '../gate/config.js';
import type { AggregateOptions } from '../aggregate/score.js';
import { readGoldenFile } from '../load/golden.js';
import { loadGateConfig, runAggregate } from '../pipeline/pipeline.js';
import { METRIC_FLAGS, metricOptions, parse, wantsHelp } from './args.js';
import type { Io } from './io.js';

export const POWER_USAGE = `usage: evalgate power --golden golden.yaml [--baseline RUN.sqlite [--run ID]] [--config evalgate.yml] [--churn 0.4]
  The smallest drop each tested gate detects (80% power, at the level its correction gives it), and the queries
  that would bring it to the margin. --churn: the share of queries assumed to change between two runs with no
  real change (default 0.4).`;

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
  const metricValue = await baselineValues({ ...values, golden: values.golden }, config, options);
  const family = tested.filter((g) => g.metric !== config.primary).length;
  const lines = [
    `${'gate'.padEnd(12)}  ${'queries'.padStart(7)}  ${'value'.padStart(6)}  detects  margin  queries for the margin`,
  ];
  for (const g of tested) {
    const level = g.metric === config.primary || config.correction === 'none' ? config.alpha : config.alpha / family;
    const { n, v } = metricValue(g.metric);
    const model = { n, rho: churn * 2 * v * (1 - v), size: 1 };
    const mdd = minimumDetectableDrop(model, level);
    const margin = g.margin ?? config.margin;
    const needed = mdd > margin ? queriesNeeded(model, level, margin) : null;
    lines.push(
      `${g.metric.padEnd(12)}  ${String(n).padStart(7)}  ${v.toFixed(4)}  ${Number.isFinite(mdd) ? mdd.toFixed(4) : ' none '}   ${formatValue(margin)}  ${mdd <= margin ? 'reached' : needed === null ? 'more than 10,000,000' : `about ${needed.toLocaleString('en-US')}`}`,
    );
  }
  lines.push(
    '',
    `one-sided, α ${config.alpha}${config.correction === 'none' ? '' : `, ${config.correction} over ${family} gates (each at α/${family})`}; assumes ${Math.round(churn * 100)}% of queries change between runs with no real change${values.baseline ? '' : ', at a value of 0.5 (no --baseline)'}`,
  );
  io.stdout(`${lines.join('\n')}\n`);
  return 0;
}

/**
 * The gate config at its scoring cutoffs, every gate checked as compare checks it (checkGates: an unknown metric, a
 * test on a metric without one, ... refused in compare's words, exit 2). A stage's latency (`retrieve_latency_p95_ms`)
 * is a metric of the runs that time that stage, which are not read yet: such a gate is let through.
 */
function checkedConfig(path: string | null, flags: Partial<AggregateOptions>) {
  const { config: loaded } = loadGateConfig(path, null);
  const checked = atScoringCutoffs(loaded, flags);
  const stages = checked.config.gates.flatMap((g) => STAGE_LATENCY.exec(g.metric)?.[1] ?? []);
  checkGates(checked.config, buildMetricTable({ ...DEFAULT_OPTIONS, ...checked.options }, stages));
  return checked;
}

/** A stage's latency metric id (src/aggregate/metrics/operations.ts): the stage, then the percentile. */
const STAGE_LATENCY = /^(.+)_latency_p(?:50|95)_ms$/;

/** Each metric's query count and value: the baseline's, or the golden set's answerable count at 0.5. */
async function baselineValues(
  values: { golden: string; baseline?: string; run?: string } & Record<string, unknown>,
  config: GateConfig,
  scoring: Partial<AggregateOptions>,
): Promise<(metric: string) => { n: number; v: number }> {
  const options = { ...DEFAULT_OPTIONS, ...scoring };
  if (typeof values.baseline !== 'string') {
    const golden = readGoldenFile(values.golden);
    const n = golden.queries.filter((q) => !q.pending && q.answerable).length;
    return () => ({ n, v: 0.5 });
  }
  const { report } = await runAggregate({
    runPath: values.baseline,
    goldenPath: values.golden,
    runId: values.run,
    options,
    write: false,
  });
  return (metric) => {
    const m = report.metrics[metric];
    if (!m) throw new InputError(`unknown metric \`${metric}\` in the gate config ${config.source}`);
    return { n: m.n, v: m.value ?? 0.5 };
  };
}
