/**
 * The published JSON Schemas (schemas/*.schema.json), bundled into the build, and the small part of JSON Schema
 * they use, checked by hand: EvalVerdict's key lists and did-you-mean come from these files, so the files editors
 * read and the checks `evalverdict validate` runs cannot drift apart.
 */
import gateConfigSchema from '../../schemas/gate-config.schema.json' with { type: 'json' };
import goldenQuerySchema from '../../schemas/golden-query.schema.json' with { type: 'json' };
import goldenSetSchema from '../../schemas/golden-set.schema.json' with { type: 'json' };
import resultSchema from '../../schemas/result.schema.json' with { type: 'json' };
import { valueText } from '../inputText.js';
import { editDistance } from '../suggest.js';

/** The subset of JSON Schema (2020-12) the published files use; `x-misspellings`: keys written for this one. */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  minProperties?: number;
  maxProperties?: number;
  required?: string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  anyOf?: Schema[];
  $defs?: Record<string, Schema>;
  'x-misspellings'?: string[];
}

/** Each published schema by its file name (its `$id`), for `$ref`s between them. */
export const SCHEMAS: Readonly<Record<string, Schema>> = {
  'result.schema.json': resultSchema as Schema,
  'golden-query.schema.json': goldenQuerySchema as Schema,
  'golden-set.schema.json': goldenSetSchema as Schema,
  'gate-config.schema.json': gateConfigSchema as Schema,
};

/** One way a value departs from its schema. */
export interface SchemaError {
  /** Where, e.g. `hits_top_k[3].chunk_id`. */
  path: string;
  /** The path with list indexes left out (`hits_top_k[].chunk_id`): one mistake repeated in every row is one kind. */
  pattern: string;
  problem: 'unknown-key' | 'wrong-value' | 'missing-key';
  /** The key at fault (unknown or missing). */
  key?: string;
  /** `; did you mean \`x\`?`, or ''. */
  suggestion: string;
  /** The known key an unknown one was most likely meant as (the `x` of `suggestion`); absent when none. */
  meant?: string;
  /** What is wrong, for a message: `unknown key \`hits\``, `must be an integer >= 1, got 0`. */
  detail: string;
}

/** `value` checked against `schema` (default: the root of `file`); every error, in document order. */
export function checkAgainstSchema(value: unknown, file: keyof typeof SCHEMAS, schema?: Schema): SchemaError[] {
  const errors: SchemaError[] = [];
  walk(value, schema ?? SCHEMAS[file], file, ROOT, errors);
  return errors;
}

/**
 * Where a value sits, as a chain to the root: the path text is built only for an error (a run of two million hits
 * has ten keys each, and almost never an error).
 */
interface Place {
  parent: Place | null;
  /** A key, or an index into a list. */
  step: string | number;
}

const ROOT: Place = { parent: null, step: '' };

function pathOf(at: Place, indexes: boolean): string {
  if (at.parent === null) return '';
  const head = pathOf(at.parent, indexes);
  if (typeof at.step === 'number') return `${head}[${indexes ? at.step : ''}]`;
  return head === '' ? at.step : `${head}.${at.step}`;
}

function errorAt(at: Place, fields: Omit<SchemaError, 'path' | 'pattern'>): SchemaError {
  return { path: pathOf(at, true), pattern: pathOf(at, false), ...fields };
}

/** `$ref` targets resolved once: every hit of a run follows the same few. */
const resolved = new Map<string, { schema: Schema; file: string }>();

/** `$ref` as the published files write it: `#/$defs/x` in the same file, `other.schema.json#/$defs/x` in another. */
export function resolveRef(ref: string, file: string): { schema: Schema; file: string } {
  const cacheKey = `${file}\u0000${ref}`;
  const known = resolved.get(cacheKey);
  if (known !== undefined) return known;
  const [target, pointer = ''] = ref.split('#');
  const inFile = target === '' ? file : target;
  let schema: unknown = SCHEMAS[inFile];
  for (const part of pointer.split('/').filter((p) => p !== '')) schema = (schema as Record<string, unknown>)?.[part];
  if (schema === undefined) throw new Error(`schemas/${file}: \`$ref\` ${ref} names nothing`);
  const found = { schema: schema as Schema, file: inFile };
  resolved.set(cacheKey, found);
  return found;
}

function walk(value: unknown, schema: Schema, file: string, at: Place, errors: SchemaError[]): void {
  if (schema.$ref !== undefined) {
    const target = resolveRef(schema.$ref, file);
    walk(value, target.schema, target.file, at, errors);
    return;
  }
  if (schema.anyOf !== undefined) {
    for (const e of bestBranch(value, schema.anyOf, file, at)) errors.push(e);
    return;
  }
  const wrong = wrongValue(value, schema);
  if (wrong !== null) {
    errors.push(errorAt(at, { problem: 'wrong-value', suggestion: '', detail: `${wrong}, got ${valueText(value)}` }));
    return;
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    for (let i = 0; i < value.length; i++) walk(value[i], schema.items, file, { parent: at, step: i }, errors);
  } else if (isPlainObject(value)) {
    walkObject(value, schema, file, at, errors);
  }
}

function walkObject(
  value: Record<string, unknown>,
  schema: Schema,
  file: string,
  at: Place,
  errors: SchemaError[],
): void {
  const known = schema.properties ?? {};
  for (const key of schema.required ?? []) {
    if (value[key] === undefined)
      errors.push(
        errorAt(
          { parent: at, step: key },
          { problem: 'missing-key', key, suggestion: '', detail: `\`${key}\` is missing` },
        ),
      );
  }
  for (const key in value) {
    const item = value[key];
    const own = Object.hasOwn(known, key) ? known[key] : undefined;
    if (own !== undefined) walk(item, own, file, { parent: at, step: key }, errors);
    else if (schema.additionalProperties === false)
      errors.push(errorAt({ parent: at, step: key }, unknownKey(key, known)));
    else if (isPlainObject(schema.additionalProperties))
      walk(item, schema.additionalProperties, file, { parent: at, step: key }, errors);
  }
}

/**
 * The errors of the branch of an `anyOf` the value was meant for: none when a branch fits, else those of the
 * branch whose type fits (an object meant as `answer`, not as `null`), else the first branch's.
 */
function bestBranch(value: unknown, branches: Schema[], file: string, at: Place): SchemaError[] {
  // Only the branches whose type admits the value are walked: a failed branch's errors cost their messages.
  const admitting = branches.filter((branch) => admitsType(value, branch, file));
  if (admitting.length === 0) {
    const found: SchemaError[] = [];
    walk(value, branches[0], file, at, found);
    return found;
  }
  let best: SchemaError[] | null = null;
  for (const branch of admitting) {
    const found: SchemaError[] = [];
    walk(value, branch, file, at, found);
    if (found.length === 0) return found;
    if (best === null || found.length < best.length) best = found;
  }
  return best!;
}

/** Whether `branch` (through its `$ref`) has no `type` or one that `value` has. */
function admitsType(value: unknown, branch: Schema, file: string): boolean {
  const schema = branch.$ref === undefined ? branch : resolveRef(branch.$ref, file).schema;
  if (schema.type === undefined) return true;
  return typeof schema.type === 'string' ? hasType(value, schema.type) : schema.type.some((t) => hasType(value, t));
}

/** What `value` should have been, when its type, enum or bounds do not fit `schema`; null when they fit. */
function wrongValue(value: unknown, schema: Schema): string | null {
  if (schema.enum !== undefined && !schema.enum.includes(value as never))
    return `must be one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  const type = schema.type;
  if (type !== undefined && !(typeof type === 'string' ? hasType(value, type) : type.some((t) => hasType(value, t))))
    return `must be ${(typeof type === 'string' ? [type] : type).map(typeName).join(' or ')}`;
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return `must be >= ${schema.minimum}`;
    if (schema.maximum !== undefined && value > schema.maximum) return `must be <= ${schema.maximum}`;
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum)
      return `must be > ${schema.exclusiveMinimum}`;
    if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum)
      return `must be < ${schema.exclusiveMaximum}`;
  }
  if (typeof value === 'string' && schema.minLength !== undefined && value.length < schema.minLength)
    return 'must not be empty';
  if (isPlainObject(value)) {
    const n = Object.keys(value).length;
    if (schema.minProperties !== undefined && n < schema.minProperties)
      return `must have at least ${schema.minProperties} key(s)`;
    if (schema.maxProperties !== undefined && n > schema.maxProperties)
      return `must have at most ${schema.maxProperties} key(s)`;
  }
  return null;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
    default:
      throw new Error(`schemas: type \`${type}\` is not one this checker knows`);
  }
}

function typeName(type: string): string {
  return type === 'integer' ? 'an integer' : type === 'array' ? 'a list' : type === 'null' ? 'null' : `a ${type}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The key meant, by unknown key, for each object schema met: a runner's typo repeats in every hit of a run, and each
 * look-up costs an edit distance to every known key.
 */
const meantByPlace = new WeakMap<Record<string, Schema>, Map<string, string | null>>();
const MEANT_CACHE_KEYS = 1000;

/** An unknown key's error fields: the key meant, when there is one, as data and in words. */
function unknownKey(key: string, known: Record<string, Schema>): Omit<SchemaError, 'path' | 'pattern'> {
  let place = meantByPlace.get(known);
  if (place === undefined) meantByPlace.set(known, (place = new Map()));
  let meant = place.get(key);
  if (meant === undefined) {
    meant = meantKey(key, known);
    // A different key in every hit (a hostile run) would grow the cache without end: the first ones are kept.
    if (place.size < MEANT_CACHE_KEYS) place.set(key, meant);
  }
  const fields = { problem: 'unknown-key' as const, key, detail: `unknown key \`${key}\`` };
  return meant === null
    ? { ...fields, suggestion: '' }
    : { ...fields, suggestion: `; did you mean \`${meant}\`?`, meant };
}

/** `; did you mean \`x\`?` for the key `key` was most likely meant as (meantKey), or ''. */
export function didYouMean(key: string, properties: Record<string, Schema>): string {
  const meant = meantKey(key, properties);
  return meant === null ? '' : `; did you mean \`${meant}\`?`;
}

/**
 * The known key `key` was most likely meant as: a key the schema lists it as a common mistake for (`x-misspellings`:
 * `hits` for `hits_top_k`), a close spelling (edit distance), or a key it is the start of (`hits` -> `hits_top_k`);
 * null when none is.
 */
export function meantKey(key: string, properties: Record<string, Schema>): string | null {
  const names = Object.keys(properties);
  const lower = key.toLowerCase();
  const listed = names.find((name) => properties[name]['x-misspellings']?.includes(lower));
  if (listed !== undefined) return listed;
  const close = closest(key, names);
  if (close !== null) return close;
  const extended = names
    .filter((name) => lower.length >= 3 && (name.startsWith(`${lower}_`) || name.endsWith(`_${lower}`)))
    .sort((a, b) => editDistance(lower, a) - editDistance(lower, b));
  return extended[0] ?? null;
}

/** The candidate nearest `word` within suggest's distance (src/suggest.ts), or null: suggest's choice as data. */
function closest(word: string, candidates: string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = editDistance(word, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : null;
}

/** The property names of an object schema (a `$defs` entry or the root) of `file`, e.g. the keys of a hit. */
export function keysOf(file: keyof typeof SCHEMAS, def?: string): string[] {
  const schema = def === undefined ? SCHEMAS[file] : resolveRef(`#/$defs/${def}`, file).schema;
  return Object.keys(schema.properties ?? {});
}
