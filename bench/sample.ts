/**
 * One step's wall time sampled over many minutes. This VM's speed drifts by 30% and more within minutes, so a bench
 * run (a median of a few runs close together) says how a step fared in those minutes, not how it fares. Every
 * `--pause` seconds this measures the machine's speed (bench/calibrate.mjs, one process) and then runs the step
 * once, as the bench does (the built CLI as a child process, peak RSS from bench/rss.mjs). It prints each sample
 * as it goes, then the distribution: median, 10th and 90th percentiles, range, how many samples met the target,
 * and the same split by the machine's speed at the time. Figures go to bench/out/samples.json.
 *
 *   npm run bench:sample                                  100kx10 aggregate, every 20 s for 20 minutes
 *   npm run bench:sample -- --minutes 45 --pause 30
 *   options: --size 100kx10, --step aggregate|compare, --target SECONDS (default: the issue's, 3 or 10),
 *            --cli PATH (default dist/cli/index.js), --minutes M, --pause S, --timeout S (per run, default 120)
 *
 * The inputs must exist: `npm run bench -- --sizes 100kx10` makes them (compare also needs `--compare-sizes`).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { artifactsOf, BENCH_DIR, OUT_ROOT, parseSize } from './generate.js';
import { calibrate, log, measure, median } from './measure.js';

const ROOT = dirname(BENCH_DIR);
/** The issue's targets for the steps at 100kx10 (bench/run.ts holds the same). */
const DEFAULT_TARGET_S = { aggregate: 3, compare: 10 };

interface Sample {
  /** When the run started (UTC, ISO 8601). */
  at: string;
  /** bench/calibrate.mjs's milliseconds just before the run (lower is faster). */
  calibrationMs: number;
  wallS: number;
  rssMb: number | null;
  cpuS: number | null;
  exitCode: number | null;
}

/** The p-quantile by nearest rank (as EvalVerdict's own latency percentiles). */
function quantile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
}

function summarise(label: string, samples: Sample[], targetS: number): string {
  if (samples.length === 0) return `${label}: no samples`;
  const walls = samples.map((s) => s.wallS).sort((a, b) => a - b);
  const met = walls.filter((w) => w < targetS).length;
  return (
    `${label}: ${samples.length} samples, wall median ${median(walls).toFixed(2)} s, p10 ${quantile(walls, 0.1).toFixed(2)}, ` +
    `p90 ${quantile(walls, 0.9).toFixed(2)}, range ${walls[0].toFixed(2)}-${walls[walls.length - 1].toFixed(2)}; ` +
    `under ${targetS} s: ${met} of ${samples.length} (${((100 * met) / samples.length).toFixed(0)}%)`
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      size: { type: 'string', default: '100kx10' },
      step: { type: 'string', default: 'aggregate' },
      target: { type: 'string' },
      cli: { type: 'string' },
      minutes: { type: 'string', default: '20' },
      pause: { type: 'string', default: '20' },
      timeout: { type: 'string', default: '120' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(
      'usage: npm run bench:sample -- [--size 100kx10] [--step aggregate|compare] [--target S] [--cli PATH] [--minutes M] [--pause S] [--timeout S]\n',
    );
    return;
  }
  const step = values.step;
  if (step !== 'aggregate' && step !== 'compare') throw new Error(`--step must be aggregate or compare, not ${step}`);
  const spec = parseSize(values.size!);
  const a = artifactsOf(spec);
  const needed = step === 'compare' ? [a.baseline, a.candidate, a.golden] : [a.baseline, a.golden];
  const missing = needed.filter((file) => !existsSync(file));
  if (missing.length > 0) {
    throw new Error(
      `missing ${missing.map((file) => relative(ROOT, file)).join(', ')}: make them with npm run bench -- --sizes ${values.size}${step === 'compare' ? ` --compare-sizes ${values.size}` : ''}`,
    );
  }
  const cli = values.cli ?? join(ROOT, 'dist', 'cli', 'index.js');
  if (!existsSync(cli)) throw new Error(`no CLI bundle at ${cli}: npm run build`);
  const targetS = values.target !== undefined ? Number(values.target) : DEFAULT_TARGET_S[step];
  const minutes = Number(values.minutes);
  const pauseS = Number(values.pause);
  const timeoutS = Number(values.timeout);
  for (const [name, x] of [
    ['--target', targetS],
    ['--minutes', minutes],
    ['--pause', pauseS],
    ['--timeout', timeoutS],
  ] as const) {
    if (!Number.isFinite(x) || x < 0) throw new Error(`${name} must be a number of at least 0`);
  }

  const stdoutFile = join(a.dir, `sample-${step}.out`);
  const args =
    step === 'compare'
      ? [cli, 'compare', a.baseline, a.candidate, '--golden', a.golden, '--json', join(a.dir, 'sample-compare.json')]
      : [cli, 'aggregate', a.baseline, '--golden', a.golden, '--json'];
  log(
    `${values.size} ${step}: one run every ~${pauseS} s for ${minutes} min, ${relative(ROOT, cli)}, target ${targetS} s`,
  );
  log('  at (UTC)   calibrate   wall s   cpu s   peak MB');
  const samples: Sample[] = [];
  let firstOutput: string | null = null;
  let sameOutput = true;
  const end = Date.now() + minutes * 60_000;
  do {
    const calibrationMs = calibrate(1);
    const at = new Date().toISOString();
    const m = await measure(args, stdoutFile, timeoutS, ROOT);
    if (m.timedOut || (m.exitCode !== 0 && m.exitCode !== 1))
      throw new Error(
        `the run at ${at} failed (exit ${m.exitCode}${m.timedOut ? ', timed out' : ''}): see ${relative(ROOT, stdoutFile)}.stderr`,
      );
    // Every run must print the same bytes (the report is deterministic); the first run's stdout is the reference.
    const output = readFileSync(stdoutFile, 'utf8');
    if (firstOutput === null) firstOutput = output;
    else if (output !== firstOutput) sameOutput = false;
    const cpuS = m.userS !== null && m.systemS !== null ? m.userS + m.systemS : null;
    samples.push({ at, calibrationMs, wallS: m.wallS, rssMb: m.rssMb, cpuS, exitCode: m.exitCode });
    log(
      `  ${at.slice(11, 19)}   ${String(calibrationMs).padStart(6)} ms   ${m.wallS.toFixed(2).padStart(6)}   ${cpuS === null ? '-' : cpuS.toFixed(2).padStart(5)}   ${m.rssMb === null ? '-' : m.rssMb.toFixed(0).padStart(7)}`,
    );
    if (Date.now() + pauseS * 1000 >= end) break;
    await new Promise((resolve) => setTimeout(resolve, pauseS * 1000));
  } while (Date.now() < end);

  // The machine's speed splits the samples into thirds (by calibration ms), to show how the step follows it.
  const byCalibration = [...samples].sort((x, y) => x.calibrationMs - y.calibrationMs);
  const third = Math.ceil(byCalibration.length / 3);
  const thirds = [byCalibration.slice(0, third), byCalibration.slice(third, 2 * third), byCalibration.slice(2 * third)];
  const range = (xs: Sample[]) =>
    xs.length === 0 ? '' : ` (calibrate ${xs[0].calibrationMs}-${xs[xs.length - 1].calibrationMs} ms)`;
  const rss = samples.flatMap((s) => (s.rssMb === null ? [] : [s.rssMb]));
  const lines = [
    summarise(`${values.size} ${step}`, samples, targetS),
    `  peak RSS median ${rss.length ? median(rss).toFixed(0) : '-'} MB, max ${rss.length ? Math.max(...rss).toFixed(0) : '-'} MB; every run printed ${sameOutput ? 'the same bytes' : 'DIFFERENT BYTES'}`,
    `  calibrate median ${median(samples.map((s) => s.calibrationMs))} ms over the samples (lower is faster)`,
    ...['fastest third of the machine', 'middle third', 'slowest third'].map(
      (name, i) => `  ${summarise(`${name}${range(thirds[i])}`, thirds[i], targetS)}`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  writeFileSync(
    join(OUT_ROOT, 'samples.json'),
    `${JSON.stringify({ size: values.size, step, cli: relative(ROOT, cli), targetS, pauseS, sameOutput, samples }, null, 2)}\n`,
  );
  if (!sameOutput) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:sample: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
