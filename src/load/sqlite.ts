import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import initSqlJs from 'sql.js';
import type { SqlJsStatic } from 'sql.js';

let sqlPromise: Promise<SqlJsStatic> | null = null;

/**
 * The WASM file sits next to the bundle in dist/ (the build copies it there) and in
 * node_modules when running from source; bundlers do not copy it for us.
 */
export function locateSqlWasm(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const besideBundle = join(here, 'sql-wasm.wasm');
  if (existsSync(besideBundle)) return besideBundle;
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('sql.js')), 'sql-wasm.wasm');
}

export function loadSqlJs(): Promise<SqlJsStatic> {
  if (!sqlPromise) {
    const wasmBinary = readFileSync(locateSqlWasm());
    sqlPromise = initSqlJs({ wasmBinary: wasmBinary.buffer.slice(wasmBinary.byteOffset, wasmBinary.byteOffset + wasmBinary.byteLength) as ArrayBuffer });
  }
  return sqlPromise;
}
