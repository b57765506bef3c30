// Builds dist/: the action bundle (dist/index.js), the CLI bundle (dist/cli/index.js) and the library bundle
// (dist/lib/index.js), each with the sql.js script and WASM file beside it (loaded at run time, not bundled: see
// src/load/sqlite.ts), and the library's type declarations (dist/types/, tsconfig.types.json).
// Builds into a temporary folder and swaps it in, so a failed build never leaves dist/ empty or half-written.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const wasm = join(dirname(require.resolve('sql.js')), 'sql-wasm.wasm');
const ncc = join(dirname(require.resolve('@vercel/ncc/package.json')), 'dist', 'ncc', 'cli.js');
const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
const entries = [
  ['src/action/index.ts', ''],
  ['src/cli/index.ts', 'cli'],
  ['src/index.ts', 'lib'], // the library (package.json "exports"), importable from plain Node
];

const staging = 'dist.build';
rmSync(staging, { recursive: true, force: true });
mkdirSync(staging);
try {
  for (const [entry, sub] of entries) {
    if (!existsSync(entry)) throw new Error(`${entry} is missing`);
    const out = join(staging, sub);
    execFileSync(process.execPath, [ncc, 'build', entry, '-o', out, '--target', 'es2022', '-q'], { stdio: 'inherit' });
    copyFileSync(wasm, join(out, 'sql-wasm.wasm'));
    copyFileSync(join(dirname(wasm), 'sql-wasm.js'), join(out, 'sql-wasm.cjs'));
  }
  // Declarations, not the sources: a consumer's compiler checks .ts files it is given under its own settings.
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.types.json'], { stdio: 'inherit' });
} catch (error) {
  rmSync(staging, { recursive: true, force: true });
  console.error(`build failed; dist/ left as it was: ${error.message}`);
  process.exit(1);
}
rmSync('dist', { recursive: true, force: true });
renameSync(staging, 'dist');
