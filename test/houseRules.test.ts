/**
 * House rules that review alone let drift: no function in src/ over 60 lines (its body, as written), so each can be
 * read whole. Declarations (the metric registry's tables) are object literals, not functions, and are not counted.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './shared.js';

const MAX_FUNCTION_LINES = 60;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

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
    const dir = mkdtempSync(join(tmpdir(), 'evalgate-rules-'));
    const lines = Array.from({ length: 70 }, (_, i) => `  const x${i} = ${i};`).join('\n');
    const file = join(dir, 'long.ts');
    writeFileSync(file, `export function f(): void {\n${lines}\n}\n`);
    try {
      expect(longFunctions(file, MAX_FUNCTION_LINES)).toEqual([`${relative(repoRoot, file)}:1 (72 lines)`]);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});
