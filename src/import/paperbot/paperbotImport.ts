/**
 * `evalverdict import paperbot`: PaperBot's document evidence bench and, per retrieval mode, either the evidence hits
 * (JSON Lines, streamed) or PaperBot's own report JSON (`cases[]` with `ranked_chunk_refs`) into one run per mode and
 * a golden set.
 */
import { InputError } from '../../errors.js';
import { forEachJsonObjectOfFile, moreOf } from '../../load/lines.js';
import type { PaperbotBench } from './paperbotFiles.js';
import { PaperbotResultsReader, paperbotGoldenItems, parsePaperbotBench, readPaperbotReport } from './paperbotFiles.js';
import { plural } from '../../numberFormat.js';
import { readJsonDocument, readText, resultsShape } from '../importFiles.js';
import { nowRfc3339 } from '../../time.js';
import { requiredFlag, stringFlag } from '../importFormat.js';
import type { FlagValues, ImportFormat, ImportOutputs, Imported } from '../importFormat.js';
import { otherKeysWarning, unknownWarning } from '../importWarnings.js';

const USAGE = `usage: evalverdict import paperbot --bench bench_v1.json --results results.jsonl --out RUN.sqlite
  [--golden-out golden.jsonl] [--run-prefix PREFIX] [--created-at RFC3339] [--force]
  --results: one JSON object per line, {"case_id": ..., "mode": "hybrid", "hits": [{"chunk_ref": "101:method:0",
  "paper_id": 101, "score": ...}], "latency_ms": ...} (or "error": "..." for a case that failed; a line with neither
  is refused), or PaperBot's report JSON (output/reports/document_evidence_bench_v1.json, its cases[] with
  ranked_chunk_refs), told apart by its first line. Each mode becomes a run named PREFIX + mode. Hits past a
  case's top_k are left out. --out may exist: the runs are added to it (a run of the same id only with --force).`;

/** The results of every mode, in either shape, read into one reader; the shape's words for what was read. */
function readResults(bench: PaperbotBench, resultsPath: string): { reader: PaperbotResultsReader; what: string } {
  const reader = new PaperbotResultsReader(bench);
  if (resultsShape(resultsPath, 'cases') === 'lines') {
    forEachJsonObjectOfFile(resultsPath, 'a result line', (value, n) => reader.object(value, n));
    return { reader, what: 'result lines' };
  }
  const value = readJsonDocument(resultsPath, "PaperBot's report");
  readPaperbotReport(value, resultsPath, reader);
  return { reader, what: "case rows of PaperBot's report" };
}

function warningsOf(bench: PaperbotBench, reader: PaperbotResultsReader, resultsPath: string): string[] {
  const { report } = reader;
  const warnings = [...bench.warnings];
  if (report.duplicates.count > 0)
    warnings.push(
      `${resultsPath}: ${plural(report.duplicates.count, 'more line', 'more lines')} for a case and mode that already had one; the last of each is scored: ${report.duplicates.first.map((d) => `${d.id} (${d.mode}) at line ${d.line}`).join(', ')}${moreOf(report.duplicates)}`,
    );
  warnings.push(...unknownWarning(resultsPath, report.unknown, ['case', 'cases'], 'the bench'));
  for (const [mode, missing] of report.missing)
    warnings.push(
      `${resultsPath}: mode ${mode} has no line for ${plural(missing.length, 'case (a miss)', 'cases (each a miss)')}: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? `, and ${missing.length - 5} more` : ''}`,
    );
  if (report.hitsBeyondTopK > 0)
    warnings.push(
      `${resultsPath}: ${plural(report.hitsBeyondTopK, "hit past its case's top_k is left out", "hits past their case's top_k are left out")}`,
    );
  return [...warnings, ...otherKeysWarning(resultsPath, report.otherKeys)];
}

function read(values: FlagValues, outputs: ImportOutputs): Imported {
  const benchPath = requiredFlag(values, 'bench');
  const resultsPath = requiredFlag(values, 'results');
  const prefix = stringFlag(values, 'run-prefix') ?? '';
  const bench = parsePaperbotBench(readText(benchPath, 'the bench file'), benchPath);
  const { reader, what } = readResults(bench, resultsPath);
  const modes = reader.finish();
  if (modes.length === 0) throw new InputError(`${resultsPath}: no result line for any case of ${benchPath}`);
  const createdAt = outputs.createdAt ?? nowRfc3339();
  const runs = modes.map(({ mode, results }) => ({
    runId: `${prefix}${mode}`,
    suite: 'paperbot',
    config: { source: 'paperbot', bench: benchPath, results: resultsPath, mode, retrieval_mode: mode },
    createdAt,
    results,
  }));
  const named = modes.map(({ mode, results }) => `${prefix}${mode} (${results.length})`).join(', ');
  return {
    runs,
    golden: {
      // PaperBot counts every case in its means, a case judged all 0 included (docs/golden-sets.md).
      header: {
        profile: 'paperbot',
        description: `Imported from ${benchPath} (bench ${bench.version || 'v1'}) by evalverdict import paperbot`,
      },
      items: paperbotGoldenItems(bench),
    },
    warnings: warningsOf(bench, reader, resultsPath),
    done: `imported ${bench.cases.length} cases and ${reader.report.lines} ${what} into ${outputs.out} as runs ${named}`,
  };
}

export const PAPERBOT_FORMAT: ImportFormat = {
  name: 'paperbot',
  summary: "PaperBot's evidence bench and each mode's hits (JSON Lines) or its report JSON: a run per mode",
  usage: USAGE,
  inputs: [
    ['bench', '--bench file'],
    ['results', '--results file'],
  ],
  options: ['run-prefix'],
  // The run ids are the modes; `--run-id` is not a flag here.
  defaultRunId: () => 'paperbot',
  read,
};
