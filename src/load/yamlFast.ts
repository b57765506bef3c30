/**
 * A fast YAML reader for the golden set: js-yaml 4 with a schema that resolves plain scalars exactly like the
 * `yaml` package's YAML 1.2 core schema (which src/load/golden.ts uses for messages with lines). On a 34 MB golden
 * file it takes ~2 s and ~350 MB where `yaml`'s parseDocument + LineCounter take ~20 s and ~2.7 GB.
 *
 * `loadYamlFast` declines (returns undefined, or its items throw UseYamlPackage) whenever the two libraries could
 * disagree, so what it reads has the same JS value as `parseDocument(text, {uniqueKeys: true}).toJSON()`:
 * - js-yaml throws (bad YAML, duplicate keys, unknown tags, several documents, control characters, ...);
 * - `%` directives (`%YAML 1.1` switches `yaml` to YAML 1.1 scalars: `yes`, `on`, ...), tags and anchors (`yaml`
 *   limits alias expansion; an alias can be a key), a BOM (`yaml` rejects one before a top-level list);
 * - keys that are null, empty or collections, and explicit `?` keys: js-yaml makes a null key "null" and
 *   `[a, b]` "a,b" where `yaml` makes "" and "[ a, b ]";
 * - what js-yaml accepts and `yaml` rejects: quoted scalars and flow collections continued on lines not indented
 *   past their holder, comments not separated by a space (`"x"#c`), implicit keys over 1024 chars, lone CRs as
 *   line breaks, `\U` escapes past U+10FFFF;
 * - what they read differently: tabs in indentation or blank lines, lines of spaces in block scalars, an escaped
 *   line break followed by an empty line in a double-quoted scalar.
 * `scanText` finds these in one pass. It is a rough scan, not a YAML lexer, and errs on the side of declining
 * (e.g. `[` in a plain scalar counts as opening a flow collection): a false alarm costs the slow path, never a
 * different result. test/golden.test.ts compares the two readers on generated files.
 *
 * A top level that is a block sequence at column 0 (the usual golden file) is loaded one item at a time: the
 * same values (once the scan passed, an item's text cannot change how another reads), less memory, less GC.
 * An item of the usual one-line-per-key shape is read by src/load/yamlItem.ts without js-yaml (~5x faster); the
 * others go through js-yaml.
 */
import { FAILSAFE_SCHEMA, load, Type } from 'js-yaml';
import { hasOnlyPrintable, readSimpleItem } from './yamlItem.js';

/**
 * A map key that YAML read as a number or a boolean (`007: 2` is the key "7"), as written and as read: a golden
 * file's judgments keys are ids, and an unquoted numeric one no longer matches the run's id as written. Noted for
 * the item objects js-yaml reads (see loadRecordingKeys); the `yaml` path notes them from its nodes
 * (src/load/golden.ts). The golden reader warns of those in judgments.
 */
export interface NonTextKey {
  written: string;
  read: string;
}

export const nonTextKeysOf = new WeakMap<object, NonTextKey[]>();

/**
 * Whether `text` may hold a plain key that the core schema reads as a number or a boolean: a token that starts as
 * one of those can (a digit, a sign or a dot before a digit, `.inf`, `.nan`, `true`, `false`), right after a line's
 * indentation, a space or a flow indicator, and followed by its `:`. A superset (`2024-01-01:` and `trueish:` pass and
 * are then read as the strings they are): text without a match has no such key, and js-yaml reads it without the
 * listener (one call per node, ~2% of a golden half whose items need js-yaml).
 */
const MAYBE_NON_TEXT_KEY = /(?:^|[\s{,[])(?:[-+]?(?:\.?[0-9]|\.inf|\.Inf|\.INF)|\.nan|\.NaN|\.NAN|true|True|TRUE|false|False|FALSE)[^\s:,{}[\]]*[ \t]*:(?=[\s,}\]]|$)/m;
const NO_KEYS: NonTextKey[] = [];

/**
 * js-yaml's `load` of one item (`- ...`, a list of one map) with the keys of the item's `judgments` map that it read
 * as numbers or booleans, as the `yaml` path finds them (withNonTextKeys in src/load/golden.ts). The listener sees
 * every node open and close, nested: the list is depth 1, the item's map 2, its keys and values 3, the keys of a
 * map value 4. A key is a scalar followed by its `:`.
 */
function loadRecordingKeys(text: string): { value: unknown; keys: NonTextKey[] } {
  if (!MAYBE_NON_TEXT_KEY.test(text)) return { value: load(text, { schema: CORE_AS_YAML }), keys: NO_KEYS };
  const keys: NonTextKey[] = [];
  const opened: number[] = [];
  let depth = 0;
  let judgmentsNext = false; // the item's `judgments` key just closed: its value opens next
  let judgmentsDepth = -1; // the depth of that value while it is open
  const value = load(text, {
    schema: CORE_AS_YAML,
    listener: (event, state) => {
      if (event === 'open') {
        depth++;
        opened.push(state.position);
        if (judgmentsNext) judgmentsDepth = depth;
        judgmentsNext = false;
        return;
      }
      const closing = depth--;
      const from = opened.pop() ?? state.position;
      if (closing === judgmentsDepth) judgmentsDepth = -1;
      if (state.kind !== 'scalar') return;
      let at = state.position;
      while (text.charCodeAt(at) === SPACE || text.charCodeAt(at) === TAB) at++;
      if (text.charCodeAt(at) !== COLON) return; // not a key
      const read = state.result as unknown;
      if (closing === 3 && read === 'judgments') judgmentsNext = true;
      else if (judgmentsDepth !== -1 && closing === judgmentsDepth + 1 && (typeof read === 'number' || typeof read === 'boolean')) {
        keys.push({ written: text.slice(from, state.position).trim(), read: String(read) });
      }
    },
  });
  return { value, keys };
}

/** Thrown when a text has to be read by the `yaml` package instead (see the file comment). */
export class UseYamlPackage extends Error {
  constructor() {
    super('the text needs the yaml package');
  }
}

// The `yaml` package's core schema tests (yaml/dist/schema/core/*.js and schema/common/null.js).
const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** Whether a plain scalar can be a number: starts with a digit, a sign or a dot (a cheap test before the regexes). */
function numberLike(data: unknown): data is string {
  if (typeof data !== 'string' || data === '') return false;
  const c = data.charCodeAt(0);
  return (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46;
}

/** YAML 1.2 core scalars as `yaml` 2 resolves them (intAsBigInt off), for js-yaml. */
const CORE_TYPES = [
  new Type('tag:yaml.org,2002:null', {
    kind: 'scalar',
    resolve: (data: unknown) => data === null || (typeof data === 'string' && data.length <= 4 && NULL.test(data)),
    construct: () => null,
  }),
  new Type('tag:yaml.org,2002:bool', {
    kind: 'scalar',
    resolve: (data: unknown) => typeof data === 'string' && (data.length === 4 || data.length === 5) && BOOL.test(data),
    construct: (data: string) => data[0] === 't' || data[0] === 'T',
  }),
  new Type('tag:yaml.org,2002:int', {
    kind: 'scalar',
    resolve: (data: unknown) => numberLike(data) && (INT.test(data) || INT_OCT.test(data) || INT_HEX.test(data)),
    construct: (data: string) =>
      INT_OCT.test(data) ? parseInt(data.substring(2), 8) : INT_HEX.test(data) ? parseInt(data.substring(2), 16) : parseInt(data, 10),
  }),
  new Type('tag:yaml.org,2002:float', {
    kind: 'scalar',
    resolve: (data: unknown) => numberLike(data) && (FLOAT.test(data) || FLOAT_EXP.test(data) || FLOAT_NAN.test(data)),
    construct: (data: string) =>
      FLOAT_NAN.test(data)
        ? data.slice(-3).toLowerCase() === 'nan' ? NaN : data[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY
        : parseFloat(data),
  }),
];
const CORE_AS_YAML = FAILSAFE_SCHEMA.extend({ implicit: CORE_TYPES });

/** A YAML text read by js-yaml: a top-level block sequence item by item, or the whole value. */
/** A top-level list read item by item (with where each item's `- ` line starts), or the whole value. */
export type FastYaml = { items: Iterable<unknown>; starts: readonly number[] } | { value: unknown };

/**
 * The JS value of a one-document YAML text, as `yaml`'s `parseDocument(text, {uniqueKeys: true}).toJSON()` would
 * give it; undefined, or items that throw UseYamlPackage, when only the `yaml` package can tell.
 */
export function loadYamlFast(text: string): FastYaml | undefined {
  const simple = loadSimpleItems(text);
  if (simple !== undefined) return simple;
  const scan = scanText(text);
  if (scan === undefined) return undefined;
  if (scan.itemStarts !== undefined) return { items: loadItems(text, scan.itemStarts), starts: scan.itemStarts };
  try {
    // A key that may read as a number or boolean: the `yaml` path, which tells whether it is a judgments key (rare
    // in a file of this shape: one without the usual top-level list).
    return MAYBE_NON_TEXT_KEY.test(text) ? undefined : { value: load(text, { schema: CORE_AS_YAML }) };
  } catch {
    return undefined;
  }
}

/** A plain scalar resolved as CORE_AS_YAML resolves it (null, bool, int, float, else the string itself). */
export function resolvePlainScalar(data: string): unknown {
  // Most plain scalars in a golden file (ids, categories) start with a letter no core type starts with (null:
  // ~ n N; bool: t T f F; numbers: a digit, a sign or a dot), and grades are one digit: answered without the regexes.
  const c = data.charCodeAt(0);
  if ((c >= 97 && c <= 122 && c !== 102 && c !== 110 && c !== 116) || (c >= 65 && c <= 90 && c !== 70 && c !== 78 && c !== 84)) return data;
  if (data.length === 1 && c >= 48 && c <= 57) return c - 48;
  for (const type of CORE_TYPES) if (type.resolve(data)) return type.construct(data);
  return data;
}

/**
 * A top-level list whose items are all of the usual one-line-per-key shape (src/load/yamlItem.ts), read without
 * the whole-text scan: the items are cut at lines starting `- `, the text before the first holds only comments and
 * blank lines, and there is no BOM or CR. readSimpleItem accepts only lines that are complete on their own (a key
 * at column 2 with its whole value, a list item at column 4, a comment), so nothing can span a cut and each piece
 * is the item YAML reads there. At the first item of another shape, the scan decides as before; the items read so
 * far are kept when it cuts the text at the same places.
 */
function loadSimpleItems(text: string): FastYaml | undefined {
  if (text.charCodeAt(0) === 0xfeff || text.indexOf('\r') !== -1) return undefined;
  const first = text.startsWith('- ') ? 0 : text.indexOf('\n- ') + 1;
  if (first === 0 && !text.startsWith('- ')) return undefined;
  for (let pos = 0; pos < first;) {
    // The header: blank lines and comments only.
    let end = text.indexOf('\n', pos);
    if (end === -1) end = text.length;
    let i = pos;
    while (i < end && text.charCodeAt(i) === SPACE) i++;
    if (i < end && text.charCodeAt(i) !== HASH) return undefined;
    pos = end + 1;
  }
  const starts: number[] = [];
  for (let at = first; ; at = text.indexOf('\n- ', at) + 1) {
    if (at === 0 && starts.length > 0) break;
    starts.push(at);
  }
  // The first item decides whether this path is worth taking; the rest are read as they are consumed (each item's
  // object dies young), and `starts` is what the scan would give as long as every item reads as simple.
  const printable = hasOnlyPrintable(text);
  const firstItem = readSimpleItem(text, starts[0], starts.length > 1 ? starts[1] : text.length, resolvePlainScalar, printable);
  if (firstItem === undefined) return undefined;
  return { items: simpleItems(text, starts, firstItem, printable), starts };
}

/** The items of loadSimpleItems; at the first of another shape the scan takes over (or the file goes to `yaml`). */
function* simpleItems(text: string, starts: number[], firstItem: unknown, printable: boolean): Generator<unknown> {
  yield firstItem;
  for (let i = 1; i < starts.length; i++) {
    const item = readSimpleItem(text, starts[i], i + 1 < starts.length ? starts[i + 1] : text.length, resolvePlainScalar, printable);
    if (item !== undefined) {
      yield item;
      continue;
    }
    const scan = scanText(text);
    // The items already handed out were read as the scan would have them read only if it cuts the text at the
    // same places up to here; otherwise (or when the scan declines) the `yaml` package reads the file.
    const cutsAgree = (cuts: number[]) => cuts.length > i && starts.slice(0, i + 1).every((s, k) => cuts[k] === s);
    if (scan === undefined || scan.itemStarts === undefined || !cutsAgree(scan.itemStarts)) throw new UseYamlPackage();
    yield* loadItems(text, scan.itemStarts, i);
    return;
  }
}

function* loadItems(text: string, starts: number[], from = 0): Generator<unknown> {
  for (let i = from; i < starts.length; i++) {
    const end = i + 1 < starts.length ? starts[i + 1] : text.length;
    // The usual one-line-per-key item directly; anything else through js-yaml.
    const simple = readSimpleItem(text, starts[i], end, resolvePlainScalar);
    if (simple !== undefined) {
      yield simple;
      continue;
    }
    let value: unknown;
    let keys: NonTextKey[];
    try {
      ({ value, keys } = loadRecordingKeys(text.slice(starts[i], end)));
    } catch {
      throw new UseYamlPackage();
    }
    if (!Array.isArray(value) || value.length !== 1) throw new UseYamlPackage();
    if (keys.length > 0 && typeof value[0] === 'object' && value[0] !== null) nonTextKeysOf.set(value[0] as object, keys);
    yield value[0];
  }
}

const LF = 10, CR = 13, SPACE = 32, TAB = 9, HASH = 35, DQ = 34, SQ = 39, PERCENT = 37, AMP = 38, BANG = 33;
const LBRACKET = 91, RBRACKET = 93, LBRACE = 123, RBRACE = 125, COMMA = 44, COLON = 58, DASH = 45, QUESTION = 63;
const PIPE = 124, GT = 62, PLUS = 43, DOT = 46, TILDE = 126;
/** `yaml` rejects an implicit key whose `:` is more than 1024 chars from its start; js-yaml has no limit. */
const MAX_KEY = 1000;

/** ASCII chars with no meaning to the scan outside quotes (letters, digits, most punctuation): 1. */
const PLAIN_CHAR = new Uint8Array(128);
for (let c = 33; c < 127; c++) PLAIN_CHAR[c] = 1;
for (const c of '#:&!?"\'[]{},-') PLAIN_CHAR[c.charCodeAt(0)] = 0;

/** text.indexOf(search, from), or n when it is not there. */
function indexOr(text: string, search: string, from: number, n: number): number {
  const at = text.indexOf(search, from);
  return at === -1 ? n : at;
}

const isBlankChar = (c: number) => c === SPACE || c === TAB || c === CR || c === LF || Number.isNaN(c);

/**
 * One pass over the text: undefined if it has anything in the file comment's list, else where the items of a
 * top-level block sequence at column 0 start (undefined if the top level is something else).
 *
 * Continuation lines of a quoted scalar or flow collection must be indented past the "holder" (the column of the
 * node after any `- ` indicators on the line that opened it), as `yaml` requires, except blank lines, comment
 * lines inside a flow collection (not at column 0), and the closing bracket of a one-level flow collection at the
 * holder's column. A block scalar's lines are skipped: those indented past its parent (the key, else the `- `).
 */
function scanText(text: string): { itemStarts: number[] | undefined } | undefined {
  // A BOM: `yaml` 2.9 rejects a BOM before a top-level sequence, js-yaml skips it.
  if (text.charCodeAt(0) === 0xfeff || /\r(?!\n)/.test(text) || text.includes('\\U')) return undefined;
  const n = text.length;
  let quote = 0; // DQ or SQ while inside a quoted scalar
  let depth = 0; // flow collection depth
  let holder = 0; // column of the block node holding the open quote or flow collection
  let blockScalarHolder = -1; // >= 0 while skipping the lines of a block scalar (`|`, `>`)
  let escapedBreak = false; // the last line ended with `\` inside a double-quoted scalar
  let atNodeStart = false; // a node (scalar, collection, tag, anchor) could start here
  let tokenStart = -1; // start of the plain scalar that began at a node start, if any
  let prevSig = 0; // the last char outside quotes and comments that is not a space
  let nextDq = -1, nextSq = -1, nextBackslash = -1; // cached positions of the next `"`, `'`, `\` (n: none)
  let itemStarts: number[] | undefined = []; // undefined once a column-0 line is not an item, comment or leading `---`
  let sawDocumentStart = false;
  let lastDash = -1; // column of the last `- ` indicator on the current block-level line
  for (let pos = 0; pos < n;) {
    let end = text.indexOf('\n', pos);
    if (end === -1) end = n;
    let i = pos;
    while (i < end && text.charCodeAt(i) === SPACE) i++;
    const indent = i - pos;
    if (i < end && text.charCodeAt(i) === TAB) return undefined; // a tab in indentation or a blank line
    const blank = i === end || (i === end - 1 && text.charCodeAt(i) === CR);
    if (indent === 0 && text.charCodeAt(i) === PERCENT) return undefined; // a directive (or `%` where it is an error)
    if (blockScalarHolder >= 0) {
      if (blank && indent > 0) return undefined; // a line of spaces in a block scalar
      if (blank || indent > blockScalarHolder) {
        pos = end + 1;
        continue;
      }
      blockScalarHolder = -1;
    }
    const afterEscapedBreak = escapedBreak;
    escapedBreak = false;
    let k = i;
    const continuation = quote !== 0 || depth > 0;
    if (continuation) {
      if (afterEscapedBreak && blank) return undefined;
      // A comment at column 0 in a flow collection: `yaml` takes it for one not separated by a space.
      if (quote === 0 && indent === 0 && text.charCodeAt(i) === HASH) return undefined;
      if (!blank && indent <= holder) {
        const c = text.charCodeAt(i);
        const allowed = quote === 0 && (c === HASH || (indent === holder && depth === 1 && (c === RBRACKET || c === RBRACE)));
        if (!allowed) return undefined;
      }
    } else {
      if (blank) {
        pos = end + 1;
        continue;
      }
      const c0 = text.charCodeAt(i);
      // Before the first item only comments and one `---` may come: they are not in any item's text.
      if (indent > 0 && c0 !== HASH && itemStarts !== undefined && itemStarts.length === 0) itemStarts = undefined;
      if (indent === 0) {
        const marker = (c0 === DASH || c0 === DOT) && text.startsWith(c0 === DASH ? '---' : '...', i);
        if (marker && !isBlankChar(text.charCodeAt(i + 3))) return undefined; // `--- value`: keep the scan simple
        if (itemStarts !== undefined) {
          if (c0 === DASH && !marker && isBlankChar(text.charCodeAt(i + 1))) itemStarts.push(pos);
          else if (c0 === DASH && marker && itemStarts.length === 0 && !sawDocumentStart) sawDocumentStart = true; // one leading `---`
          else if (c0 !== HASH) itemStarts = undefined;
        }
      }
      // The holder: past `- ` indicators. `? ` (explicit key) and `: ` (a value with an empty key) decline.
      lastDash = -1;
      for (;;) {
        const c = text.charCodeAt(k);
        if ((c === DASH || c === QUESTION || c === COLON) && k < end && isBlankChar(text.charCodeAt(k + 1))) {
          if (c !== DASH) return undefined;
          lastDash = k - pos;
          k++;
          while (k < end && text.charCodeAt(k) === SPACE) k++;
          if (text.charCodeAt(k) === TAB) return undefined; // `-\t`: a tab in indentation for `yaml`
          prevSig = DASH;
        } else break;
      }
      holder = k - pos;
      atNodeStart = true;
      tokenStart = -1;
    }
    let contentEnd = end; // where a comment starts
    let keyStart = k; // where an implicit key ending on this line could start
    for (; k < end; k++) {
      if (quote === DQ) {
        // Jump to the next `"` or `\` (both positions cached: a quote can run over many lines).
        if (nextDq < k) nextDq = indexOr(text, '"', k, n);
        if (nextBackslash < k) nextBackslash = indexOr(text, '\\', k, n);
        if (nextBackslash < nextDq && nextBackslash < end) {
          k = nextBackslash + 1; // the escaped char
          escapedBreak = k >= end || (k === end - 1 && text.charCodeAt(k) === CR);
        } else if (nextDq < end) {
          k = nextDq;
          quote = 0;
          prevSig = DQ;
        } else k = end;
        continue;
      }
      if (quote === SQ) {
        if (nextSq < k) nextSq = indexOr(text, "'", k, n);
        if (nextSq >= end) k = end;
        else if (nextSq + 1 < end && text.charCodeAt(nextSq + 1) === SQ) k = nextSq + 1; // `''`
        else {
          k = nextSq;
          quote = 0;
          prevSig = SQ;
        }
        continue;
      }
      const c = text.charCodeAt(k);
      if (c >= 128 || PLAIN_CHAR[c] === 1) {
        // The common case: a char of a plain scalar.
        if (atNodeStart) {
          atNodeStart = false;
          tokenStart = k;
        }
        prevSig = c;
        continue;
      }
      if (c === SPACE || c === TAB || c === CR) continue;
      const prev = k > pos ? text.charCodeAt(k - 1) : SPACE;
      if (c === HASH) {
        if (prev === SPACE || prev === TAB) {
          contentEnd = k;
          break;
        }
        // `"x"#c`, `[#`, `"k":#c`: a comment not separated by a space, an error for `yaml` only.
        if (prev === DQ || prev === SQ || prev === LBRACKET || prev === RBRACKET || prev === LBRACE || prev === RBRACE || prev === COMMA || prev === COLON) {
          return undefined;
        }
      }
      const nextBlank = isBlankChar(text.charCodeAt(k + 1));
      if (c === COLON && (nextBlank || depth > 0)) {
        if (k - keyStart > MAX_KEY) return undefined;
        if (nextBlank) {
          if (atNodeStart || prevSig === RBRACKET || prevSig === RBRACE) return undefined; // an empty or collection key
          if (tokenStart >= 0 && isNullWord(text, tokenStart, k)) return undefined; // a null key
        }
        atNodeStart = true;
        tokenStart = -1;
      } else if (atNodeStart) {
        if (c === AMP || c === BANG || (c === QUESTION && nextBlank)) return undefined; // an anchor, a tag, an explicit key
        if (c === DQ || c === SQ) {
          quote = c;
          atNodeStart = false;
        } else if (c === LBRACKET || c === LBRACE) {
          if (depth === 0 && k === pos) holder = -1; // a top-level flow collection: `yaml` takes any indentation
          depth++;
          keyStart = k + 1;
        } else if (c === COMMA) {
          keyStart = k + 1;
        } else if (c === DASH && nextBlank) {
          // a block sequence indicator: still at a node start
        } else if (c === RBRACKET || c === RBRACE) {
          if (depth > 0) depth--;
          atNodeStart = false;
        } else {
          atNodeStart = false;
          tokenStart = k;
        }
      } else if (c === LBRACKET || c === LBRACE) {
        depth++;
        keyStart = k + 1;
        atNodeStart = true;
        tokenStart = -1;
      } else if (c === COMMA) {
        keyStart = k + 1;
        atNodeStart = depth > 0;
        tokenStart = -1;
      } else if ((c === RBRACKET || c === RBRACE) && depth > 0) {
        depth--;
        tokenStart = -1;
      }
      prevSig = c;
    }
    if (quote === 0 && depth === 0) {
      // A block scalar header: its lines are those indented past its parent (the key, else the `- `).
      const header = blockScalarHeaderAt(text, pos, contentEnd);
      if (header >= 0 && continuation) return undefined; // `] |` and the like: keep the scan simple
      if (header > pos + holder) blockScalarHolder = holder;
      else if (header === pos + holder) {
        if (lastDash < 0) return undefined; // `|` first on its line: the parent is on an earlier line
        blockScalarHolder = lastDash;
      }
    }
    pos = end + 1;
  }
  if (quote !== 0 || depth > 0) return undefined;
  return { itemStarts: itemStarts !== undefined && itemStarts.length > 0 ? itemStarts : undefined };
}

/** Whether text[from, to) is `~`, `null`, `Null` or `NULL`, then spaces. */
function isNullWord(text: string, from: number, to: number): boolean {
  while (to > from && (text.charCodeAt(to - 1) === SPACE || text.charCodeAt(to - 1) === TAB)) to--;
  if (to - from === 1) return text.charCodeAt(from) === TILDE;
  return to - from === 4 && (text.startsWith('null', from) || text.startsWith('Null', from) || text.startsWith('NULL', from));
}

/** Where text[from, to) ends with a block scalar header (`|` or `>`, indicators, spaces, after a space), or -1. */
function blockScalarHeaderAt(text: string, from: number, to: number): number {
  let k = to - 1;
  while (k >= from && (text.charCodeAt(k) === SPACE || text.charCodeAt(k) === TAB || text.charCodeAt(k) === CR)) k--;
  while (k >= from && ((text.charCodeAt(k) >= 48 && text.charCodeAt(k) <= 57) || text.charCodeAt(k) === PLUS || text.charCodeAt(k) === DASH)) k--;
  if (k < from || (text.charCodeAt(k) !== PIPE && text.charCodeAt(k) !== GT)) return -1;
  return k === from || text.charCodeAt(k - 1) === SPACE || text.charCodeAt(k - 1) === TAB ? k : -1;
}
