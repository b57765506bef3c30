/** YAML parsed with positions, for messages that name `file:line` (golden sets and gate configs). */
import { LineCounter, parseDocument } from 'yaml';
import type { Document, Node as YamlNode, YAMLMap } from 'yaml';
import { InputError } from './errors.js';

export interface YamlWithLines {
  doc: Document.Parsed;
  /** 1-based line where a node starts (1 when it has no position). */
  lineOf: (node: unknown) => number;
  /** Line of `key`'s value in `map` (of the key when the value is empty), else the map's own line. */
  keyLine: (map: YAMLMap, key: string) => number;
}

/** Parses `text`, throwing an InputError `source:line:col: invalid YAML (...)` for the first syntax error. */
export function parseYamlWithLines(text: string, source: string): YamlWithLines {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const { line, col } = lineCounter.linePos(e.pos[0]);
    throw new InputError(`${source}:${line}:${col}: invalid YAML (${e.message.split('\n')[0]})`);
  }
  const lineOf = (node: unknown): number => {
    const range = (node as YamlNode | null)?.range;
    return range ? lineCounter.linePos(range[0]).line : 1;
  };
  const keyLine = (map: YAMLMap, key: string): number => {
    const pair = map.items.find((p) => (p.key as { value?: unknown })?.value === key);
    return pair ? lineOf(pair.value ?? pair.key) : lineOf(map);
  };
  return { doc, lineOf, keyLine };
}
