/**
 * `evalgate import paperbot`: PaperBot's document evidence bench and the evidence hits of each retrieval mode
 * (JSON Lines, streamed) into one run database, a run per mode, and a golden set; written together or not at all.
 */
import { plural } from '../render/reportParts.js';
import { InputError } from '../errors.js';
import { forEachLineOfFile } from '../load/lines.js';
import { PaperbotResultsReader, paperbotGoldenItems, parsePaperbotBench } from '../load/paperbot.js';
import { parse } from './args.js';
import { importOutputs, nowRfc3339, readText, writeImport } from './importFiles.js';
import type { Io } from './io.js';

export const IMPORT_PAPERBOT_USAGE = `usage: evalgate import paperbot --bench bench_v1.json --results results.jsonl --out RUN.sqlite
  [--golden-out golden.jsonl] [--run-prefix PREFIX] [--created-at RFC3339] [--force]
  --results: one JSON object per line, {"case_id": ..., "mode": "hybrid", "hits": [{"chunk_ref": "101:method:0",
  "paper_id": 101, "score": ...}], "latency_ms": ...}; each mode becomes a run named PREFIX + mode. Hits past a
  case's top_k are left out. --out may exist: the runs are added to it (a run of the same id only with --force).`;

export async function importPaperbotCommand(args: string[], io: Io): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(`${IMPORT_PAPERBOT_USAGE}\n`);
    return 0;
  }
  const { values, positionals } = parse(
    args,
    {
      bench: { type: 'string' },
      results: { type: 'string' },
      out: { type: 'string' },
      'golden-out': { type: 'string' },
      'run-prefix': { type: 'string' },
      'created-at': { type: 'string' },
      force: { type: 'boolean' },
    },
    IMPORT_PAPERBOT_USAGE,
  );
  if (positionals.length > 0) throw new InputError(`unexpected argument ${positionals[0]}\n${IMPORT_PAPERBOT_USAGE}`);
  const benchPath = values.bench as string | undefined;
  const resultsPath = values.results as string | undefined;
  if (!benchPath || !resultsPath || !values.out)
    throw new InputError(`--bench, --results and --out are required\n${IMPORT_PAPERBOT_USAGE}`);
  const prefix = (values['run-prefix'] as string | undefined) ?? '';
  // The run ids are the modes; `run-id` is not a flag here.
  const outputs = importOutputs(values, IMPORT_PAPERBOT_USAGE, 'paperbot');

  const bench = parsePaperbotBench(readText(benchPath, 'the bench file'), benchPath);
  const reader = new PaperbotResultsReader(bench, resultsPath);
  forEachLineOfFile(resultsPath, (line, n) => reader.line(line, n));
  const modes = reader.finish();
  if (modes.length === 0) throw new InputError(`${resultsPath}: no result line for any case of ${benchPath}`);
  const createdAt = outputs.createdAt ?? nowRfc3339();
  await writeImport(
    outputs,
    modes.map(({ mode, results }) => ({
      runId: `${prefix}${mode}`,
      suite: 'paperbot',
      config: { source: 'paperbot', bench: benchPath, results: resultsPath, mode, retrieval_mode: mode },
      createdAt,
      results,
    })),
    {
      // PaperBot counts every case in its means, a case judged all 0 included (docs/golden-sets.md).
      header: {
        profile: 'paperbot',
        description: `Imported from ${benchPath} (bench ${bench.version || 'v1'}) by evalgate import paperbot`,
      },
      items: paperbotGoldenItems(bench),
    },
  );
  const { report } = reader;
  const warnings = [...bench.warnings];
  const more = (t: { count: number; first: unknown[] }) =>
    t.count > t.first.length ? `, and ${t.count - t.first.length} more` : '';
  if (report.duplicates.count > 0)
    warnings.push(
      `${resultsPath}: ${plural(report.duplicates.count, 'more line', 'more lines')} for a case and mode that already had one; the last of each is scored: ${report.duplicates.first.map((d) => `${d.id} (${d.mode}) at line ${d.line}`).join(', ')}${more(report.duplicates)}`,
    );
  if (report.unknown.count > 0)
    warnings.push(
      `${resultsPath}: ${plural(report.unknown.count, 'line for a case the bench does not have is skipped', 'lines for cases the bench does not have are skipped')}: ${report.unknown.first.map((u) => `${u.id} at line ${u.line}`).join(', ')}${more(report.unknown)}`,
    );
  for (const [mode, missing] of report.missing)
    warnings.push(
      `${resultsPath}: mode ${mode} has no line for ${plural(missing.length, 'case (a miss)', 'cases (each a miss)')}: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? `, and ${missing.length - 5} more` : ''}`,
    );
  if (report.hitsBeyondTopK > 0)
    warnings.push(
      `${resultsPath}: ${plural(report.hitsBeyondTopK, "hit past its case's top_k is left out", "hits past their case's top_k are left out")}`,
    );
  for (const w of warnings) io.stderr(`warning: ${w}\n`);
  const runs = modes.map(({ mode, results }) => `${prefix}${mode} (${results.length})`).join(', ');
  io.stdout(
    `imported ${bench.cases.length} cases and ${report.lines} result lines into ${outputs.out} as runs ${runs}${outputs.outExists ? ' (added to the runs already there)' : ''}\n`,
  );
  return 0;
}
