import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { isMap, isScalar, isSeq } from 'yaml';
import type { YAMLMap } from 'yaml';
import { mapPacked } from '../arrays.js';
import { InputError } from '../errors.js';
import type { GoldenQuery, GoldenSet, GoldSupport } from '../types.js';
import { FingerprintRecorder, goldenFingerprint } from './goldenFingerprint.js';
import type { FingerprintPart, FingerprintSink } from './goldenFingerprint.js';
import { readFully } from './readFully.js';
import { loadYamlFast, nonTextKeysOf, UseYamlPackage } from './yamlFast.js';
import type { NonTextKey } from './yamlFast.js';
import { parseYamlWithLines } from './yamlLines.js';

const KNOWN_KEYS = new Set([
  'id', 'query', 'lang', 'expected_doc_ids', 'expected_chunk_ids', 'must_contain', 'forbidden', 'difficulty', 'group',
  'category', 'tags', 'answerable', 'gold_supports', 'required_support_groups', 'judgments', 'expected_lines',
  'gold_claim', 'recency_conflict_rule', 'pending', 'notes', 'note',
]);

export function readGoldenFile(file: string): GoldenSet {
  return parseGoldenYaml(readGoldenText(file), file);
}

/** The golden file's text, or an InputError naming it. */
export function readGoldenText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw unreadable(file, error);
  }
}

function unreadable(file: string, error: unknown): InputError {
  const code = (error as NodeJS.ErrnoException).code;
  return new InputError(`${file}: cannot read the golden set (${code === 'ENOENT' ? 'no such file' : code ?? String(error)})`);
}

/**
 * Parses kebab's golden format (a top-level list; `{queries: [...]}` is accepted too). Errors name file and line.
 *
 * Two readers, one set of rules (`goldenSetFrom`): js-yaml (src/load/yamlFast.ts), ~10x faster and smaller on big
 * files but without positions, and the `yaml` package's Document with a LineCounter, used when the fast reader
 * declines the text or a message needs a line (an error, or an unknown key's warning). The fast reader declines
 * whatever the two could read differently, so the result and every message are the `yaml` path's.
 */
export function parseGoldenYaml(text: string, source: string): GoldenSet {
  const body = withoutBom(text);
  return parseGoldenFast(body, source) ?? parseGoldenWithLines(body, source);
}

/**
 * The text without a leading byte order mark, which YAML allows at the start of a stream (editors on Windows write
 * one) but the `yaml` package refuses before a top-level list. It is on line 1 and has no width: lines stay.
 */
function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Where things are in the file, for messages: lines of the top-level node, of query `i`, of a key of query `i`. */
interface Where {
  root(): number;
  item(i: number): number;
  field(i: number, key: string): number;
}

const needsLines = (): never => {
  throw new UseYamlPackage();
};
/** The fast path's `Where`: a message with a line means the `yaml` path must read the file. */
const NO_LINES: Where = { root: needsLines, item: needsLines, field: needsLines };

/** The line of a top-level key of item `i`, for an unknown-key warning. */
type WarnLine = (i: number, key: string) => number;

/** The line of item `i` itself (its `- `), for warnings about a query as a whole. */
type ItemLine = (i: number) => number;

/**
 * Unknown-key warnings on the fast path: the key's line found in the item's text, so one unknown key does not send
 * a whole file to the `yaml` path (25 s and 2.7 GB at 100,000 queries). The `yaml` path names the line of the
 * key's value, so only a plain key at the item's key column with its value on the same line counts, exactly once;
 * anything else (a quoted key, a value on the next lines, a block scalar) still defers to the `yaml` path.
 * Warnings come in item order, so lines are counted forward from the last one asked.
 */
function keyLineFinder(text: string, starts: readonly number[], firstLineOf: number | (() => number) = 1): { keyLine: WarnLine; itemLine: ItemLine } {
  let countedTo = 0;
  let firstLine = -1; // asked for when a warning first needs it (a half of a file counts the lines before it then)
  let line = 0;
  const lineAt = (pos: number): number => {
    if (firstLine === -1) line = firstLine = typeof firstLineOf === 'number' ? firstLineOf : firstLineOf();
    if (pos < countedTo) {
      countedTo = 0;
      line = firstLine;
    }
    for (let at = text.indexOf('\n', countedTo); at !== -1 && at < pos; at = text.indexOf('\n', at + 1)) line++;
    countedTo = pos;
    return line;
  };
  const keyLine: WarnLine = (i, key) => {
    const start = starts[i];
    const end = i + 1 < starts.length ? starts[i + 1] : text.length;
    // The first key follows `- ` and any spaces: its column is the key column of the whole item.
    let column = 2;
    while (text.charCodeAt(start + column) === 32) column++;
    const pattern = new RegExp(`^(?:- +| {${column}})${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} *: +[^#\s|>]`, 'gm');
    const item = text.slice(start, end);
    const found = [...item.matchAll(pattern)].filter((m) => m.index === 0 || m[0][0] === ' ');
    if (found.length !== 1) return needsLines();
    return lineAt(start + found[0].index!);
  };
  // Where the item's map starts, as the yaml package places it: after its `-`, blank space and comments.
  const itemLine: ItemLine = (i) => {
    let at = starts[i] + 1;
    for (;;) {
      const c = text.charCodeAt(at);
      if (c === 32 || c === 9 || c === 10 || c === 13) at++;
      else if (c === 35) {
        const eol = text.indexOf('\n', at);
        if (eol === -1) break;
        at = eol + 1;
      } else break;
    }
    return lineAt(at);
  };
  return { keyLine, itemLine };
}

const isPlainMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The js-yaml path: the GoldenSet, or undefined when the file needs the `yaml` path (exported for tests). For a part
 * of a file (see parseGoldenPart): `firstLine` is the line the text starts on, and only a list of items will do.
 */
export function parseGoldenFast(text: string, source: string, part?: HalfStart): GoldenSet | undefined {
  const read = readGoldenFast(text, source, part, { hash: null });
  return read && goldenSetOfRead(source, read);
}

/** Where a half of a golden file starts: its first line's number, or how to count it (only a warning needs it). */
interface HalfStart {
  firstLine: number | (() => number);
}

/** parseGoldenFast's reading, the fingerprint's bytes going to `sink` (see FingerprintSink). */
function readGoldenFast(text: string, source: string, part: HalfStart | undefined, sink: FingerprintSink): GoldenRead | undefined {
  const loaded = loadYamlFast(text);
  if (loaded === undefined) return undefined;
  let items: Iterable<unknown> | undefined;
  let warnLine: WarnLine = NO_LINES.field;
  let itemLine: ItemLine = NO_LINES.item;
  if ('items' in loaded) {
    items = loaded.items;
    ({ keyLine: warnLine, itemLine } = keyLineFinder(text, loaded.starts, part?.firstLine));
  } else if (part) {
    return undefined;
  } else {
    let root = loaded.value;
    if (isPlainMap(root) && Object.hasOwn(root, 'queries')) root = root.queries;
    items = Array.isArray(root) ? root : undefined;
  }
  try {
    return readGoldenItems(source, items, (item) => (isPlainMap(item) ? item : undefined), NO_LINES, warnLine, itemLine, sink);
  } catch (error) {
    if (error instanceof UseYamlPackage) return undefined;
    throw error;
  }
}

/** Golden texts shorter than this are read whole: two threads reading half each saves little on them. */
const SPLIT_MIN_CHARS = 1 << 20;

/**
 * Where two threads cut a golden text to read half each: the start of the first line at or after the middle that
 * opens a top-level item (`- ` at column 0); -1 when the text is small or has no such line. A cut that lands
 * inside something spanning lines (a quoted scalar, a flow collection) makes a half decline, and the whole file
 * is read as before.
 */
export function goldenSplitPoint(text: string, minChars = SPLIT_MIN_CHARS): number {
  if (text.length < minChars) return -1;
  const at = text.indexOf('\n- ', text.length >> 1);
  return at === -1 ? -1 : at + 1;
}

/** The queries and warnings of one half of a golden file. */
export interface GoldenPart {
  queries: GoldenQuery[];
  /** Its warnings but the tally's, which a whole set's come after (see nonTextWarnings). */
  warnings: string[];
  /** Its values read as numbers where text is expected, added up with the other half's (see NonTextTally). */
  nonText: NonTextTally;
  /**
   * What the fingerprint hashes for these queries (fingerprintBytes), written as they were read: the bytes, or a
   * hash that has taken them (a first half's); null: not (yet).
   */
  fingerprint: FingerprintPart | null;
}

/**
 * Half `part` (0: before `split`, 1: from it) of a golden text, read on the fast path with lines counted as in the
 * whole file; undefined when that half needs the whole-file path (anything the fast path declines, or a message
 * that needs a line).
 */
export function parseGoldenPart(text: string, source: string, split: number, part: 0 | 1): GoldenPart | undefined {
  let firstLine = 1;
  if (part === 1) for (let at = text.indexOf('\n'); at !== -1 && at < split; at = text.indexOf('\n', at + 1)) firstLine++;
  return parseGoldenHalfText(part === 0 ? text.slice(0, split) : text.slice(split), source, firstLine, { keep: true });
}

/**
 * One half's text as a GoldenPart (see parseGoldenPart); `firstLine`: the line it starts on in the file; `sink`: where
 * its fingerprint's bytes go.
 */
function parseGoldenHalfText(text: string, source: string, firstLine: HalfStart['firstLine'], sink: FingerprintSink): GoldenPart | undefined {
  const read = readGoldenFast(text, source, { firstLine }, sink);
  return read && { queries: read.queries, warnings: read.warnings, nonText: read.nonText, fingerprint: read.fingerprint.part() };
}

/**
 * What a half's reader does with its fingerprint (GoldenPart.fingerprint): `keep` its bytes (for a second half,
 * hashed by the thread holding the first), `hash` them into a hash to continue (a first half), or `none` (a caller
 * that computes the whole set's fingerprint from the queries).
 */
export type HalfFingerprint = 'keep' | 'hash' | 'none';

/**
 * A thread's half of a golden file, read from the file itself: only that half's bytes are read and decoded (the
 * whole text cost each of two threads ~0.1-0.2 s at 34 MB). The file is cut as goldenSplitPoint cuts a text, at
 * the first line opening a top-level item at or after the middle, counted in bytes (the same place for ASCII;
 * both threads count alike, and `length` and `split` let them check they read the same file). `split` is -1 when
 * the file is smaller than `minBytes` or has no such line; `mine` is undefined then, or when the half needs the
 * whole-file path. The lines before the second half are counted only if a warning needs a line.
 */
export function readGoldenFileHalf(file: string, part: 0 | 1, minBytes = SPLIT_MIN_CHARS, fingerprint: HalfFingerprint = 'keep'): { length: number; split: number; mine: GoldenPart | undefined } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw unreadable(file, error);
  }
  // Reading errors are the user's (exit 2, naming the file); an error while parsing is not one of them.
  const io = <T>(read: () => T): T => {
    try {
      return read();
    } catch (error) {
      throw unreadable(file, error);
    }
  };
  try {
    const length = io(() => fstatSync(fd).size);
    const split = length < minBytes ? -1 : io(() => byteSplitPoint(fd, length));
    if (split === -1) return { length, split, mine: undefined };
    const [from, to] = part === 0 ? [0, split] : [split, length];
    const bytes = io(() => readBytes(fd, from, to, file));
    const text = withoutBom(bytes.toString('utf8'));
    const firstLine = part === 0 ? 1 : () => {
      const before = io(() => readBytes(fd, 0, split, file));
      let line = 1;
      for (let at = before.indexOf(10); at !== -1; at = before.indexOf(10, at + 1)) line++;
      return line;
    };
    // Kept fingerprint bytes go where the file's were: those pages are in memory already (see FingerprintSink).
    const sink: FingerprintSink = fingerprint === 'keep' ? { keep: true, into: bytes } : fingerprint === 'hash' ? { hash: null, continued: true } : null;
    return { length, split, mine: parseGoldenHalfText(text, file, firstLine, sink) };
  } finally {
    closeSync(fd);
  }
}

function readBytes(fd: number, from: number, to: number, file: string): Buffer {
  // An ArrayBuffer of its own (never a slice of Buffer's pool): a half's fingerprint bytes may be written into it
  // and moved to the other thread.
  const bytes = Buffer.allocUnsafeSlow(to - from);
  readFully(fd, bytes, bytes.length, from, file);
  return bytes;
}

/** The byte offset goldenSplitPoint gives for the file's text (for ASCII): after the first `\n- ` at or after the middle. */
function byteSplitPoint(fd: number, length: number): number {
  const window = Buffer.allocUnsafe(1 << 16);
  // Windows overlap by two bytes, so a `\n- ` across two of them is found in the second.
  for (let at = length >> 1; at < length; at += window.length - 2) {
    const n = readSync(fd, window, 0, Math.min(window.length, length - at), at);
    const found = window.subarray(0, n).indexOf('\n- ');
    if (found !== -1) return at + found + 1;
    if (n < window.length) break;
  }
  return -1;
}

/**
 * A half as JSON for the other thread, each query a tuple (faster to write and read than keyed objects); null when
 * a value would not survive JSON (a non-finite line number).
 */
export function encodeGoldenPart(part: GoldenPart): string | null {
  const tuples: unknown[] = new Array(part.queries.length);
  for (let i = 0; i < part.queries.length; i++) {
    const q = part.queries[i];
    const e = q.expectedLines;
    if (e && !(Number.isFinite(e.start) && Number.isFinite(e.end))) return null;
    const judgments: Array<string | number> = [];
    for (const [key, grade] of q.judgments) judgments.push(key, grade);
    tuples[i] = [
      q.id, q.query, q.lang, q.expectedDocIds, q.expectedChunkIds, q.mustContain, q.forbidden, q.difficulty, q.group,
      q.category, q.tags, q.answerable, q.goldSupports.map((g) => [g.relPath, g.headingPath, g.snippets, g.newer]),
      q.requiredSupportGroups, judgments, e === null ? null : [e.file, e.start, e.end], q.goldClaim, q.recencyConflictRule, q.pending,
    ];
  }
  return JSON.stringify([part.warnings, tuples, part.nonText]);
}

type Tuple = any[]; // the tuples encodeGoldenPart writes

export function decodeGoldenPart(json: string): GoldenPart {
  const [warnings, tuples, nonText] = JSON.parse(json) as [string[], Tuple[], NonTextTally];
  const queries: GoldenQuery[] = new Array(tuples.length);
  for (let i = 0; i < tuples.length; i++) {
    const t = tuples[i];
    const flat = t[14] as Array<string | number>;
    const judgments = new Map<string, number>();
    for (let j = 0; j < flat.length; j += 2) judgments.set(flat[j] as string, flat[j + 1] as number);
    const e = t[15] as [string, number, number] | null;
    // The fields in toGoldenQuery's order, so these objects share the shape of the ones read here.
    queries[i] = {
      id: t[0], query: t[1], lang: t[2], expectedDocIds: t[3], expectedChunkIds: t[4], mustContain: t[5], forbidden: t[6],
      difficulty: t[7], group: t[8], category: t[9], tags: t[10], answerable: t[11],
      goldSupports: mapPacked(t[12] as Tuple[], (g) => ({ relPath: g[0], headingPath: g[1], snippets: g[2], newer: g[3] })),
      requiredSupportGroups: t[13], judgments, expectedLines: e === null ? null : { file: e[0], start: e[1], end: e[2] },
      goldClaim: t[16], recencyConflictRule: t[17], pending: t[18],
    };
  }
  return { warnings, queries, nonText, fingerprint: null };
}

/**
 * A GoldenSet of these queries. Its fingerprint is computed on first read (0.25 s at 100,000 queries: a scoring
 * worker thread never reads it), unless it is `known` (another thread's reading of the same set computed it).
 */
export function goldenSetOf(source: string, queries: GoldenQuery[], warnings: string[], known?: string): GoldenSet {
  let fingerprint = known;
  return {
    source, queries, warnings,
    get fingerprint() {
      return (fingerprint ??= goldenFingerprint(queries));
    },
  };
}

/** One half as a GoldenSet of its own, for a thread that scores only the half's queries (see planGoldenHalves). */
export function goldenSetOfPart(source: string, part: GoldenPart): GoldenSet {
  return goldenSetOf(source, part.queries, [...part.warnings, ...nonTextWarnings(part.nonText)]);
}

/**
 * The two halves as one GoldenSet, as reading the whole file gives it; undefined when an id is in both (the
 * whole-file path then words the error, with its lines).
 */
export function joinGoldenParts(source: string, first: GoldenPart, second: GoldenPart): GoldenSet | undefined {
  const ids = new Set<string>();
  for (const q of first.queries) ids.add(q.id);
  for (const q of second.queries) if (ids.has(q.id)) return undefined;
  return goldenSetOf(source, first.queries.concat(second.queries), [...first.warnings, ...second.warnings, ...nonTextWarnings(addNonText(first.nonText, second.nonText))]);
}

/** The `yaml` path: a Document with a LineCounter, so every message has its line (exported for tests). */
export function parseGoldenWithLines(text: string, source: string): GoldenSet {
  const { doc, lineOf, keyLine } = parseYamlWithLines(withoutBom(text), source);
  let root: unknown = doc.contents;
  if (isMap(root) && root.has('queries')) root = root.get('queries', true);
  const items = isSeq(root) ? root.items : undefined;
  const where: Where = {
    root: () => lineOf(root),
    item: (i) => lineOf(items![i]),
    field: (i, key) => keyLine(items![i] as YAMLMap, key),
  };
  return goldenSetFrom(source, items, (item) => (isMap(item) ? withNonTextKeys(item) : undefined), where);
}

/** An item's value, its judgments keys that YAML read as numbers or booleans noted as js-yaml's reader notes them. */
function withNonTextKeys(item: YAMLMap): Record<string, unknown> {
  const obj = item.toJSON() as Record<string, unknown>;
  const judgments = item.get('judgments', true);
  if (isMap(judgments)) {
    const keys: NonTextKey[] = [];
    for (const pair of judgments.items) {
      const key = pair.key;
      if (isScalar(key) && (typeof key.value === 'number' || typeof key.value === 'boolean')) keys.push({ written: key.source ?? String(key.value), read: String(key.value) });
    }
    if (keys.length > 0) nonTextKeysOf.set(obj, keys);
  }
  return obj;
}

/**
 * The rules, on plain JS values: `items` is the list of queries (undefined: the top level is not a list), `toMap`
 * gives an item's map (undefined: not a map). Lines come from `where` only when a message needs one.
 */
function goldenSetFrom<T>(source: string, items: Iterable<T> | undefined, toMap: (item: T) => Record<string, unknown> | undefined, where: Where): GoldenSet {
  return goldenSetOfRead(source, readGoldenItems(source, items, toMap, where, where.field, where.item, { hash: null }));
}

/** The queries and warnings read from a golden file, and its fingerprint as far as it was written while reading. */
interface GoldenRead {
  queries: GoldenQuery[];
  /** Warnings but the tallies' (see NonTextTally), which come after all of these. */
  warnings: string[];
  nonText: NonTextTally;
  fingerprint: FingerprintRecorder;
}

function goldenSetOfRead(source: string, read: GoldenRead): GoldenSet {
  return goldenSetOf(source, read.queries, [...read.warnings, ...nonTextWarnings(read.nonText)], read.fingerprint.digest() ?? undefined);
}

/**
 * Values YAML read as numbers (or booleans) where EvalGate expects text: an unquoted `id: 001` is the number 1 and
 * becomes "1", `expected_doc_ids: [007]` becomes ["7"], and a run that spells them `001` and `007` never meets them.
 * Read as the text of the value (a number the run spells the same way works), with one warning per kind at the
 * first such query, saying how many there are in the file. Kept as counts, not words, until the file is whole:
 * two threads that read half each add theirs up (addNonText), so the warnings are the ones a whole reading gives.
 */
export interface NonTextTally {
  ids: NonTextOf;
  lists: NonTextOf;
  /** judgments keys; `key` is the key as written (`007`), `value` as read ("7"). */
  judgmentKeys: NonTextOf;
}

/** How many, and the first: where (`file:line`, its query's line), the query's id, the field and the value's text. */
interface NonTextOf {
  count: number;
  first: { at: string; id: string; key: string; value: string } | null;
}

const NO_NON_TEXT: NonTextTally = { ids: { count: 0, first: null }, lists: { count: 0, first: null }, judgmentKeys: { count: 0, first: null } };

/** Two parts' tallies as one, `a` read before `b`. */
export function addNonText(a: NonTextTally, b: NonTextTally): NonTextTally {
  const add = (x: NonTextOf, y: NonTextOf): NonTextOf => ({ count: x.count + y.count, first: x.first ?? y.first });
  return { ids: add(a.ids, b.ids), lists: add(a.lists, b.lists), judgmentKeys: add(a.judgmentKeys, b.judgmentKeys) };
}

/** The tally's warnings (none when it is empty). */
export function nonTextWarnings(t: NonTextTally): string[] {
  const warnings: string[] = [];
  const more = (n: number, what: string) => (n > 1 ? ` (and ${n - 1} more ${n - 1 === 1 ? what : `${what}s`} in this file)` : '');
  if (t.ids.first !== null) {
    const { at, id } = t.ids.first;
    warnings.push(`${at}: \`id\` is a YAML number or boolean, read as the text "${id}"${more(t.ids.count, 'id')}; quote ids (\`id: "001"\`) so they match the run's query_id as written`);
  }
  if (t.lists.first !== null) {
    const { at, id, key, value } = t.lists.first;
    warnings.push(`${at}: query \`${id}\`: \`${key}\` holds a YAML number, read as the text "${value}"${more(t.lists.count, 'list')}; quote such values (\`["007"]\`) so they are read as written`);
  }
  if (t.judgmentKeys.first !== null) {
    const { at, id, key, value } = t.judgmentKeys.first;
    warnings.push(`${at}: query \`${id}\`: the \`judgments\` key \`${key}\` is a YAML number or boolean, read as the text "${value}"${more(t.judgmentKeys.count, 'key')}; quote such keys (\`{"007": 2}\`) so they match the run's ids as written`);
  }
  return warnings;
}

/** goldenSetFrom's rules; the fingerprint is written as the queries are read, while their ids ascend (see FingerprintRecorder). */
function readGoldenItems<T>(source: string, items: Iterable<T> | undefined, toMap: (item: T) => Record<string, unknown> | undefined, where: Where, warnLine: WarnLine, itemLine: ItemLine, sink: FingerprintSink): GoldenRead {
  if (items === undefined) throw new InputError(`${source}:${where.root()}: the golden set must be a list of queries (or a map with a \`queries\` list)`);
  const warnings: string[] = [];
  const queries: GoldenQuery[] = [];
  const seen = new Map<string, number>(); // id -> index of the query that defined it
  const fingerprint = new FingerprintRecorder(sink);
  const labels = new Map<string, string>();
  // Ids YAML read as numbers or booleans, numbers in the lists of ids and strings (see NonTextTally).
  let nonTextIds = 0;
  let firstNonTextId = -1;
  let nonTextValues = 0;
  let firstNonText: { i: number; key: string; value: string } | null = null;
  let nonTextKeys = 0;
  let firstNonTextKey: { i: number; key: NonTextKey } | null = null;
  let i = -1;
  for (const item of items) {
    i++;
    const obj = toMap(item);
    if (obj === undefined) throw new InputError(`${source}:${where.item(i)}: each golden query must be a map with \`id\` and \`query\``);
    const fail = failFor(source, where, i, obj);
    for (const key of Object.keys(obj)) {
      if (!KNOWN_KEYS.has(key)) warnings.push(`${source}:${warnLine(i, key)}: unknown key \`${key}\` (ignored)`);
    }
    const q = toGoldenQuery(obj, fail, labels);
    // Misspelled keys inside the maps that have fixed keys: a `snippet:` for `snippets:` would drop the snippet check.
    if (q.goldSupports.length > 0) {
      (obj.gold_supports as unknown[]).forEach((support, s) => {
        for (const [key] of entriesOf(support as object)) {
          if (!SUPPORT_KEYS.has(key)) warnings.push(`${source}:${warnLine(i, 'gold_supports')}: \`gold_supports[${s}]\`: unknown key \`${key}\` (ignored; its keys are ${[...SUPPORT_KEYS].join(', ')})`);
        }
      });
    }
    if (q.expectedLines !== null) {
      for (const [key] of entriesOf(obj.expected_lines as object)) {
        if (!LINES_KEYS.has(key)) warnings.push(`${source}:${warnLine(i, 'expected_lines')}: \`expected_lines\`: unknown key \`${key}\` (ignored; its keys are ${[...LINES_KEYS].join(', ')})`);
      }
    }
    const earlier = seen.get(q.id);
    if (earlier !== undefined) fail('id', `duplicate id (first defined at line ${where.item(earlier)})`);
    seen.set(q.id, i);
    if (typeof obj.id !== 'string' && nonTextIds++ === 0) firstNonTextId = i;
    for (const key of TEXT_LISTS) {
      const found = nonTextIn(obj[key]);
      if (found !== undefined && nonTextValues++ === 0) firstNonText = { i, key, value: String(found) };
    }
    const keys = nonTextKeysOf.get(obj);
    if (keys !== undefined) {
      for (const key of keys) {
        if (q.judgments.has(key.read) && nonTextKeys++ === 0) firstNonTextKey = { i, key };
      }
    }
    if (q.goldSupports.length > 0) {
      const supports = obj.gold_supports as object[]; // toGoldenQuery has checked: a list of maps
      for (let s = 0; s < supports.length; s++) {
        for (const field of SUPPORT_TEXT_LISTS) {
          const found = nonTextIn(fieldOf(supports[s], field));
          if (found !== undefined && nonTextValues++ === 0) firstNonText = { i, key: `gold_supports[${s}].${field}`, value: String(found) };
        }
      }
    }
    queries.push(q);
    fingerprint.add(q);
  }
  // At the query's own line, which both readers know without reading the file again (a key's line the fast one may not).
  const nonText: NonTextTally = nonTextIds === 0 && firstNonText === null && firstNonTextKey === null ? NO_NON_TEXT : {
    ids: { count: nonTextIds, first: nonTextIds === 0 ? null : { at: `${source}:${itemLine(firstNonTextId)}`, id: queries[firstNonTextId].id, key: 'id', value: queries[firstNonTextId].id } },
    lists: { count: nonTextValues, first: firstNonText === null ? null : { at: `${source}:${itemLine(firstNonText.i)}`, id: queries[firstNonText.i].id, key: firstNonText.key, value: firstNonText.value } },
    judgmentKeys: { count: nonTextKeys, first: firstNonTextKey === null ? null : { at: `${source}:${itemLine(firstNonTextKey.i)}`, id: queries[firstNonTextKey.i].id, key: firstNonTextKey.key.written, value: firstNonTextKey.key.read } },
  };
  return { queries, warnings, nonText, fingerprint };
}

type Fail = (key: string, message: string) => never;

/** The golden lists of ids and strings (strList reads them): a number in one becomes its text. */
const TEXT_LISTS = ['expected_doc_ids', 'expected_chunk_ids', 'must_contain', 'forbidden', 'tags'] as const;
/** The same in each gold support (read with String). */
const SUPPORT_TEXT_LISTS = ['heading_path', 'snippets'] as const;

/** A number in a list field's value, if any (strList has refused any other non-text value). */
function nonTextIn(value: unknown): number | undefined {
  if (!Array.isArray(value)) return undefined;
  for (const x of value) if (typeof x === 'number') return x;
  return undefined;
}

/** Query `i`'s Fail: throws the message at the line of `key`. */
function failFor(source: string, where: Where, i: number, obj: Record<string, unknown>): Fail {
  return (key, message) => {
    throw new InputError(`${source}:${where.field(i, key)}: query ${obj.id !== undefined ? `\`${String(obj.id)}\`` : `at line ${where.item(i)}`}: ${message}`);
  };
}

/**
 * Labels many queries share (category, difficulty, tags, lang, group) as one string each: a parsed value is a new
 * string per query, and a golden set holds them all (at 100,000 queries, ~2 MB per field).
 */
type Labels = Map<string, string>;

function label(labels: Labels, value: string | null): string | null {
  if (value === null || value.length > 64) return value;
  const known = labels.get(value);
  if (known !== undefined) return known;
  if (labels.size < 4096) labels.set(value, value);
  return value;
}

/** A list of labels (tags), each as `label` gives it; an absent or empty list is EMPTY. */
function labelList(labels: Labels, values: string[] | null): string[] {
  if (values === null || values.length === 0) return EMPTY;
  for (let i = 0; i < values.length; i++) values[i] = label(labels, values[i])!;
  return values;
}

/**
 * The empty list of every query without the field: one frozen array instead of one per query (four such fields
 * are empty on most queries). A GoldenQuery is read-only data; pushing to one of these throws.
 */
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
  // A copy, not the reader's array: one grown by push keeps spare room, and the set holds these for the whole run.
  return mapPacked(v, (x) => (typeof x === 'string' || typeof x === 'number' ? String(x) : fail(key, `\`${key}\` must hold only strings`)));
}

/** The keys of the maps inside a query that have fixed keys (a gold_supports item, expected_lines). */
const SUPPORT_KEYS = new Set(['rel_path', 'heading_path', 'snippets', 'newer']);
const LINES_KEYS = new Set(['file', 'line_range']);
/** A map's value at `key`: the one-line item reader gives flow maps as Maps (src/load/yamlItem.ts), the YAML libraries as objects. */
const fieldOf = (map: object, key: string): unknown => (map instanceof Map ? map.get(key) : (map as Record<string, unknown>)[key]);
const entriesOf = (map: object): Iterable<[string, unknown]> => (map instanceof Map ? (map as Map<string, unknown>) : Object.entries(map));

function toGoldenQuery(obj: Record<string, unknown>, fail: Fail, labels: Labels): GoldenQuery {
  const id = str(obj, 'id', fail);
  if (id === null || id === '') fail('id', 'missing `id`');
  const query = str(obj, 'query', fail);
  if (query === null) fail('query', 'missing `query`');
  const expectedDocIds = strList(obj, 'expected_doc_ids', fail);
  const answerableRaw = obj.answerable;
  if (answerableRaw !== undefined && answerableRaw !== null && typeof answerableRaw !== 'boolean') fail('answerable', '`answerable` must be true or false');
  // kebab's convention: an explicitly empty expected_doc_ids list means "should refuse".
  const answerable = typeof answerableRaw === 'boolean' ? answerableRaw : !(expectedDocIds !== null && expectedDocIds.length === 0);

  let goldSupports: GoldSupport[] = EMPTY;
  if (obj.gold_supports !== undefined && obj.gold_supports !== null) {
    goldSupports = [];
    if (!Array.isArray(obj.gold_supports)) fail('gold_supports', '`gold_supports` must be a list');
    (obj.gold_supports as unknown[]).forEach((s, i) => {
      if (typeof s !== 'object' || s === null || Array.isArray(s)) return fail('gold_supports', `\`gold_supports[${i}]\` must be a map`);
      const relPath = fieldOf(s, 'rel_path');
      if (typeof relPath !== 'string' || relPath === '') return fail('gold_supports', `\`gold_supports[${i}].rel_path\` is required`);
      const heading = fieldOf(s, 'heading_path');
      const headingPath = heading === undefined || heading === null ? [] : Array.isArray(heading) ? mapPacked(heading, String) : String(heading).split('>');
      const snip = fieldOf(s, 'snippets');
      const snippets = snip === undefined || snip === null ? [] : Array.isArray(snip) ? mapPacked(snip, String) : [String(snip)];
      goldSupports.push({ relPath, headingPath, snippets, newer: fieldOf(s, 'newer') === true });
    });
  }

  let requiredSupportGroups: number[][] = EMPTY;
  if (obj.required_support_groups !== undefined && obj.required_support_groups !== null) {
    requiredSupportGroups = [];
    const groups = obj.required_support_groups;
    if (!Array.isArray(groups)) fail('required_support_groups', '`required_support_groups` must be a list of lists of support indexes');
    for (const g of groups as unknown[]) {
      const group = Array.isArray(g) ? g : [g];
      const indexes = mapPacked(group, (x) => {
        if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x >= goldSupports.length) {
          return fail('required_support_groups', `support index ${String(x)} does not name one of the ${goldSupports.length} gold_supports (0-based)`);
        }
        return x;
      });
      requiredSupportGroups.push(indexes);
    }
  }

  let judgments = new Map<string, number>();
  const raw = obj.judgments;
  if (raw !== undefined && raw !== null) {
    if (typeof raw !== 'object' || Array.isArray(raw)) fail('judgments', '`judgments` must be a map of chunk_id or doc_id to grade');
    // The one-line reader gives a Map (kept as it is once its grades are checked), the YAML libraries an object.
    const copy = !(raw instanceof Map);
    for (const [key, grade] of entriesOf(raw)) {
      if (typeof grade !== 'number' || !Number.isInteger(grade)) fail('judgments', `grade of \`${key}\` must be an integer, got ${JSON.stringify(grade)}`);
      if (copy) judgments.set(key, grade as number);
    }
    if (!copy) judgments = raw as Map<string, number>;
  }

  let expectedLines: GoldenQuery['expectedLines'] = null;
  if (obj.expected_lines !== undefined && obj.expected_lines !== null) {
    const el = obj.expected_lines;
    const file = typeof el === 'object' ? fieldOf(el, 'file') : undefined;
    const range = typeof el === 'object' ? fieldOf(el, 'line_range') : undefined;
    if (typeof file !== 'string' || !Array.isArray(range) || range.length !== 2 || !range.every((n) => typeof n === 'number')) {
      fail('expected_lines', '`expected_lines` must be `{file, line_range: [start, end]}`');
    }
    expectedLines = { file: file as string, start: (range as number[])[0], end: (range as number[])[1] };
  }

  const rule = str(obj, 'recency_conflict_rule', fail);
  if (rule !== null && rule !== 'cite_newer' && rule !== 'cite_both' && rule !== 'acknowledge_both') {
    fail('recency_conflict_rule', '`recency_conflict_rule` must be cite_newer, cite_both or acknowledge_both');
  }
  const pending = obj.pending;
  if (pending !== undefined && pending !== null && typeof pending !== 'boolean') fail('pending', '`pending` must be true or false');

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
    answerable,
    goldSupports,
    requiredSupportGroups,
    judgments,
    expectedLines,
    goldClaim: str(obj, 'gold_claim', fail),
    recencyConflictRule: rule as GoldenQuery['recencyConflictRule'],
    pending: pending === true,
  };
}

export { fingerprintBytes, fingerprintInParts, fingerprintOfParts, goldenFingerprint, HashedPart } from './goldenFingerprint.js';
export type { FingerprintPart } from './goldenFingerprint.js';
