/** The docs are generated from or must agree with the code they describe. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { buildMetricTable } from '../src/aggregate/metrics/registry.js';
import { DEFAULT_OPTIONS } from '../src/aggregate/score.js';
import { PRESETS } from '../src/gate/config.js';
import { renderMetricTableMarkdown } from '../src/render/metricDocs.js';
import { repoRoot } from './shared.js';
import { removeTempDirs, runCli, runNode, tempDir } from './helpers/runDb.js';

afterAll(removeTempDirs);

const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');

describe('docs', () => {
  it('docs/metrics.md holds the metric table generated from the registry (src/aggregate/metrics/)', () => {
    const doc = read('docs/metrics.md');
    const table = doc.slice(
      doc.indexOf('<!-- metric-table:start -->\n') + '<!-- metric-table:start -->\n'.length,
      doc.indexOf('<!-- metric-table:end -->'),
    );
    expect(table).toBe(renderMetricTableMarkdown(buildMetricTable(DEFAULT_OPTIONS, ['<stage>'])));
  });

  it('metric ids are unique', () => {
    const ids = buildMetricTable({ ...DEFAULT_OPTIONS, ks: [1, 3, 5, 10, 20] }, ['retrieval', 'generation']).map(
      (d) => d.id,
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('docs/gates.md names every preset and every gate of it', () => {
    const doc = read('docs/gates.md');
    for (const [name, gates] of Object.entries(PRESETS)) {
      expect(doc).toContain(`\`${name}\``);
      for (const g of gates) expect(doc).toContain(`\`${g.metric}\``);
    }
  });

  it('every EvalVerdict step in examples/ and the docs uses only inputs action.yml declares, and the required ones', () => {
    const action = parseYaml(read('action.yml')) as { inputs: Record<string, { required?: boolean }> };
    const declared = new Set(Object.keys(action.inputs));
    const required = Object.entries(action.inputs)
      .filter(([, v]) => v.required)
      .map(([k]) => k);
    const workflows = [
      ...readdirSync(join(repoRoot, 'examples')).map((f) => read(`examples/${f}`)),
      ...['README.md', 'docs/action.md'].flatMap((doc) =>
        [...read(doc).matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]).filter((y) => /^jobs:/m.test(y)),
      ),
    ];
    let steps = 0;
    for (const text of workflows) {
      const workflow = parseYaml(text) as { jobs: Record<string, { steps?: Array<Record<string, unknown>> }> };
      for (const job of Object.values(workflow.jobs))
        for (const step of job.steps ?? []) {
          if (step.uses !== 'evalverdict/evalverdict@v1') continue;
          steps++;
          const inputs = Object.keys((step.with as Record<string, unknown>) ?? {});
          expect(inputs.filter((i) => !declared.has(i))).toEqual([]);
          expect(required.filter((i) => !inputs.includes(i))).toEqual([]);
        }
    }
    expect(steps).toBeGreaterThanOrEqual(5);
  });

  it('the README quick start is the two documented commands', () => {
    const readme = read('README.md');
    expect(readme).toContain(
      'npm ci && npx evalverdict compare fixtures/baseline.sqlite fixtures/candidate.sqlite --golden fixtures/golden.yaml',
    );
    expect(readme).toContain('npm test');
    expect(read('.ci/run')).toMatch(/npm ci[^\n]*\n[\s\S]*\nnpm test\n/);
  });
});

describe('numbers quoted in prose', () => {
  /** README.md's paragraphs outside code blocks. */
  const paragraphs = (markdown: string) =>
    markdown
      .replace(/^\s*```[\s\S]*?^\s*```/gm, '')
      .split(/\n\s*\n/)
      .filter((p) => p.trim() !== '');

  it('in README.md carry the date they were measured on (a time or a size: a measurement, not a limit)', () => {
    const measured = /\b\d[\d.,]* ?(?:ms|s|MB|GB|minutes)\b/;
    const undated = paragraphs(read('README.md')).filter(
      (p) => measured.test(p.replace(/\(\d+ minutes\)|in 15 minutes/g, '')) && !/\b20\d\d-\d\d-\d\d\b/.test(p),
    );
    expect(undated).toEqual([]);
  });

  it("compare's speed is bench/README.md's 100kx10 row wherever the docs quote it", () => {
    const row = read('bench/README.md')
      .split('\n')
      .find((l) => l.startsWith('| 100kx10 |'));
    const cells = (row ?? '').split('|').map((c) => c.trim());
    // | size | hits | database | aggregate | peak | compare | compare peak | measured |
    const [compare, peak, date] = [cells[6].replace(/ \(.*\)$/, ''), cells[7], cells[8]];
    expect(compare).toMatch(/^\d+\.\d+ s$/);
    for (const doc of ['README.md', 'docs/action.md']) {
      const text = read(doc).replace(/\s+/g, ' ');
      const quoted = /`compare` of two 100,000-query runs.{0,160}/.exec(text)?.[0] ?? '';
      expect(quoted, doc).toContain(compare);
      expect(quoted, doc).toContain(peak);
      expect(quoted, doc).toContain(date);
    }
  });
});

describe('help texts say what the command does', () => {
  it('golden convert: the same queries and scores, a new fingerprint, as --help says', async () => {
    const help = await runCli(['golden', 'convert', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/same\s+queries, so the same scores\. The fingerprint .* changes/s);
    const converted = join(tempDir(), 'golden.jsonl');
    expect((await runCli(['golden', 'convert', 'fixtures/golden.yaml', converted])).status).toBe(0);
    const aggregate = async (golden: string) =>
      JSON.parse(
        (await runCli(['aggregate', 'fixtures/baseline.sqlite', '--golden', golden, '--format', 'json'])).stdout,
      );
    const [yaml, lines] = [await aggregate('fixtures/golden.yaml'), await aggregate(converted)];
    expect(lines.golden.fingerprint).not.toBe(yaml.golden.fingerprint);
    expect(lines.golden.queries).toBe(yaml.golden.queries);
    expect(lines.metrics).toEqual(yaml.metrics);
  });
});

describe('the library', () => {
  it('imports no @actions/* module: every import reachable from src/index.ts is relative, node:, or another package', () => {
    const seen = new Set<string>();
    const packages = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(
        /(?:^|\n)\s*(?:import|export)\b[^'";]*?from\s*'([^']+)'|import\(\s*'([^']+)'\s*\)|(?:^|\n)\s*import\s*'([^']+)'/g,
      )) {
        const spec = m[1] ?? m[2] ?? m[3];
        if (spec.startsWith('.')) visit(join(file, '..', spec.replace(/\.js$/, '.ts')));
        else packages.add(spec);
      }
    };
    visit(join(repoRoot, 'src', 'index.ts'));
    expect(seen.size).toBeGreaterThan(20); // the walk follows the graph (the core is some 30 modules)
    expect([...packages].filter((p) => p.startsWith('@actions/'))).toEqual([]);
    expect(packages).toContain('sql.js'); // and sees the packages the core does use
  });

  it("is importable from plain Node under the package name (dist/lib), and gives the CLI's bytes", async () => {
    const script = `import { computeAggregate, readRunDatabase, readGoldenFile, stableJson } from 'evalverdict';
process.stdout.write(stableJson(computeAggregate(await readRunDatabase('fixtures/baseline.sqlite'), readGoldenFile('fixtures/golden.yaml'))));`;
    const lib = await runNode(['--input-type=module', '-e', script]);
    expect(lib.stderr).toBe('');
    expect(lib.status).toBe(0);
    const cli = await runNode([
      'dist/cli/index.js',
      'aggregate',
      'fixtures/baseline.sqlite',
      '--golden',
      'fixtures/golden.yaml',
      '--json',
    ]);
    expect(cli.status).toBe(0);
    expect(lib.stdout).toBe(cli.stdout);
  });
});
