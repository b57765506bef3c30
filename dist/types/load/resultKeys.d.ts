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
export {};
