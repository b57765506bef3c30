/**
 * `evalgate import ckv`: ckv's fixture (YAML) and the hits of one eval pass (JSON Lines, streamed) into a run
 * database and a golden set, written together or not at all; a database that exists gets the run added.
 */
import { basename, extname } from 'node:path';
import { plural } from '../render/reportParts.js';
import { InputError } from '../errors.js';
import { CKV_DEFAULT_K, CkvResultsReader, ckvGoldenItems, parseCkvFixture } from '../load/ckv.js';
import { forEachLineOfFile } from '../load/lines.js';
import { parse, wholeNumber } from './args.js';
import { importOutputs, nowRfc3339, readText, writeImport } from './importFiles.js';
import type { Io } from './io.js';

export const IMPORT_CKV_USAGE = `usage: evalgate import ckv --fixture testdata/queries.yaml --results results.jsonl --out RUN.sqlite
  [--golden-out golden.jsonl] [--run-id ID] [--k 5] [--created-at RFC3339] [--force]
  --results: one JSON object per line, {"query_id": ..., "hits": [{"file": ..., "line_range": [start, end], "score": ...}]}
  (or {"query_id": ..., "error": "..."}: a miss). Only the top --k hits count (ckv's default 5). The fixture's
  schema_version must be 1 (a newer minor is read with a warning). Pending entries are scored with the others, as
  ckv runs and counts them (tagged \`pending\`). --out may exist: the run is added to it (a run of the same id only
  with --force). --run-id: default the results file's name without its extension. --created-at: default now.`;

export async function importCkvCommand(args: string[], io: Io): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(`${IMPORT_CKV_USAGE}\n`);
    return 0;
  }
  const { values, positionals } = parse(
    args,
    {
      fixture: { type: 'string' },
      results: { type: 'string' },
      out: { type: 'string' },
      'golden-out': { type: 'string' },
      'run-id': { type: 'string' },
      k: { type: 'string' },
      'created-at': { type: 'string' },
      force: { type: 'boolean' },
    },
    IMPORT_CKV_USAGE,
  );
  if (positionals.length > 0) throw new InputError(`unexpected argument ${positionals[0]}\n${IMPORT_CKV_USAGE}`);
  const fixturePath = values.fixture as string | undefined;
  const resultsPath = values.results as string | undefined;
  if (!fixturePath || !resultsPath || !values.out)
    throw new InputError(`--fixture, --results and --out are required\n${IMPORT_CKV_USAGE}`);
  const k = values.k === undefined ? CKV_DEFAULT_K : wholeNumber(values.k as string, 'k', 1, 'a positive whole number');
  const outputs = importOutputs(values, IMPORT_CKV_USAGE, basename(resultsPath, extname(resultsPath)));

  const fixture = parseCkvFixture(readText(fixturePath, 'the fixture'), fixturePath);
  const reader = new CkvResultsReader(fixture, resultsPath, k);
  forEachLineOfFile(resultsPath, (line, n) => reader.line(line, n));
  const results = reader.finish();
  await writeImport(
    outputs,
    [
      {
        runId: outputs.runId,
        suite: 'ckv',
        config: { source: 'ckv', fixture: fixturePath, results: resultsPath, k, schema_version: fixture.schemaVersion },
        createdAt: outputs.createdAt ?? nowRfc3339(),
        results,
      },
    ],
    {
      header: {
        description: `Imported from ${fixturePath} (ckv fixture schema_version ${fixture.schemaVersion}) by evalgate import ckv`,
      },
      items: ckvGoldenItems(fixture),
    },
  );
  const { report } = reader;
  const warnings = [...fixture.warnings];
  const places = (list: Array<{ id: string; line: number }>) => list.map((p) => `${p.id} at line ${p.line}`).join(', ');
  const more = (t: { count: number; first: unknown[] }) =>
    t.count > t.first.length ? `, and ${t.count - t.first.length} more` : '';
  if (report.duplicates.count > 0)
    warnings.push(
      `${resultsPath}: ${plural(report.duplicates.count, 'more line for a query that already had one', 'more lines for queries that already had one')}; the last of each is scored: ${places(report.duplicates.first)}${more(report.duplicates)}`,
    );
  if (report.unknown.count > 0)
    warnings.push(
      `${resultsPath}: ${plural(report.unknown.count, 'line for a query the fixture does not have is skipped', 'lines for queries the fixture does not have are skipped')}: ${places(report.unknown.first)}${more(report.unknown)}`,
    );
  if (report.missing.count > 0)
    warnings.push(
      `${fixturePath}: ${plural(report.missing.count, 'query has no result (a miss', 'queries have no result (each a miss')}, as ckv counts a query it could not run): ${report.missing.first.join(', ')}${more(report.missing)}`,
    );
  if (report.hitsBeyondK > 0)
    warnings.push(
      `${resultsPath}: ${plural(report.hitsBeyondK, `hit past the top ${k} is left out`, `hits past the top ${k} are left out`)} (ckv scores the top K)`,
    );
  for (const w of warnings) io.stderr(`warning: ${w}\n`);
  io.stdout(
    `imported ${results.length} of ${fixture.queries.length} queries (${report.lines} result lines) into ${outputs.out} as run ${outputs.runId}${outputs.outExists ? ' (added to the runs already there)' : ''}\n`,
  );
  return 0;
}
