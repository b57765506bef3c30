/**
 * ckv's files -> a run and a golden set: its fixture (`testdata/queries.yaml`: `schema_version`, then `queries` of
 * `{id, intent, expected: {file, symbol, kind, line_range: [start, end]}, pending}`) and the hits of one eval pass,
 * one JSON object per line: `{"query_id", "hits": [{"file", "line_range": [start, end], "score", "snippet"}]}`.
 * A hit is correct when it cites the expected file and its line range overlaps the expected one (the golden
 * query's `expected_lines`); only the top K hits count, K = 5 unless told (ckv's DefaultK). docs/sources/ckv.md.
 */
import { isMap, isSeq } from 'yaml';
import type { YAMLMap } from 'yaml';
import { InputError } from '../../errors.js';
import { parseYamlWithLines } from '../../yamlLines.js';
import { describe, FieldError, isObject } from '../../load/json.js';
import { emptyTally, neitherHitsNorError, tallied, unknownKeys } from '../../load/lines.js';
import type { Tally } from '../../load/lines.js';
import type { JsonObject } from '../../load/json.js';

/** The fixture schema this EvalVerdict reads: ckv's FixtureSchemaVersion. */
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
      `${at}: fixture schema_version ${version} is a newer major than ${CKV_SCHEMA_MAJOR}, which this EvalVerdict reads (ckv refuses newer majors)`,
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
  duplicates: Tally<{ id: string; line: number }>;
  unknown: Tally<{ id: string; line: number }>;
  missing: Tally<string>;
  /** Hits past the top K, left out. */
  hitsBeyondK: number;
  /** Keys no ckv line or hit has that are not near one (a near one is refused), and on how many lines. */
  otherKeys: Map<string, number>;
}

/** The keys of a result line, and of a hit (strict: a near miss such as `hit` is refused). */
const LINE_KEYS = new Set(['query_id', 'hits', 'error']);
const HIT_KEYS = new Set(['file', 'line_range', 'score', 'snippet', 'symbol', 'kind']);

/** One query's result_json, ckv's way: mode `ckv`, no answer, a failed query as an error with no hits. */
function ckvResult(q: CkvQuery, hits: JsonObject[], error: string | null): JsonObject {
  return { query_id: q.id, query: q.intent, mode: 'ckv', hits_top_k: hits, answer: null, elapsed_ms: null, error };
}

/**
 * Reads result lines one at a time (`object`, from forEachJsonObjectOfFile), keeping each query's last line as its
 * result_json (a ckv pass runs each query once; a query given twice is counted and its last line kept).
 */
export class CkvResultsReader {
  private readonly index = new Map<string, number>();
  private readonly kept: Array<JsonObject | undefined>;
  readonly report: CkvResultsReport = {
    lines: 0,
    duplicates: emptyTally(),
    unknown: emptyTally(),
    missing: emptyTally(),
    hitsBeyondK: 0,
    otherKeys: new Map(),
  };

  constructor(
    private readonly fixture: CkvFixture,
    private readonly k: number,
  ) {
    fixture.queries.forEach((q, i) => {
      this.index.set(q.id, i);
    });
    this.kept = new Array(fixture.queries.length);
  }

  object(r: JsonObject, lineNumber: number): void {
    this.report.lines++;
    this.countOthers(unknownKeys(r, LINE_KEYS, ''));
    const rawId = r.query_id;
    if (typeof rawId !== 'string' && typeof rawId !== 'number')
      throw new FieldError('query_id', `a result needs \`query_id\`, got ${describe(rawId)}`);
    const id = String(rawId);
    const error = r.error ?? null;
    if (error !== null && typeof error !== 'string')
      throw new FieldError('error', `\`error\` must be text, got ${describe(error)}`);
    // A line with neither is a runner's mistake, not an empty result: refused rather than scored as 0.
    if (r.hits === undefined && error === null)
      throw neitherHitsNorError(`query ${JSON.stringify(id)}`, r, ['hits', 'error']);
    const rawHits = r.hits ?? [];
    if (!Array.isArray(rawHits)) throw new FieldError('hits', `\`hits\` must be a list, got ${describe(rawHits)}`);
    const hits = rawHits.map((h, i) => {
      if (isObject(h)) this.countOthers(unknownKeys(h, HIT_KEYS, `hits[${i}]`));
      return hitOf(h, i);
    });
    const i = this.index.get(id);
    if (i === undefined) {
      tallied(this.report.unknown, () => ({ id, line: lineNumber }));
      return;
    }
    if (this.kept[i] !== undefined) tallied(this.report.duplicates, () => ({ id, line: lineNumber }));
    if (hits.length > this.k) this.report.hitsBeyondK += hits.length - this.k;
    // ckv folds a query's error into a miss with no hits.
    this.kept[i] = ckvResult(this.fixture.queries[i], error === null ? hits.slice(0, this.k) : [], error);
  }

  private countOthers(keys: string[]): void {
    for (const key of keys) this.report.otherKeys.set(key, (this.report.otherKeys.get(key) ?? 0) + 1);
  }

  /** The kept results in fixture order; the queries without one are counted. */
  finish(): Array<{ queryId: string; result: JsonObject }> {
    const results: Array<{ queryId: string; result: JsonObject }> = [];
    this.fixture.queries.forEach((q, i) => {
      const kept = this.kept[i];
      if (kept !== undefined) results.push({ queryId: q.id, result: kept });
      else tallied(this.report.missing, () => q.id);
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

/** The keys of a PerQuery row of ckv's `Result` (`eval.Result.per_query[]`). */
const PER_QUERY_KEYS = new Set([
  'query_id',
  'intent',
  'found_rank',
  'hits_returned',
  'top_hit_file',
  'top_hit_score',
  'reciprocal_rank',
  'citation_correct',
  'hallucination_count',
  'hallucination_reason',
]);

/** ckv's `Result` (`{fixture, k, aggregate, per_query}`): the K of the pass and its per-query rows. */
export function ckvResultDocument(value: unknown, source: string): { k: number | null; perQuery: JsonObject[] } {
  if (!isObject(value) || !Array.isArray(value.per_query))
    throw new InputError(`${source}: ckv's Result is an object with \`per_query\` (a list), got ${describe(value)}`);
  const k = value.k;
  if (k !== undefined && !(typeof k === 'number' && Number.isInteger(k) && k >= 1))
    throw new InputError(`${source}: \`k\` must be a whole number >= 1, got ${describe(k)}`);
  return { k: k ?? null, perQuery: value.per_query as JsonObject[] };
}

/**
 * The results of ckv's Result rows, which hold scores, not hits: each row becomes the hits that give ckv's numbers
 * back: the expected location at `found_rank` (0: none); unreported hits in the other places up to
 * `hits_returned` (a file no query expects: never relevant); and, when `citation_correct` is false, one hit on the
 * expected file whose lines miss the range (what makes ckv's citation check fail). docs/sources/ckv.md.
 */
export function ckvResultsOfPerQuery(
  rows: JsonObject[],
  fixture: CkvFixture,
  source: string,
  reader: CkvResultsReader,
): void {
  const byId = new Map(fixture.queries.map((q) => [q.id, q]));
  rows.forEach((row, i) => {
    const at = `${source}: per_query[${i}]`;
    if (!isObject(row)) throw new InputError(`${at}: must be an object, got ${describe(row)}`);
    try {
      unknownKeys(row, PER_QUERY_KEYS, '');
      reader.object(perQueryAsLine(row, byId), i + 1);
    } catch (error) {
      if (error instanceof FieldError) throw new InputError(`${at}: ${error.message}`);
      throw error;
    }
  });
}

function count(row: JsonObject, key: string): number {
  const v = row[key] ?? 0;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  throw new FieldError(key, `\`${key}\` must be a whole number >= 0, got ${describe(v)}`);
}

/** One PerQuery row as a result line `{query_id, hits}` that CkvResultsReader reads. */
function perQueryAsLine(row: JsonObject, byId: Map<string, CkvQuery>): JsonObject {
  const id = row.query_id;
  if (typeof id !== 'string' && typeof id !== 'number')
    throw new FieldError('query_id', `a row needs \`query_id\`, got ${describe(id)}`);
  const found = count(row, 'found_rank');
  const returned = Math.max(count(row, 'hits_returned'), found);
  const q = byId.get(String(id));
  if (q === undefined) return { query_id: id, hits: [] }; // counted as unknown by the reader
  if (found > 0 && q.lineRange[0] === 0)
    throw new FieldError(
      'found_rank',
      `found_rank ${found} for a pending entry without a range (no hit overlaps [0, 0])`,
    );
  // Rank 1 keeps the top hit's file (ckv prints it) unless it is the expected one: its lines are unknown.
  const top = typeof row.top_hit_file === 'string' && row.top_hit_file !== q.file ? row.top_hit_file : '';
  const unreported = (rank: number): JsonObject => ({
    file: rank === 1 && top !== '' ? top : `(hit ${rank} of ${q.id}, not in ckv's Result)`,
    line_range: [1, 1],
  });
  const hits: JsonObject[] = [];
  for (let rank = 1; rank <= returned; rank++)
    hits.push(rank === found ? { file: q.file, line_range: q.lineRange } : unreported(rank));
  if (found > 0 && row.citation_correct === false) {
    // In an unreported place: after the found hit, else before it (it is no correct hit), else one more.
    const wrong = { file: q.file, line_range: [q.lineRange[1] + 1, q.lineRange[1] + 1] };
    if (returned > found) hits[found] = wrong;
    else if (found > 1) hits[found - 2] = wrong;
    else hits.push(wrong);
  }
  if (typeof row.top_hit_score === 'number' && hits.length > 0) hits[0].score = row.top_hit_score;
  return { query_id: id, hits };
}
