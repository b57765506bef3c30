/** Small readers for untrusted JSON values: each returns a typed value or throws with a path for the message. */
import type { SqlValue } from 'sql.js';
export type JsonObject = Record<string, unknown>;
export declare class FieldError extends Error {
    readonly field: string;
    constructor(field: string, message: string);
}
export declare function isObject(value: unknown): value is JsonObject;
export declare function optString(obj: JsonObject, key: string, path?: string): string | null;
export declare function optNumber(obj: JsonObject, key: string, path?: string): number | null;
export declare function optBoolean(obj: JsonObject, key: string, path?: string): boolean | null;
export declare function optStringArray(obj: JsonObject, key: string, path?: string): string[] | null;
export declare function describe(v: unknown): string;
/**
 * A JSON column's text parsed, or an InputError naming `where` (a file, table, row and column). A text of
 * JSON_SCAN_FROM_CHARS or more is checked against JSON_VALUE_BOUNDS before it is parsed (`boundsChecked`: the caller
 * has done so already); a shorter one's depth on the value, after.
 */
export declare function parseJsonCell(text: SqlValue, where: string, boundsChecked?: boolean): unknown;
/**
 * After JSON.parse of `text`: its value refused when it nests deeper than MAX_JSON_DEPTH. A long text's depth was
 * checked on its characters before it was parsed (refuseJsonPastBounds), which for JSON is the value's.
 */
export declare function refuseTooDeepValue(text: string, value: unknown, where: string): void;
/**
 * How deep a JSON value EvalVerdict reads may nest. JSON.parse reads any depth, but what walks the value afterwards
 * (String() of an array, JSON.stringify) recurses, and 100,000 levels overflow the stack.
 */
export declare const MAX_JSON_DEPTH = 100;
/**
 * What one JSON value EvalVerdict reads may hold: a run database's JSON cell (result_json, config_snapshot_json,
 * aggregate_json, the chunks' JSON columns) and a golden set's JSON Lines line (depth aside). JSON.parse builds all a
 * text holds before anything can be checked, and lists, objects and keys are what it builds dearly; the largest
 * results EvalVerdict scores stay under half of each bound (the figures: docs/run-database.md).
 */
export declare const JSON_VALUE_BOUNDS: JsonTextBounds;
/**
 * Texts shorter than this (in UTF-16 units) are not scanned for JSON_VALUE_BOUNDS: the scan costs more than the fast
 * result reader, and parsing a shorter text costs little whatever it holds (docs/run-database.md).
 */
export declare const JSON_SCAN_FROM_CHARS: number;
/**
 * An InputError naming `where` when `text` (of JSON_SCAN_FROM_CHARS or more) passes one of `bounds`, found before it
 * is parsed; `scope` ends the message (`in one value`). Depth in the words of parseJsonCell's check.
 */
export declare function refuseJsonPastBounds(text: string, bounds: JsonTextBounds, where: string, scope: string): void;
/** Bounds on JSON text that jsonTextPast checks before the text is parsed. */
export interface JsonTextBounds {
    /** Levels of arrays and objects, the outermost 1 (nestedDeeperThan's depth). */
    depth: number;
    /** Arrays and objects in all. */
    containers: number;
    /** Members of objects in all (their colons). */
    keys: number;
    /** Commas between values and members in all: about the values in all. */
    commas: number;
}
/**
 * The first of `bounds` that JSON text passes, read from its characters before it is parsed; null when it passes
 * none. JSON.parse builds everything the text holds before the value can be checked: 32 MiB of `[` is 16 million
 * nested arrays. This scan counts brackets, braces, colons and commas outside strings and stops at the first bound
 * passed. For JSON text its depth is nestedDeeperThan's of the parsed value. Text that is not JSON may be refused
 * here for a bound rather than by JSON.parse; and JSON.parse never builds more than the scan counted, since it
 * stops at its first syntax error and reads strings as the scan does up to there.
 */
export declare function jsonTextPast(text: string, bounds: JsonTextBounds): keyof JsonTextBounds | null;
/** Whether `value` nests arrays or objects more than `limit` levels deep, without recursion. */
export declare function nestedDeeperThan(value: unknown, limit: number): boolean;
