/** One row's `result_json` read into a QueryResult, every field checked: the run database may come from anyone. */
import type { SqlValue } from 'sql.js';
import { mapPacked } from '../arrays.js';
import { InputError } from '../errors.js';
import { oneLine } from '../inputText.js';
import type {
  Answer,
  AnswerCitation,
  FolderMode,
  Hit,
  JudgeScores,
  LineCitation,
  QueryResult,
  RowNotice,
} from '../types.js';
import {
  FieldError,
  describe,
  isObject,
  optBoolean,
  optNumber,
  optString,
  optStringArray,
  parseJsonCell,
  refuseJsonPastBounds,
  JSON_SCAN_FROM_CHARS,
  JSON_VALUE_BOUNDS,
} from './json.js';
import type { JsonObject } from './json.js';
import { splitHeadingPath } from './headingPath.js';
import { collectUnknownKeys, hasUnmatchableRawHit } from './resultKeys.js';
import { scanResultJson } from './resultJson.js';

/**
 * One row's `result_json` as a QueryResult: through the fast reader (src/load/resultJson.ts) when the text has the
 * common shape, else through JSON.parse and parseQueryResult, which name the file, table, run, query and field of
 * any error.
 */
/** The most bytes of a run's id, suite, commit and time, and of a query id: longer ones are refused (docs/cli.md). */
export const MAX_ID_BYTES = 1024;

/**
 * One result row as a QueryResult (an InputError naming file, run, query and field), noting in `notice` its keys the
 * result schema does not know and whether a hit can match nothing: a look at every row, for the check of the first.
 */
export function readResultRow(
  file: string,
  runId: string,
  queryId: string,
  resultJson: SqlValue,
  notice: RowNotice | null = null,
): QueryResult {
  // Three UTF-8 bytes at most per UTF-16 unit: the byte count is needed only past a third of the cap.
  if (queryId.length > MAX_ID_BYTES / 3 && Buffer.byteLength(queryId) > MAX_ID_BYTES) {
    throw new InputError(
      `${file}: table \`eval_query_results\`, run \`${oneLine(runId)}\`, query ` +
        `\`${oneLine(`${queryId.slice(0, 200)}… (${Buffer.byteLength(queryId)} bytes)`)}\`: query_id holds more than ` +
        `the ${MAX_ID_BYTES} bytes EvalVerdict reads in an id`,
    );
  }
  if (typeof resultJson === 'string') {
    // Both readers build what the text holds (the fast one the members after the hits by JSON.parse): a long text is
    // checked first (parseJsonCell then need not check it again).
    if (resultJson.length >= JSON_SCAN_FROM_CHARS)
      refuseJsonPastBounds(
        resultJson,
        JSON_VALUE_BOUNDS,
        `${rowWhere(file, runId, queryId)}, column \`result_json\``,
        'in one value',
      );
    const scanned = scanResultJson(resultJson);
    if (scanned !== null) {
      let result: QueryResult | null = null;
      try {
        result = queryResultOf(scanned.fields, queryId, scanned.hits);
      } catch {
        // The slow path below gives the message.
      }
      if (result !== null) {
        if (notice !== null) {
          for (const key of scanned.unknownKeys) notice.unknownKeys.add(key);
          collectUnknownKeys(scanned.fields, notice.unknownKeys);
          if (!notice.unmatchableHit) notice.unmatchableHit = hasUnmatchableHit(result.hits);
        }
        return result;
      }
    }
  }
  const where = rowWhere(file, runId, queryId);
  const value = parseJsonCell(resultJson, `${where}, column \`result_json\``, true);
  const result = parseQueryResult(value, queryId, where);
  if (notice !== null) {
    collectUnknownKeys(value, notice.unknownKeys);
    // validate's rule on the values as written (a `false` id, an empty doc_path beside rel_path)
    if (!notice.unmatchableHit) notice.unmatchableHit = hasUnmatchableRawHit(value);
  }
  return result;
}

/**
 * A hit with no chunk_id, doc_id or path: it can match nothing (validate's `unmatchable-hit`). The fast reader's hits
 * hold strings or null, at most one of doc_path and rel_path, so this is validate's rule there.
 */
function hasUnmatchableHit(hits: readonly Hit[]): boolean {
  for (const h of hits) if (!h.chunkId && !h.docId && !h.docPath) return true;
  return false;
}

/** The file, table, run and query a result row's messages start with. */
function rowWhere(file: string, runId: string, queryId: string): string {
  return `${file}: table \`eval_query_results\`, run \`${oneLine(runId)}\`, query \`${oneLine(queryId)}\``;
}

/** Turns one `result_json` into a QueryResult, or throws an InputError naming `where` and the field. */
export function parseQueryResult(value: unknown, queryId: string, where: string): QueryResult {
  try {
    return queryResultOf(value, queryId);
  } catch (error) {
    if (error instanceof FieldError) throw new InputError(`${where}: ${error.message}`);
    throw error;
  }
}

/**
 * `value` as a QueryResult, or a FieldError naming the field. `scannedHits`: the hits the fast reader read and
 * checked (then `value` has no hits_top_k).
 */
function queryResultOf(value: unknown, queryId: string, scannedHits?: Hit[]): QueryResult {
  if (!isObject(value)) {
    throw new FieldError('result_json', `\`result_json\` must be a JSON object, got ${describe(value)}`);
  }
  const hits = scannedHits ?? parseHits(value);
  const status = optString(value, 'status');
  const error = optString(value, 'error');
  if (status !== null && status !== 'ok' && status !== 'error' && status !== 'timeout') {
    throw new FieldError('status', `\`status\` must be "ok", "error" or "timeout", got ${describe(status)}`);
  }
  const scope = value.scope;
  let folderMode: FolderMode | null = null;
  let selectedFolders: string[] = [];
  if (isObject(scope)) {
    const mode = optString(scope, 'folder_mode', 'scope.folder_mode');
    if (mode !== null && mode !== 'off' && mode !== 'on' && mode !== 'on_with_fallback') {
      throw new FieldError(
        'scope.folder_mode',
        `\`scope.folder_mode\` must be "off", "on" or "on_with_fallback", got ${describe(mode)}`,
      );
    }
    folderMode = mode as FolderMode | null;
    selectedFolders = optStringArray(scope, 'selected_folders', 'scope.selected_folders') ?? [];
  }
  const timingsMs = parseTimings(value.timings_ms);
  return {
    queryId,
    query: optString(value, 'query') ?? '',
    mode: optString(value, 'mode'),
    hits,
    answer: parseAnswer(value.answer, value.references, optBoolean(value, 'conflict_acknowledged')),
    elapsedMs: measure(value, 'elapsed_ms', 'elapsed_ms'),
    error,
    status: (status as QueryResult['status'] | null) ?? (error !== null ? 'error' : 'ok'),
    abstained: optBoolean(value, 'abstained'),
    timingsMs,
    costUsd: measure(value, 'cost_usd', 'cost_usd'),
    folderMode,
    selectedFolders,
    judge: parseJudge(value.judge),
  };
}

function parseTimings(timings: unknown): Record<string, number> {
  const timingsMs = Object.create(null) as Record<string, number>; // stage names are the input's
  if (isObject(timings)) {
    // Every stage is read; a run measures at most MAX_STAGES_PER_RUN of them (src/aggregate/table.ts).
    for (const key of Object.keys(timings)) {
      const ms = measure(timings, key, `timings_ms.${oneLine(key)}`);
      if (ms !== null) timingsMs[key] = ms;
    }
  } else if (timings !== undefined && timings !== null) {
    const got = describe(timings);
    throw new FieldError('timings_ms', `\`timings_ms\` must be an object of stage: milliseconds, got ${got}`);
  }
  return timingsMs;
}

function parseHits(value: JsonObject): Hit[] {
  const rawHits = value.hits_top_k ?? [];
  if (!Array.isArray(rawHits)) {
    throw new FieldError('hits_top_k', `\`hits_top_k\` must be a list, got ${describe(rawHits)}`);
  }
  const hits: Hit[] = new Array(rawHits.length);
  const seenRanks = new Set<number>();
  let sorted = true;
  for (let i = 0; i < rawHits.length; i++) {
    const h = rawHits[i];
    // Paths for messages are built only on the error path: this loop runs once per hit.
    if (!isObject(h)) {
      throw new FieldError(`hits_top_k[${i}]`, `\`hits_top_k[${i}]\` must be an object, got ${describe(h)}`);
    }
    const rank = h.rank;
    if (typeof rank !== 'number' || !Number.isInteger(rank) || rank < 1 || seenRanks.has(rank)) {
      throw rankError(rank, i);
    }
    seenRanks.add(rank);
    if (i > 0 && rank < hits[i - 1].rank) sorted = false;
    const { score, citation } = h;
    hits[i] = {
      rank,
      chunkId: hitString(h, 'chunk_id', i),
      docId: hitString(h, 'doc_id', i),
      // The 001 runner names the document's path `rel_path`; `doc_path` wins when a hit has both.
      docPath: hitString(h, 'doc_path', i) ?? hitString(h, 'rel_path', i),
      headingPath: hitHeading(h, i),
      snippet: hitString(h, 'snippet', i),
      score:
        typeof score === 'number' && Number.isFinite(score) ? score : optNumber(h, 'score', `hits_top_k[${i}].score`),
      citation:
        citation === undefined || citation === null ? null : parseLineCitation(citation, `hits_top_k[${i}].citation`),
      chunkerVersion: hitString(h, 'chunker_version', i),
    };
  }
  if (!sorted) hits.sort((a, b) => a.rank - b.rank);
  return hits;
}

function rankError(rank: unknown, i: number): FieldError {
  const path = `hits_top_k[${i}].rank`;
  if (rank === undefined || rank === null) return new FieldError(path, `\`${path}\` is missing`);
  if (typeof rank !== 'number' || !Number.isInteger(rank)) {
    return new FieldError(path, `\`${path}\` must be an integer, got ${describe(rank)}`);
  }
  if (rank < 1) return new FieldError(path, `\`${path}\` must be >= 1, got ${rank}`);
  return new FieldError(path, `\`${path}\` repeats rank ${rank} within the query`);
}

/** A string field of a hit: the common cases inline, the rest (numbers, wrong types) through optString. */
function hitString(h: JsonObject, key: string, i: number): string | null {
  const v = h[key];
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return null;
  return optString(h, key, `hits_top_k[${i}].${key}`);
}

function hitHeading(h: JsonObject, i: number): string[] {
  return headingOf(h, `hits_top_k[${i}].heading_path`);
}

/** A `heading_path`: a list of headings, or one text with the 001 runner's delimiter `>` (`"Setup > Install"`). */
function headingOf(obj: JsonObject, path: string): string[] {
  const v = obj.heading_path;
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return splitHeadingPath(v);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  return optStringArray(obj, 'heading_path', path) ?? [];
}

function parseLineCitation(c: unknown, path: string): LineCitation | null {
  if (!isObject(c)) throw new FieldError(path, `\`${path}\` must be an object, got ${describe(c)}`);
  const file = optString(c, 'path', `${path}.path`);
  const start = optNumber(c, 'start', `${path}.start`);
  const end = optNumber(c, 'end', `${path}.end`);
  if (file === null || start === null) return null;
  return { kind: 'line', path: file, start, end: end ?? start };
}

/** A citation without its inner `citation` object reads as one with no fields. */
const NO_CITATION: JsonObject = Object.freeze({});

// optString and optNumber of citation `i`'s field, with the path for a message built only when there is one.
function citationString(obj: JsonObject, key: string, i: number, field: string): string | null {
  const v = obj[key];
  if (v === undefined || v === null) return null;
  return typeof v === 'string' ? v : optString(obj, key, `answer.citations[${i}]${field}`);
}

function citationNumber(obj: JsonObject, key: string, i: number, field: string): number | null {
  const v = obj[key];
  if (v === undefined || v === null) return null;
  return typeof v === 'number' && Number.isFinite(v) ? v : optNumber(obj, key, `answer.citations[${i}]${field}`);
}

function parseCitation(c: unknown, i: number): AnswerCitation {
  if (!isObject(c)) {
    throw new FieldError(`answer.citations[${i}]`, `\`answer.citations[${i}]\` must be an object, got ${describe(c)}`);
  }
  const inner: JsonObject = isObject(c.citation) ? c.citation : NO_CITATION;
  return {
    marker: citationString(c, 'marker', i, '.marker'),
    chunkId:
      citationString(c, 'chunk_id', i, '.chunk_id') ?? citationString(inner, 'chunk_id', i, '.citation.chunk_id'),
    path: citationString(inner, 'path', i, '.citation.path'),
    // A code citation may name its lines `start_line`/`end_line` or `line_start`/`line_end`.
    start:
      citationNumber(inner, 'start', i, '.citation.start') ??
      citationNumber(inner, 'start_line', i, '.citation.start_line') ??
      citationNumber(inner, 'line_start', i, '.citation.line_start'),
    end:
      citationNumber(inner, 'end', i, '.citation.end') ??
      citationNumber(inner, 'end_line', i, '.citation.end_line') ??
      citationNumber(inner, 'line_end', i, '.citation.line_end'),
  };
}

/**
 * A reference as the 001 runner writes it, `{rel_path, heading_path}` (`heading_path` a list or an `"A > B"` text;
 * `chunk_id`, `start` and `end` read when present): a citation of that path and section.
 */
function parseReference(r: unknown, i: number, field: string): AnswerCitation {
  const path = `${field}[${i}]`;
  if (!isObject(r)) throw new FieldError(path, `\`${path}\` must be an object, got ${describe(r)}`);
  const start = optNumber(r, 'start', `${path}.start`);
  return {
    marker: optString(r, 'marker', `${path}.marker`),
    chunkId: optString(r, 'chunk_id', `${path}.chunk_id`),
    path: optString(r, 'rel_path', `${path}.rel_path`) ?? optString(r, 'path', `${path}.path`),
    start,
    end: optNumber(r, 'end', `${path}.end`) ?? start,
    headingPath: headingOf(r, `${path}.heading_path`),
  };
}

function parseAnswer(a: unknown, topLevelReferences: unknown, topLevelAcknowledged: boolean | null): Answer | null {
  if (a === undefined || a === null) return null;
  if (!isObject(a)) throw new FieldError('answer', `\`answer\` must be an object or null, got ${describe(a)}`);
  const rawCitations = a.citations ?? [];
  if (!Array.isArray(rawCitations)) throw new FieldError('answer.citations', '`answer.citations` must be a list');
  let citations: AnswerCitation[] = mapPacked(rawCitations, parseCitation);
  // The 001 runner's `references` (in the answer, else beside it) are citations too, after any `citations`.
  const inAnswer = a.references !== undefined && a.references !== null;
  const rawReferences = inAnswer ? a.references : topLevelReferences;
  const referencesField = inAnswer ? 'answer.references' : 'references';
  const referencesListed = Array.isArray(rawReferences);
  if (rawReferences !== undefined && rawReferences !== null) {
    if (!referencesListed) {
      throw new FieldError(referencesField, `\`${referencesField}\` must be a list, got ${describe(rawReferences)}`);
    }
    const references = (rawReferences as unknown[]).map((r, i) => parseReference(r, i, referencesField));
    citations = citations.length === 0 ? references : [...citations, ...references];
  }
  const usage = isObject(a.usage) ? a.usage : {};
  const grounded = optBoolean(a, 'grounded', 'answer.grounded');
  return {
    text: optString(a, 'answer', 'answer.answer') ?? '',
    citations,
    citationsListed: Array.isArray(a.citations) || referencesListed,
    // Refusal is `grounded: false` (or `abstained`); an answer that does not say is an answer, not a refusal.
    grounded: grounded ?? true,
    conflictAcknowledged:
      optBoolean(a, 'conflict_acknowledged', 'answer.conflict_acknowledged') ?? topLevelAcknowledged,
    refusalReason: optString(a, 'refusal_reason', 'answer.refusal_reason'),
    promptTokens: measure(usage, 'prompt_tokens', 'answer.usage.prompt_tokens'),
    completionTokens: measure(usage, 'completion_tokens', 'answer.usage.completion_tokens'),
    latencyMs: measure(usage, 'latency_ms', 'answer.usage.latency_ms'),
  };
}

function parseJudge(j: unknown): JudgeScores | null {
  if (j === undefined || j === null) return null;
  if (!isObject(j)) throw new FieldError('judge', `\`judge\` must be an object, got ${describe(j)}`);
  const spot = isObject(j.spot_check) ? j.spot_check : {};
  const judgeUsage = isObject(j.usage) ? j.usage : {};
  const claims = j.unsupported_claims;
  return {
    groundedness: judgeScore(j, 'groundedness', 'judge.groundedness'),
    correctness: judgeScore(j, 'correctness', 'judge.correctness'),
    unsupportedClaims: Array.isArray(claims) ? claims.length : null,
    spotCheckGroundedness: judgeScore(spot, 'groundedness', 'judge.spot_check.groundedness'),
    spotCheckCorrectness: judgeScore(spot, 'correctness', 'judge.spot_check.correctness'),
    promptTokens: measure(judgeUsage, 'prompt_tokens', 'judge.usage.prompt_tokens'),
    completionTokens: measure(judgeUsage, 'completion_tokens', 'judge.usage.completion_tokens'),
  };
}

/** A time, a cost or a count of tokens: a negative one would pull means and totals down without a sign. */
function measure(obj: JsonObject, key: string, path: string): number | null {
  const v = optNumber(obj, key, path);
  if (v !== null && v < 0) throw new FieldError(path, `\`${path}\` must be a number >= 0, got ${v}`);
  return v;
}

/** A judge score on the contract's 0-5 scale: one on another scale would move the means without a sign. */
function judgeScore(obj: JsonObject, key: string, path: string): number | null {
  const v = optNumber(obj, key, path);
  if (v !== null && (v < 0 || v > 5)) throw new FieldError(path, `\`${path}\` must be a score from 0 to 5, got ${v}`);
  return v;
}
