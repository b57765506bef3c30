/**
 * A fast reader for the common shape of one `result_json` (docs/decisions/0002-result-json-fast-reader.md), since
 * `JSON.parse` building every object and string of a row is the largest cost of reading a run. It validates the text
 * as it goes and reads hits against templates learnt from earlier hits (writers emit every hit in the same shape).
 * Off the happy path it returns null, and the caller reads the row with `JSON.parse` and `parseQueryResult`, which
 * give every error message: this reader never decides an error nor changes a value (test/resultJson.test.ts).
 */
import { RESULT_CITATION_KEYS, RESULT_HIT_KEYS, RESULT_TOP_KEYS } from './resultKeys.js';
import type { Hit, LineCitation } from '../types.js';
import type { JsonObject } from './json.js';
import { splitHeadingPath } from './headingPath.js';

/** The row's top-level fields except `hits_top_k` (as JSON.parse gives them), and the hits in rank order. */
interface ScannedResult {
  fields: JsonObject;
  hits: Hit[];
  /** Keys the result schema does not know, among the members skipped and the hits read (`fields` aside). */
  unknownKeys: readonly string[];
}

/** The fields of a hit that scoring reads only for some queries (gold supports, line ranges, snippets, citations). */
interface HitDetail {
  /** The heading_path list (or the 001 runner's `"A > B"` text) as JSON text (checked); null when null or absent. */
  headingJson: string | null;
  snippet: string | null;
  score: number | null;
  /** The citation's path; null when the hit has no usable line citation (parseLineCitation's rule). */
  citationPath: string | null;
  citationStart: number;
  citationEnd: number;
}

/**
 * A hit read by the scanner: rank, ids, doc_path and chunker version at once; the rest (HitDetail) at once when read
 * token by token, else when first asked for, by running its template's full pattern again at its place in the row
 * (a hit lives while its row is scored, so holding the row costs nothing).
 */
export class RowHit implements Hit {
  constructor(
    readonly rank: number,
    readonly chunkId: string | null,
    readonly docId: string | null,
    /** Read at once too: gold-support matching compares it before it reads anything else of the hit. */
    readonly docPath: string | null,
    readonly chunkerVersion: string | null,
    private detail: HitDetail | null,
    private readonly row: string,
    private readonly at: number,
    private readonly template: HitTemplate | null,
  ) {}

  private details(): HitDetail {
    return (this.detail ??= templateDetail(this.template!, this.row, this.at));
  }

  get headingPath(): string[] {
    const json = this.details().headingJson;
    if (json === null) return [];
    const value = JSON.parse(json) as string[] | string;
    return typeof value === 'string' ? splitHeadingPath(value) : value;
  }

  get snippet(): string | null {
    return this.details().snippet;
  }

  get score(): number | null {
    return this.details().score;
  }

  get citation(): LineCitation | null {
    // Scoring asks every hit until one has a citation: a shape without a usable one need not read the rest.
    if (this.detail === null && !this.template!.citationUsable) return null;
    const d = this.details();
    if (d.citationPath === null) return null;
    return { kind: 'line', path: d.citationPath, start: d.citationStart, end: d.citationEnd };
  }
}

/** A HitDetail of nulls; citationEnd NaN until read (none: the start). */
function emptyDetail(): HitDetail {
  return { headingJson: null, snippet: null, score: null, citationPath: null, citationStart: 0, citationEnd: NaN };
}

/** The HitDetail of a hit that `t.scan` matched at `at` in `row` (so `t.full` matches there too, value for value). */
function templateDetail(t: HitTemplate, row: string, at: number): HitDetail {
  t.full.lastIndex = at;
  const m = t.full.exec(row)!;
  const detail = emptyDetail();
  for (let i = 0; i < t.slots.length; i++) {
    const v = m[i + 1];
    switch (t.slots[i]) {
      case K_HEADING:
        detail.headingJson = v;
        break;
      case K_SNIPPET:
        detail.snippet = v;
        break;
      case K_SCORE:
        detail.score = Number(v);
        break;
      case CITATION_PATH:
        detail.citationPath = v;
        break;
      case CITATION_START:
        detail.citationStart = Number(v);
        break;
      case CITATION_END:
        detail.citationEnd = Number(v);
        break;
      default: // rank, ids, path and version: read at once; kebab's section label and times: never read
    }
  }
  if (!t.citationUsable) detail.citationPath = null;
  if (detail.citationEnd !== detail.citationEnd) detail.citationEnd = detail.citationStart;
  return detail;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const LOWER_N = 0x6e;
const LOWER_T = 0x74;
const LOWER_F = 0x66;

/** Thrown inside the scanner to leave the fast path; never escapes `scanResultJson`. */
const BAIL = new Error('not the common shape');

/** Top-level fields whose values parseQueryResult reads; any other key is validated and skipped. */
const READ_TOP_LEVEL = new Set([
  'query',
  'mode',
  'answer',
  'elapsed_ms',
  'error',
  'status',
  'abstained',
  'timings_ms',
  'cost_usd',
  'scope',
  'judge',
  'references',
  'conflict_acknowledged',
]);

// Hit fields as bits (a key given twice is refused: JSON.parse would keep the last, and the slow path decides),
// and as the slots of hit templates, with the citation's three values.
const K_RANK = 1;
const K_CHUNK = 2;
const K_DOC = 4;
const K_PATH = 8;
const K_HEADING = 16;
const K_SNIPPET = 32;
const K_SCORE = 64;
const K_CITATION = 128;
const K_VERSION = 256;
const CITATION_PATH = 512;
const CITATION_START = 1024;
const CITATION_END = 2048;
// kebab's per-hit texts that vary from hit to hit: values in a template (checked, never read), so that its hits
// share a shape; its constant fields (index_version, embedding_model, stale, score_kind) stay literal text.
const K_SECTION_LABEL = 4096;
const K_INDEXED_AT = 8192;
const CITATION_SECTION = 16384;
const UNREAD_TEXT = K_SECTION_LABEL | K_INDEXED_AT | CITATION_SECTION;
const HIT_KEYS: ReadonlyMap<string, number> = new Map([
  ['rank', K_RANK],
  ['chunk_id', K_CHUNK],
  ['doc_id', K_DOC],
  ['doc_path', K_PATH],
  ['rel_path', K_PATH], // the 001 runner's name for it; a hit with both is left to the slow path (`seen`)
  ['heading_path', K_HEADING],
  ['snippet', K_SNIPPET],
  ['score', K_SCORE],
  ['citation', K_CITATION],
  ['chunker_version', K_VERSION],
  ['section_label', K_SECTION_LABEL],
  ['indexed_at', K_INDEXED_AT],
]);
const CITATION_KEYS: ReadonlyMap<string, number> = new Map([
  ['path', CITATION_PATH],
  ['start', CITATION_START],
  ['end', CITATION_END],
  ['section', CITATION_SECTION],
]);

// What a template slot accepts (JSON's grammar, without escapes or control characters in strings).
const WS = '[ \\t\\n\\r]*';
const STRING_CHARS = '[^"\\\\\\u0000-\\u001f]*';
const NUMBER = '-?(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE][+-]?\\d+)?';
const SLOT_PATTERN: Record<number, string> = {
  [K_RANK]: '([1-9]\\d*)',
  [K_CHUNK]: `(${STRING_CHARS})`,
  [K_DOC]: `(${STRING_CHARS})`,
  [K_PATH]: `(${STRING_CHARS})`,
  [K_HEADING]: `(\\[${WS}(?:"${STRING_CHARS}"(?:${WS},${WS}"${STRING_CHARS}")*)?${WS}\\]|"${STRING_CHARS}")`,
  [K_SNIPPET]: `(${STRING_CHARS})`,
  [K_SCORE]: `(${NUMBER})`,
  [K_VERSION]: `(${STRING_CHARS})`,
  [CITATION_PATH]: `(${STRING_CHARS})`,
  [CITATION_START]: `(${NUMBER})`,
  [CITATION_END]: `(${NUMBER})`,
  [K_SECTION_LABEL]: `(${STRING_CHARS})`,
  [K_INDEXED_AT]: `(${STRING_CHARS})`,
  [CITATION_SECTION]: `(${STRING_CHARS})`,
};
const STRING_SLOTS = K_CHUNK | K_DOC | K_PATH | K_SNIPPET | K_VERSION | CITATION_PATH | UNREAD_TEXT;
/** Values the scan pattern captures; the others it only checks. */
const READ_AT_ONCE = K_RANK | K_CHUNK | K_DOC | K_PATH | K_VERSION;
/**
 * A number the scan pattern checks but does not read: without an exponent and at most 300 digits before the
 * point, so it is finite (the token-by-token reader, which decides, reads the others).
 */
const FINITE_NUMBER = '-?(?:0|[1-9]\\d{0,299})(?:\\.\\d+)?';

/** Where each value read at once is in a scan match (group i + 1 for slot i; 0: the hit has null there). */
function groupsOf(scanSlots: number[]): HitTemplate['groups'] {
  const at = (slot: number) => scanSlots.indexOf(slot) + 1;
  return { rank: at(K_RANK), chunk: at(K_CHUNK), doc: at(K_DOC), path: at(K_PATH), version: at(K_VERSION) };
}

/** A slot's pattern in the scan pattern: captured when read at once, else only checked. */
function scanPattern(slot: number): string {
  if (slot & READ_AT_ONCE) return SLOT_PATTERN[slot];
  if (slot === K_SCORE || slot === CITATION_START || slot === CITATION_END) return `(?:${FINITE_NUMBER})`;
  return `(?:${SLOT_PATTERN[slot].slice(1, -1)})`;
}

/**
 * The shape of one hit: its text with the values cut out, as sticky regular expressions. The text between values
 * (keys, punctuation, the quotes of strings, nulls, fields not read such as a citation's `"kind":"line"`) must match
 * exactly, so a matching hit is valid JSON with the template's keys, and reads as a hit read token by token would.
 */
interface HitTemplate {
  /** The shape with a group for each value read at once (rank, chunk_id, doc_id, doc_path, chunker_version). */
  scan: RegExp;
  /** Each of those values' group in `scan`'s match, 0 where the hit has null there (part of the literal text). */
  groups: { rank: number; chunk: number; doc: number; path: number; version: number };
  /** The same shape with a group for every value: `slots`. */
  full: RegExp;
  slots: number[];
  /** The citation's path and start are values here (parseLineCitation uses a citation only with both). */
  citationUsable: boolean;
  /** The keys of the shape the result schema does not know (load/resultKeys.ts), as validate names them. */
  unknownKeys: readonly string[];
}

/** Hits of many shapes must not compile a regular expression each: past this, hits are read token by token. */
const MAX_TEMPLATES_COMPILED = 256;
/** Templates tried per hit, most recently matched first. */
const MAX_TEMPLATES_TRIED = 8;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

class Scanner {
  s = '';
  p = 0;
  /** Set by `stringEnd`: the string just passed has an escape, and then its value (decoded once, by JSON.parse). */
  escaped = false;
  decoded = '';
  /** Whether `stringEnd` refuses control characters (as JSON does); off inside a value JSON.parse reads anyway. */
  checkControl = true;
  /**
   * The first backslash of `s` at or after `backslashFrom` (-1: none), kept between strings: searching the rest of
   * the row for each string cost O(strings x row) (bench/README.md, "What was kept"); kept, O(row) in all.
   */
  backslashAt = -1;
  backslashFrom = -1;
  private readonly templates: HitTemplate[] = [];
  private readonly compiled = new Map<string, HitTemplate>();
  /** Value positions of the hit being read generically: (slot, start, end) triples; start -1 for null. */
  private readonly cuts: number[] = [];
  /** This row's keys the result schema does not know (outside the members JSON.parse reads: readResultRow). */
  readonly unknownKeys: string[] = [];
  /** Those of the hit being read generically. */
  private hitUnknownKeys: string[] = [];

  ws(): void {
    const s = this.s;
    let p = this.p;
    for (;;) {
      const c = s.charCodeAt(p);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) p++;
      else break;
    }
    this.p = p;
  }

  /** Skips white space, then requires `code` and moves past it. */
  expect(code: number): void {
    if (this.s.charCodeAt(this.p) <= 0x20) this.ws();
    if (this.s.charCodeAt(this.p) !== code) throw BAIL;
    this.p++;
  }

  /** At an opening quote: moves past the string and returns p; if it has escapes, JSON.parse decodes and checks it. */
  stringEnd(): number {
    const s = this.s;
    const start = this.p + 1;
    let close = s.indexOf('"', start);
    if (close === -1) throw BAIL;
    let i = start;
    if (this.checkControl) {
      while (i < close) {
        const c = s.charCodeAt(i);
        if (c < 0x20) throw BAIL;
        if (c === BACKSLASH) break;
        i++;
      }
    } else {
      if (start < this.backslashFrom || (this.backslashAt !== -1 && this.backslashAt < start)) {
        this.backslashAt = s.indexOf('\\', start);
        this.backslashFrom = start;
      }
      const b = this.backslashAt;
      i = b === -1 || b > close ? close : b;
    }
    this.escaped = i < close;
    if (this.escaped) {
      // Find the real end past escaped quotes, then let JSON.parse validate the escapes and control characters.
      for (;;) {
        const c = s.charCodeAt(i);
        if (c !== c) throw BAIL; // NaN: the text ended
        if (c === BACKSLASH) i += 2;
        else if (c === QUOTE) break;
        else i++;
      }
      close = i;
      this.decoded = JSON.parse(s.slice(this.p, close + 1)) as string;
    }
    this.p = close + 1;
    return close + 1;
  }

  /** A string's value, decoded; p after it. */
  string(): string {
    const start = this.p;
    const end = this.stringEnd();
    return this.escaped ? this.decoded : this.s.slice(start + 1, end - 1);
  }

  /** A string that outlives the row (the query, the error): copied, as a V8 substring of 13+ characters is a view. */
  ownString(): string {
    const start = this.p;
    const end = this.stringEnd();
    if (this.escaped) return this.decoded;
    if (end - start - 2 < 13) return this.s.slice(start + 1, end - 1);
    return JSON.parse(this.s.slice(start, end)) as string;
  }

  /** Validates a number token and moves past it; returns its value as JSON.parse would. */
  number(): number {
    const s = this.s;
    const start = this.p;
    let p = start;
    let c = s.charCodeAt(p);
    const negative = c === MINUS;
    if (negative) c = s.charCodeAt(++p);
    let value = 0;
    let digits = 0;
    if (c === ZERO) {
      c = s.charCodeAt(++p);
      digits = 1;
    } else if (c > ZERO && c <= NINE) {
      do {
        value = value * 10 + (c - ZERO);
        digits++;
        c = s.charCodeAt(++p);
      } while (c >= ZERO && c <= NINE);
    } else throw BAIL;
    let simple = digits <= 15;
    if (c === DOT) {
      simple = false;
      c = s.charCodeAt(++p);
      if (!(c >= ZERO && c <= NINE)) throw BAIL;
      do c = s.charCodeAt(++p);
      while (c >= ZERO && c <= NINE);
    }
    if (c === LOWER_E || c === UPPER_E) {
      simple = false;
      c = s.charCodeAt(++p);
      if (c === PLUS || c === MINUS) c = s.charCodeAt(++p);
      if (!(c >= ZERO && c <= NINE)) throw BAIL;
      do c = s.charCodeAt(++p);
      while (c >= ZERO && c <= NINE);
    }
    this.p = p;
    if (simple) return negative ? -value : value;
    return Number(s.slice(start, p));
  }

  literal(word: string): void {
    const s = this.s;
    const p = this.p;
    for (let i = 0; i < word.length; i++) if (s.charCodeAt(p + i) !== word.charCodeAt(i)) throw BAIL;
    this.p = p + word.length;
  }

  /** Validates any JSON value and moves past it. */
  skipValue(depth = 0): void {
    if (depth > 64) throw BAIL; // deep nesting: left to JSON.parse
    if (this.s.charCodeAt(this.p) <= 0x20) this.ws();
    switch (this.s.charCodeAt(this.p)) {
      case QUOTE:
        this.stringEnd();
        return;
      case OPEN_BRACE:
        this.p++;
        if (this.s.charCodeAt(this.p) <= 0x20) this.ws();
        if (this.s.charCodeAt(this.p) === CLOSE_BRACE) {
          this.p++;
          return;
        }
        for (;;) {
          if (this.s.charCodeAt(this.p) <= 0x20) this.ws();
          if (this.s.charCodeAt(this.p) !== QUOTE) throw BAIL;
          this.stringEnd();
          this.expect(COLON);
          this.skipValue(depth + 1);
          if (!this.nextMember(CLOSE_BRACE)) return;
        }
      case OPEN_BRACKET:
        this.p++;
        if (this.s.charCodeAt(this.p) <= 0x20) this.ws();
        if (this.s.charCodeAt(this.p) === CLOSE_BRACKET) {
          this.p++;
          return;
        }
        for (;;) {
          this.skipValue(depth + 1);
          if (!this.nextMember(CLOSE_BRACKET)) return;
        }
      case LOWER_T:
        this.literal('true');
        return;
      case LOWER_F:
        this.literal('false');
        return;
      case LOWER_N:
        this.literal('null');
        return;
      default:
        this.number();
    }
  }

  /** After a member or element: true at a comma (p after it), false at `close` (p after it). */
  nextMember(close: number): boolean {
    if (this.s.charCodeAt(this.p) <= 0x20) this.ws();
    const c = this.s.charCodeAt(this.p++);
    if (c === COMMA) return true;
    if (c === close) return false;
    throw BAIL;
  }

  /** Any JSON value, as JSON.parse gives it (objects and arrays by JSON.parse of their text). */
  value(): unknown {
    if (this.s.charCodeAt(this.p) <= 0x20) this.ws();
    const c = this.s.charCodeAt(this.p);
    if (c === QUOTE) return this.ownString();
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      const start = this.p;
      this.checkControl = false; // JSON.parse below checks the strings
      try {
        this.skipValue();
      } finally {
        this.checkControl = true;
      }
      return JSON.parse(this.s.slice(start, this.p));
    }
    if (c === LOWER_T) {
      this.literal('true');
      return true;
    }
    if (c === LOWER_F) {
      this.literal('false');
      return false;
    }
    if (c === LOWER_N) {
      this.literal('null');
      return null;
    }
    return this.number();
  }

  /** At a member's key (after any white space): the key decoded; p after the colon and any white space. */
  key(): string {
    if (this.s.charCodeAt(this.p) !== QUOTE) throw BAIL;
    const key = this.string();
    this.expect(COLON);
    if (this.s.charCodeAt(this.p) <= 0x20) this.ws();
    return key;
  }

  /** A string or null (its token noted as a template value of `slot`). */
  stringOrNull(slot: number): string | null {
    const c = this.s.charCodeAt(this.p);
    if (c === QUOTE) {
      const at = this.p;
      const value = this.string();
      this.cuts.push(slot, at, this.escaped ? -1 : this.p);
      return value;
    }
    if (c === LOWER_N) {
      this.literal('null');
      this.cuts.push(slot, -1, 0);
      return null;
    }
    throw BAIL;
  }

  /**
   * A value never read, of a key `slot` (0: a key not listed): kebab's varying texts, as a string or null, are
   * template values of their slot; any other value is checked and stays literal text in a template.
   */
  otherValue(slot: number): void {
    const c = this.s.charCodeAt(this.p);
    if (slot & UNREAD_TEXT && (c === QUOTE || c === LOWER_N)) this.stringOrNull(slot);
    else this.skipValue();
  }

  /** A number or null (a finite number: the slow path reports the others), noted as a template value of `slot`. */
  numberOrNull(slot: number): number | null {
    const at = this.p;
    if (this.s.charCodeAt(at) === LOWER_N) {
      this.literal('null');
      this.cuts.push(slot, -1, 0);
      return null;
    }
    const n = this.number();
    if (n === Infinity || n === -Infinity) throw BAIL;
    this.cuts.push(slot, at, this.p);
    return n;
  }

  /** heading_path: null, a list of strings or one `"A > B"` string, returned as its JSON text. */
  headingJson(): string | null {
    const c = this.s.charCodeAt(this.p);
    if (c === LOWER_N) {
      this.literal('null');
      this.cuts.push(K_HEADING, -1, 0);
      return null;
    }
    if (c === QUOTE) {
      const start = this.p;
      this.stringEnd();
      // The whole token, quotes included, is the slot (JSON.parse reads it back as the string).
      this.cuts.push(K_HEADING, start, this.escaped ? -1 : this.p);
      return this.s.slice(start, this.p);
    }
    if (c !== OPEN_BRACKET) throw BAIL;
    const start = this.p++;
    let escaped = false;
    if (this.s.charCodeAt(this.p) <= 0x20) this.ws();
    if (this.s.charCodeAt(this.p) === CLOSE_BRACKET) {
      this.p++;
    } else {
      for (;;) {
        if (this.s.charCodeAt(this.p) <= 0x20) this.ws();
        if (this.s.charCodeAt(this.p) !== QUOTE) throw BAIL;
        this.stringEnd();
        escaped ||= this.escaped;
        if (!this.nextMember(CLOSE_BRACKET)) break;
      }
    }
    this.cuts.push(K_HEADING, start, escaped ? -1 : this.p);
    return this.s.slice(start, this.p);
  }

  /** A hit's citation into `detail` as parseLineCitation reads it: path and start, else none; end defaults to start. */
  citation(detail: HitDetail): void {
    const c = this.s.charCodeAt(this.p);
    if (c === LOWER_N) {
      this.literal('null');
      return;
    }
    if (c !== OPEN_BRACE) throw BAIL;
    this.p++;
    if (this.s.charCodeAt(this.p) <= 0x20) this.ws();
    if (this.s.charCodeAt(this.p) === CLOSE_BRACE) {
      this.p++;
      return;
    }
    let path: string | null = null;
    let start: number | null = null;
    let end: number | null = null;
    let seen = 0;
    for (;;) {
      if (this.s.charCodeAt(this.p) <= 0x20) this.ws();
      const key = this.key();
      const id = CITATION_KEYS.get(key) ?? 0;
      if (id === 0 && !RESULT_CITATION_KEYS.has(key)) this.hitUnknownKeys.push(`hits_top_k[].citation.${key}`);
      switch (id) {
        case CITATION_PATH:
          path = this.stringOrNull(CITATION_PATH);
          break;
        case CITATION_START:
          start = this.numberOrNull(CITATION_START);
          break;
        case CITATION_END:
          end = this.numberOrNull(CITATION_END);
          break;
        default:
          this.otherValue(id);
      }
      if (seen & id) throw BAIL;
      seen |= id;
      if (!this.nextMember(CLOSE_BRACE)) break;
    }
    if (path === null || start === null) return;
    detail.citationPath = path;
    detail.citationStart = start;
    detail.citationEnd = end ?? start;
  }

  /** One hit, its rank not yet checked against the others: by a template when one matches, else token by token. */
  hit(): RowHit {
    if (this.s.charCodeAt(this.p) <= 0x20) this.ws();
    const templates = this.templates;
    for (let i = 0; i < templates.length; i++) {
      const hit = this.templateHit(templates[i]);
      if (hit !== null) {
        if (i > 0) templates.unshift(templates.splice(i, 1)[0]);
        return hit;
      }
    }
    const start = this.p;
    this.cuts.length = 0;
    const hit = this.genericHit();
    if (this.hitUnknownKeys.length > 0) this.unknownKeys.push(...this.hitUnknownKeys);
    this.learnTemplate(start, this.p);
    return hit;
  }

  templateHit(t: HitTemplate): RowHit | null {
    const s = this.s;
    const at = this.p;
    t.scan.lastIndex = at;
    const m = t.scan.exec(s);
    if (m === null) return null;
    const g = t.groups;
    const rank = Number(m[g.rank]);
    if (!Number.isSafeInteger(rank)) return null; // the token-by-token reader decides the rest
    const chunkId = g.chunk === 0 ? null : m[g.chunk];
    const docId = g.doc === 0 ? null : m[g.doc];
    const docPath = g.path === 0 ? null : m[g.path];
    const version = g.version === 0 ? null : m[g.version];
    this.p = t.scan.lastIndex;
    if (t.unknownKeys.length > 0) this.unknownKeys.push(...t.unknownKeys);
    templateReads++;
    return new RowHit(rank, chunkId, docId, docPath, version, null, s, at, t);
  }

  /** A hit's key as its id (0: a key not read), a key the result schema does not know noted. */
  private hitKey(): number {
    const key = this.key();
    const id = HIT_KEYS.get(key) ?? 0;
    if (id === 0 && !RESULT_HIT_KEYS.has(key)) this.hitUnknownKeys.push(`hits_top_k[].${key}`);
    return id;
  }

  /** One hit object read token by token; its values' positions are noted in `cuts` for a template. */
  genericHit(): RowHit {
    this.expect(OPEN_BRACE);
    if (this.s.charCodeAt(this.p) <= 0x20) this.ws();
    if (this.s.charCodeAt(this.p) === CLOSE_BRACE) throw BAIL; // no rank
    this.hitUnknownKeys = [];
    let rank = 0;
    let chunkId: string | null = null;
    let docId: string | null = null;
    let docPath: string | null = null;
    let version: string | null = null;
    const detail = emptyDetail();
    let seen = 0;
    for (;;) {
      if (this.s.charCodeAt(this.p) <= 0x20) this.ws();
      const id = this.hitKey();
      switch (id) {
        case K_RANK: {
          const at = this.p;
          const c = this.s.charCodeAt(at);
          if (!(c > ZERO && c <= NINE)) throw BAIL; // a sign, zero or not a number: the slow path says which
          rank = this.number();
          if (!Number.isInteger(rank)) throw BAIL;
          this.cuts.push(K_RANK, at, this.p);
          break;
        }
        case K_CHUNK:
          chunkId = this.stringOrNull(K_CHUNK);
          break;
        case K_DOC:
          docId = this.stringOrNull(K_DOC);
          break;
        case K_PATH:
          docPath = this.stringOrNull(K_PATH);
          break;
        case K_HEADING:
          detail.headingJson = this.headingJson();
          break;
        case K_SNIPPET:
          detail.snippet = this.stringOrNull(K_SNIPPET);
          break;
        case K_SCORE:
          detail.score = this.numberOrNull(K_SCORE);
          break;
        case K_CITATION:
          this.citation(detail);
          break;
        case K_VERSION:
          version = this.stringOrNull(K_VERSION);
          break;
        default:
          this.otherValue(id);
      }
      if (seen & id) throw BAIL;
      seen |= id;
      if (!this.nextMember(CLOSE_BRACE)) break;
    }
    if (!(seen & K_RANK)) throw BAIL;
    return new RowHit(rank, chunkId, docId, docPath, version, detail, '', 0, null);
  }

  /** Cuts the hit just read at its values (noted in `cuts`) into a template, compiled once per distinct shape. */
  private learnTemplate(start: number, end: number): void {
    const cuts = this.cuts;
    let source = '';
    let scanSource = '';
    const slots: number[] = [];
    let from = start;
    for (let i = 0; i < cuts.length; i += 3) {
      const slot = cuts[i];
      let at = cuts[i + 1];
      let until = cuts[i + 2];
      if (at === -1) continue; // null: part of the literal text
      if (until === -1) return; // a value with escapes: no template
      if (slot & STRING_SLOTS) {
        at += 1; // the quotes stay in the literal text
        until -= 1;
      }
      const literal = escapeRegExp(this.s.slice(from, at));
      source += literal + SLOT_PATTERN[slot];
      scanSource += literal + scanPattern(slot);
      slots.push(slot);
      from = until;
    }
    const tail = escapeRegExp(this.s.slice(from, end));
    source += tail;
    scanSource += tail;
    let template = this.compiled.get(source);
    if (template === undefined) {
      if (this.compiled.size >= MAX_TEMPLATES_COMPILED) return;
      template = {
        scan: new RegExp(scanSource, 'y'),
        groups: groupsOf(slots.filter((slot) => slot & READ_AT_ONCE)),
        full: new RegExp(source, 'y'),
        slots,
        citationUsable: slots.includes(CITATION_PATH) && slots.includes(CITATION_START),
        unknownKeys: this.hitUnknownKeys,
      };
      this.compiled.set(source, template);
    }
    const templates = this.templates;
    const i = templates.indexOf(template);
    if (i >= 0) templates.splice(i, 1);
    templates.unshift(template);
    if (templates.length > MAX_TEMPLATES_TRIED) templates.pop();
  }

  hits(): Hit[] {
    const c = this.s.charCodeAt(this.p);
    if (c === LOWER_N) {
      this.literal('null');
      return [];
    }
    if (c !== OPEN_BRACKET) throw BAIL;
    this.p++;
    const hits: Hit[] = [];
    if (this.s.charCodeAt(this.p) <= 0x20) this.ws();
    if (this.s.charCodeAt(this.p) === CLOSE_BRACKET) {
      this.p++;
      return hits;
    }
    let previousRank = 0;
    let seenRanks: Set<number> | null = null;
    for (;;) {
      const hit = this.hit();
      const rank = hit.rank;
      // Increasing ranks cannot repeat; once one is out of order, every rank is checked against a set.
      if (rank <= previousRank && seenRanks === null) seenRanks = new Set(hits.map((h) => h.rank));
      if (seenRanks !== null) {
        if (seenRanks.has(rank)) throw BAIL;
        seenRanks.add(rank);
      }
      hits.push(hit);
      previousRank = rank;
      if (!this.nextMember(CLOSE_BRACKET)) break;
    }
    if (seenRanks !== null) hits.sort((a, b) => a.rank - b.rank);
    return hits;
  }

  /**
   * The row: members before `hits_top_k` one by one, the hits by their templates, the members after the hits (the
   * answer, timings, judge scores) by one JSON.parse of their text, as V8's parser builds those values faster.
   */
  result(): ScannedResult {
    this.expect(OPEN_BRACE);
    const fields: JsonObject = {};
    let hits: Hit[] | null = null;
    if (this.s.charCodeAt(this.p) <= 0x20) this.ws();
    if (this.s.charCodeAt(this.p) === CLOSE_BRACE) {
      this.p++;
    } else {
      for (;;) {
        if (this.s.charCodeAt(this.p) <= 0x20) this.ws();
        const key = this.key();
        if (key === 'hits_top_k') {
          hits = this.hits();
          if (!this.nextMember(CLOSE_BRACE)) break;
          return { fields: this.membersAfterHits(fields), hits, unknownKeys: this.unknownKeys };
        }
        if (READ_TOP_LEVEL.has(key)) {
          if (Object.hasOwn(fields, key)) throw BAIL;
          fields[key] = this.value();
        } else {
          if (!RESULT_TOP_KEYS.has(key)) this.unknownKeys.push(key);
          this.skipValue();
        }
        if (!this.nextMember(CLOSE_BRACE)) break;
      }
    }
    this.ws();
    if (this.p !== this.s.length) throw BAIL; // text after the object
    return { fields, hits: hits ?? [], unknownKeys: this.unknownKeys };
  }

  /**
   * After the hits and their comma: the remaining members parsed as one object, with the members read before them.
   * A key given twice (JSON.parse keeps the last) or a second `hits_top_k` leaves the row to the slow path.
   */
  private membersAfterHits(before: JsonObject): JsonObject {
    if (this.s.charCodeAt(this.p) <= 0x20) this.ws();
    if (this.s.charCodeAt(this.p) !== QUOTE) throw BAIL; // `,}` is not JSON, though `{}` would be
    let rest: JsonObject;
    try {
      rest = JSON.parse(`{${this.s.slice(this.p)}`) as JsonObject;
    } catch {
      throw BAIL;
    }
    if (Object.hasOwn(rest, 'hits_top_k')) throw BAIL;
    for (const key of Object.keys(before)) {
      if (Object.hasOwn(rest, key)) throw BAIL;
      rest[key] = before[key];
    }
    this.p = this.s.length;
    return rest;
  }
}

const scanner = new Scanner();
let templateReads = 0;

/** How many hits this thread has read through templates (for tests and benchmarks). */
export function templateReadCount(): number {
  return templateReads;
}

/** Reads one `result_json` text; null when it is not of the common shape (then the slow path decides). */
export function scanResultJson(text: string): ScannedResult | null {
  try {
    scanner.s = text;
    scanner.p = 0;
    scanner.backslashFrom = Number.POSITIVE_INFINITY; // none known in this row
    scanner.unknownKeys.length = 0;
    return scanner.result();
  } catch {
    return null;
  } finally {
    scanner.s = '';
    scanner.decoded = '';
    scanner.checkControl = true;
  }
}
