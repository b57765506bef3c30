import type { Document, YAMLMap } from 'yaml';
export interface YamlWithLines {
    doc: Document.Parsed;
    /** 1-based line where a node starts (1 when it has no position). */
    lineOf: (node: unknown) => number;
    /** Line of `key`'s value in `map` (of the key when the value is empty), else the map's own line. */
    keyLine: (map: YAMLMap, key: string) => number;
}
/** Parses `text`, throwing an InputError `source:line:col: invalid YAML (...)` for the first syntax error. */
export declare function parseYamlWithLines(text: string, source: string): YamlWithLines;
