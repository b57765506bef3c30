/**
 * Golden sets: JSON Lines (one query object per line, read with JSON.parse) or YAML (kebab's format, read with the
 * `yaml` package). Both go through one set of rules (GoldenCollector); messages name file and line.
 */
import goldenQuerySchema from '../../schemas/golden-query.schema.json' with { type: 'json' };
import { createHash } from 'node:crypto';
import { isMap, isScalar, isSeq, stringify as stringifyYaml } from 'yaml';
import type { Node as YamlNode, YAMLMap } from 'yaml';
import { mapPacked } from '../arrays.js';
import { cannotRead, InputError } from '../errors.js';
import { oneLine, valueText } from '../inputText.js';
import { JSON_VALUE_BOUNDS, refuseJsonPastBounds } from './json.js';
import type { JsonTextBounds } from './json.js';
import { MAX_GOLDEN_BYTES, readRegularFile } from './regularFile.js';
import { suggest } from '../suggest.js';
import type { GoldenQuery, GoldenSet, GoldSupport, MetricProfile } from '../types.js';
import { note, notes } from '../warnings.js';
import type { UnknownKeyWarning, Warning } from '../warnings.js';
import { parseYamlWithLines } from '../yamlLines.js';

export type GoldenFormat = 'jsonl' | 'yaml';

/** JSON Lines by the file's name (`.jsonl`, `.ndjson`); anything else is read as YAML. */
export const goldenFormatOf = (file: string): GoldenFormat => (/\.(jsonl|ndjson)$/i.test(file) ? 'jsonl' : 'yaml');

/** A query's keys, a header's: the golden-query schema's, the one list (editors read the same file). */
const QUERY_KEYS = Object.keys(goldenQuerySchema.$defs.query.properties);
const KNOWN_KEYS = new Set(QUERY_KEYS);
/** The keys that state an expectation (hasExpectation); a golden set needs one in some query. */
const EXPECTATION_KEYS = [
  'expected_doc_ids',
  'expected_chunk_ids',
  'judgments',
  'gold_supports',
  'expected_lines',
  'must_contain',
  'forbidden',
  'gold_claim',
  'recency_conflict_rule',
  'answerable',
];

const HEADER_KEYS = new Set(Object.keys(goldenQuerySchema.$defs.header.properties));
/** The metric profiles a golden set's header may name (docs/golden-sets.md, "Metric profiles"). */
export const METRIC_PROFILES: readonly MetricProfile[] = ['evalverdict', 'wfgy', 'paperbot'];

/** Whether a value names one of METRIC_PROFILES. */
export function isMetricProfile(value: unknown): value is MetricProfile {
  return typeof value === 'string' && (METRIC_PROFILES as readonly string[]).includes(value);
}

/** A header's `profile`, checked; `at` is its `file:line` for the message. */
function profileOf(value: unknown, at: string): MetricProfile {
  if (isMetricProfile(value)) return value;
  throw new InputError(
    `${at}: header \`profile\` must be one of ${METRIC_PROFILES.map((p) => JSON.stringify(p)).join(', ')}, got ${JSON.stringify(value)}`,
  );
}
const SUPPORT_KEYS = new Set(['rel_path', 'heading_path', 'snippets', 'newer']);
const LINES_KEYS = new Set(['file', 'line_range']);
/** A JSON Lines line longer than this is refused: no golden query is near it, and it bounds one JSON.parse. */
const MAX_LINE_CHARS = 10 << 20;
/**
 * What one JSON Lines line may hold, checked on its text before JSON.parse builds it (lines of JSON_SCAN_FROM_CHARS or
 * more). A golden query holds a few lists and its ids; depth is not bounded (a deep value costs what its lists cost).
 */
const GOLDEN_LINE_BOUNDS: JsonTextBounds = { ...JSON_VALUE_BOUNDS, depth: Number.POSITIVE_INFINITY };
/** A YAML golden set this large would read at least a second faster as JSON Lines (docs/golden-sets.md). */
export const LARGE_YAML_BYTES = 2_500_000;

export function readGoldenFile(file: string): GoldenSet {
  const bytes = readGoldenBytes(file);
  return readGolden(bytes, file, goldenFormatOf(file)).toSet(goldenFingerprint(bytes));
}

function readGoldenBytes(file: string): Buffer {
  try {
    return readRegularFile(file, 'the golden set', MAX_GOLDEN_BYTES);
  } catch (error) {
    throw cannotRead(file, error, 'the golden set');
  }
}

/** A golden set from its text; the fingerprint hashes the text as UTF-8. */
export function parseGolden(text: string, source: string, format: GoldenFormat = goldenFormatOf(source)): GoldenSet {
  return readGolden(text, source, format).toSet(goldenFingerprint(text));
}

export const parseGoldenJsonl = (text: string, source: string): GoldenSet => parseGolden(text, source, 'jsonl');
export const parseGoldenYaml = (text: string, source: string): GoldenSet => parseGolden(text, source, 'yaml');

function readGolden(text: Text, source: string, format: GoldenFormat, document?: GoldenDocument): GoldenCollector {
  const collector = new GoldenCollector(source, format, document);
  if (format === 'jsonl') readJsonl(withoutBom(text), source, 1, collector);
  else readYaml(typeof text === 'string' ? text : text.toString('utf8'), source, collector);
  return collector;
}

/**
 * A file's text, or its bytes: JSON Lines is read from the bytes a line at a time, so a large file is never also one
 * string in the heap, whose garbage raised the peak memory (bench/README.md).
 */
type Text = string | Buffer;

function withoutBom<T extends Text>(text: T): T {
  if (typeof text === 'string') return (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as T;
  return (text[0] === 0xef && text[1] === 0xbb && text[2] === 0xbf ? text.subarray(3) : text) as T;
}

/** Where a query is in its file: its line, and the line of one of its keys. */
interface Place {
  line: number;
  keyLine(key: string): number;
}

// ---------------------------------------------------------------------------------------------------------
// JSON Lines

function readJsonl(text: Text, source: string, firstLine: number | (() => number), collector: GoldenCollector): void {
  let first = firstLine === 1;
  forEachJsonlValue(text, source, firstLine, (value, line) => {
    if (first && isHeader(value)) collector.header(value, line);
    else collector.add(value, { line, keyLine: () => line });
    first = false;
  });
}

/** A first line that is an object without `id` and `query` is the file's header (`schema_version`, `description`). */
const isHeader = (value: unknown): value is Record<string, unknown> =>
  isPlainObject(value) && !Object.hasOwn(value, 'id') && !Object.hasOwn(value, 'query');

/** Each non-blank line's JSON value and line number, until `each` returns false; CRLF line ends are read as LF. */
function forEachJsonlValue(
  text: Text,
  source: string,
  firstLine: number | (() => number),
  each: (value: unknown, line: number) => unknown,
): void {
  // A second half's first line is counted only when a message needs it.
  let base = typeof firstLine === 'number' ? firstLine : -1;
  const lineOf = (index: number) => (base === -1 ? (base = (firstLine as () => number)()) : base) + index;
  for (let start = 0, index = 0; start < text.length; index++) {
    let end = typeof text === 'string' ? text.indexOf('\n', start) : text.indexOf(10, start);
    if (end === -1) end = text.length;
    const next = end + 1;
    if ((typeof text === 'string' ? text.charCodeAt(end - 1) : text[end - 1]) === 13) end--;
    if (end - start > MAX_LINE_CHARS)
      throw new InputError(
        `${source}:${lineOf(index)}: the line is over 10 MB; a golden query is one JSON object per line`,
      );
    const line = typeof text === 'string' ? text.slice(start, end) : text.toString('utf8', start, end);
    start = next;
    if (line.length === 0 || (line.charCodeAt(0) <= 32 && line.trim() === '')) continue;
    refuseJsonPastBounds(line, GOLDEN_LINE_BOUNDS, `${source}:${lineOf(index)}`, 'in one line');
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new InputError(`${source}:${lineOf(index)}: not valid JSON (${(error as Error).message})`);
    }
    if (each(value, lineOf(index)) === false) return;
  }
}

/** A golden file as plain values, for `evalverdict golden convert`: its header (or the YAML map's other keys) and queries. */
export interface GoldenDocument {
  header: Record<string, unknown> | null;
  items: unknown[];
}

/** The file's values, checked as readGoldenFile checks them (an invalid file is not converted). */
export function readGoldenDocument(file: string): GoldenDocument {
  const document: GoldenDocument = { header: null, items: [] };
  readGolden(readGoldenBytes(file), file, goldenFormatOf(file), document);
  return document;
}

/** A golden document as file text: a JSON Lines header line, or a YAML map holding it beside `queries`. */
export function formatGolden(doc: GoldenDocument, format: GoldenFormat): string {
  if (format === 'jsonl')
    return [...(doc.header ? [doc.header] : []), ...doc.items].map((v) => `${JSON.stringify(v)}\n`).join('');
  return stringifyYaml(doc.header ? { ...doc.header, queries: doc.items } : doc.items, { lineWidth: 0 });
}

/** A golden set of plain query objects (an importer's), read by the same rules as a file's. */
export function goldenSetOfItems(items: readonly unknown[], source: string): GoldenSet {
  const collector = new GoldenCollector(source, 'jsonl');
  items.forEach((item, i) => {
    collector.add(item, { line: i + 1, keyLine: () => i + 1 });
  });
  return collector.toSet(goldenFingerprint(formatGolden({ header: null, items: [...items] }, 'jsonl')));
}

// ---------------------------------------------------------------------------------------------------------
// YAML

/** A YAML golden set: a list of queries, or a map whose `queries` key holds the list. */
function readYaml(text: string, source: string, collector: GoldenCollector): void {
  const { doc, lineOf, keyLine } = parseYamlWithLines(withoutBom(text), source);
  let root: unknown = doc.contents;
  if (isMap(root) && root.has('queries')) {
    if (collector.document) {
      const { queries: _queries, ...header } = root.toJSON() as Record<string, unknown>;
      if (Object.keys(header).length > 0) collector.document.header = header;
    }
    if (root.has('profile'))
      collector.profile = profileOf(root.get('profile'), `${source}:${keyLine(root, 'profile')}`);
    root = root.get('queries', true);
  }
  if (!isSeq(root))
    throw new InputError(
      `${source}:${lineOf(root)}: the golden set must be a list of queries (or a map with a \`queries\` list)`,
    );
  for (const item of root.items) {
    const place: Place = { line: lineOf(item), keyLine: (key) => (isMap(item) ? keyLine(item, key) : lineOf(item)) };
    collector.add(
      isMap(item) ? item.toJSON() : item === null ? null : (item as YamlNode).toJSON(),
      place,
      isMap(item) ? nonTextJudgmentKeys(item) : [],
    );
  }
  if (text.length >= LARGE_YAML_BYTES) {
    collector.warnings.push(
      note(
        `${source}: a YAML golden set of ${(text.length / 1e6).toFixed(1)} MB takes seconds to read; as JSON Lines it reads about 20 times faster (\`evalverdict golden convert ${source} golden.jsonl\`)`,
      ),
    );
  }
}

/** `judgments` keys YAML read as numbers or booleans (`{007: 2}` judges "7"): as written and as read. */
function nonTextJudgmentKeys(item: YAMLMap): NonTextKey[] {
  const judgments = item.get('judgments', true);
  if (!isMap(judgments)) return [];
  const keys: NonTextKey[] = [];
  for (const { key } of judgments.items) {
    if (isScalar(key) && (typeof key.value === 'number' || typeof key.value === 'boolean'))
      keys.push({ written: key.source ?? String(key.value), read: String(key.value) });
  }
  return keys;
}

interface NonTextKey {
  written: string;
  read: string;
}

// ---------------------------------------------------------------------------------------------------------
// The rules

/**
 * Values YAML read as numbers (or booleans) where EvalVerdict expects text: an unquoted `id: 001` is the number 1 and
 * becomes "1", and a run that spells it `001` never meets it. One warning per kind, at the first, with the count.
 * (A number in JSON is written as one: read as its text, without a warning.)
 */
interface NonTextTally {
  ids: NonTextOf;
  lists: NonTextOf;
  judgmentKeys: NonTextOf;
}

interface NonTextOf {
  count: number;
  first: { at: string; id: string; key: string; value: string } | null;
}

const noNonText = (): NonTextTally => ({
  ids: { count: 0, first: null },
  lists: { count: 0, first: null },
  judgmentKeys: { count: 0, first: null },
});

function nonTextWarnings(t: NonTextTally): string[] {
  const warnings: string[] = [];
  const more = (n: number, what: string) =>
    n > 1 ? ` (and ${n - 1} more ${n - 1 === 1 ? what : `${what}s`} in this file)` : '';
  if (t.ids.first !== null) {
    const { at, id } = t.ids.first;
    warnings.push(
      `${at}: \`id\` is a YAML number or boolean, read as the text "${oneLine(String(id))}"${more(t.ids.count, 'id')}; quote ids (\`id: "001"\`) so they match the run's query_id as written`,
    );
  }
  if (t.lists.first !== null) {
    const { at, id, key, value } = t.lists.first;
    warnings.push(
      `${at}: query \`${oneLine(String(id))}\`: \`${oneLine(key)}\` holds a YAML number, read as the text "${oneLine(String(value))}"${more(t.lists.count, 'list')}; quote such values (\`["007"]\`) so they are read as written`,
    );
  }
  if (t.judgmentKeys.first !== null) {
    const { at, id, key, value } = t.judgmentKeys.first;
    warnings.push(
      `${at}: query \`${oneLine(String(id))}\`: the \`judgments\` key \`${oneLine(key)}\` is a YAML number or boolean, read as the text "${oneLine(String(value))}"${more(t.judgmentKeys.count, 'key')}; quote such keys (\`{"007": 2}\`) so they match the run's ids as written`,
    );
  }
  return warnings;
}

/** The golden lists of ids and strings: a number in one becomes its text. */
const TEXT_LISTS = ['expected_doc_ids', 'expected_chunk_ids', 'must_contain', 'forbidden', 'tags'] as const;
const SUPPORT_TEXT_LISTS = ['heading_path', 'snippets'] as const;

type Fail = (key: string, message: string) => never;

/** The queries of one golden file (or half of one) as they are read, with their warnings. */
class GoldenCollector {
  readonly queries: GoldenQuery[] = [];
  readonly warnings: Warning[] = [];
  /** Only YAML's: JSON's numbers are written as numbers. */
  private readonly nonText: NonTextTally | null;
  private readonly lineOfId = new Map<string, number>();
  private readonly labels: Labels = new Map();
  /** Unknown keys by name (`map\0key` inside gold_supports or expected_lines), in the order first met. */
  private readonly unknownKeys = new Map<string, UnknownKey>();
  private expectation = false;
  /** The header's metric profile, when it names one. */
  profile: MetricProfile | undefined;

  /** `document`: where to keep the file's values as read (golden convert). */
  constructor(
    readonly source: string,
    format: GoldenFormat,
    readonly document?: GoldenDocument,
  ) {
    this.nonText = format === 'yaml' ? noNonText() : null;
  }

  header(item: Record<string, unknown>, line: number): void {
    if (this.document) this.document.header = item;
    if (item.profile !== undefined) this.profile = profileOf(item.profile, `${this.source}:${line}`);
    for (const key of Object.keys(item)) {
      if (!HEADER_KEYS.has(key))
        this.warnings.push(
          note(
            `${this.source}:${line}: unknown header key \`${oneLine(key)}\` (ignored; a query needs \`id\` and \`query\`)${suggest(key, HEADER_KEYS)}`,
          ),
        );
    }
  }

  add(item: unknown, place: Place, nonTextKeys: readonly NonTextKey[] = []): void {
    if (!isPlainObject(item))
      throw new InputError(`${this.source}:${place.line}: each golden query must be a map with \`id\` and \`query\``);
    const fail: Fail = (key, message) => {
      const who =
        item.id !== undefined && item.id !== null ? `\`${oneLine(String(item.id))}\`` : `at line ${place.line}`;
      throw new InputError(`${this.source}:${place.keyLine(key)}: query ${who}: ${message}`);
    };
    const q = toGoldenQuery(item, fail, this.labels);
    const earlier = this.lineOfId.get(q.id);
    if (earlier !== undefined) fail('id', `duplicate id (first defined at line ${earlier})`);
    this.lineOfId.set(q.id, place.line);
    this.tallyUnknownKeys(item, place);
    if (!this.expectation && hasExpectation(item, q)) this.expectation = true;
    if (this.nonText) this.tallyNonText(this.nonText, item, q, place, nonTextKeys);
    this.queries.push(q);
    this.document?.items.push(item);
  }

  /** Counts each unknown key once per query; the first query's line is the one the warning names. */
  private tallyUnknownKeys(item: Record<string, unknown>, place: Place): void {
    const note = (inMap: UnknownKey['inMap'], key: string, lineKey: string) => {
      const name = inMap === null ? key : `${inMap}\0${key}`;
      const known = this.unknownKeys.get(name);
      if (known === undefined)
        this.unknownKeys.set(name, {
          inMap,
          key,
          line: place.keyLine(lineKey),
          queries: 1,
          lastQuery: this.queries.length,
        });
      else if (known.lastQuery !== this.queries.length) {
        known.queries++;
        known.lastQuery = this.queries.length;
      }
    };
    for (const key of Object.keys(item)) if (!KNOWN_KEYS.has(key)) note(null, key, key);
    // Misspelled keys inside the maps with fixed keys: a `snippet:` for `snippets:` would drop the snippet check.
    if (Array.isArray(item.gold_supports)) {
      for (const support of item.gold_supports)
        for (const key of Object.keys(support as object))
          if (!SUPPORT_KEYS.has(key)) note('gold_supports', key, 'gold_supports');
    }
    if (isPlainObject(item.expected_lines)) {
      for (const key of Object.keys(item.expected_lines))
        if (!LINES_KEYS.has(key)) note('expected_lines', key, 'expected_lines');
    }
  }

  /** Whether some query states an expectation (hasExpectation). */
  get anyExpectation(): boolean {
    return this.expectation;
  }

  /** Every warning: the header's and the file's, one per unknown key, then YAML's non-text values. */
  allWarnings(): Warning[] {
    const unknown = [...this.unknownKeys.values()].map((u) => unknownKeyWarning(this.source, u));
    return [...this.warnings, ...unknown, ...(this.nonText ? notes(nonTextWarnings(this.nonText)) : [])];
  }

  private tallyNonText(
    tally: NonTextTally,
    item: Record<string, unknown>,
    q: GoldenQuery,
    place: Place,
    nonTextKeys: readonly NonTextKey[],
  ): void {
    const note = (of: NonTextOf, key: string, value: string) => {
      if (of.count++ === 0) of.first = { at: `${this.source}:${place.line}`, id: q.id, key, value };
    };
    if (typeof item.id !== 'string') note(tally.ids, 'id', q.id);
    for (const key of TEXT_LISTS) {
      const found = numberIn(item[key]);
      if (found !== undefined) note(tally.lists, key, String(found));
    }
    q.goldSupports.forEach((_, s) => {
      const support = (item.gold_supports as Array<Record<string, unknown>>)[s];
      for (const field of SUPPORT_TEXT_LISTS) {
        const found = numberIn(support[field]);
        if (found !== undefined) note(tally.lists, `gold_supports[${s}].${field}`, String(found));
      }
    });
    for (const key of nonTextKeys) if (q.judgments.has(key.read)) note(tally.judgmentKeys, key.written, key.read);
  }

  /**
   * The set, refused when it has no queries. One in which no query states an expectation is read (an ops-only suite
   * gates latency, cost and error rates, which need none) and says so in `noExpectation`: the gates that compare
   * with the golden set refuse it then (requireExpectations, src/gate/expectations.ts).
   */
  toSet(fingerprint: string): GoldenSet {
    if (this.queries.length === 0) {
      throw new InputError(`${this.source}: the golden set has no queries; ${expectationKeysText()}`);
    }
    return {
      source: this.source,
      queries: this.queries,
      warnings: this.allWarnings(),
      fingerprint,
      ...(this.profile !== undefined ? { profile: this.profile } : {}),
      ...(this.anyExpectation ? {} : { noExpectation: this.noExpectationText() }),
    };
  }

  private noExpectationText(): string {
    const n = this.queries.length;
    const what =
      n === 1
        ? 'its one query states no expectation'
        : `none of its ${n.toLocaleString('en-US')} queries states an expectation`;
    // Most often the expectation is there under a misspelt key (`judgements:`), whose warning would not be seen.
    const unknown = [...this.unknownKeys.values()].filter((u) => u.inMap === null);
    const named = unknown
      .slice(0, 3)
      .map((u) => `\`${u.key}\` at line ${u.line}${suggest(u.key, QUERY_KEYS).replace(/^; /, ', ')}`);
    if (unknown.length > 3) named.push(`and ${unknown.length - 3} more`);
    return `${what}${named.length > 0 ? ` (unknown keys, ignored: ${named.join('; ')})` : ''}`;
  }
}

/** The keys that state an expectation, for messages. */
export function expectationKeysText(): string {
  const keys = `${EXPECTATION_KEYS.slice(0, -1).join(', ')} or ${EXPECTATION_KEYS.at(-1)}`;
  return `a query needs one of ${keys} (docs/golden-sets.md, "Expectations")`;
}

/** An unknown key of the queries (or of their gold_supports or expected_lines maps), counted per query. */
interface UnknownKey {
  inMap: 'gold_supports' | 'expected_lines' | null;
  key: string;
  /** The line of the first query that has it. */
  line: number;
  queries: number;
  /** The index of the last query counted, so a key in two gold_supports of one query counts once. */
  lastQuery: number;
}

function unknownKeyWarning(source: string, u: UnknownKey): UnknownKeyWarning {
  const known = u.inMap === null ? QUERY_KEYS : [...(u.inMap === 'gold_supports' ? SUPPORT_KEYS : LINES_KEYS)];
  return { kind: 'unknown_key', source, line: u.line, map: u.inMap, key: u.key, count: u.queries, known };
}

/**
 * Whether a query states something a metric can score it against: relevant chunks or documents (a non-empty list,
 * judgments, supports, lines), what the answer must or must not say, a claim or recency rule, or whether it is
 * answerable (`answerable` written, or an empty `expected_doc_ids`: refuse). Empty lists and maps state nothing; the
 * default `answerable: true` is not stated. docs/golden-sets.md, "Expectations", says the same.
 */
function hasExpectation(item: Record<string, unknown>, q: GoldenQuery): boolean {
  return (
    q.expectedDocIds !== null ||
    (q.expectedChunkIds?.length ?? 0) > 0 ||
    q.judgments.size > 0 ||
    q.goldSupports.length > 0 ||
    q.expectedLines !== null ||
    q.mustContain.length > 0 ||
    q.forbidden.length > 0 ||
    q.goldClaim !== null ||
    q.recencyConflictRule !== null ||
    typeof item.answerable === 'boolean'
  );
}

function numberIn(value: unknown): number | undefined {
  if (!Array.isArray(value)) return undefined;
  for (const x of value) if (typeof x === 'number') return x;
  return undefined;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

// ---------------------------------------------------------------------------------------------------------
// The fingerprint

/**
 * sha256 of the golden file's bytes, as `sha256:` and hex: any edit to the file changes it, reformatting and
 * converting included (docs/golden-sets.md). A set built in memory hashes as the JSON Lines of its queries.
 */
export function goldenFingerprint(...parts: Array<Uint8Array | string>): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return `sha256:${hash.digest('hex')}`;
}

// ---------------------------------------------------------------------------------------------------------
// Halves, for two threads (src/pipeline/twoThreads.ts)

/** One half of a JSON Lines golden file, and what the first half's thread needs of the whole file. */
export interface GoldenHalf {
  queries: GoldenQuery[];
  warnings: Warning[];
  /** The whole file's fingerprint. */
  fingerprint: string;
  /** Lines after the cut: at least the queries of the second half (room to keep for its table's rows). */
  linesAfter: number;
  /** The id of the first query after the cut (null: none to be read), where the second half's range starts. */
  nextId: string | null;
  /** The file header's metric profile (read by both halves: only the first holds the header). */
  profile?: MetricProfile;
}

/** Golden files smaller than this are read whole: two threads reading half each save little on them. */
export const SPLIT_MIN_BYTES = 1 << 20;

/**
 * Half `part` of a JSON Lines golden file, cut at the first line break past the middle byte; null when the file
 * is too small to cut or the half does not read cleanly (the whole file's reading then reports its error).
 */
export function readGoldenHalf(file: string, part: 0 | 1, minBytes = SPLIT_MIN_BYTES): GoldenHalf | null {
  let bytes: Buffer;
  try {
    bytes = readRegularFile(file, 'the golden set', MAX_GOLDEN_BYTES);
  } catch {
    return null;
  }
  const split = bytes.indexOf(10, bytes.length >> 1) + 1;
  if (bytes.length < minBytes || split === 0 || split === bytes.length) return null;
  const linesIn = (from: number, to: number) => {
    let lines = 1;
    for (let at = bytes.indexOf(10, from); at !== -1 && at < to; at = bytes.indexOf(10, at + 1)) lines++;
    return lines;
  };
  const read = new GoldenCollector(file, 'jsonl');
  try {
    if (part === 0) readJsonl(withoutBom(bytes.subarray(0, split)), file, 1, read);
    else readJsonl(bytes.subarray(split), file, () => linesIn(0, split), read);
  } catch (error) {
    if (error instanceof InputError) return null;
    throw error;
  }
  if (part === 1) {
    const profile = headerProfileOf(withoutBom(bytes.subarray(0, split)), file);
    return {
      queries: read.queries,
      warnings: read.allWarnings(),
      fingerprint: '',
      linesAfter: 0,
      nextId: null,
      ...(profile !== undefined ? { profile } : {}),
    };
  }
  // A first half with no expectation: the whole file is read in one thread, which refuses it if the rest has none.
  if (!read.anyExpectation) return null;
  return {
    queries: read.queries,
    warnings: read.allWarnings(),
    fingerprint: goldenFingerprint(bytes),
    linesAfter: linesIn(split, bytes.length),
    nextId: firstIdAfter(bytes, split),
    ...(read.profile !== undefined ? { profile: read.profile } : {}),
  };
}

/** The id of the first query on the lines from `from` on, as the reader takes it; null when it cannot say. */
function firstIdAfter(bytes: Buffer, from: number): string | null {
  let id: unknown = null;
  try {
    forEachJsonlValue(bytes.subarray(from), '', 1, (value) => {
      id = isPlainObject(value) ? value.id : null;
      return false;
    });
  } catch {
    return null; // not JSON: the second half's reading reports it
  }
  return typeof id === 'string' || typeof id === 'number' || typeof id === 'boolean' ? String(id) : null;
}

/**
 * The metric profile of a JSON Lines file's header line (the first value), if it names a valid one (the first
 * half's reading reports a bad one).
 */
function headerProfileOf(bytes: Buffer, file: string): MetricProfile | undefined {
  let profile: MetricProfile | undefined;
  try {
    forEachJsonlValue(bytes, file, 1, (value, line) => {
      if (isHeader(value) && value.profile !== undefined) profile = profileOf(value.profile, `${file}:${line}`);
      return false;
    });
  } catch {
    return undefined;
  }
  return profile;
}

/** One half as a set of its own, for the thread that scores only its queries. */
export const goldenSetOfHalf = (source: string, half: GoldenHalf): GoldenSet => ({
  source,
  queries: half.queries,
  warnings: half.warnings,
  fingerprint: '',
  ...(half.profile !== undefined ? { profile: half.profile } : {}),
});

// ---------------------------------------------------------------------------------------------------------
// One query's fields

/**
 * Labels many queries share (category, difficulty, tags, lang, group) as one string each: a parsed value is a new
 * string per query (at 100,000 queries, ~2 MB per field).
 */
type Labels = Map<string, string>;

function label(labels: Labels, value: string | null): string | null {
  if (value === null || value.length > 64) return value;
  const known = labels.get(value);
  if (known !== undefined) return known;
  if (labels.size < 4096) labels.set(value, value);
  return value;
}

function labelList(labels: Labels, values: string[] | null): string[] {
  if (values === null || values.length === 0) return EMPTY;
  for (let i = 0; i < values.length; i++) values[i] = label(labels, values[i])!;
  return values;
}

/** The empty list of every query without the field: one frozen array (GoldenQuery is read-only data). */
const EMPTY: never[] = Object.freeze([]) as unknown as never[];

function str(obj: Record<string, unknown>, key: string, fail: Fail): string | null {
  const v = obj[key];
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return fail(key, `\`${key}\` must be a string`);
}

function strList(obj: Record<string, unknown>, key: string, fail: Fail): string[] | null {
  const v = obj[key];
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return [v];
  if (!Array.isArray(v)) return fail(key, `\`${key}\` must be a list of strings`);
  if (v.length === 0) return EMPTY;
  return mapPacked(v, (x) =>
    typeof x === 'string' || typeof x === 'number' ? String(x) : fail(key, `\`${key}\` must hold only strings`),
  );
}

function toGoldenQuery(obj: Record<string, unknown>, fail: Fail, labels: Labels): GoldenQuery {
  const id = str(obj, 'id', fail);
  if (id === null || id === '') fail('id', 'missing `id`');
  const query = str(obj, 'query', fail);
  if (query === null) fail('query', 'missing `query`');
  const expectedDocIds = strList(obj, 'expected_doc_ids', fail);
  const answerableRaw = obj.answerable;
  if (answerableRaw !== undefined && answerableRaw !== null && typeof answerableRaw !== 'boolean')
    fail('answerable', '`answerable` must be true or false');
  // kebab's convention: an explicitly empty expected_doc_ids list means "should refuse".
  const answerable =
    typeof answerableRaw === 'boolean' ? answerableRaw : !(expectedDocIds !== null && expectedDocIds.length === 0);
  const goldSupports = goldSupportsOf(obj.gold_supports, fail);
  const rule = str(obj, 'recency_conflict_rule', fail);
  if (rule !== null && rule !== 'cite_newer' && rule !== 'cite_both' && rule !== 'acknowledge_both') {
    fail('recency_conflict_rule', '`recency_conflict_rule` must be cite_newer, cite_both or acknowledge_both');
  }
  const pending = obj.pending;
  if (pending !== undefined && pending !== null && typeof pending !== 'boolean')
    fail('pending', '`pending` must be true or false');
  const topK = obj.top_k ?? null;
  if (topK !== null && (typeof topK !== 'number' || !Number.isInteger(topK) || topK < 1))
    fail('top_k', `\`top_k\` must be a whole number >= 1, got ${valueText(topK)}`);
  return {
    id: id!,
    query: query!,
    lang: label(labels, str(obj, 'lang', fail)),
    expectedDocIds,
    expectedChunkIds: strList(obj, 'expected_chunk_ids', fail),
    mustContain: strList(obj, 'must_contain', fail) ?? EMPTY,
    forbidden: strList(obj, 'forbidden', fail) ?? EMPTY,
    difficulty: label(labels, str(obj, 'difficulty', fail)),
    group: label(labels, str(obj, 'group', fail)),
    category: label(labels, str(obj, 'category', fail)),
    tags: labelList(labels, strList(obj, 'tags', fail)),
    vault: label(labels, str(obj, 'vault', fail)),
    answerable,
    goldSupports,
    requiredSupportGroups: supportGroupsOf(obj.required_support_groups, goldSupports.length, fail),
    judgments: judgmentsOf(obj.judgments, fail),
    expectedLines: expectedLinesOf(obj.expected_lines, fail),
    goldClaim: str(obj, 'gold_claim', fail),
    recencyConflictRule: rule as GoldenQuery['recencyConflictRule'],
    pending: pending === true,
    topK: topK as number | null,
  };
}

function goldSupportsOf(raw: unknown, fail: Fail): GoldSupport[] {
  if (raw === undefined || raw === null) return EMPTY;
  if (!Array.isArray(raw)) return fail('gold_supports', '`gold_supports` must be a list');
  return mapPacked(raw, (s: unknown, i) => {
    if (!isPlainObject(s)) return fail('gold_supports', `\`gold_supports[${i}]\` must be a map`);
    if (typeof s.rel_path !== 'string' || s.rel_path === '')
      return fail('gold_supports', `\`gold_supports[${i}].rel_path\` is required`);
    const heading = s.heading_path;
    const snippets = s.snippets;
    return {
      relPath: s.rel_path,
      headingPath:
        heading === undefined || heading === null
          ? []
          : Array.isArray(heading)
            ? mapPacked(heading, String)
            : String(heading).split('>'),
      snippets:
        snippets === undefined || snippets === null
          ? []
          : Array.isArray(snippets)
            ? mapPacked(snippets, String)
            : [String(snippets)],
      newer: s.newer === true,
    };
  });
}

function supportGroupsOf(raw: unknown, supports: number, fail: Fail): number[][] {
  if (raw === undefined || raw === null) return EMPTY;
  if (!Array.isArray(raw))
    return fail('required_support_groups', '`required_support_groups` must be a list of lists of support indexes');
  return mapPacked(raw, (g: unknown) =>
    mapPacked(Array.isArray(g) ? g : [g], (x: unknown) => {
      if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x >= supports) {
        return fail(
          'required_support_groups',
          `support index ${String(x)} does not name one of the ${supports} gold_supports (0-based)`,
        );
      }
      return x;
    }),
  );
}

function judgmentsOf(raw: unknown, fail: Fail): Map<string, number> {
  const judgments = new Map<string, number>();
  if (raw === undefined || raw === null) return judgments;
  if (!isPlainObject(raw)) return fail('judgments', '`judgments` must be a map of chunk_id or doc_id to grade');
  for (const [key, grade] of Object.entries(raw)) {
    if (typeof grade !== 'number' || !Number.isInteger(grade))
      fail('judgments', `grade of \`${oneLine(key)}\` must be an integer, got ${valueText(grade)}`);
    judgments.set(key, grade as number);
  }
  return judgments;
}

function expectedLinesOf(raw: unknown, fail: Fail): GoldenQuery['expectedLines'] {
  if (raw === undefined || raw === null) return null;
  const file = isPlainObject(raw) ? raw.file : undefined;
  const range = isPlainObject(raw) ? raw.line_range : undefined;
  if (
    typeof file !== 'string' ||
    !Array.isArray(range) ||
    range.length !== 2 ||
    !range.every((n) => typeof n === 'number')
  ) {
    return fail('expected_lines', '`expected_lines` must be `{file, line_range: [start, end]}`');
  }
  return { file, start: range[0], end: range[1] };
}
