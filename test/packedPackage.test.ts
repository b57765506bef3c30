/**
 * What `npm pack` ships (package.json "files"): the CLI and the library bundles with their sql.js files, the
 * library's type declarations, the schemas, the Python writer and the project's papers, nothing else; and the
 * unpacked package works as installed: the bin prints the version, the library imports from plain Node, and a
 * TypeScript consumer type-checks against the declarations.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let root: string;
let files: string[];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'evalverdict-pack-'));
  const out = execFileSync(npm, ['pack', '--json', '--pack-destination', root], { encoding: 'utf8' });
  const [packed] = JSON.parse(out);
  files = packed.files.map((f: { path: string }) => f.path).sort();
  mkdirSync(join(root, 'node_modules'));
  execFileSync('tar', ['-xzf', join(root, packed.filename), '-C', root]);
  symlinkSync(join(root, 'package'), join(root, 'node_modules', pkg.name));
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('npm pack', () => {
  it('holds the CLI, the library, its declarations, the schemas and the Python writer, and nothing else', () => {
    const allowed = [
      /^dist\/(cli|lib)\/(index\.js|package\.json|sql-wasm\.cjs|sql-wasm\.wasm)$/,
      /^dist\/types\/.+\.d\.ts$/,
      /^schemas\/[a-z-]+\.schema\.json$/,
      /^clients\/python\/evalverdict_writer\.py$/,
      /^(package\.json|README\.md|LICENSE|CHANGELOG\.md|SECURITY\.md)$/,
    ];
    expect(files.filter((f) => !allowed.some((re) => re.test(f)))).toEqual([]);
    for (const needed of [
      'dist/cli/index.js',
      'dist/cli/sql-wasm.wasm',
      'dist/lib/index.js',
      'dist/types/index.d.ts',
      'LICENSE',
      'schemas/gate-config.schema.json',
    ])
      expect(files).toContain(needed);
    expect(files.some((f) => f.startsWith('src/') || f.startsWith('test/') || f === 'dist/index.js')).toBe(false);
  });

  it("the bin prints package.json's version; the library imports from plain Node", () => {
    const bin = join(root, 'package', pkg.bin.evalverdict);
    const version = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
    expect(version.stdout).toBe(`evalverdict ${pkg.version}\n`);
    const lib = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import * as v from '${pkg.name}'; console.log(typeof v.compareRuns, typeof v.RunWriter)`,
      ],
      { cwd: root, encoding: 'utf8' },
    );
    expect(lib.stdout.trim(), lib.stderr).toBe('function function');
  });

  it('a TypeScript consumer type-checks against the declarations (no skipLibCheck)', () => {
    // The declarations name sql.js's and yaml's types: an install brings both (dependencies).
    mkdirSync(join(root, 'node_modules', '@types'));
    symlinkSync(resolve('node_modules/@types/sql.js'), join(root, 'node_modules', '@types', 'sql.js'));
    symlinkSync(resolve('node_modules/@types/emscripten'), join(root, 'node_modules', '@types', 'emscripten'));
    symlinkSync(resolve('node_modules/yaml'), join(root, 'node_modules', 'yaml'));
    symlinkSync(resolve('node_modules/@types/node'), join(root, 'node_modules', '@types', 'node'));
    writeFileSync(join(root, 'package.json'), '{"type": "module"}');
    writeFileSync(
      join(root, 'consumer.ts'),
      [
        `import { compareRuns, parseGateConfig, type GateConfig } from '${pkg.name}';`,
        'const config: GateConfig = parseGateConfig("margin: 0.05\\n", "evalverdict.yml");',
        'export const used: [typeof compareRuns, GateConfig] = [compareRuns, config];',
      ].join('\n'),
    );
    const tsc = resolve('node_modules/typescript/bin/tsc');
    const args = [
      '--noEmit',
      '--strict',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
    ];
    const run = spawnSync(process.execPath, [tsc, ...args, 'consumer.ts'], { cwd: root, encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
