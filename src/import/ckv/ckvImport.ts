/**
 * `evalverdict import ckv`: ckv's fixture (YAML) and either the hits of one eval pass (JSON Lines, streamed) or ckv's
 * own `Result` JSON (per-query found_rank, hits_returned, citation_correct) into a run and a golden set.
 */
import { InputError } from '../../errors.js';
import type { CkvFixture, CkvResultsReader as Reader } from './ckvFiles.js';
import {
  CKV_DEFAULT_K,
  CkvResultsReader,
  ckvGoldenItems,
  ckvResultDocument,
  ckvResultsOfPerQuery,
  parseCkvFixture,
} from './ckvFiles.js';
import { forEachJsonObjectOfFile, moreOf } from '../../load/lines.js';
import { plural } from '../../numberFormat.js';
import { readJsonDocument, readText, resultsShape } from '../importFiles.js';
import { nowRfc3339 } from '../../time.js';
import { nameOfFile, requiredFlag, stringFlag } from '../importFormat.js';
import type { FlagValues, ImportFormat, ImportOutputs, Imported } from '../importFormat.js';
import { otherKeysWarning, placesOf, unknownWarning } from '../importWarnings.js';

const USAGE = `usage: evalverdict import ckv --fixture testdata/queries.yaml --results results.jsonl --out RUN.sqlite
  [--golden-out golden.jsonl] [--run-id ID] [--k 5] [--created-at RFC3339] [--force]
  --results: one JSON object per line, {"query_id": ..., "hits": [{"file": ..., "line_range": [start, end], "score": ...}]}
  (or {"query_id": ..., "error": "..."}: a miss; a line with neither is refused), or ckv's own Result JSON
  ({"k", "aggregate", "per_query": [{"query_id", "found_rank", "hits_returned", "citation_correct", ...}]}), told
  apart by its first line. Only the top --k hits count (default: the Result's k, else ckv's 5). The fixture's
  schema_version must be 1 (a newer minor is read with a warning). Pending entries are scored with the others, as
  ckv runs and counts them (tagged \`pending\`). --out may exist: the run is added to it (a run of the same id only
  with --force). --run-id: default the results file's name without its extension. --created-at: default now.`;

interface Read {
  fixture: CkvFixture;
  reader: Reader;
  k: number;
  shape: 'lines' | 'document';
}

/** The fixture and the results, in either shape. */
function readCkv(fixturePath: string, resultsPath: string, kFlag: number | null): Read {
  const fixture = parseCkvFixture(readText(fixturePath, 'the fixture'), fixturePath);
  const shape = resultsShape(resultsPath, 'per_query');
  if (shape === 'lines') {
    const k = kFlag ?? CKV_DEFAULT_K;
    const reader = new CkvResultsReader(fixture, k);
    forEachJsonObjectOfFile(resultsPath, 'a result line', (value, n) => reader.object(value, n));
    return { fixture, reader, k, shape };
  }
  const value = readJsonDocument(resultsPath, "ckv's Result");
  const doc = ckvResultDocument(value, resultsPath);
  const k = kFlag ?? doc.k ?? CKV_DEFAULT_K;
  const reader = new CkvResultsReader(fixture, k);
  ckvResultsOfPerQuery(doc.perQuery, fixture, resultsPath, reader);
  return { fixture, reader, k, shape };
}

function warningsOf({ fixture, reader, k }: Read, fixturePath: string, resultsPath: string): string[] {
  const { report } = reader;
  const warnings = [...fixture.warnings];
  if (report.duplicates.count > 0)
    warnings.push(
      `${resultsPath}: ${plural(report.duplicates.count, 'more line for a query that already had one', 'more lines for queries that already had one')}; the last of each is scored: ${placesOf(report.duplicates)}`,
    );
  warnings.push(...unknownWarning(resultsPath, report.unknown, ['query', 'queries'], 'the fixture'));
  if (report.missing.count > 0)
    warnings.push(
      `${fixturePath}: ${plural(report.missing.count, 'query has no result (a miss', 'queries have no result (each a miss')}, as ckv counts a query it could not run): ${report.missing.first.join(', ')}${moreOf(report.missing)}`,
    );
  if (report.hitsBeyondK > 0)
    warnings.push(
      `${resultsPath}: ${plural(report.hitsBeyondK, `hit past the top ${k} is left out`, `hits past the top ${k} are left out`)} (ckv scores the top K)`,
    );
  return [...warnings, ...otherKeysWarning(resultsPath, report.otherKeys)];
}

/** --k: a positive whole number in decimal digits. */
function kOf(text: string): number {
  const k = /^\d+$/.test(text.trim()) ? Number(text) : 0;
  if (!Number.isSafeInteger(k) || k < 1)
    throw new InputError(`--k: ${JSON.stringify(text)} is not a positive whole number`);
  return k;
}

function read(values: FlagValues, outputs: ImportOutputs): Imported {
  const fixturePath = requiredFlag(values, 'fixture');
  const resultsPath = requiredFlag(values, 'results');
  const kText = stringFlag(values, 'k');
  const got = readCkv(fixturePath, resultsPath, kText === undefined ? null : kOf(kText));
  const { fixture, reader, k } = got;
  const results = reader.finish();
  const config = {
    source: 'ckv',
    fixture: fixturePath,
    results: resultsPath,
    k,
    schema_version: fixture.schemaVersion,
  };
  const what = got.shape === 'lines' ? 'result lines' : "rows of ckv's Result";
  return {
    runs: [{ runId: outputs.runId, suite: 'ckv', config, createdAt: outputs.createdAt ?? nowRfc3339(), results }],
    golden: {
      header: {
        description: `Imported from ${fixturePath} (ckv fixture schema_version ${fixture.schemaVersion}) by evalverdict import ckv`,
      },
      items: ckvGoldenItems(fixture),
    },
    warnings: warningsOf(got, fixturePath, resultsPath),
    done: `imported ${results.length} of ${fixture.queries.length} queries (${reader.report.lines} ${what}) into ${outputs.out} as run ${outputs.runId}`,
  };
}

export const CKV_FORMAT: ImportFormat = {
  name: 'ckv',
  summary: "ckv's fixture and the hits of one eval pass (JSON Lines) or its Result JSON",
  usage: USAGE,
  inputs: [
    ['fixture', '--fixture file'],
    ['results', '--results file'],
  ],
  options: ['run-id', 'k'],
  defaultRunId: nameOfFile('results'),
  read,
};
