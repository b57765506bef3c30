/**
 * `evalverdict calibrate`'s outputs (docs/cli.md): the noise table, the suggested gate config as YAML that
 * src/gate/config.ts reads back (noise block included), the JSON, and the one line a compare report gives the noise
 * floor its config carries.
 */
import type { Calibration, MetricNoise } from '../compare/calibration.js';
import { oneLine } from '../inputText.js';
import type { NoiseFloor } from '../gate/noise.js';
import { escapeMarkdownText, metricCode } from './escape.js';

const f4 = (x: number) => x.toFixed(4);
const orNone = (x: number | null, digits = 4) => (x === null ? 'none' : x.toFixed(digits));

function commitsText(c: Calibration): string {
  const known = c.commits.filter((x): x is string => x !== null);
  if (known.length === 0) return 'no recorded commit';
  // Commits and times come from the run databases: shown escaped, on one line.
  if (c.commits.length === 1) return `commit ${oneLine(known[0].slice(0, 12))}`;
  return `commits ${c.commits.map((x) => (x === null ? '(none)' : oneLine(x.slice(0, 12)))).join(', ')}`;
}

function levelText(c: Calibration): string {
  const k = c.metrics.length;
  return c.correction === 'none' || k === 1
    ? `α ${c.alpha}`
    : `α ${c.alpha}; ${c.correction} over ${k} gates, each at α/${k}`;
}

export function renderCalibrationText(c: Calibration, cutoffs: CalibratedCutoffs = {}): string {
  const width = Math.max(6, ...c.metrics.map((m) => m.metric.length));
  const header = `${'metric'.padEnd(width)}  queries  mean    sd(mean)          sd(diff)          changed  detects  margin`;
  const row = (m: MetricNoise) =>
    `${m.metric.padEnd(width)}  ${String(m.n).padStart(7)}  ${f4(meanOfMeans(m))}  ${`${f4(m.sdMean)} ±${f4(m.sdMeanError)}`.padEnd(16)}  ${`${f4(m.sdDiff)} ±${f4(m.sdDiffError)}`.padEnd(16)}  ${f4(m.changed)}   ${orNone(m.detects).padEnd(7)}  ${orNone(m.margin, 2)}`;
  return `${[
    `${c.runs.length} runs of ${commitsText(c)}, the newest created ${oneLine(c.measured)}`,
    '',
    header,
    ...c.metrics.map(row),
    '',
    "sd(mean): SD of the run mean across runs; sd(diff): SD of a query's difference between two runs (± one standard error)",
    'changed: share of queries that differ between two runs',
    `detects: the smallest drop a gate's one-sided test finds with ${Math.round(c.power * 100)}% power at this noise (${levelText(c)})`,
    'margin: the drop detectable when a comparison is as noisy as 1 in 40 are, up to 0.01: set it, and honest comparisons pass',
    '',
    'Suggested gate config (.github/evalverdict.yml; `evalverdict calibrate ... --format yaml` prints it alone):',
    '',
    renderCalibrationYaml(c, cutoffs),
  ].join('\n')}`;
}

const meanOfMeans = (m: MetricNoise) => m.means.reduce((a, b) => a + b, 0) / m.means.length;

/** Cutoffs the runs were scored with other than the defaults: the config must name them for its gates' metrics. */
export interface CalibratedCutoffs {
  ks?: number[];
  mrrCutoff?: number;
}

/** The suggested gate config: one tested gate per metric, and the noise it was measured at (src/gate/noise.ts). */
export function renderCalibrationYaml(c: Calibration, cutoffs: CalibratedCutoffs = {}): string {
  const commit = c.commits.length === 1 && c.commits[0] !== null ? c.commits[0] : null;
  const lines = [
    `# Suggested by evalverdict calibrate from ${c.runs.length} runs of ${commitsText(c)} (docs/gates.md, "Noise floor").`,
    `# Each gate fails on a significant drop and passes when it can see a drop of its margin.`,
    `alpha: ${c.alpha}`,
    `correction: ${c.correction}`,
    'on_inconclusive: warn',
    ...(cutoffs.ks ? [`k: [${cutoffs.ks.join(', ')}]`] : []),
    ...(cutoffs.mrrCutoff !== undefined ? [`mrr_cutoff: ${cutoffs.mrrCutoff}`] : []),
    'gates:',
  ];
  for (const m of c.metrics) {
    lines.push(`  - metric: ${m.metric}`, '    max_drop: 0', '    significant_only: true');
    if (m.margin !== null) lines.push(`    margin: ${m.margin}`);
    else
      lines.push(`    # no margin: no drop is detectable with ${m.n} queries at this noise (the gate is inconclusive)`);
  }
  lines.push('noise:', `  measured: ${JSON.stringify(c.measured)}`, `  runs: ${c.runs.length}`);
  if (commit !== null) lines.push(`  commit: ${JSON.stringify(commit)}`);
  lines.push('  metrics:');
  for (const m of c.metrics)
    lines.push(
      `    ${m.metric}: { sd_diff: ${f4(m.sdDiff)}, sd_mean: ${f4(m.sdMean)}, changed: ${f4(m.changed)}, detects: ${m.detects === null ? 'null' : f4(m.detects)} }`,
    );
  return `${lines.join('\n')}\n`;
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** The JSON of `--format json` and `--json FILE` (numbers to 4 decimals). */
export function calibrationJson(c: Calibration, cutoffs: CalibratedCutoffs = {}): unknown {
  return {
    runs: c.runs,
    commits: c.commits,
    measured: c.measured,
    alpha: c.alpha,
    power: c.power,
    correction: c.correction,
    metrics: Object.fromEntries(
      c.metrics.map((m) => [
        m.metric,
        {
          n: m.n,
          means: m.means.map(round4),
          sd_mean: round4(m.sdMean),
          sd_mean_error: round4(m.sdMeanError),
          sd_diff: round4(m.sdDiff),
          sd_diff_error: round4(m.sdDiffError),
          changed: round4(m.changed),
          changed_error: round4(m.changedError),
          change_size: round4(m.size),
          level: round4(m.level),
          detects: m.detects === null ? null : round4(m.detects),
          margin: m.margin,
        },
      ]),
    ),
    config: renderCalibrationYaml(c, cutoffs),
  };
}

/**
 * The report's one line on the noise floor its config carries, e.g. `Noise floor (evalverdict calibrate, 5 runs of
 * 0123456789ab, 2026-11-28T04:00:00Z): hit@5 sd(diff) 0.2828, detects 0.0412; ...`. The config is input: `id`
 * and `text` make its strings safe for the format (plain text: as given).
 */
export function noiseFloorLine(
  noise: NoiseFloor,
  id: (metric: string) => string = (x) => x,
  text: (value: string) => string = (x) => x,
): string {
  const metrics = Object.entries(noise.metrics).map(
    ([metric, m]) => `${id(metric)} sd(diff) ${f4(m.sd_diff)}, detects ${m.detects === null ? 'none' : f4(m.detects)}`,
  );
  const shown = metrics.slice(0, 8).join('; ') + (metrics.length > 8 ? `; and ${metrics.length - 8} more` : '');
  const of = noise.commit === null ? '' : ` of ${text(noise.commit.slice(0, 12))}`;
  return `Noise floor (evalverdict calibrate, ${noise.runs} runs${of}, ${text(noise.measured.slice(0, 40))}): ${shown}`;
}

/** The line in Markdown: metric ids as code when they are plain ids, else escaped text. */
export function noiseFloorMarkdown(noise: NoiseFloor): string {
  return noiseFloorLine(noise, metricCode, (value) => escapeMarkdownText(value));
}
