/**
 * Issue 46, copy-paste examples: each workflow in examples/ says, on its first line, the path to save it as, and that
 * path is its own file name under .github/workflows/, so no two examples claim one file. What the examples and the
 * docs name by file (a `baseline-workflow`, a docs block's first line) is one of those paths, and a `workflow_run`
 * trigger names a workflow an example defines.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { repoRoot } from './shared.js';

const SAVE_AS = /^# \.github\/workflows\/([\w.-]+\.ya?ml)\b/;

interface Example {
  file: string;
  text: string;
  workflow: Record<string, any>;
}

function examples(): Example[] {
  return readdirSync(join(repoRoot, 'examples'))
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((file) => {
      const text = readFileSync(join(repoRoot, 'examples', file), 'utf8');
      return { file, text, workflow: parseYaml(text) as Record<string, any> };
    });
}

/** Every EvalVerdict step's `with:` of a workflow. */
function evalverdictInputs(workflow: Record<string, any>): Array<Record<string, unknown>> {
  return Object.values(workflow.jobs as Record<string, { steps: Array<Record<string, any>> }>)
    .flatMap((job) => job.steps)
    .filter((step) => /\/evalverdict@/.test(String(step.uses ?? '')))
    .map((step) => step.with ?? {});
}

describe('the workflow examples', () => {
  it('each names, on its first line, the path to save it as: its own file name, distinct from the others', () => {
    const found = examples();
    expect(found.length).toBeGreaterThanOrEqual(6);
    const paths = found.map(({ file, text }) => {
      const saveAs = SAVE_AS.exec(text)?.[1];
      expect(saveAs, `${file}: first line`).toBe(file);
      return saveAs;
    });
    expect(new Set(paths).size).toBe(found.length);
  });

  it('name other workflows by the paths and names the examples have', () => {
    const found = examples();
    const files = new Set(found.map((e) => e.file));
    const names = new Set(found.map((e) => e.workflow.name));
    let named = 0;
    for (const { file, workflow } of found) {
      for (const inputs of evalverdictInputs(workflow)) {
        const baselineWorkflow = inputs['baseline-workflow'];
        if (baselineWorkflow === undefined) continue;
        named++;
        expect(files.has(String(baselineWorkflow)), `${file}: baseline-workflow ${baselineWorkflow}`).toBe(true);
      }
      for (const trigger of workflow.on?.workflow_run?.workflows ?? []) {
        named++;
        expect(names.has(trigger), `${file}: workflow_run ${trigger}`).toBe(true);
      }
    }
    expect(named).toBeGreaterThanOrEqual(3);
  });

  it('README.md and the docs save a workflow under the path of the example that defines it', () => {
    const byPath = new Map(examples().map((e) => [e.file, e.workflow.name]));
    const docs = ['README.md', ...readdirSync(join(repoRoot, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
      f.endsWith('.md'),
    );
    let blocks = 0;
    for (const doc of docs) {
      for (const m of readFileSync(join(repoRoot, doc), 'utf8').matchAll(/```ya?ml\n([\s\S]*?)```/g)) {
        const saveAs = SAVE_AS.exec(m[1])?.[1];
        if (saveAs === undefined) continue;
        blocks++;
        const name = (parseYaml(m[1]) as { name?: string }).name;
        expect(byPath.has(saveAs), `${doc}: ${saveAs} is no example's path`).toBe(true);
        expect(name, `${doc}: ${saveAs}`).toBe(byPath.get(saveAs));
      }
    }
    expect(blocks).toBeGreaterThanOrEqual(4);
  });
});
