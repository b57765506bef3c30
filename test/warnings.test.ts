/** summariseWarnings: the golden set's unknown-key warnings of two halves merged into one per key, then the cap. */
import { afterAll, describe, expect, it } from 'vitest';
import { readGoldenFile, readGoldenHalf } from '../src/load/golden.js';
import { summariseWarnings } from '../src/render/warnings.js';
import { removeTempDirs, tempDir, writeGolden } from './helpers/runDb.js';

afterAll(removeTempDirs);

describe('summariseWarnings', () => {
  it('merges the unknown-key warnings of two halves of one file: counts added, the first line kept', () => {
    // 300 queries; `judgements` in every tenth (q0000, q0010, ...: 30), `x_note` only after the cut, the nested
    // `snippet` in both halves
    const items = Array.from({ length: 300 }, (_, i) => ({
      id: `q${String(i).padStart(4, '0')}`,
      query: `question ${i}`,
      expected_doc_ids: [`d${i}`],
      ...(i % 10 === 0 ? { judgements: { [`d${i}`]: 1 } } : {}),
      ...(i === 290 ? { x_note: 1 } : {}),
      ...(i === 5 || i === 295 ? { gold_supports: [{ rel_path: 'a.md', snippet: 'x' }] } : {}),
    }));
    const file = writeGolden(items.map((q) => `${JSON.stringify(q)}\n`).join(''), tempDir(), 'g.jsonl');
    const [a, b] = [readGoldenHalf(file, 0, 0), readGoldenHalf(file, 1, 0)];
    expect(a && b).toBeTruthy();
    // each half counts its own
    expect(a!.warnings[0]).toMatch(/^.*:1: unknown key `judgements` in \d+ queries/);
    expect(b!.warnings[0]).not.toMatch(/:1: /);
    const whole = readGoldenFile(file).warnings;
    expect(whole).toEqual([
      `${file}:1: unknown key \`judgements\` in 30 queries (ignored); did you mean \`judgments\`?`,
      `${file}:6: \`gold_supports\`: unknown key \`snippet\` in 2 queries (ignored; its keys are rel_path, heading_path, snippets, newer); did you mean \`snippets\`?`,
      `${file}:291: unknown key \`x_note\` in 1 query (ignored); did you mean \`note\`?`,
    ]);
    expect(summariseWarnings([...a!.warnings, ...b!.warnings])).toEqual(whole);
  });

  it('keeps apart the same key of other files, other maps, and warnings of other kinds', () => {
    const warnings = [
      'a.yaml:3: unknown key `typo` in 2 queries (ignored)',
      'b.yaml:4: unknown key `typo` in 1 query (ignored)',
      'a.yaml:9: `expected_lines`: unknown key `typo` in 1 query (ignored; its keys are file, line_range)',
      'a.yaml: a YAML golden set of 2.6 MB takes seconds to read',
      'a.yaml:20: unknown key `typo` in 1,000 queries (ignored)',
    ];
    expect(summariseWarnings(warnings)).toEqual([
      'a.yaml:3: unknown key `typo` in 1,002 queries (ignored)',
      'b.yaml:4: unknown key `typo` in 1 query (ignored)',
      'a.yaml:9: `expected_lines`: unknown key `typo` in 1 query (ignored; its keys are file, line_range)',
      'a.yaml: a YAML golden set of 2.6 MB takes seconds to read',
    ]);
  });

  it('prints ten, then one line counting the rest', () => {
    const many = Array.from({ length: 12 }, (_, i) => `w${i}`);
    expect(summariseWarnings(many)).toEqual([...many.slice(0, 10), '... and 2 more warnings like these']);
    expect(summariseWarnings(many.slice(0, 11))).toEqual(many.slice(0, 11));
  });
});
