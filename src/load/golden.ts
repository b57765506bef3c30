import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isMap, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Node as YamlNode, YAMLMap } from 'yaml';
import { InputError } from '../errors.js';
import type { GoldenQuery, GoldenSet, GoldSupport } from '../types.js';
import { canonicalJson } from '../render/json.js';

const KNOWN_KEYS = new Set([
  'id', 'query', 'lang', 'expected_doc_ids', 'expected_chunk_ids', 'must_contain', 'forbidden', 'difficulty', 'group',
  'category', 'tags', 'answerable', 'gold_supports', 'required_support_groups', 'judgments', 'expected_lines',
  'gold_claim', 'recency_conflict_rule', 'pending', 'notes', 'note',
]);

export function readGoldenFile(file: string): GoldenSet {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(`${file}: cannot read the golden set (${code === 'ENOENT' ? 'no such file' : code ?? String(error)})`);
  }
  return parseGoldenYaml(text, file);
}

/** Parses kebab's golden format (a top-level list; `{queries: [...]}` is accepted too). Errors name file and line. */
export function parseGoldenYaml(text: string, source: string): GoldenSet {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const { line, col } = lineCounter.linePos(e.pos[0]);
    throw new InputError(`${source}:${line}:${col}: invalid YAML (${e.message.split('\n')[0]})`);
  }
  const lineOf = (node: unknown): number => {
    const range = (node as YamlNode | null)?.range;
    return range ? lineCounter.linePos(range[0]).line : 1;
  };
  let root: unknown = doc.contents;
  if (isMap(root) && root.has('queries')) root = root.get('queries', true);
  if (!isSeq(root)) throw new InputError(`${source}:${lineOf(root)}: the golden set must be a list of queries (or a map with a \`queries\` list)`);

  const warnings: string[] = [];
  const queries: GoldenQuery[] = [];
  const seen = new Map<string, number>();
  for (const item of root.items) {
    const line = lineOf(item);
    if (!isMap(item)) throw new InputError(`${source}:${line}: each golden query must be a map with \`id\` and \`query\``);
    const fieldLine = (key: string) => {
      const pair = (item as YAMLMap).items.find((p) => (p.key as { value?: unknown })?.value === key);
      return pair ? lineOf(pair.value ?? pair.key) : line;
    };
    const obj = item.toJSON() as Record<string, unknown>;
    const fail = (key: string, message: string): never => {
      throw new InputError(`${source}:${fieldLine(key)}: query ${obj.id !== undefined ? `\`${String(obj.id)}\`` : `at line ${line}`}: ${message}`);
    };
    for (const key of Object.keys(obj)) {
      if (!KNOWN_KEYS.has(key)) warnings.push(`${source}:${fieldLine(key)}: unknown key \`${key}\` (ignored)`);
    }
    const q = toGoldenQuery(obj, fail);
    const earlier = seen.get(q.id);
    if (earlier !== undefined) fail('id', `duplicate id (first defined at line ${earlier})`);
    seen.set(q.id, line);
    queries.push(q);
  }
  return { source, queries, fingerprint: goldenFingerprint(queries), warnings };
}

type Fail = (key: string, message: string) => never;

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
  return v.map((x) => (typeof x === 'string' || typeof x === 'number' ? String(x) : fail(key, `\`${key}\` must hold only strings`)));
}

function toGoldenQuery(obj: Record<string, unknown>, fail: Fail): GoldenQuery {
  const id = str(obj, 'id', fail);
  if (id === null || id === '') fail('id', 'missing `id`');
  const query = str(obj, 'query', fail);
  if (query === null) fail('query', 'missing `query`');
  const expectedDocIds = strList(obj, 'expected_doc_ids', fail);
  const answerableRaw = obj.answerable;
  if (answerableRaw !== undefined && answerableRaw !== null && typeof answerableRaw !== 'boolean') fail('answerable', '`answerable` must be true or false');
  // kebab's convention: an explicitly empty expected_doc_ids list means "should refuse".
  const answerable = typeof answerableRaw === 'boolean' ? answerableRaw : !(expectedDocIds !== null && expectedDocIds.length === 0);

  const goldSupports: GoldSupport[] = [];
  if (obj.gold_supports !== undefined && obj.gold_supports !== null) {
    if (!Array.isArray(obj.gold_supports)) fail('gold_supports', '`gold_supports` must be a list');
    (obj.gold_supports as unknown[]).forEach((s, i) => {
      if (typeof s !== 'object' || s === null || Array.isArray(s)) return fail('gold_supports', `\`gold_supports[${i}]\` must be a map`);
      const support = s as Record<string, unknown>;
      const relPath = support.rel_path;
      if (typeof relPath !== 'string' || relPath === '') return fail('gold_supports', `\`gold_supports[${i}].rel_path\` is required`);
      const heading = support.heading_path;
      const headingPath = heading === undefined || heading === null ? [] : Array.isArray(heading) ? heading.map(String) : String(heading).split('>');
      const snippets = support.snippets === undefined || support.snippets === null ? [] : Array.isArray(support.snippets) ? support.snippets.map(String) : [String(support.snippets)];
      goldSupports.push({ relPath, headingPath, snippets, newer: support.newer === true });
    });
  }

  const requiredSupportGroups: number[][] = [];
  if (obj.required_support_groups !== undefined && obj.required_support_groups !== null) {
    const groups = obj.required_support_groups;
    if (!Array.isArray(groups)) fail('required_support_groups', '`required_support_groups` must be a list of lists of support indexes');
    for (const g of groups as unknown[]) {
      const group = Array.isArray(g) ? g : [g];
      const indexes = group.map((x) => {
        if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x >= goldSupports.length) {
          return fail('required_support_groups', `support index ${String(x)} does not name one of the ${goldSupports.length} gold_supports (0-based)`);
        }
        return x;
      });
      requiredSupportGroups.push(indexes);
    }
  }

  const judgments = new Map<string, number>();
  if (obj.judgments !== undefined && obj.judgments !== null) {
    if (typeof obj.judgments !== 'object' || Array.isArray(obj.judgments)) fail('judgments', '`judgments` must be a map of chunk_id or doc_id to grade');
    for (const [key, grade] of Object.entries(obj.judgments as Record<string, unknown>)) {
      if (typeof grade !== 'number' || !Number.isInteger(grade)) fail('judgments', `grade of \`${key}\` must be an integer (0..3), got ${JSON.stringify(grade)}`);
      judgments.set(key, grade as number);
    }
  }

  let expectedLines: GoldenQuery['expectedLines'] = null;
  if (obj.expected_lines !== undefined && obj.expected_lines !== null) {
    const el = obj.expected_lines as Record<string, unknown>;
    const range = el.line_range;
    if (typeof el.file !== 'string' || !Array.isArray(range) || range.length !== 2 || !range.every((n) => typeof n === 'number')) {
      fail('expected_lines', '`expected_lines` must be `{file, line_range: [start, end]}`');
    }
    expectedLines = { file: el.file as string, start: (range as number[])[0], end: (range as number[])[1] };
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
    lang: str(obj, 'lang', fail),
    expectedDocIds,
    expectedChunkIds: strList(obj, 'expected_chunk_ids', fail),
    mustContain: strList(obj, 'must_contain', fail) ?? [],
    forbidden: strList(obj, 'forbidden', fail) ?? [],
    difficulty: str(obj, 'difficulty', fail),
    group: str(obj, 'group', fail),
    category: str(obj, 'category', fail),
    tags: strList(obj, 'tags', fail) ?? [],
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

/** sha256 over the normalised set (sorted by id, canonical JSON), so key order and comments do not change it. */
export function goldenFingerprint(queries: GoldenQuery[]): string {
  const normalised = [...queries]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((q) => ({ ...q, judgments: Object.fromEntries([...q.judgments].sort(([a], [b]) => (a < b ? -1 : 1))) }));
  return `sha256:${createHash('sha256').update(canonicalJson(normalised)).digest('hex')}`;
}
