/**
 * The floor plan, held to the code: README's "Layout" list names the rooms of src/ from the ground up, and this reads
 * it, so the list cannot drift from the folders. Every folder of src/ is on the list; every import points down it (a
 * room imports only rooms listed before it, or itself); no files import each other in a circle; and the picture in
 * docs/architecture.md has exactly the arrows the code has between rooms (less those a longer way implies).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './shared.js';

const SRC = join(repoRoot, 'src');

/** The rooms of README's Layout list, in order: each item's backticked `src/...` names, one floor per item. */
function floorPlanOf(readme: string): string[][] {
  const section = /\n## Layout\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
  return [...section.matchAll(/^\d+\. (.*)$/gm)].map((m) =>
    [...m[1].split(' — ')[0].matchAll(/`(src\/[^`]*)`/g)].map((r) => r[1]),
  );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.ts$/.test(name) ? [path] : [];
  });
}

/** The room a source file stands in: its top folder under src/ (`src/load/`), or `src/*.ts` for a leaf. */
function roomOf(file: string): string {
  const rel = relative(repoRoot, file);
  if (rel === 'src/index.ts') return rel;
  const parts = rel.split('/');
  return parts.length === 2 ? 'src/*.ts' : `src/${parts[1]}/`;
}

/** Every relative import of a file (static, re-exported or dynamic), resolved to the .ts file it names. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]);
  return specs
    .map((s) => resolve(dirname(file), s).replace(/\.js$/, '.ts'))
    .filter((target) => target.startsWith(SRC) && target.endsWith('.ts'));
}

const files = sourceFiles(SRC);
const plan = floorPlanOf(readFileSync(join(repoRoot, 'README.md'), 'utf8'));
const floorOf = new Map(plan.flatMap((rooms, floor) => rooms.map((room) => [room, floor] as const)));
const edges = files.flatMap((from) => importsOf(from).map((to) => ({ from, to })));

/** The arrows between rooms that no longer way through other rooms implies (as the picture draws them). */
function roomArrows(): string[] {
  const direct = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    const [a, b] = [roomOf(from), roomOf(to)];
    if (a !== b) direct.set(a, (direct.get(a) ?? new Set()).add(b));
  }
  const reachable = (start: string, skip: string): boolean => {
    const seen = new Set<string>();
    const stack = [...(direct.get(start) ?? [])].filter((r) => r !== skip);
    while (stack.length > 0) {
      const r = stack.pop()!;
      if (r === skip) return true;
      if (seen.has(r)) continue;
      seen.add(r);
      stack.push(...(direct.get(r) ?? []));
    }
    return false;
  };
  return [...direct].flatMap(([a, tos]) => [...tos].filter((b) => !reachable(a, b)).map((b) => `${a} --> ${b}`)).sort();
}

describe('the floor plan', () => {
  it("README's Layout list names every folder of src/, each once, and nothing else", () => {
    const folders = readdirSync(SRC)
      .filter((name) => statSync(join(SRC, name)).isDirectory())
      .map((name) => `src/${name}/`);
    expect(plan.length).toBeGreaterThan(10);
    expect(plan.flat().sort()).toEqual([...folders, 'src/*.ts', 'src/index.ts'].sort());
  });

  it('every import points down the list: a room imports only rooms on lower floors, or itself', () => {
    const againstThePlan = edges
      .filter(({ from, to }) => roomOf(from) !== roomOf(to) && !(floorOf.get(roomOf(to))! < floorOf.get(roomOf(from))!))
      .map(({ from, to }) => `${relative(repoRoot, from)} -> ${relative(repoRoot, to)}`);
    expect(againstThePlan).toEqual([]);
  });

  it('the check finds an import that points up', () => {
    const up = { from: join(SRC, 'load/golden.ts'), to: join(SRC, 'gate/config.ts') };
    expect(floorOf.get(roomOf(up.to))! < floorOf.get(roomOf(up.from))!).toBe(false);
  });

  it('no files import each other in a circle', () => {
    const next = new Map<string, string[]>();
    for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
    const state = new Map<string, 'open' | 'done'>();
    const circles: string[] = [];
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        circles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(repoRoot, f)).join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const to of next.get(file) ?? []) visit(to, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(circles).toEqual([]);
  });

  it("docs/architecture.md's picture draws the rooms' arrows as the code has them", () => {
    const doc = readFileSync(join(repoRoot, 'docs/architecture.md'), 'utf8');
    const mermaid = /```mermaid\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
    const ids = new Map([...mermaid.matchAll(/^\s*(\w+)\["(src\/[^"]*)"\]/gm)].map((m) => [m[1], m[2]]));
    const drawn = [...mermaid.matchAll(/^\s*(\w+) --> (\w+)\s*$/gm)].map(
      (m) => `${ids.get(m[1])} --> ${ids.get(m[2])}`,
    );
    expect(drawn.sort()).toEqual(roomArrows());
  });
});
