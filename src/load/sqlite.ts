import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SqlJsStatic } from 'sql.js';

type InitSqlJs = (config: { wasmBinary: ArrayBuffer }) => Promise<SqlJsStatic>;

let sqlPromise: Promise<SqlJsStatic> | null = null;

/**
 * sql.js is loaded at run time, not bundled: its Emscripten glue does not survive webpack's rewriting of
 * `typeof module`. The build copies sql-wasm.js (as .cjs: dist is an ES module package) and sql-wasm.wasm next to each bundle in dist/; from
 * source they come from node_modules.
 */
function sqlJsFiles(): { script: string; wasm: string } {
  const here = dirname(fileURLToPath(import.meta.url));
  const script = join(here, 'sql-wasm.cjs');
  if (existsSync(script)) return { script, wasm: join(here, 'sql-wasm.wasm') };
  const resolved = createRequire(import.meta.url).resolve(['sql', 'js'].join('.'));
  return { script: resolved, wasm: join(dirname(resolved), 'sql-wasm.wasm') };
}

export function loadSqlJs(): Promise<SqlJsStatic> {
  if (!sqlPromise) {
    const { script, wasm } = sqlJsFiles();
    const initSqlJs = createRequire(import.meta.url)(script) as InitSqlJs;
    const bytes = readFileSync(wasm);
    sqlPromise = initSqlJs({ wasmBinary: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer });
  }
  return sqlPromise;
}
