/**
 * The common shape of a golden-set item, read without a YAML library: a block mapping under `- ` whose every key
 * sits at column 2 and whose every value fits on its line, a plain or quoted scalar or a flow list or map of such
 * scalars. Generated golden files are nearly all like this, and reading them directly is ~5x faster than js-yaml.
 *
 * `readSimpleItem` returns undefined for anything else (nested blocks, multi-line scalars, escapes, anchors,
 * duplicate or odd keys, ...), and the caller reads the item with js-yaml as before. What it does return equals
 * what `yaml` (and the js-yaml path in yamlFast.ts) gives for the item, except that flow maps (`{a: 1}`) come back
 * as Maps with the same entries in the same order (see flowMap; golden.ts reads both): plain scalars resolve
 * through the same YAML 1.2 core-schema function. It only ever runs on text that yamlFast's scan has already passed (no tabs in
 * indentation, directives, lone CRs, BOM). test/golden.test.ts compares all three readers on generated files.
 */

/** A plain scalar's value under the YAML 1.2 core schema as `yaml` resolves it (yamlFast.ts). */
export type ResolvePlain = (text: string) => unknown;

const SPACE = 32, TAB = 9, CR = 13, HASH = 35, DQ = 34, SQ = 39, COMMA = 44, COLON = 58;
const LBRACKET = 91, RBRACKET = 93, LBRACE = 123, RBRACE = 125, BACKSLASH = 92;

/** Chars that may not start a plain scalar (YAML c-indicator), besides `-`, `?` and `:` followed by a space. */
const INDICATOR = new Set([...'#&*!|>\'"%@`,[]{}'].map((c) => c.charCodeAt(0)));
/** A key as generated golden files write them: a plain identifier (`yaml` limits implicit keys to 1024 chars). */
const KEY = /^[A-Za-z_][A-Za-z0-9_]{0,999}$/;
/** js-yaml's non-printable test, plus U+FEFF. */
const NON_PRINTABLE = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFEFF\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/;

/** No char of `text` is one readSimpleItem leaves to the libraries (see NON_PRINTABLE). */
export function hasOnlyPrintable(text: string): boolean {
  return !NON_PRINTABLE.test(text);
}

/** Thrown (one instance, no stack trace to capture) when the item is not of the simple shape. */
const DECLINE = Symbol('decline');
const decline = (): never => {
  throw DECLINE;
};

/**
 * The item's mapping, or undefined when the item is not of the simple shape. `text.slice(start, end)` starts with
 * `- `. `printable`: the caller has checked the whole text with hasOnlyPrintable (one pass instead of one per item).
 */
export function readSimpleItem(text: string, start: number, end: number, resolve: ResolvePlain, printable = false): Record<string, unknown> | undefined {
  // What the libraries reject or read their own way (non-printable chars, a BOM inside): theirs to say.
  if (!printable && NON_PRINTABLE.test(text.slice(start, end))) return undefined;
  try {
    return readItem(text, start, end, resolve);
  } catch (error) {
    if (error === DECLINE) return undefined;
    throw error;
  } finally {
    sharedReader.text = '';
  }
}

/**
 * The item's lines that are neither blank nor comments, as (at, end, indent) triples in `LINES`: `at` is the first
 * char after the indentation, `end` excludes a CR. The first line keeps its `- ` (indent 0). One scratch array for
 * every item (items are read one at a time, and the reader does not recurse).
 */
const LINES: number[] = [];

function linesOf(text: string, start: number, end: number): number {
  let n = 0;
  for (let pos = start; pos < end;) {
    let eol = text.indexOf('\n', pos);
    if (eol === -1 || eol > end) eol = end;
    let lineEnd = eol;
    if (lineEnd > pos && text.charCodeAt(lineEnd - 1) === CR) lineEnd--;
    let i = pos;
    while (i < lineEnd && text.charCodeAt(i) === SPACE) i++;
    if (i < lineEnd && text.charCodeAt(i) !== HASH) {
      LINES[n++] = i;
      LINES[n++] = lineEnd;
      LINES[n++] = i - pos;
    }
    pos = eol + 1;
  }
  return n;
}

function readItem(text: string, start: number, end: number, resolve: ResolvePlain): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const n = linesOf(text, start, end);
  // `- key: value`: the mapping's keys sit at column 2.
  if (n === 0 || LINES[2] !== 0 || text.charCodeAt(LINES[0]) !== 45 || text.charCodeAt(LINES[0] + 1) !== SPACE) decline();
  LINES[0] += 2;
  LINES[2] = 2;
  const line = reader(text, resolve);
  for (let l = 0; l < n; l += 3) {
    const at = LINES[l];
    const lineEnd = LINES[l + 1];
    if (LINES[l + 2] !== 2) decline();
    const colon = text.indexOf(':', at);
    if (colon === -1 || colon >= lineEnd) decline();
    const key = seenKeyAt(text, at, colon, resolve) ?? newKey(text.slice(at, colon), resolve);
    if (Object.prototype.hasOwnProperty.call(out, key)) decline();
    line.pos = colon + 1;
    line.end = lineEnd;
    if (line.char() !== -1 && line.char() !== SPACE) decline(); // `key:value` is one plain scalar to YAML
    line.skipSpaces();
    if (!line.atCommentOrEnd()) {
      out[key] = line.blockValue();
      line.skipSpaces();
      if (!line.atCommentOrEnd()) decline();
      continue;
    }
    // No value on the line: a block list whose items sit at column 4, one single-line value each.
    const list: unknown[] = [];
    while (l + 3 < n && LINES[l + 5] > 2) {
      l += 3;
      const itemAt = LINES[l];
      if (LINES[l + 2] !== 4 || text.charCodeAt(itemAt) !== 45 || text.charCodeAt(itemAt + 1) !== SPACE) decline();
      line.pos = itemAt + 2;
      line.end = LINES[l + 1];
      line.skipSpaces();
      if (line.atCommentOrEnd()) decline();
      list.push(line.blockValue());
      line.skipSpaces();
      if (!line.atCommentOrEnd()) decline();
    }
    if (list.length === 0) decline(); // `key:` alone is null to YAML; rare enough to leave to the library
    out[key] = list;
  }
  return out;
}

/**
 * Keys already read and checked (with the resolver that checked them), to reuse: a golden file repeats the same
 * dozen keys on every item, and a new slice of each was a string to allocate, test against KEY, resolve and, when
 * it became a property name, hash and intern (~700,000 times at 100,000 queries). At most MAX_SEEN_KEYS.
 */
const seenKeys: string[] = [];
let seenWith: ResolvePlain | null = null;
const MAX_SEEN_KEYS = 64;

/** The checked key that text[at, colon) spells, if one was seen. */
function seenKeyAt(text: string, at: number, colon: number, resolve: ResolvePlain): string | undefined {
  if (resolve !== seenWith) return undefined;
  const length = colon - at;
  for (let i = 0; i < seenKeys.length; i++) {
    const key = seenKeys[i];
    if (key.length === length && text.startsWith(key, at)) return key;
  }
  return undefined;
}

/** `key` if the simple shape allows it (a plain identifier YAML reads as a string), remembered; else decline. */
function newKey(key: string, resolve: ResolvePlain): string {
  if (!KEY.test(key) || key === '__proto__' || typeof resolve(key) !== 'string') decline();
  if (resolve !== seenWith) {
    seenKeys.length = 0;
    seenWith = resolve;
  }
  if (seenKeys.length < MAX_SEEN_KEYS) seenKeys.push(key);
  return key;
}

/** A key an object lists before the others: a canonical array index (0 .. 2^32 - 2). */
function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 2 ** 32 - 1;
}

/** The entries of `map` in the order Object.keys lists them on an object with the same properties. */
function inObjectOrder(map: Map<string, unknown>): Map<string, unknown> {
  const keys = [...map.keys()];
  const indexes = keys.filter(isArrayIndex).sort((a, b) => Number(a) - Number(b));
  return new Map([...indexes, ...keys.filter((k) => !isArrayIndex(k))].map((k) => [k, map.get(k)]));
}

/** The shared Reader, set to `text` (its position and end are set per line). */
function reader(text: string, resolve: ResolvePlain): Reader {
  const r = sharedReader;
  r.text = text;
  r.resolve = resolve;
  return r;
}

class Reader {
  constructor(public text: string, public pos: number, public end: number, public resolve: ResolvePlain) {}

  char(): number {
    return this.pos < this.end ? this.text.charCodeAt(this.pos) : -1;
  }

  skipSpaces(): void {
    while (this.pos < this.end && this.text.charCodeAt(this.pos) === SPACE) this.pos++;
  }

  /** At the end of the line, or at a comment (`#` after a space). */
  atCommentOrEnd(): boolean {
    if (this.pos >= this.end) return true;
    return this.text.charCodeAt(this.pos) === HASH && this.text.charCodeAt(this.pos - 1) === SPACE;
  }

  blockValue(): unknown {
    const c = this.char();
    if (c === DQ) return this.doubleQuoted();
    if (c === SQ) return this.singleQuoted();
    if (c === LBRACKET) return this.flowList();
    if (c === LBRACE) return this.flowMap();
    return this.plain(false);
  }

  /** A double-quoted scalar without escapes (any backslash: decline, the library knows YAML's escapes). */
  doubleQuoted(): string {
    const close = this.text.indexOf('"', this.pos + 1);
    if (close === -1 || close >= this.end) decline();
    const value = this.text.slice(this.pos + 1, close);
    if (value.includes('\\')) decline();
    this.pos = close + 1;
    return value;
  }

  singleQuoted(): string {
    let value = '';
    let from = this.pos + 1;
    for (;;) {
      const close = this.text.indexOf("'", from);
      if (close === -1 || close >= this.end) decline();
      value += this.text.slice(from, close);
      if (this.text.charCodeAt(close + 1) === SQ && close + 1 < this.end) {
        value += "'";
        from = close + 2;
        continue;
      }
      this.pos = close + 1;
      return value;
    }
  }

  /**
   * A plain scalar: in a block value, to the end of the line or a comment; in a flow collection, also to `,`, `]`
   * or `}`. Declines the cases where YAML would read more than a scalar here (`: `, a flow indicator in a block
   * value's first char, `[`/`{` inside a flow scalar) or read it differently (a leading indicator).
   */
  plain(flow: boolean): unknown {
    const start = this.pos;
    const c0 = this.char();
    if (c0 === -1 || INDICATOR.has(c0) || c0 === TAB) decline();
    const next = this.pos + 1 < this.end ? this.text.charCodeAt(this.pos + 1) : SPACE;
    if ((c0 === 45 || c0 === 63 || c0 === COLON) && (next === SPACE || (flow && (next === COMMA || next === RBRACKET || next === RBRACE)))) decline();
    let last = start; // end of the scalar's last non-space char
    while (this.pos < this.end) {
      const c = this.text.charCodeAt(this.pos);
      if (c === HASH && this.text.charCodeAt(this.pos - 1) === SPACE) break;
      if (c === TAB) decline();
      if (c === COLON) decline(); // `a: b` is a mapping, `a:b` differs between readers in flow: leave both to the library
      if (flow) {
        if (c === COMMA || c === RBRACKET || c === RBRACE) break;
        if (c === LBRACKET || c === LBRACE) decline();
      }
      this.pos++;
      if (c !== SPACE) last = this.pos;
    }
    this.pos = last;
    return this.resolve(this.text.slice(start, last));
  }

  flowScalar(): unknown {
    const c = this.char();
    if (c === DQ) return this.doubleQuoted();
    if (c === SQ) return this.singleQuoted();
    return this.plain(true);
  }

  /** A list of scalars; at the top, also of such lists (required_support_groups: `[[0], [1, 2]]`). */
  flowList(nested = false): unknown[] {
    this.pos++; // [
    const out: unknown[] = [];
    this.skipSpaces();
    if (this.char() === RBRACKET) {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipSpaces();
      out.push(!nested && this.char() === LBRACKET ? this.flowList(true) : this.flowScalar());
      this.skipSpaces();
      const c = this.char();
      this.pos++;
      if (c === RBRACKET) return out;
      if (c !== COMMA) decline();
      this.skipSpaces();
      if (this.char() === RBRACKET) decline(); // a trailing comma: leave it to the library
    }
  }

  /**
   * A flow map, as a Map: judgments maps have keys no other map has (document ids), and an object would intern
   * every one of them as a property name (10x slower than a Map at 100k queries). Entries are in the order the
   * object the libraries build would list them: array-index keys first, ascending, then the rest as written.
   */
  flowMap(): Map<string, unknown> {
    this.pos++; // {
    const out = new Map<string, unknown>();
    this.skipSpaces();
    if (this.char() === RBRACE) {
      this.pos++;
      return out;
    }
    let indexKeys = false;
    for (;;) {
      this.skipSpaces();
      const key = this.flowKey();
      if (key === '__proto__' || key === '' || out.has(key)) decline();
      if (this.char() !== COLON) decline();
      this.pos++;
      if (this.char() !== SPACE) decline();
      this.skipSpaces();
      // One level of nesting: a map value may be a list of scalars (gold_supports' heading_path).
      out.set(key, this.char() === LBRACKET ? this.flowList(true) : this.flowScalar());
      if (!indexKeys) {
        const c0 = key.charCodeAt(0);
        indexKeys = c0 >= 48 && c0 <= 57 && isArrayIndex(key);
      }
      this.skipSpaces();
      const c = this.char();
      this.pos++;
      if (c === RBRACE) return indexKeys ? inObjectOrder(out) : out;
      if (c !== COMMA) decline();
      this.skipSpaces();
      if (this.char() === RBRACE) decline();
    }
  }

  /** A flow map key: quoted, or plain up to the `:` (plain keys that resolve to other than a string: decline). */
  flowKey(): string {
    const c = this.char();
    if (c === DQ) return this.doubleQuoted();
    if (c === SQ) return this.singleQuoted();
    const start = this.pos;
    if (c === -1 || INDICATOR.has(c) || c === 45 || c === 63 || c === COLON) decline();
    while (this.pos < this.end) {
      const ch = this.text.charCodeAt(this.pos);
      if (ch === COLON || ch === COMMA || ch === RBRACE || ch === LBRACE || ch === LBRACKET || ch === RBRACKET || ch === HASH || ch === SPACE || ch === TAB || ch === BACKSLASH) break;
      this.pos++;
    }
    const key = this.text.slice(start, this.pos);
    if (key.length > 1000 || typeof this.resolve(key) !== 'string') decline();
    return key;
  }
}

/** One Reader for every line of every item (see `reader`). */
const sharedReader = new Reader('', 0, 0, (text) => text);
