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
export declare const SCHEMAS: Readonly<Record<string, Schema>>;
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
export declare function checkAgainstSchema(value: unknown, file: keyof typeof SCHEMAS, schema?: Schema): SchemaError[];
/** `$ref` as the published files write it: `#/$defs/x` in the same file, `other.schema.json#/$defs/x` in another. */
export declare function resolveRef(ref: string, file: string): {
    schema: Schema;
    file: string;
};
/** `; did you mean \`x\`?` for the key `key` was most likely meant as (meantKey), or ''. */
export declare function didYouMean(key: string, properties: Record<string, Schema>): string;
/**
 * The known key `key` was most likely meant as: a key the schema lists it as a common mistake for (`x-misspellings`:
 * `hits` for `hits_top_k`), a close spelling (edit distance), or a key it is the start of (`hits` -> `hits_top_k`);
 * null when none is.
 */
export declare function meantKey(key: string, properties: Record<string, Schema>): string | null;
/** The property names of an object schema (a `$defs` entry or the root) of `file`, e.g. the keys of a hit. */
export declare function keysOf(file: keyof typeof SCHEMAS, def?: string): string[];
