/** Golden YAML: defaults, errors naming file:line, warnings for unknown keys. */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { parseGoldenYaml, readGoldenFile } from '../src/load/golden.js';
import { removeTempDirs, tempDir, writeGolden } from './helpers/runDb.js';

afterAll(removeTempDirs);

/** YAML from lines, so the line numbers in the tests are the array index + 1. */
const yaml = (...lines: string[]) => `${lines.join('\n')}\n`;

function errorOf(fn: () => unknown): InputError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error('expected an InputError');
}

describe('answerable', () => {
  const set = parseGoldenYaml(yaml(
    '- id: plain', //                          1
    '  query: no expectations',
    '- id: empty-docs', //                     3
    '  query: should refuse',
    '  expected_doc_ids: []',
    '- id: with-docs', //                      6
    '  query: has docs',
    '  expected_doc_ids: [d1]',
    '- id: override', //                       9
    '  query: empty docs but explicitly answerable',
    '  expected_doc_ids: []',
    '  answerable: true',
    '- id: explicit-false', //                 13
    '  query: explicitly unanswerable',
    '  expected_chunk_ids: [c1]',
    '  answerable: false',
    '- id: empty-chunks', //                   17
    '  query: an empty chunk list is not the refusal convention',
    '  expected_chunk_ids: []',
  ), 'g.yaml');
  const byId = Object.fromEntries(set.queries.map((q) => [q.id, q]));

  it('defaults to true', () => {
    expect(byId.plain.answerable).toBe(true);
    expect(byId['with-docs'].answerable).toBe(true);
    expect(byId['empty-chunks'].answerable).toBe(true);
  });
  it('is false when expected_doc_ids is present and empty', () => {
    expect(byId['empty-docs'].answerable).toBe(false);
    expect(byId['empty-docs'].expectedDocIds).toEqual([]);
  });
  it('an explicit value wins', () => {
    expect(byId.override.answerable).toBe(true);
    expect(byId['explicit-false'].answerable).toBe(false);
  });
  it('keeps every query in file order with no warnings', () => {
    expect(set.queries.map((q) => q.id)).toEqual(['plain', 'empty-docs', 'with-docs', 'override', 'explicit-false', 'empty-chunks']);
    expect(set.warnings).toEqual([]);
  });
});

describe('errors name the file and line', () => {
  it('duplicate id', () => {
    const file = writeGolden(yaml(
      '- id: q1', //        1
      '  query: one',
      '- id: q2', //        3
      '  query: two',
      '- id: q1', //        5  <- the duplicate
      '  query: again',
    ));
    const e = errorOf(() => readGoldenFile(file));
    expect(e.message).toBe(`${file}:5: query \`q1\`: duplicate id (first defined at line 1)`);
  });

  it('missing query', () => {
    const file = writeGolden(yaml(
      '- id: q1', //        1
      '  query: one',
      '- id: q2', //        3  <- no query in this item
      '  lang: en',
    ));
    const e = errorOf(() => readGoldenFile(file));
    expect(e.message).toBe(`${file}:3: query \`q2\`: missing \`query\``);
  });

  it('missing id', () => {
    const file = writeGolden(yaml(
      '- id: q1', //        1
      '  query: one',
      '- query: nameless', // 3
    ));
    const e = errorOf(() => readGoldenFile(file));
    expect(e.message).toBe(`${file}:3: query at line 3: missing \`id\``);
  });

  it('bad YAML (a nested mapping on line 2)', () => {
    const file = writeGolden(yaml(
      '- id: q1', //        1
      '  query: one: two', // 2  <- "a: b: c" is not valid block YAML
      '- id: q2',
      '  query: fine',
    ));
    const e = errorOf(() => readGoldenFile(file));
    expect(e.message.startsWith(`${file}:2:`)).toBe(true);
    expect(e.message).toMatch(/^[^\n]*:2:\d+: invalid YAML \(/);
  });

  it('bad YAML (a key repeated within one query, line 3)', () => {
    const file = writeGolden(yaml(
      '- id: q1', //        1
      '  query: one', //    2
      '  query: two', //    3  <- second `query`: col 3
    ));
    const e = errorOf(() => readGoldenFile(file));
    expect(e.message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:3: invalid YAML \\(`));
  });

  it('a top level that is not a list', () => {
    const e = errorOf(() => parseGoldenYaml(yaml('id: q1', 'query: one'), 'g.yaml'));
    expect(e.message).toMatch(/^g\.yaml:1: the golden set must be a list/);
  });

  it('a judgment grade that is not an integer names the line of the judgments map', () => {
    const e = errorOf(() => parseGoldenYaml(yaml(
      '- id: q1', //          1
      '  query: one', //      2
      '  judgments:', //      3
      '    a: 2', //          4  <- the map's value starts here
      '    b: high',
    ), 'g.yaml'));
    expect(e.message).toBe('g.yaml:4: query `q1`: grade of `b` must be an integer (0..3), got "high"');
  });

  it('pending must be a boolean', () => {
    const e = errorOf(() => parseGoldenYaml(yaml('- id: q1', '  query: one', '  pending: soon'), 'g.yaml'));
    expect(e.message).toBe('g.yaml:3: query `q1`: `pending` must be true or false');
  });

  it('a support index outside gold_supports', () => {
    const e = errorOf(() => parseGoldenYaml(yaml(
      '- id: q1', //                          1
      '  query: one', //                      2
      '  gold_supports:', //                  3
      '    - rel_path: a.md', //              4
      '  required_support_groups: [[0, 1]]', // 5  <- index 1, but only one support (index 0)
    ), 'g.yaml'));
    expect(e.message).toBe('g.yaml:5: query `q1`: support index 1 does not name one of the 1 gold_supports (0-based)');
  });

  it('a missing file', () => {
    const file = join(tempDir(), 'nope.yaml');
    expect(errorOf(() => readGoldenFile(file)).message).toBe(`${file}: cannot read the golden set (no such file)`);
  });
});

describe('unknown keys', () => {
  it('warn with file:line and are ignored', () => {
    const set = parseGoldenYaml(yaml(
      '- id: q1', //                  1
      '  query: one', //              2
      '  expected_doc_id: [d1]', //   3  <- typo for expected_doc_ids
      '  notes: free text is known', // 4
    ), 'g.yaml');
    expect(set.warnings).toEqual(['g.yaml:3: unknown key `expected_doc_id` (ignored)']);
    // the typo did not become expected_doc_ids
    expect(set.queries[0].expectedDocIds).toBeNull();
  });
});

describe('shapes', () => {
  it('accepts a map with a `queries` list', () => {
    const set = parseGoldenYaml(yaml('queries:', '  - id: q1', '    query: one', '    expected_doc_ids: d1'), 'g.yaml');
    expect(set.queries.map((q) => q.id)).toEqual(['q1']);
    // a single string is a one-item list
    expect(set.queries[0].expectedDocIds).toEqual(['d1']);
  });

  it('reads judgments, pending and numeric ids', () => {
    const set = parseGoldenYaml(yaml('- id: 7', '  query: graded', '  judgments: {a: 3, b: 0}', '  pending: true'), 'g.yaml');
    const q = set.queries[0];
    expect(q.id).toBe('7');
    expect([...q.judgments]).toEqual([['a', 3], ['b', 0]]);
    expect(q.pending).toBe(true);
  });

  it('the fingerprint ignores key order and comments but not content', () => {
    const a = parseGoldenYaml(yaml('- id: q1', '  query: one', '  expected_doc_ids: [d1]', '- id: q2', '  query: two'), 'a.yaml');
    const b = parseGoldenYaml(yaml('# comment', '- id: q2', '  query: two', '- expected_doc_ids: [d1]', '  query: one', '  id: q1'), 'b.yaml');
    const c = parseGoldenYaml(yaml('- id: q1', '  query: one', '  expected_doc_ids: [d2]', '- id: q2', '  query: two'), 'c.yaml');
    expect(a.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(b.fingerprint).toBe(a.fingerprint);
    expect(c.fingerprint).not.toBe(a.fingerprint);
  });
});
