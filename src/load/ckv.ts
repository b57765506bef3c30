/**
 * ckv's files -> a run and a golden set: its fixture (`testdata/queries.yaml`: `schema_version`, then `queries` of
 * `{id, intent, expected: {file, symbol, kind, line_range: [start, end]}, pending}`) and the hits of one eval pass,
 * one JSON object per line: `{"query_id", "hits": [{"file", "line_range": [start, end], "score", "snippet"}]}`.
 * A hit is correct when it cites the expected file and its line range overlaps the expected one (the golden
 * query's `expected_lines`); only the top K hits count, K = 5 unless told (ckv's DefaultK). docs/sources/ckv.md.
 */
import { isMap, isSeq } from 'yaml';
import type { YAMLMap } from 'yaml';
import { InputError } from '../errors.js';
import { parseYamlWithLines } from '../yamlLines.js';
import { describe, FieldError, isObject } from './json.js';
import type { JsonObject } from './json.js';

/** The fixture schema this EvalGate reads: ckv's FixtureSchemaVersion. */
export const CKV_SCHEMA_MAJOR = 1;
export const CKV_SCHEMA_MINOR = 0;
/** ckv's DefaultK. */
export const CKV_DEFAULT_K = 5;

export interface CkvQuery {
  id: string;
  intent: string;
  file: string;
  /** [0, 0] for a pending entry without a range: ckv's zero value, which no hit overlaps. */
  lineRange: [number, number];
  symbol: string | null;
  kind: string | null;
  pending: boolean;
  line: number;
}

export interface CkvFixture {
  schemaVersion: string;
  queries: CkvQuery[];
  warnings: string[];
}

/**
 * ckv's rules for its schema_version: empty is refused, a newer major is refused, a newer minor is read with a
 * warning. A version is `MAJOR` or `MAJOR.MINOR`.
 */
function checkSchemaVersion(value: unknown, at: string, source: string): { version: string; warning: string | null } {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
    throw new InputError(`${at}: \`schema_version\` is missing or empty (ckv refuses such a fixture)`);
  const version = String(value).trim();
  const m = /^(\d+)(?:\.(\d+))?$/.exec(version);
  if (!m) throw new InputError(`${at}: \`schema_version\` ${JSON.stringify(version)} is not MAJOR or MAJOR.MINOR`);
  const major = Number(m[1]);
  const minor = m[2] === undefined ? 0 : Number(m[2]);
  if (major > CKV_SCHEMA_MAJOR)
    throw new InputError(
      `${at}: fixture schema_version ${version} is a newer major than ${CKV_SCHEMA_MAJOR}, which this EvalGate reads (ckv refuses newer majors)`,
    );
  if (major < CKV_SCHEMA_MAJOR)
    throw new InputError(`${at}: fixture schema_version ${version} is older than ckv's first (${CKV_SCHEMA_MAJOR})`);
  const warning =
    minor > CKV_SCHEMA_MINOR
      ? `${source}: fixture schema_version ${version} is a newer minor than ${CKV_SCHEMA_MAJOR}.${CKV_SCHEMA_MINOR}; read as ${CKV_SCHEMA_MAJOR} (fields it added are ignored)`
      : null;
  return { version, warning };
}

/** A fixture's text, validated as ckv's LoadFixture does; messages name the line. */
export function parseCkvFixture(text: string, source: string): CkvFixture {
  const { doc, lineOf, keyLine } = parseYamlWithLines(text, source);
  const root = doc.contents;
  if (!isMap(root))
    throw new InputError(`${source}:${lineOf(root)}: a ckv fixture is a map with \`schema_version\` and \`queries\``);
  const { version, warning } = checkSchemaVersion(
    (root.toJSON() as JsonObject).schema_version,
    `${source}:${keyLine(root, 'schema_version')}`,
    source,
  );
  const list = root.get('queries', true);
  if (!isSeq(list)) throw new InputError(`${source}:${keyLine(root, 'queries')}: \`queries\` must be a list`);
  const seen = new Map<string, number>();
  const queries = list.items.map((item) => {
    const line = lineOf(item);
    if (!isMap(item)) throw new InputError(`${source}:${line}: each query must be a map with id, intent and expected`);
    const q = queryOf(item, source, line, keyLine);
    const earlier = seen.get(q.id);
    if (earlier !== undefined)
      throw new InputError(`${source}:${line}: query id ${JSON.stringify(q.id)} again (first at line ${earlier})`);
    seen.set(q.id, line);
    return q;
  });
  return { schemaVersion: version, queries, warnings: warning ? [warning] : [] };
}

function queryOf(
  item: YAMLMap,
  source: string,
  line: number,
  keyLine: (map: YAMLMap, key: string) => number,
): CkvQuery {
  const q = item.toJSON() as JsonObject;
  const at = (key: string) => `${source}:${keyLine(item, key)}`;
  const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
  const id = text(q.id);
  if (id === '') throw new InputError(`${at('id')}: a query needs \`id\``);
  const who = `query ${JSON.stringify(id)}`;
  const intent = text(q.intent);
  if (intent.trim() === '') throw new InputError(`${at('intent')}: ${who} needs \`intent\` (its question)`);
  const pending = q.pending === true;
  if (q.pending !== undefined && q.pending !== null && typeof q.pending !== 'boolean')
    throw new InputError(`${at('pending')}: ${who}: \`pending\` must be true or false`);
  const expectedNode = item.get('expected', true);
  const expected = q.expected;
  if (!isObject(expected) || !isMap(expectedNode))
    throw new InputError(`${at('expected')}: ${who} needs \`expected: {file, line_range}\``);
  const eAt = (key: string) => `${source}:${keyLine(expectedNode, key)}`;
  const file = text(expected.file);
  if (file === '') throw new InputError(`${eAt('file')}: ${who} needs \`expected.file\``);
  const range = expected.line_range;
  let lineRange: [number, number];
  if (range === undefined || range === null) {
    if (!pending)
      throw new InputError(
        `${eAt('file')}: ${who} needs \`expected.line_range: [start, end]\` (only pending entries may omit it)`,
      );
    lineRange = [0, 0];
  } else {
    if (!Array.isArray(range) || range.length !== 2 || !range.every((n) => Number.isInteger(n)))
      throw new InputError(
        `${eAt('line_range')}: ${who}: \`expected.line_range\` must be [start, end] of whole numbers, got ${JSON.stringify(range)}`,
      );
    const [start, end] = range as [number, number];
    const zero = start === 0 && end === 0;
    if (zero && !pending)
      throw new InputError(
        `${eAt('line_range')}: ${who}: \`expected.line_range\` [0, 0] is no range (only pending entries may have it)`,
      );
    if (!zero && (start < 1 || end < start))
      throw new InputError(
        `${eAt('line_range')}: ${who}: \`expected.line_range\` [${start}, ${end}] is not a range of lines (1 <= start <= end)`,
      );
    lineRange = [start, end];
  }
  return {
    id,
    intent,
    file,
    lineRange,
    symbol: text(expected.symbol) || null,
    kind: text(expected.kind) || null,
    pending,
    line,
  };
}

/** The golden queries of a fixture: the expected location as `expected_lines`; pending entries counted, tagged. */
export function ckvGoldenItems(fixture: CkvFixture): JsonObject[] {
  return fixture.queries.map((q) => {
    const item: JsonObject = {
      id: q.id,
      query: q.intent,
      expected_lines: { file: q.file, line_range: q.lineRange },
    };
    if (q.kind !== null) item.category = q.kind;
    // ckv runs pending entries and counts their misses: they are not `pending` here (which would score them apart).
    if (q.pending) item.tags = ['pending'];
    return item;
  });
}

export interface CkvResultsReport {
  lines: number;
  duplicates: { count: number; first: Array<{ id: string; line: number }> };
  unknown: { count: number; first: Array<{ id: string; line: number }> };
  missing: { count: number; first: string[] };
  /** Hits past the top K, left out. */
  hitsBeyondK: number;
}

const FIRST = 5;

/**
 * Reads result lines one at a time, keeping each query's last line as its result_json (a ckv pass runs each query
 * once; a query given twice is counted and its last line kept).
 */
export class CkvResultsReader {
  private readonly index = new Map<string, number>();
  private readonly kept: Array<JsonObject | undefined>;
  readonly report: CkvResultsReport = {
    lines: 0,
    duplicates: { count: 0, first: [] },
    unknown: { count: 0, first: [] },
    missing: { count: 0, first: [] },
    hitsBeyondK: 0,
  };

  constructor(
    private readonly fixture: CkvFixture,
    private readonly source: string,
    private readonly k: number,
  ) {
    fixture.queries.forEach((q, i) => {
      this.index.set(q.id, i);
    });
    this.kept = new Array(fixture.queries.length);
  }

  line(text: string, lineNumber: number): void {
    if (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim() === '')) return;
    this.report.lines++;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new InputError(`${this.source}:${lineNumber}: not valid JSON (${(error as Error).message})`);
    }
    if (!isObject(value))
      throw new InputError(`${this.source}:${lineNumber}: a result line must be a JSON object, got ${describe(value)}`);
    try {
      this.result(value, lineNumber);
    } catch (error) {
      if (error instanceof FieldError) throw new InputError(`${this.source}:${lineNumber}: ${error.message}`);
      throw error;
    }
  }

  private result(r: JsonObject, lineNumber: number): void {
    const rawId = r.query_id;
    if (typeof rawId !== 'string' && typeof rawId !== 'number')
      throw new FieldError('query_id', `a result needs \`query_id\`, got ${describe(rawId)}`);
    const id = String(rawId);
    const error = r.error;
    if (error !== undefined && error !== null && typeof error !== 'string')
      throw new FieldError('error', `\`error\` must be text, got ${describe(error)}`);
    const rawHits = r.hits ?? [];
    if (!Array.isArray(rawHits)) throw new FieldError('hits', `\`hits\` must be a list, got ${describe(rawHits)}`);
    const hits = rawHits.map(hitOf);
    const i = this.index.get(id);
    if (i === undefined) {
      if (this.report.unknown.count++ < FIRST) this.report.unknown.first.push({ id, line: lineNumber });
      return;
    }
    if (this.kept[i] !== undefined && this.report.duplicates.count++ < FIRST)
      this.report.duplicates.first.push({ id, line: lineNumber });
    if (hits.length > this.k) this.report.hitsBeyondK += hits.length - this.k;
    const q = this.fixture.queries[i];
    // ckv folds a query's error into a miss with no hits.
    const failed = typeof error === 'string';
    this.kept[i] = {
      query_id: id,
      query: q.intent,
      mode: 'ckv',
      hits_top_k: failed ? [] : hits.slice(0, this.k),
      answer: null,
      elapsed_ms: null,
      error: failed ? error : null,
    };
  }

  /** The kept results in fixture order; the queries without one are counted. */
  finish(): Array<{ queryId: string; result: JsonObject }> {
    const results: Array<{ queryId: string; result: JsonObject }> = [];
    this.fixture.queries.forEach((q, i) => {
      const kept = this.kept[i];
      if (kept !== undefined) results.push({ queryId: q.id, result: kept });
      else if (this.report.missing.count++ < FIRST) this.report.missing.first.push(q.id);
    });
    return results;
  }
}

/** A ckv hit `{file, line_range, score?, snippet?, symbol?}` as a ranked hit with a line citation. */
function hitOf(h: unknown, i: number): JsonObject {
  const at = `hits[${i}]`;
  if (!isObject(h))
    throw new FieldError(at, `\`${at}\` must be an object with file and line_range, got ${describe(h)}`);
  if (typeof h.file !== 'string' || h.file === '')
    throw new FieldError(`${at}.file`, `\`${at}.file\` must be the cited file, got ${describe(h.file)}`);
  const range = h.line_range;
  if (
    !Array.isArray(range) ||
    range.length !== 2 ||
    !range.every((n) => Number.isInteger(n)) ||
    range[0] < 1 ||
    range[1] < range[0]
  )
    throw new FieldError(
      `${at}.line_range`,
      `\`${at}.line_range\` must be [start, end] with 1 <= start <= end, got ${JSON.stringify(range)}`,
    );
  const [start, end] = range as [number, number];
  const hit: JsonObject = {
    rank: i + 1,
    chunk_id: `${h.file}:${start}-${end}`,
    doc_id: h.file,
    doc_path: h.file,
    citation: { kind: 'line', path: h.file, start, end },
  };
  if (typeof h.score === 'number' && Number.isFinite(h.score)) hit.score = h.score;
  if (typeof h.snippet === 'string') hit.snippet = h.snippet;
  return hit;
}
