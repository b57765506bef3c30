interface SchemaNode {
    $ref?: string;
    properties?: Record<string, SchemaNode>;
    additionalProperties?: unknown;
    items?: SchemaNode;
    anyOf?: SchemaNode[];
}
/** The keys of a result, of a hit and of a hit's citation: the schema's. */
export declare const RESULT_TOP_KEYS: ReadonlySet<string>;
export declare const RESULT_HIT_KEYS: ReadonlySet<string>;
export declare const RESULT_CITATION_KEYS: ReadonlySet<string>;
/** Adds to `into` each key of `value` (a parsed result, or a part of it at `node` and `path`) its schema does not know. */
export declare function collectUnknownKeys(value: unknown, into: Set<string>, node?: SchemaNode, path?: string): void;
/** A hit's id or path as validate counts one (validate/findings.ts): a non-empty string, or a number. */
export declare function present(value: unknown): boolean;
/** Whether a parsed result has a hit with no chunk_id, doc_id, doc_path or rel_path: one that can match nothing. */
export declare function hasUnmatchableRawHit(value: unknown): boolean;
export {};
