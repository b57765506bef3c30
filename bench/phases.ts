/**
 * Where the time and memory of `aggregate` / `compare` go: runs the same src/ functions the CLI runs, one phase
 * at a time, and prints each phase's wall time and the memory it leaves behind (after a forced GC).
 *
 *   node --expose-gc --import tsx bench/phases.ts aggregate RUN.sqlite GOLDEN.yaml
 *   node --expose-gc --import tsx bench/phases.ts compare BASE.sqlite CAND.sqlite GOLDEN.yaml
 *
 * Rows marked "(re-timed)" repeat part of an earlier phase on its own, to split it; they are not part of the
 * CLI's total. "peak" is the process's maxRSS so far.
 */
import { readFileSync } from 'node:fs';
import { aggregateScored, groupQueries, metricsFor, metricTableFor } from '../src/aggregate/aggregate.js';
import { buildMetricTable } from '../src/aggregate/metrics/registry.js';
import { PerQueryValues } from '../src/aggregate/perQueryValues.js';
import { scoreToTable } from '../src/aggregate/table.js';
import type { TabulatedRun } from '../src/aggregate/table.js';
import { DEFAULT_OPTIONS } from '../src/aggregate/score.js';
import { compareScored, DEFAULT_COMPARE_OPTIONS } from '../src/compare/compare.js';
import { pairedSignificance } from '../src/stats/signFlip.js';
import { defaultGateConfig } from '../src/gate/config.js';
import { applyGates } from '../src/gate/gates.js';
import { readGoldenFile } from '../src/load/golden.js';
import { openRunDatabase, openRunStream } from '../src/load/runDatabase.js';
import { stableJson } from '../src/stableJson.js';
import { renderReportMarkdown } from '../src/render/markdown.js';
import type { AggregateOptions } from '../src/aggregate/score.js';
import type { GoldenSet } from '../src/types.js';
import { tuneHeapForScoring } from '../src/heap.js';

tuneHeapForScoring(); // as the CLI and the action do (src/heap.ts)

const gc = (globalThis as { gc?: () => void }).gc;
const mb = (bytes: number) => (bytes / 1e6).toFixed(0).padStart(6);
let total = 0;

function row(name: string, seconds: number, counted: boolean): void {
  if (counted) total += seconds;
  gc?.();
  const m = process.memoryUsage();
  const peak = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(
    `${name.padEnd(44)} ${seconds.toFixed(2).padStart(7)} s  rss ${mb(m.rss)}  heap ${mb(m.heapUsed)}  external ${mb(m.external)}  peak ${mb(peak)} MB\n`,
  );
}

async function phase<T>(name: string, fn: () => T | Promise<T>, counted = true): Promise<T> {
  const t0 = performance.now();
  const value = await fn();
  row(name, (performance.now() - t0) / 1000, counted);
  return value;
}

/** The SQLite part alone: step every result row and touch its text, without JSON.parse (re-timed). */
async function sqliteOnly(file: string): Promise<void> {
  const db = await openRunDatabase(file);
  try {
    // The statement readRunFromDb runs (the primary key gives the order: no sorter), for the newest run.
    const runId = db.exec('SELECT run_id FROM eval_runs ORDER BY created_at DESC, run_id DESC LIMIT 1')[0].values[0][0];
    const rows = (each: (text: string) => void) => {
      const stmt = db.prepare(
        'SELECT query_id, result_json FROM eval_query_results WHERE run_id = ? ORDER BY query_id',
      );
      stmt.bind([runId]);
      while (stmt.step()) each(String(stmt.get()[1]));
      stmt.free();
    };
    let chars = 0;
    await phase(
      '  sqlite step + text of every row (re-timed)',
      () =>
        rows((t) => {
          chars += t.length;
        }),
      false,
    );
    process.stderr.write(`  (${chars} characters of result_json)\n`);
    await phase(
      '  ... + JSON.parse of every row (re-timed)',
      () =>
        rows((t) => {
          JSON.parse(t);
        }),
      false,
    );
  } finally {
    db.close();
  }
}

/** Opens a run for streaming and scores it straight into its table, as the CLI does (rows parsed and scored one at a time). */
async function scoreStreamed(
  file: string,
  golden: GoldenSet,
  options: AggregateOptions,
  label: string,
): Promise<TabulatedRun> {
  const stream = await phase(`openRunStream ${label} (schema, run row, index tables)`, () => openRunStream(file));
  try {
    return await phase(`scoreToTable ${label} (rows read, parsed, scored, tabulated)`, () =>
      scoreToTable(stream, golden, options),
    );
  } finally {
    stream.release?.();
  }
}

async function main(): Promise<void> {
  const [command, ...files] = process.argv.slice(2);
  if (!gc) process.stderr.write('note: run with node --expose-gc for retained-memory figures\n');
  row('start', 0, false);
  if (command === 'aggregate' && files.length === 2) {
    const [dbFile, goldenFile] = files;
    const golden = await phase('readGoldenFile (parse + fingerprint)', () => readGoldenFile(goldenFile));
    await sqliteOnly(dbFile);
    const table = await scoreStreamed(dbFile, golden, DEFAULT_OPTIONS, '');
    const run = table.run;
    const defs = await phase('metricTableFor', () => metricTableFor(table));
    const report = await phase('aggregateScored (overall + breakdowns)', () => aggregateScored(table, defs));
    const values = new PerQueryValues(defs, table.queries.length, table.columns);
    await phase('  overall metrics alone (re-timed)', () => metricsFor(defs, values, run, true), false);
    await phase(
      '  breakdowns alone (re-timed)',
      () => {
        const fresh = new PerQueryValues(defs, table.queries.length, table.columns);
        for (const groups of Object.values(groupQueries(table.queries)))
          for (const indexes of groups.values()) metricsFor(defs, fresh, run, false, indexes);
      },
      false,
    );
    await phase('stableJson(report)', () => stableJson(report));
  } else if (command === 'compare' && files.length === 3) {
    const [baseFile, candFile, goldenFile] = files;
    const golden = await phase('readGoldenFile (parse + fingerprint)', () => readGoldenFile(goldenFile));
    const options = { ...DEFAULT_COMPARE_OPTIONS };
    const b = await scoreStreamed(baseFile, golden, options, 'baseline');
    const c = await scoreStreamed(candFile, golden, options, 'candidate');
    const baseline = b.run;
    const candidate = c.run;
    const { report, defs } = await phase('compareScored (metrics, significance, breakdowns, gates)', () =>
      applyGates(compareScored(b, c, options, 'exact'), defaultGateConfig()),
    );
    const reDefs = buildMetricTable(options, [...new Set([...b.recordStages, ...c.recordStages])].sort());
    const n = b.queries.length;
    await phase(
      '  overall metrics of both runs (re-timed: fresh tables)',
      () => {
        const bv = new PerQueryValues(reDefs, n, b.columns);
        const cv = new PerQueryValues(reDefs, n, c.columns);
        for (const d of reDefs) {
          bv.evaluate(d, baseline);
          cv.evaluate(d, candidate);
        }
      },
      false,
    );
    await phase(
      '  paired diffs + significance (re-timed)',
      () => {
        const bv = new PerQueryValues(reDefs, n, b.columns);
        const cv = new PerQueryValues(reDefs, n, c.columns);
        for (const d of reDefs) {
          if (!d.paired || !d.perQuery) continue;
          const diffs: number[] = [];
          const bc = bv.column(d.id);
          const cc = cv.column(d.id);
          for (let i = 0; i < n; i++) {
            if (!b.facts.hasResult[i] || !c.facts.hasResult[i] || bc[i] !== bc[i] || cc[i] !== cc[i]) continue;
            diffs.push(cc[i] - bc[i]);
          }
          pairedSignificance(Float64Array.from(diffs), options.permutations, options.seed);
        }
      },
      false,
    );
    await phase(
      '  breakdowns of both runs (re-timed)',
      () => {
        const bv = new PerQueryValues(reDefs, n, b.columns);
        const cv = new PerQueryValues(reDefs, n, c.columns);
        for (const groups of Object.values(groupQueries(c.queries))) {
          for (const indexes of groups.values()) {
            for (const d of reDefs) {
              if (d.runLevel) continue;
              bv.evaluate(d, baseline, indexes);
              cv.evaluate(d, candidate, indexes);
            }
          }
        }
      },
      false,
    );
    await phase('renderReportMarkdown (full + comment)', () => {
      renderReportMarkdown(report, defs, { maxLength: Infinity });
      renderReportMarkdown(report, defs);
    });
    await phase('stableJson(report)', () => stableJson(report));
  } else {
    process.stderr.write(
      readFileSync(new URL(import.meta.url), 'utf8')
        .split('\n')
        .slice(1, 9)
        .join('\n'),
    );
    process.exitCode = 2;
    return;
  }
  process.stdout.write(`${'total of counted phases'.padEnd(44)} ${total.toFixed(2).padStart(7)} s\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
