/** The docs are generated from or must agree with the code they describe. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildMetricTable } from '../src/aggregate/metrics.js';
import { DEFAULT_OPTIONS } from '../src/aggregate/score.js';
import { PRESETS } from '../src/gate/config.js';
import { renderMetricTableMarkdown } from '../src/render/metricDocs.js';
import { repoRoot } from './shared.js';

const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');

describe('docs', () => {
  it('docs/metrics.md holds the metric table generated from src/aggregate/metrics.ts', () => {
    const doc = read('docs/metrics.md');
    const table = doc.slice(doc.indexOf('<!-- metric-table:start -->\n') + '<!-- metric-table:start -->\n'.length, doc.indexOf('<!-- metric-table:end -->'));
    expect(table).toBe(renderMetricTableMarkdown(buildMetricTable(DEFAULT_OPTIONS, ['<stage>'])));
  });

  it('metric ids are unique', () => {
    const ids = buildMetricTable({ ...DEFAULT_OPTIONS, ks: [1, 3, 5, 10, 20] }, ['retrieval', 'generation']).map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('docs/gates.md names every preset and every gate of it', () => {
    const doc = read('docs/gates.md');
    for (const [name, gates] of Object.entries(PRESETS)) {
      expect(doc).toContain(`\`${name}\``);
      for (const g of gates) expect(doc).toContain(`\`${g.metric}\``);
    }
  });

  it('the README quick start is the two documented commands', () => {
    const readme = read('README.md');
    expect(readme).toContain('npm ci && npx evalgate compare fixtures/baseline.sqlite fixtures/candidate.sqlite --golden fixtures/golden.yaml');
    expect(readme).toContain('npm test');
    expect(read('.ci/run')).toMatch(/npm ci[^\n]*\n[\s\S]*\nnpm test\n/);
  });
});
