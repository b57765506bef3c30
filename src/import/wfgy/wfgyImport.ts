/**
 * `evalverdict import wfgy`: WFGY example 08's QA set and traces (JSON Lines, streamed) into a run and a golden set
 * with `profile: wfgy`. A question's repeated trace lines are all scored by default, as WFGY's scorer scores every
 * line: docs/sources/wfgy.md.
 */
import { existsSync } from 'node:fs';
import { InputError } from '../../errors.js';
import { readGoldenDocument } from '../../load/golden.js';
import { forEachJsonObjectOfFile, moreOf } from '../../load/lines.js';
import { DEFAULT_REFUSAL_TOKEN, parseQaSet, WfgyTraceReader } from './wfgyFiles.js';
import type { WfgyImport, WfgyOptions } from './wfgyFiles.js';
import { plural } from '../../numberFormat.js';
import { readText } from '../importFiles.js';
import { nowRfc3339 } from '../../time.js';
import { nameOfFile, requiredFlag, stringFlag } from '../importFormat.js';
import type { FlagValues, ImportFormat, ImportOutputs, Imported } from '../importFormat.js';

const USAGE = `usage: evalverdict import wfgy --qaset eval/qaset.json --traces runs/trace.jsonl --out RUN.sqlite
  [--golden-out golden.jsonl] [--run-id ID] [--refusal-token TEXT] [--citations auto|field|text]
  [--keep all|last|first] [--created-at RFC3339] [--force]
  Matches each trace line to its question by qid, else by the exact question text. A question with several lines
  has each scored, as WFGY's scorer does (--keep all, the default: the second line of q1 is the result q1#2, with a
  copy of q1 in the golden set); --keep last or first scores one. Duplicates, unmatched lines and questions without
  a trace are counted on stderr. --out may exist: the run is added to it (a run of the same id only with --force,
  which replaces it). --golden-out (JSON Lines for .jsonl/.ndjson, else YAML) carries \`profile: wfgy\`, so aggregate
  and compare compute WFGY's definitions; an existing one is replaced only with --force, unless the new one only
  adds repeat copies. --run-id: default the traces file's name without its extension. --refusal-token: default
  "${DEFAULT_REFUSAL_TOKEN}". --created-at: default the newest \`ts\` of the traces (Unix seconds or milliseconds), else now.`;

function wfgyOptions(values: FlagValues): WfgyOptions {
  const citations = stringFlag(values, 'citations') ?? 'auto';
  if (citations !== 'auto' && citations !== 'field' && citations !== 'text')
    throw new InputError(`--citations: must be auto, field or text, got ${JSON.stringify(citations)}`);
  const keep = stringFlag(values, 'keep') ?? 'all';
  if (keep !== 'all' && keep !== 'last' && keep !== 'first')
    throw new InputError(`--keep: must be all, last or first, got ${JSON.stringify(keep)}`);
  const token = stringFlag(values, 'refusal-token') ?? DEFAULT_REFUSAL_TOKEN;
  if (token.trim() === '')
    throw new InputError('--refusal-token: the token is empty (every blank answer would refuse)');
  return { refusalToken: token, citationsFrom: citations, keep };
}

/**
 * The repeat copies (`QID#N`) a golden set written before holds, per qid: kept, so that one golden set serves runs
 * with more and fewer repeats.
 */
function copiesIn(goldenOut: string | undefined): Map<string, number> {
  const copies = new Map<string, number>();
  if (goldenOut === undefined || !existsSync(goldenOut)) return copies;
  for (const item of readGoldenDocument(goldenOut).items) {
    const m = /^(.*)#(\d+)$/.exec(String((item as { id?: unknown }).id));
    if (m) copies.set(m[1], Math.max(copies.get(m[1]) ?? 1, Number(m[2])));
  }
  return copies;
}

/**
 * A trace's `ts` as an RFC 3339 time: Unix seconds, or milliseconds when it is that large (1e11 seconds is the
 * year 5138); null when it is no time of years 1970-9999, which a run's created_at could not hold.
 */
export function timeOf(ts: number | null): string | null {
  if (ts === null || ts < 0) return null;
  const date = new Date(ts >= 1e11 ? ts : ts * 1000);
  if (!Number.isFinite(date.getTime()) || date.getUTCFullYear() > 9999) return null;
  return date.toISOString().replace(/\.000Z$/, 'Z');
}

/** What the import left out or chose, for stderr: counts and the first few places. */
function warningsOf(imported: WfgyImport, traces: string, qaset: string, keep: WfgyOptions['keep']): string[] {
  const { report } = imported;
  const warnings: string[] = [];
  if (report.duplicates.count > 0) {
    const places = report.duplicates.first.map((d) => `${d.qid} at line ${d.line}`).join(', ');
    const scored =
      keep === 'all'
        ? 'each is scored, as WFGY scores every line (results QID#2, QID#3, ...)'
        : `the ${keep} line of each is scored (WFGY's scorer would score every line)`;
    warnings.push(
      `${traces}: ${plural(report.duplicates.count, 'more line', 'more lines')} for ${plural(report.questionsWithDuplicates, 'question that already had one', 'questions that already had one')}; ${scored}: ${places}${moreOf(report.duplicates)}`,
    );
  }
  if (report.unmatched.count > 0) {
    const places = report.unmatched.first
      .map((u) => `line ${u.line} ${u.qid !== null ? `qid ${JSON.stringify(u.qid)}` : JSON.stringify(u.q)}`)
      .join(', ');
    warnings.push(
      `${traces}: ${plural(report.unmatched.count, 'line matches', 'lines match')} no question of ${qaset} and ${report.unmatched.count === 1 ? 'is' : 'are'} skipped: ${places}${moreOf(report.unmatched)}`,
    );
  }
  if (report.missing.count > 0)
    warnings.push(
      `${qaset}: ${plural(report.missing.count, 'question has', 'questions have')} no trace (no result in the run; WFGY's scorer leaves them out too): ${report.missing.first.join(', ')}${moreOf(report.missing)}`,
    );
  return warnings;
}

function read(values: FlagValues, outputs: ImportOutputs): Imported {
  const qaset = requiredFlag(values, 'qaset');
  const traces = requiredFlag(values, 'traces');
  const options = wfgyOptions(values);
  // The QA set is read whole (a few hundred questions); the traces are streamed.
  const reader = new WfgyTraceReader(parseQaSet(readText(qaset, 'the QA set'), qaset), traces, qaset, options);
  forEachJsonObjectOfFile(traces, 'a trace line', (value, n, text) => reader.object(value, n, text));
  const imported = reader.finish(copiesIn(outputs.goldenOut));
  const config = {
    source: 'wfgy',
    qaset,
    traces,
    refusal_token: options.refusalToken,
    citations: options.citationsFrom,
    keep: options.keep,
  };
  const createdAt = outputs.createdAt ?? timeOf(imported.newestTs) ?? nowRfc3339();
  const { report } = imported;
  return {
    runs: [{ runId: outputs.runId, suite: 'wfgy', config, createdAt, results: imported.results }],
    golden: { header: imported.goldenHeader, items: imported.goldenItems },
    warnings: warningsOf(imported, traces, qaset, options.keep),
    done: `imported ${imported.questions.length - report.missing.count} of ${imported.questions.length} questions (${report.lines} trace lines: ${report.matched} matched, ${report.duplicates.count} duplicate, ${report.unmatched.count} unmatched) into ${outputs.out} as run ${outputs.runId}`,
  };
}

export const WFGY_FORMAT: ImportFormat = {
  name: 'wfgy',
  summary: "WFGY example 08's QA set and traces, scored by WFGY's definitions (profile: wfgy)",
  usage: USAGE,
  inputs: [
    ['qaset', '--qaset file'],
    ['traces', '--traces file'],
  ],
  options: ['run-id', 'refusal-token', 'citations', 'keep'],
  defaultRunId: nameOfFile('traces'),
  goldenGrows: true,
  read,
};
