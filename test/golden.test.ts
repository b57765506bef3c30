/** Golden sets, JSON Lines and YAML: defaults, errors naming file:line, warnings, the fingerprint, halves, convert. */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { warningText } from '../src/render/warningText.js';
import { InputError } from '../src/errors.js';
import {
  formatGolden,
  goldenFormatOf,
  LARGE_YAML_BYTES,
  parseGolden,
  parseGoldenJsonl,
  parseGoldenYaml,
  readGoldenDocument,
  readGoldenFile,
  readGoldenHalf,
} from '../src/load/golden.js';
import { removeTempDirs, tempDir, writeGolden } from './helpers/runDb.js';

afterAll(removeTempDirs);

/** YAML from lines, so the line numbers in the tests are the array index + 1. */
const yaml = (...lines: string[]) => `${lines.join('\n')}\n`;
/** JSON Lines from values, one per line. */
const jsonl = (...values: unknown[]) =>
  `${values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join('\n')}\n`;

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
  const set = parseGoldenYaml(
    yaml(
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
    ),
    'g.yaml',
  );
  const byId = Object.fromEntries(set.queries.map((q) => [q.id, q]));

  it('gives the lists a query does not have as empty, read-only lists (one shared array)', () => {
    for (const list of [
      byId.plain.tags,
      byId.plain.mustContain,
      byId.plain.forbidden,
      byId.plain.goldSupports,
      byId.plain.requiredSupportGroups,
    ]) {
      expect(list).toEqual([]);
      expect(Object.isFrozen(list)).toBe(true);
    }
    expect(byId['empty-docs'].expectedDocIds).toEqual([]);
    expect(() => (byId.plain.tags as string[]).push('x')).toThrow(TypeError);
    expect(byId['with-docs'].tags).toEqual([]);
  });

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
    expect(set.queries.map((q) => q.id)).toEqual([
      'plain',
      'empty-docs',
      'with-docs',
      'override',
      'explicit-false',
      'empty-chunks',
    ]);
    expect(set.warnings.map(warningText)).toEqual([]);
  });
});

describe('errors name the file and line', () => {
  it('duplicate id', () => {
    const file = writeGolden(
      yaml(
        '- id: q1', //        1
        '  query: one',
        '- id: q2', //        3
        '  query: two',
        '- id: q1', //        5  <- the duplicate
        '  query: again',
      ),
    );
    const e = errorOf(() => readGoldenFile(file));
    expect(e.message).toBe(`${file}:5: query \`q1\`: duplicate id (first defined at line 1)`);
  });

  it('missing query', () => {
    const file = writeGolden(
      yaml(
        '- id: q1', //        1
        '  query: one',
        '- id: q2', //        3  <- no query in this item
        '  lang: en',
      ),
    );
    const e = errorOf(() => readGoldenFile(file));
    expect(e.message).toBe(`${file}:3: query \`q2\`: missing \`query\``);
  });

  it('missing id', () => {
    const file = writeGolden(
      yaml(
        '- id: q1', //        1
        '  query: one',
        '- query: nameless', // 3
      ),
    );
    const e = errorOf(() => readGoldenFile(file));
    expect(e.message).toBe(`${file}:3: query at line 3: missing \`id\``);
  });

  it('bad YAML (a nested mapping on line 2)', () => {
    const file = writeGolden(
      yaml(
        '- id: q1', //        1
        '  query: one: two', // 2  <- "a: b: c" is not valid block YAML
        '- id: q2',
        '  query: fine',
      ),
    );
    const e = errorOf(() => readGoldenFile(file));
    expect(e.message.startsWith(`${file}:2:`)).toBe(true);
    expect(e.message).toMatch(/^[^\n]*:2:\d+: invalid YAML \(/);
  });

  it('bad YAML (a key repeated within one query, line 3)', () => {
    const file = writeGolden(
      yaml(
        '- id: q1', //        1
        '  query: one', //    2
        '  query: two', //    3  <- second `query`: col 3
      ),
    );
    const e = errorOf(() => readGoldenFile(file));
    expect(e.message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:3: invalid YAML \\(`));
  });

  it('a top level that is not a list', () => {
    const e = errorOf(() => parseGoldenYaml(yaml('id: q1', 'query: one'), 'g.yaml'));
    expect(e.message).toMatch(/^g\.yaml:1: the golden set must be a list/);
  });

  it('a judgment grade that is not an integer names the line of the judgments map', () => {
    const e = errorOf(() =>
      parseGoldenYaml(
        yaml(
          '- id: q1', //          1
          '  query: one', //      2
          '  judgments:', //      3
          '    a: 2', //          4  <- the map's value starts here
          '    b: high',
        ),
        'g.yaml',
      ),
    );
    expect(e.message).toBe('g.yaml:4: query `q1`: grade of `b` must be an integer, got "high"');
  });

  it('pending must be a boolean', () => {
    const e = errorOf(() => parseGoldenYaml(yaml('- id: q1', '  query: one', '  pending: soon'), 'g.yaml'));
    expect(e.message).toBe('g.yaml:3: query `q1`: `pending` must be true or false');
  });

  it('a support index outside gold_supports', () => {
    const e = errorOf(() =>
      parseGoldenYaml(
        yaml(
          '- id: q1', //                          1
          '  query: one', //                      2
          '  gold_supports:', //                  3
          '    - rel_path: a.md', //              4
          '  required_support_groups: [[0, 1]]', // 5  <- index 1, but only one support (index 0)
        ),
        'g.yaml',
      ),
    );
    expect(e.message).toBe('g.yaml:5: query `q1`: support index 1 does not name one of the 1 gold_supports (0-based)');
  });

  it('a missing file', () => {
    const file = join(tempDir(), 'nope.yaml');
    expect(errorOf(() => readGoldenFile(file)).message).toBe(`${file}: cannot read the golden set (no such file)`);
  });
});

describe('unknown keys', () => {
  it('warn with file:line and are ignored', () => {
    const set = parseGoldenYaml(
      yaml(
        '- id: q1', //                  1
        '  query: one', //              2
        '  expected_doc_id: [d1]', //   3  <- typo for expected_doc_ids
        '  notes: free text is known', // 4
        '- id: q2', //                  5
        '  query: two',
        '  expected_doc_ids: [d2]',
      ),
      'g.yaml',
    );
    expect(set.warnings.map(warningText)).toEqual([
      'g.yaml:3: unknown key `expected_doc_id` in 1 query (ignored); did you mean `expected_doc_ids`?',
    ]);
    // the typo did not become expected_doc_ids
    expect(set.queries[0].expectedDocIds).toBeNull();
  });

  it('one warning per key, at its first line, counting the queries that have it', () => {
    const file = yaml(
      '- id: q1', //                    1
      '  query: one',
      '  expected_doc_ids: [d1]',
      '  judgements: {c1: 2}', //        4  <- the first `judgements`
      '  source: wiki', //               5  <- the first `source`
      '- id: q2',
      '  query: two',
      '  judgements: {c2: 1}', //        8
      '  gold_supports:',
      '    - {rel_path: a.md, snippet: x}', // 10: the list's line
      '    - {rel_path: b.md, snippet: y}', // a second support with the same key: still one query
      '- id: q3',
      '  query: three',
      '  judgements: {c3: 1}',
      '  source: wiki',
      '  expected_lines: {file: a.py, lines: [1, 2]}', // 16: not `line_range`, so expected_lines is refused
    );
    expect(errorOf(() => parseGoldenYaml(file, 'g.yaml')).message).toContain('g.yaml:16: query `q3`: `expected_lines`');
    const set = parseGoldenYaml(file.replace('lines: [1, 2]', 'line_range: [1, 2], lines: 2'), 'g.yaml');
    expect(set.warnings.map(warningText)).toEqual([
      'g.yaml:4: unknown key `judgements` in 3 queries (ignored); did you mean `judgments`?',
      'g.yaml:5: unknown key `source` in 2 queries (ignored)',
      'g.yaml:10: `gold_supports`: unknown key `snippet` in 1 query (ignored; its keys are rel_path, heading_path, snippets, newer); did you mean `snippets`?',
      'g.yaml:16: `expected_lines`: unknown key `lines` in 1 query (ignored; its keys are file, line_range)',
    ]);
    // the same from JSON Lines, each query on its own line
    const lines = jsonl(
      { id: 'q1', query: 'one', expected_doc_ids: ['d1'], judgements: { c1: 2 } },
      { id: 'q2', query: 'two', judgements: { c2: 1 } },
      { id: 'q3', query: 'three', judgements: { c3: 1 } },
    );
    expect(parseGoldenJsonl(lines, 'g.jsonl').warnings.map(warningText)).toEqual([
      'g.jsonl:1: unknown key `judgements` in 3 queries (ignored); did you mean `judgments`?',
    ]);
  });
});

describe('a golden set with no expectation', () => {
  const needs =
    'a query needs one of expected_doc_ids, expected_chunk_ids, judgments, gold_supports, expected_lines, must_contain, forbidden, gold_claim, recency_conflict_rule or answerable (docs/golden-sets.md, "Expectations")';

  it('is read, saying why it states none and naming the misspelt keys that may hold the expectations', () => {
    const typo = yaml(
      '- id: q1',
      '  query: one',
      '  judgements: {c1: 2}', // 3
      '- id: q2',
      '  query: two',
      '  judgements: {c2: 1}',
      '  expected_doc_id: [d2]', // 7
      '- id: q3',
      '  query: three',
      '  judgements: {c3: 1}',
    );
    // An ops-only suite gates latency and error rates: read, with the reason kept for the gates that need one
    // (src/gate/expectations.ts, test/runnerFacingChecks.test.ts).
    expect(parseGoldenYaml(typo, 'g.yaml').noExpectation).toBe(
      'none of its 3 queries states an expectation (unknown keys, ignored: `judgements` at line 3, did you mean `judgments`?; `expected_doc_id` at line 7, did you mean `expected_doc_ids`?)',
    );
    expect(parseGoldenJsonl(jsonl({ id: 'q1', query: 'one' }), 'g.jsonl').noExpectation).toBe(
      'its one query states no expectation',
    );
    expect(errorOf(() => parseGoldenJsonl('', 'g.jsonl')).message).toBe(
      `g.jsonl: the golden set has no queries; ${needs}`,
    );
    expect(errorOf(() => parseGoldenYaml('[]\n', 'g.yaml')).message).toBe(
      `g.yaml: the golden set has no queries; ${needs}`,
    );
    // from a file, through the reader the CLI and the action use
    const file = writeGolden(typo);
    expect(readGoldenFile(file).noExpectation?.startsWith('none of its 3 queries')).toBe(true);
  });

  it('empty lists and maps state nothing; each expectation key alone is enough, in any one query', () => {
    const nothing = [
      'expected_chunk_ids: []',
      'judgments: {}',
      'gold_supports: []',
      'must_contain: []',
      'forbidden: []',
      'expected_doc_ids: null',
      'answerable: null',
      'tags: [a]',
      'category: c',
      'pending: true',
      'notes: x',
    ];
    for (const line of nothing)
      expect(parseGoldenYaml(yaml('- id: q1', '  query: one', `  ${line}`), 'g.yaml').noExpectation).toBe(
        'its one query states no expectation',
      );
    const enough = [
      'expected_doc_ids: [d1]',
      'expected_doc_ids: []', // should refuse
      'expected_chunk_ids: [c1]',
      'judgments: {c1: 0}',
      'gold_supports: [{rel_path: a.md}]',
      'expected_lines: {file: a.py, line_range: [1, 2]}',
      'must_contain: [x]',
      'forbidden: [x]',
      'gold_claim: x',
      'recency_conflict_rule: cite_newer',
      'answerable: true',
      'answerable: false',
    ];
    for (const line of enough) {
      const set = parseGoldenYaml(yaml('- id: q1', '  query: one', '- id: q2', '  query: two', `  ${line}`), 'g.yaml');
      expect(set.queries).toHaveLength(2);
      expect(set.noExpectation).toBeUndefined();
    }
  });

  it('a JSON Lines file read in halves: a first half with none is left to the whole file', () => {
    const bare = (i: number) => ({ id: `q${String(i).padStart(4, '0')}`, query: 'q '.repeat(40) });
    const noneFirst = writeGolden(
      jsonl(...Array.from({ length: 200 }, (_, i) => (i < 150 ? bare(i) : { ...bare(i), answerable: true }))),
      tempDir(),
      'g.jsonl',
    );
    expect(readGoldenHalf(noneFirst, 0, 0)).toBeNull();
    expect(readGoldenFile(noneFirst).queries).toHaveLength(200);
    const noneAtAll = writeGolden(jsonl(...Array.from({ length: 200 }, (_, i) => bare(i))), tempDir(), 'g.jsonl');
    expect(readGoldenHalf(noneAtAll, 0, 0)).toBeNull();
    expect(readGoldenFile(noneAtAll).noExpectation).toBe('none of its 200 queries states an expectation');
  });
});

describe('a byte order mark', () => {
  it('at the start of a YAML file is read past (the yaml package alone would refuse it), lines as without it', () => {
    const text = yaml('- id: q1', '  query: one', '  bad_key: 1', '  answerable: true');
    const withBom = parseGoldenYaml(`\uFEFF${text}`, 'g.yaml');
    expect(withBom.queries).toStrictEqual(parseGoldenYaml(text, 'g.yaml').queries);
    expect(withBom.warnings.map(warningText)).toEqual(['g.yaml:3: unknown key `bad_key` in 1 query (ignored)']);
    expect(readGoldenFile(writeGolden(`\uFEFF${text}`)).queries.map((q) => q.id)).toEqual(['q1']);
  });
});

describe('ids YAML reads as numbers or booleans', () => {
  it('are read as the text of the value, with one warning at the first naming how many', () => {
    const file = yaml(
      '- id: "001"', //   1  quoted: text as written
      '  query: one',
      '- id: 002', //     3  a YAML integer: 2
      '  query: two',
      '- id: 1e3', //     5  a YAML float: 1000
      '  query: three',
      '- id: true', //    7
      '  query: four',
      '  answerable: true',
    );
    const set = parseGoldenYaml(file, 'g.yaml');
    expect(set.queries.map((q) => q.id)).toEqual(['001', '2', '1000', 'true']);
    expect(set.warnings.map(warningText)).toEqual([
      'g.yaml:3: `id` is a YAML number or boolean, read as the text "2" (and 2 more ids in this file); quote ids (`id: "001"`) so they match the run\'s query_id as written',
    ]);
    // one such id: no count
    const oneId = yaml('- id: q1', '  query: one', '- id: 7', '  query: seven', '  answerable: true');
    expect(parseGoldenYaml(oneId, 'g.yaml').warnings.map(warningText)).toEqual([
      'g.yaml:3: `id` is a YAML number or boolean, read as the text "7"; quote ids (`id: "001"`) so they match the run\'s query_id as written',
    ]);
    // numbers in the lists of ids and strings: one more warning, at the first such list
    const lists = parseGoldenYaml(
      yaml(
        '- id: q1',
        '  query: one',
        '  expected_doc_ids: ["007", d2]', //     3  quoted: fine
        '- id: q2',
        '  query: two',
        '  expected_doc_ids: [d1, 007]', //       6  the first: 7
        '  must_contain: [1e3]', //                                          7
        '- id: q3',
        '  query: three',
        '  tags: [2024]', //                     10
      ),
      'g.yaml',
    );
    expect(lists.queries.map((q) => [q.expectedDocIds, q.mustContain, q.tags])).toEqual([
      [['007', 'd2'], [], []],
      [['d1', '7'], ['1000'], []],
      [null, [], ['2024']],
    ]);
    expect(lists.warnings.map(warningText)).toEqual([
      'g.yaml:4: query `q2`: `expected_doc_ids` holds a YAML number, read as the text "7" (and 2 more lists in this file); quote such values (`["007"]`) so they are read as written',
    ]);
    // numbers in a gold support's heading path or snippets count too
    const supports = parseGoldenYaml(
      yaml(
        '- id: q1',
        '  query: one',
        '  gold_supports:',
        '    - {rel_path: a.md, heading_path: [Intro, 2024], snippets: [x]}',
      ),
      'g.yaml',
    );
    expect(supports.queries[0].goldSupports[0].headingPath).toEqual(['Intro', '2024']);
    expect(supports.warnings.map(warningText)).toEqual([
      'g.yaml:1: query `q1`: `gold_supports[0].heading_path` holds a YAML number, read as the text "2024"; quote such values (`["007"]`) so they are read as written',
    ]);
    // flow-style items: the warning is at the query's line
    const flow = yaml('- {id: q1, query: one, answerable: true}', '- {id: 7, query: seven, tags: [2024]}');
    expect(parseGoldenYaml(flow, 'g.yaml').warnings.map(warningText)).toEqual([
      'g.yaml:2: `id` is a YAML number or boolean, read as the text "7"; quote ids (`id: "001"`) so they match the run\'s query_id as written',
      'g.yaml:2: query `7`: `tags` holds a YAML number, read as the text "2024"; quote such values (`["007"]`) so they are read as written',
    ]);
    // quoted or textual ids: no warning
    expect(
      parseGoldenYaml(
        yaml('- id: "7"', '  query: seven', '- id: q8', '  query: eight', '  answerable: true'),
        'g.yaml',
      ).warnings.map(warningText),
    ).toEqual([]);
  });

  it('judgments keys YAML reads as numbers or booleans: one warning, at the first, counting them all', () => {
    const file = yaml(
      '- id: q1',
      '  query: one',
      '  judgments: {"007": 2, d1: 1}', //             1  quoted and textual keys: fine
      '- id: q2',
      '  query: two',
      '  judgments: {007: 2, "008": 1, d2: 0}', //     4  the first: `007`, read as "7"
      '- id: q3',
      '  query: three',
      '  judgments:',
      '    12: 1',
      '    "13": 2',
      '    true: 1', // block style: 12 and true
      '- id: q4',
      '  query: four',
      '  gold_supports:',
      '    - {rel_path: x.md, heading_path: [A]}',
      '  judgments: {0x1F: 1}', // 31
    );
    const set = parseGoldenYaml(file, 'g.yaml');
    expect(set.queries.map((q) => [...q.judgments.keys()])).toEqual([
      ['007', 'd1'],
      ['7', '008', 'd2'],
      ['12', '13', 'true'],
      ['31'],
    ]);
    expect(set.warnings.map(warningText)).toEqual([
      'g.yaml:4: query `q2`: the `judgments` key `007` is a YAML number or boolean, read as the text "7" (and 3 more keys in this file); quote such keys (`{"007": 2}`) so they match the run\'s ids as written',
    ]);
    // a numeric key in another map is not a judgments key, even beside a quoted judgments key of the same text;
    // numeric grades are what grades are
    expect(
      parseGoldenYaml(
        yaml('- id: q1', '  query: one', '  judgments: {d1: 3}', '  expected_lines: {file: a.py, line_range: [1, 2]}'),
        'g.yaml',
      ).warnings.map(warningText),
    ).toEqual([]);
    for (const other of [
      '  gold_supports: [{rel_path: x.md, 1: a}]',
      '  expected_lines: {file: a.py, line_range: [1, 2], 1: z}',
    ]) {
      const set = parseGoldenYaml(
        yaml('- id: q1', '  query: one', '  judgments: {"1": 2}', other, '  must_contain:', '    - a'),
        'g.yaml',
      );
      // only the unknown key's own warning (`1` is no key of those maps), none about judgments
      expect(set.warnings.map(warningText)).toEqual([
        expect.stringMatching(/^g\.yaml:4: `(gold_supports|expected_lines)`: unknown key `1` in 1 query \(ignored; /),
      ]);
    }
    // under a root map (`queries:`), read by the yaml package: the same warning
    expect(
      parseGoldenYaml(yaml('queries:', '  - id: q1', '    query: one', '    judgments: {7: 1}'), 'g.yaml').warnings.map(
        warningText,
      )[0],
    ).toContain('the `judgments` key `7` is a YAML number or boolean');
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
    const set = parseGoldenYaml(
      yaml('- id: 7', '  query: graded', '  judgments: {a: 3, b: 0}', '  pending: true'),
      'g.yaml',
    );
    const q = set.queries[0];
    expect(q.id).toBe('7');
    expect([...q.judgments]).toEqual([
      ['a', 3],
      ['b', 0],
    ]);
    expect(q.pending).toBe(true);
  });
});
describe('JSON Lines', () => {
  const q1 = { id: 'q1', query: 'one', expected_doc_ids: ['d1'], judgments: { d1: 2 } };
  const q2 = { id: 'q2', query: 'two', answerable: false, expected_doc_ids: [] };

  it('reads the same queries as the YAML items with the same fields', () => {
    const fromJsonl = parseGoldenJsonl(jsonl(q1, q2), 'g.jsonl');
    const fromYaml = parseGoldenYaml(
      yaml(
        '- id: q1',
        '  query: one',
        '  expected_doc_ids: [d1]',
        '  judgments: {d1: 2}',
        '- id: q2',
        '  query: two',
        '  answerable: false',
        '  expected_doc_ids: []',
      ),
      'g.yaml',
    );
    expect(fromJsonl.queries).toStrictEqual(fromYaml.queries);
    expect(fromJsonl.warnings.map(warningText)).toEqual([]);
  });

  it('the format follows the file name: .jsonl and .ndjson are JSON Lines, anything else YAML', () => {
    expect(['a.jsonl', 'A.JSONL', 'b.ndjson', 'c.yaml', 'd.yml', 'golden'].map(goldenFormatOf)).toEqual([
      'jsonl',
      'jsonl',
      'jsonl',
      'yaml',
      'yaml',
      'yaml',
    ]);
    const dir = tempDir();
    expect(readGoldenFile(writeGolden(jsonl(q1), dir, 'g.jsonl')).queries[0].id).toBe('q1');
    // the same text named .yaml is YAML: a JSON object per line is no YAML list
    expect(errorOf(() => readGoldenFile(writeGolden(jsonl(q1, q2), dir, 'g.yaml'))).message).toMatch(/g\.yaml:/);
  });

  it('a first line without id and query is a header; its unknown keys warn with a suggestion', () => {
    const set = parseGoldenJsonl(jsonl({ schema_version: '1', description: 'x' }, q1), 'g.jsonl');
    expect(set.queries.map((q) => q.id)).toEqual(['q1']);
    expect(set.warnings.map(warningText)).toEqual([]);
    expect(parseGoldenJsonl(jsonl({ schema_versoin: 1 }, q1), 'g.jsonl').warnings.map(warningText)).toEqual([
      'g.jsonl:1: unknown header key `schema_versoin` (ignored; a query needs `id` and `query`); did you mean `schema_version`?',
    ]);
    // only the first line: a later object without id is a query missing its id
    expect(errorOf(() => parseGoldenJsonl(jsonl(q1, { description: 'x' }), 'g.jsonl')).message).toBe(
      'g.jsonl:2: query at line 2: missing `id`',
    );
  });

  it('bad lines: one message naming file and line', () => {
    expect(errorOf(() => parseGoldenJsonl(jsonl(q1, '{"id": "q2", "query": }'), 'g.jsonl')).message).toMatch(
      /^g\.jsonl:2: not valid JSON \(/,
    );
    expect(errorOf(() => parseGoldenJsonl(jsonl(q1, '[1, 2]'), 'g.jsonl')).message).toBe(
      'g.jsonl:2: each golden query must be a map with `id` and `query`',
    );
    expect(errorOf(() => parseGoldenJsonl(jsonl(q1, q2, q1), 'g.jsonl')).message).toBe(
      'g.jsonl:3: query `q1`: duplicate id (first defined at line 1)',
    );
    expect(errorOf(() => parseGoldenJsonl(jsonl(q1, { id: 'q3' }), 'g.jsonl')).message).toBe(
      'g.jsonl:2: query `q3`: missing `query`',
    );
    expect(
      errorOf(() => parseGoldenJsonl(jsonl(q1, { id: 'q3', query: 'x', judgments: { d: 1.5 } }), 'g.jsonl')).message,
    ).toBe('g.jsonl:2: query `q3`: grade of `d` must be an integer, got 1.5');
    const long = JSON.stringify({ id: 'q3', query: 'x'.repeat(10 << 20) });
    expect(errorOf(() => parseGoldenJsonl(jsonl(q1, long), 'g.jsonl')).message).toBe(
      'g.jsonl:2: the line is over 10 MB; a golden query is one JSON object per line',
    );
  });

  it('unknown keys warn with file:line and a suggestion, and are ignored', () => {
    const set = parseGoldenJsonl(
      jsonl(q1, { id: 'q3', query: 'x', expected_doc_id: ['d1'], notes: 'kept quiet' }),
      'g.jsonl',
    );
    expect(set.queries[1].expectedDocIds).toBeNull();
    expect(set.warnings.map(warningText)).toEqual([
      'g.jsonl:2: unknown key `expected_doc_id` in 1 query (ignored); did you mean `expected_doc_ids`?',
    ]);
    const nested = parseGoldenJsonl(
      jsonl({ id: 'q', query: 'x', gold_supports: [{ rel_path: 'a.md', snippet: 'y' }] }),
      'g.jsonl',
    );
    expect(nested.warnings.map(warningText)).toEqual([
      'g.jsonl:1: `gold_supports`: unknown key `snippet` in 1 query (ignored; its keys are rel_path, heading_path, snippets, newer); did you mean `snippets`?',
    ]);
  });

  it('a BOM, CRLF line ends and blank lines are read past; lines keep their numbers', () => {
    const text = `\uFEFF${JSON.stringify(q1)}\r\n\r\n   \r\n${JSON.stringify({ id: 'q3', query: 'x', typo: 1 })}\r\n`;
    const set = parseGoldenJsonl(text, 'g.jsonl');
    expect(set.queries.map((q) => q.id)).toEqual(['q1', 'q3']);
    expect(set.queries[0]).toStrictEqual(parseGoldenJsonl(jsonl(q1), 'g.jsonl').queries[0]);
    expect(set.warnings.map(warningText)).toEqual(['g.jsonl:4: unknown key `typo` in 1 query (ignored)']);
    // the last line needs no line end
    expect(parseGoldenJsonl(JSON.stringify(q1), 'g.jsonl').queries).toHaveLength(1);
  });

  it('numbers where text is expected are read as their text, without the warning YAML gets (JSON writes them as numbers)', () => {
    const set = parseGoldenJsonl(jsonl({ id: 7, query: 'x', tags: [2024], judgments: { 7: 1 } }), 'g.jsonl');
    expect([set.queries[0].id, set.queries[0].tags, [...set.queries[0].judgments.keys()]]).toEqual([
      '7',
      ['2024'],
      ['7'],
    ]);
    expect(set.warnings.map(warningText)).toEqual([]);
    expect(
      parseGoldenYaml(yaml('- id: 7', '  query: x', '  answerable: true'), 'g.yaml').warnings.map(warningText),
    ).toHaveLength(1);
  });
});

describe('a large YAML golden set', () => {
  it('warns once that JSON Lines would read it faster; a smaller one does not', () => {
    const item = (i: number) => `- id: q${i}\n  query: ${'word '.repeat(20)}${i}\n  answerable: true\n`;
    let text = '';
    for (let i = 0; text.length < LARGE_YAML_BYTES; i++) text += item(i);
    const warnings = parseGoldenYaml(text, 'big.yaml').warnings.map(warningText);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^big\.yaml: a YAML golden set of 2\.5 MB takes seconds to read; as JSON Lines .*evalverdict golden convert big\.yaml golden\.jsonl/,
    );
    expect(
      parseGoldenYaml(text.slice(0, text.lastIndexOf('\n- ', LARGE_YAML_BYTES - 1000) + 1), 'small.yaml').warnings.map(
        warningText,
      ),
    ).toEqual([]);
    expect(
      parseGoldenJsonl(
        jsonl(
          ...Array.from({ length: 20000 }, (_, i) => ({ id: `q${i}`, query: 'word '.repeat(20), answerable: true })),
        ),
        'big.jsonl',
      ).warnings.map(warningText),
    ).toEqual([]);
  });
});

describe('the fingerprint', () => {
  it("is sha256 of the file's bytes: any edit changes it, the same bytes give it again", () => {
    const text = jsonl({ id: 'q1', query: 'one', expected_doc_ids: ['d1'] }, { id: 'q2', query: 'two' });
    const file = writeGolden(text, tempDir(), 'g.jsonl');
    const expected = `sha256:${createHash('sha256').update(readFileSync(file)).digest('hex')}`;
    expect(readGoldenFile(file).fingerprint).toBe(expected);
    expect(parseGolden(text, 'g.jsonl').fingerprint).toBe(expected);
    expect(parseGolden(text.replace('one', 'One'), 'g.jsonl').fingerprint).not.toBe(expected);
  });

  it('the Python recipe in docs/golden-sets.md gives the same value', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', 'docs', 'golden-sets.md'), 'utf8');
    const recipe = /```python\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(recipe).toBeDefined();
    if (spawnSync('python3', ['--version']).status !== 0) {
      console.warn('python3 is not on this machine: the recipe was not run');
      return;
    }
    const file = writeGolden(
      `\uFEFF${jsonl({ id: 'é', query: 'naïve 𝄞', must_contain: ['ï'] })}`,
      tempDir(),
      'g.jsonl',
    );
    const out = execFileSync('python3', ['-c', `${recipe}\nprint(fingerprint(${JSON.stringify(file)}))`], {
      encoding: 'utf8',
    });
    expect(out.trim()).toBe(readGoldenFile(file).fingerprint);
  });
});

describe('a JSON Lines file read in two halves', () => {
  const lines = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      id: `q${String(i).padStart(4, '0')}`,
      query: `question ${i}`,
      tags: i % 7 === 0 ? [i] : ['t'],
      expected_doc_ids: [`d${i}`],
    }));

  it('halves join to the whole file: queries in order, warnings and lines as the whole file reads them', () => {
    const items = lines(300);
    const text = jsonl({ schema_version: 1 }, ...items.slice(0, 200), { ...items[200], typo: 1 }, ...items.slice(201));
    const file = writeGolden(`\uFEFF${text}`, tempDir(), 'g.jsonl');
    const [a, b] = [readGoldenHalf(file, 0, 0), readGoldenHalf(file, 1, 0)];
    expect(a && b).toBeTruthy();
    const whole = readGoldenFile(file);
    expect([...a!.queries, ...b!.queries]).toStrictEqual(whole.queries);
    expect(a!.queries.length).toBeGreaterThan(100);
    expect(b!.warnings.map(warningText)).toEqual([`${file}:202: unknown key \`typo\` in 1 query (ignored)`]);
    expect(a!.fingerprint).toBe(whole.fingerprint);
    // room for the second half's rows: at least its queries, and no more than its lines (a final line break counts one)
    expect(a!.linesAfter).toBeGreaterThanOrEqual(b!.queries.length);
    expect(a!.linesAfter).toBeLessThanOrEqual(b!.queries.length + 1);
  });

  it('a small file is not cut, and a half that does not read cleanly gives null (the whole file then reports)', () => {
    const file = writeGolden(jsonl(...lines(50)), tempDir(), 'g.jsonl');
    expect(readGoldenHalf(file, 0)).toBeNull(); // under the 1 MiB default
    const broken = writeGolden(
      jsonl(...lines(100), '{not json', ...lines(100).map((q) => ({ ...q, id: `r${q.id}` }))),
      tempDir(),
      'g.jsonl',
    );
    expect([readGoldenHalf(broken, 0, 0), readGoldenHalf(broken, 1, 0)].filter((h) => h === null)).toHaveLength(1);
    expect(readGoldenHalf(join(tempDir(), 'missing.jsonl'), 0, 0)).toBeNull();
  });
});

describe('evalverdict golden convert (formatGolden, readGoldenDocument)', () => {
  it('YAML -> JSON Lines -> YAML keeps every query, header and value', () => {
    const dir = tempDir();
    const source = yaml(
      'schema_version: "1"',
      'queries:',
      '  - id: q1',
      '    query: one  # a comment',
      '    judgments: {d1: 2}',
      '    notes: kept',
      '  - id: 002',
      '    query: two',
    );
    const doc = readGoldenDocument(writeGolden(source, dir, 'g.yaml'));
    expect(doc.header).toEqual({ schema_version: '1' });
    const asJsonl = writeGolden(formatGolden(doc, 'jsonl'), dir, 'g.jsonl');
    expect(readFileSync(asJsonl, 'utf8').split('\n')[0]).toBe('{"schema_version":"1"}');
    const back = writeGolden(formatGolden(readGoldenDocument(asJsonl), 'yaml'), dir, 'back.yaml');
    const [a, b, c] = [readGoldenFile(join(dir, 'g.yaml')), readGoldenFile(asJsonl), readGoldenFile(back)];
    expect(b.queries).toStrictEqual(a.queries);
    expect(c.queries).toStrictEqual(a.queries);
    expect(readGoldenDocument(back)).toEqual(doc);
  });

  it('property: any valid set survives the round trip both ways', () => {
    const text = fc.string({ maxLength: 12 });
    const query = fc.record(
      {
        id: fc.stringMatching(/^[a-z0-9]{1,8}$/),
        query: text,
        tags: fc.array(text, { maxLength: 3 }),
        judgments: fc.dictionary(fc.stringMatching(/^[a-z]{1,4}$/), fc.integer({ min: 0, max: 3 })),
        answerable: fc.boolean(),
      },
      { requiredKeys: ['id', 'query'] },
    );
    // The queries read, or the refusal of a set without an expectation (the message without its file name).
    const read = (parse: () => { queries: unknown }) => {
      try {
        return parse().queries;
      } catch (error) {
        return (error as InputError).message.replace(/^g\.(yaml|jsonl): /, '');
      }
    };
    fc.assert(
      fc.property(fc.uniqueArray(query, { selector: (q) => q.id, minLength: 1, maxLength: 8 }), (items) => {
        const asJsonl = formatGolden({ header: null, items }, 'jsonl');
        const asYaml = formatGolden({ header: null, items }, 'yaml');
        expect(read(() => parseGoldenYaml(asYaml, 'g.yaml'))).toStrictEqual(
          read(() => parseGoldenJsonl(asJsonl, 'g.jsonl')),
        );
      }),
      { numRuns: 200 },
    );
  });
});
