/**
 * House rules that review alone let drift: no function in src/ over 60 lines (its body, as written), so each can be
 * read whole. Declarations (the metric registry's tables) are object literals, not functions, and are not counted.
 * And no test reads a monotonic clock to bound work (issue 46): bounds are CPU time, counts or memory.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './shared.js';

const MAX_FUNCTION_LINES = 60;

function sourceFiles(dir: string, ext = /\.ts$/): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path, ext) : ext.test(path) ? [path] : [];
  });
}

/**
 * The test files that may read the wall clock: the child-process helpers, whose wall time is a field for logs that no
 * test asserts (BundleRun.ms, Measured.seconds); their hang guards are timers.
 */
const WALL_CLOCK_READERS = ['test/helpers/actionRunner.ts', 'test/helpers/measuredCli.ts'];

/** `file:line (n lines)` for every function-like node whose body is longer than `max` lines. */
function longFunctions(file: string, max: number): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const body = node.body as ts.Node;
      const first = source.getLineAndCharacterOfPosition(body.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(body.getEnd()).line;
      if (last - first + 1 > max) found.push(`${relative(repoRoot, file)}:${first + 1} (${last - first + 1} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('house rules', () => {
  it(`no function in src/ is over ${MAX_FUNCTION_LINES} lines`, () => {
    const long = sourceFiles(join(repoRoot, 'src')).flatMap((f) => longFunctions(f, MAX_FUNCTION_LINES));
    expect(long).toEqual([]);
  });

  it('the check itself finds a long function', () => {
    const dir = mkdtempSync(join(tmpdir(), 'evalverdict-rules-'));
    const lines = Array.from({ length: 70 }, (_, i) => `  const x${i} = ${i};`).join('\n');
    const file = join(dir, 'long.ts');
    writeFileSync(file, `export function f(): void {\n${lines}\n}\n`);
    try {
      expect(longFunctions(file, MAX_FUNCTION_LINES)).toEqual([`${relative(repoRoot, file)}:1 (72 lines)`]);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('no test times work by the wall clock: a busy machine stretches it (bound CPU time, counts or memory)', () => {
    const clock = /\bperformance\.now\(|\bhrtime\b/;
    const readers = sourceFiles(join(repoRoot, 'test'), /\.(ts|mjs)$/)
      .map((f) => relative(repoRoot, f))
      .filter((f) => !f.startsWith('test/fixtures/') && clock.test(readFileSync(join(repoRoot, f), 'utf8')));
    expect(readers.sort()).toEqual(WALL_CLOCK_READERS);
  });
});
