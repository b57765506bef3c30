/**
 * The keys the result schema (schemas/result.schema.json) knows, and those a row holds that it does not, at any depth
 * the schema closes (`additionalProperties: false`), named as validate names them (`hits_top_k[].docId`). compare and aggregate take this look at every row they
 * read (load/queryResult.ts, readResultRow), so that a runner's misspelt key or a hit that can match nothing anywhere
 * in a run, not only in its first rows, sends the run to validate's full check (validate/pipelineChecks.ts).
 */
import resultSchema from '../../schemas/result.schema.json' with { type: 'json' };

interface SchemaNode {
  $ref?: string;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: unknown;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
}

const TOP: SchemaNode = resultSchema as SchemaNode;
const DEFS = resultSchema.$defs as Record<string, SchemaNode>;

/** The keys of a result, of a hit and of a hit's citation: the schema's. */
export const RESULT_TOP_KEYS: ReadonlySet<string> = new Set(Object.keys(TOP.properties!));
export const RESULT_HIT_KEYS: ReadonlySet<string> = new Set(Object.keys(DEFS.hit.properties!));
export const RESULT_CITATION_KEYS: ReadonlySet<string> = new Set(Object.keys(DEFS.citation.properties!));

function resolved(node: SchemaNode | undefined): SchemaNode | undefined {
  let n = node;
  for (let i = 0; n?.$ref !== undefined && i < 8; i++) n = DEFS[n.$ref.replace('#/$defs/', '')];
  return n;
}

/** The node an object or a list meets: itself, or the branch of its `anyOf` (beside `null`) that holds such. */
function nodeFor(node: SchemaNode | undefined, list: boolean): SchemaNode | undefined {
  const n = resolved(node);
  if (n?.anyOf === undefined) return n;
  for (const branch of n.anyOf) {
    const b = resolved(branch);
    if (b !== undefined && (list ? b.items : b.properties) !== undefined) return b;
  }
  return undefined;
}

/** Adds to `into` each key of `value` (a parsed result, or a part of it at `node` and `path`) its schema does not know. */
export function collectUnknownKeys(value: unknown, into: Set<string>, node: SchemaNode = TOP, path = ''): void {
  if (typeof value !== 'object' || value === null) return;
  const list = Array.isArray(value);
  const n = nodeFor(node, list);
  if (n === undefined) return;
  if (list) {
    if (n.items !== undefined) for (const item of value) collectUnknownKeys(item, into, n.items, `${path}[]`);
    return;
  }
  const properties = n.properties;
  if (properties === undefined) return;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const at = path === '' ? key : `${path}.${key}`;
    const child = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (child === undefined) {
      if (n.additionalProperties === false) into.add(at);
    } else collectUnknownKeys(record[key], into, child, at);
  }
}

/** A hit's id or path as validate counts one (validate/findings.ts): a non-empty string, or a number. */
export function present(value: unknown): boolean {
  return (typeof value === 'string' && value !== '') || typeof value === 'number';
}

/** Whether a parsed result has a hit with no chunk_id, doc_id, doc_path or rel_path: one that can match nothing. */
export function hasUnmatchableRawHit(value: unknown): boolean {
  const hits = (value as { hits_top_k?: unknown } | null)?.hits_top_k;
  if (!Array.isArray(hits)) return false;
  for (const hit of hits) {
    if (typeof hit !== 'object' || hit === null) continue;
    const h = hit as Record<string, unknown>;
    if (!present(h.chunk_id) && !present(h.doc_id) && !present(h.doc_path) && !present(h.rel_path)) return true;
  }
  return false;
}
