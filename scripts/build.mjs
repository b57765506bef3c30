// Builds dist/: the action bundle (dist/index.js) and the CLI bundle (dist/cli/index.js), each with the
// sql.js script and WASM file beside it (loaded at run time, not bundled: see src/load/sqlite.ts).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const wasm = join(dirname(require.resolve('sql.js')), 'sql-wasm.wasm');
const ncc = join(dirname(require.resolve('@vercel/ncc/package.json')), 'dist', 'ncc', 'cli.js');
const entries = [
  ['src/action/index.ts', 'dist'],
  ['src/cli/index.ts', 'dist/cli'],
];

rmSync('dist', { recursive: true, force: true });
for (const [entry, out] of entries) {
  if (!existsSync(entry)) continue;
  execFileSync(process.execPath, [ncc, 'build', entry, '-o', out, '--target', 'es2022', '-q'], { stdio: 'inherit' });
  copyFileSync(wasm, join(out, 'sql-wasm.wasm'));
  copyFileSync(join(dirname(wasm), 'sql-wasm.js'), join(out, 'sql-wasm.cjs'));
}

