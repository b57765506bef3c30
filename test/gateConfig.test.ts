/**
 * Issue 26: gate configs (src/gate/config.ts) for the mutants test/gates.test.ts left alive: every check of a
 * value at its boundary, and every message whole (file:line, the key, what was expected), so a user mistake reads
 * the same in the CLI. Parsing only: no comparison is built.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { defaultGateConfig, parseGateConfig } from '../src/gate/config.js';
import { gateConfigError } from './helpers/compareFixtures.js';

const parse = (yaml: string) => parseGateConfig(yaml, 'gates.yml');

const errorOf = (yaml: string) => gateConfigError(yaml);

describe('the top level', () => {
  it('the built-in default names itself as the source', () => {
    expect(defaultGateConfig().source).toBe('built-in default');
  });

  it('must be a map: a list or a bare word is refused on its line', () => {
    const message = 'the gate config must be a map with `gates` (and optionally `preset`, `alpha`)';
    expect(errorOf('- metric: hit@5\n')).toBe(`gates.yml:1: ${message}`);
    expect(errorOf('\n\nretrieval\n')).toBe(`gates.yml:3: ${message}`);
  });

  it('alpha is above 0 and at most 0.5: 0, 0.51 and 1 are refused, 0.5 is taken', () => {
    expect(errorOf('alpha: 0\n')).toBe('gates.yml:1: `alpha` must be a number above 0 and at most 0.5, got 0');
    expect(errorOf('gates: []\nalpha: 1\n')).toBe(
      'gates.yml:2: `alpha` must be a number above 0 and at most 0.5, got 1',
    );
    expect(errorOf('alpha: five percent\n')).toBe(
      'gates.yml:1: `alpha` must be a number above 0 and at most 0.5, got "five percent"',
    );
    expect(parse('alpha: 0.5\n').alpha).toBe(0.5);
    // Above 0.5 a tested gate's two-sided interval at 1 - 2 alpha would have a negative level.
    expect(errorOf('alpha: 0.51\n')).toBe('gates.yml:1: `alpha` must be a number above 0 and at most 0.5, got 0.51');
    // a quoted number is text: compared with 0 and 1 it would pass as a number
    expect(errorOf('alpha: "0.5"\n')).toBe('gates.yml:1: `alpha` must be a number above 0 and at most 0.5, got "0.5"');
  });

  it('min_n is a whole number >= 0: 0 is taken; -1, 2.5 and a word are refused on their line', () => {
    const message = (line: number) => `gates.yml:${line}: \`min_n\` must be a whole number >= 0`;
    expect(errorOf('min_n: -1\n')).toBe(message(1));
    expect(errorOf('alpha: 0.05\nmin_n: 2.5\n')).toBe(message(2));
    expect(errorOf('min_n: many\n')).toBe(message(1));
    expect(parse('preset: retrieval\nmin_n: 0\n').gates.every((g) => g.minN === 0)).toBe(true);
  });

  it('gates must be a list; an empty `gates:` is no gates', () => {
    expect(errorOf('alpha: 0.05\ngates: 5\n')).toBe('gates.yml:2: `gates` must be a list');
    expect(errorOf('gates:\n  metric: hit@5\n')).toBe('gates.yml:2: `gates` must be a list');
    expect(parse('alpha: 0.05\ngates:\n').gates).toEqual([]);
  });
});

describe('presets', () => {
  it('`presets` may name one preset without a list', () => {
    expect(parse('presets: retrieval\n').gates.map((g) => g.metric)).toEqual([
      'hit@5',
      'mrr@10',
      'nDCG@10',
      'recall@10',
    ]);
  });

  it('an empty `preset:` or `presets:` names none', () => {
    expect(parse('preset:\n').gates).toEqual([]);
    expect(parse('presets:\n').gates).toEqual([]);
  });

  it('an unknown preset names the line of `preset` or of `presets`, and lists the presets', () => {
    const list = '(presets: rag-answers, retrieval)';
    expect(errorOf('alpha: 0.05\npreset: nope\n')).toBe(`gates.yml:2: unknown preset "nope" ${list}`);
    expect(errorOf('alpha: 0.05\n\npresets: [retrieval, nope]\n')).toBe(`gates.yml:3: unknown preset "nope" ${list}`);
  });

  it('a preset name must be a string: a list holding the name is not the preset', () => {
    expect(errorOf('presets: [[retrieval]]\n')).toMatch(/^gates\.yml:1: unknown preset \["retrieval"\]/);
  });
});

describe('one gate', () => {
  it('must be a map', () => {
    expect(errorOf('gates:\n  - hit@5\n')).toBe('gates.yml:2: each gate must be a map with `metric` and a threshold');
  });

  it('needs a non-empty metric name; the message names the line of `metric`', () => {
    expect(errorOf("gates:\n  - min: 1\n    metric: ''\n")).toBe('gates.yml:3: a gate needs `metric`');
    expect(errorOf('gates:\n  - min: 1\n    metric: 5\n')).toBe('gates.yml:3: a gate needs `metric`');
  });

  it('a threshold must be a finite number: .inf and .nan are refused', () => {
    expect(errorOf('gates:\n  - metric: hit@5\n    min: .inf\n')).toMatch(/^gates\.yml:3: `min` must be a number/);
    expect(errorOf('gates:\n  - metric: hit@5\n    max: .nan\n')).toMatch(/^gates\.yml:3: `max` must be a number/);
  });

  it('without a threshold the message lists the six kinds and margin', () => {
    expect(errorOf('gates:\n  - metric: hit@5\n    level: warn\n')).toBe(
      'gates.yml:2: gate on `hit@5` has no threshold (one of min, max, max_drop, max_increase, max_drop_pct, max_increase_pct, or margin)',
    );
  });

  it('a gate min_n is a whole number >= 0: 1.5 and a word are refused, 0 is taken', () => {
    const gate = (minN: string) => `gates:\n  - metric: hit@5\n    min: 1\n    min_n: ${minN}\n`;
    expect(errorOf(gate('1.5'))).toBe('gates.yml:4: `min_n` must be a whole number >= 0');
    expect(errorOf(gate('few'))).toBe('gates.yml:4: `min_n` must be a whole number >= 0');
    expect(parse(gate('0')).gates[0].minN).toBe(0);
  });
});

describe('where', () => {
  const gate = (where: string) => `gates:\n  - metric: hit@5\n    min: 1\n    where: ${where}\n`;
  const oneGroup = 'gates.yml:4: `where` must name one group, e.g. `{ category: adversarial }`';

  it('must be a map of exactly one group: a word, a list, two groups or none are refused', () => {
    expect(errorOf(gate('adversarial'))).toBe(oneGroup);
    expect(errorOf(gate('x'))).toBe(oneGroup);
    expect(errorOf(gate('[category]'))).toBe(oneGroup);
    expect(errorOf(gate('{ category: a, tag: b }'))).toBe(oneGroup);
    expect(errorOf(gate('{}'))).toBe(oneGroup);
  });

  it('an unknown key lists the five kinds of group', () => {
    expect(errorOf(gate('{ sharding: x }'))).toBe(
      'gates.yml:4: `where` key `sharding` is not one of category, difficulty, tag, answerable, vault',
    );
  });

  it('answerable must be true or false', () => {
    expect(errorOf(gate('{ answerable: yes please }'))).toBe('gates.yml:4: `where.answerable` must be true or false');
  });

  it('a group is a string; a number is read as its text; a list is refused', () => {
    expect(parse(gate('{ difficulty: 3 }')).gates[0].where).toEqual({ key: 'difficulty', value: '3' });
    expect(parse(gate('{ tag: flaky }')).gates[0].where).toEqual({ key: 'tag', value: 'flaky' });
    expect(errorOf(gate('{ category: [a, b] }'))).toBe('gates.yml:4: `where.category` must be a string');
  });
});

describe('the cap on gates, in process', () => {
  const many = (n: number) => `alpha: 0.05\ngates:\n${'  - metric: hit@1\n    min: 0\n'.repeat(n)}`;

  it('200 gates are read; 201 are refused naming the file, the list line and the count', () => {
    expect(parse(many(200)).gates).toHaveLength(200);
    expect(() => parse(many(201))).toThrow(InputError);
    // the list starts on line 3, under `gates:`
    expect(() => parse(many(201))).toThrow(
      'gates.yml:3: 201 gates, more than the 200 a report can show in a pull request comment',
    );
  });
});

describe('testing keys and k / mrr_cutoff', () => {
  it('margin, on_inconclusive, correction, primary, k and mrr_cutoff are read; a significant_only line is named', () => {
    const config = parseGateConfig(
      'margin: 0.05\non_inconclusive: fail\ncorrection: bh\nprimary: hit@5\nk: [20, 5]\nmrr_cutoff: 20\ngates:\n  - metric: hit@5\n    max_drop: 0\n    significant_only: true\n    margin: 0.03\n    on_inconclusive: pass\n',
      'gates.yml',
    );
    expect(config).toMatchObject({
      margin: 0.05,
      onInconclusive: 'fail',
      correction: 'bh',
      primary: 'hit@5',
      ks: [5, 20],
      mrrCutoff: 20,
    });
    expect(config.gates[0]).toMatchObject({ margin: 0.03, onInconclusive: 'pass' });
    expect(config.notices).toEqual([
      'gates.yml:8: `significant_only` now reads the gate\'s margin: it passes when its interval rules out a drop of it, fails when the drop is shown beyond it, and can be inconclusive (docs/gates.md, "What changed")',
    ]);
  });

  it('bad values are refused with the line', () => {
    const errorOf = (yaml: string) => {
      try {
        parseGateConfig(yaml, 'gates.yml');
      } catch (e) {
        return (e as Error).message;
      }
      return null;
    };
    expect(errorOf('correction: bonferroni\n')).toBe(
      'gates.yml:1: `correction` must be none, holm or bh, got "bonferroni"',
    );
    expect(errorOf('margin: -0.1\n')).toMatch(/^gates\.yml:1: `margin` must be a number, 0 or more/);
    expect(errorOf('on_inconclusive: maybe\n')).toMatch(/^gates\.yml:1: `on_inconclusive` must be fail, warn or pass/);
    expect(errorOf('k: [0]\n')).toMatch(/^gates\.yml:1: `k` must be a whole number 1-1000/);
  });
});

describe('primary', () => {
  it('must name the metric of a gate: a misspelt one is refused with did-you-mean, not silently ignored', () => {
    const gates =
      'gates:\n  - metric: nDCG@10\n    max_drop: 0\n    significant_only: true\n  - metric: hit@5\n    max_drop: 0\n    significant_only: true\n';
    expect(parseGateConfig(`primary: nDCG@10\n${gates}`, 'c.yml').primary).toBe('nDCG@10');
    expect(() => parseGateConfig(`primary: ndcg@10\n${gates}`, 'c.yml')).toThrow(
      /^c\.yml:1: `primary` "ndcg@10" is the metric of no gate here; did you mean `nDCG@10`\?/,
    );
  });
});
