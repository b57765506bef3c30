/**
 * Reference data from ../shared (beside the repo root). A user's clone (and a GitHub-hosted runner) has none:
 * those suites skip and say so. .ci/run sets EVALVERDICT_REQUIRE_SHARED=1, so there a missing ../shared fails.
 * EVALVERDICT_SHARED_DIR names it elsewhere: `npm run mutate` sets it, as Stryker's sandbox copy has no ../shared.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const sharedRoot = process.env.EVALVERDICT_SHARED_DIR ?? resolve(repoRoot, '..', 'shared');

export function sharedPath(...parts: string[]): string | null {
  const path = join(sharedRoot, ...parts);
  if (existsSync(path)) return path;
  if (process.env.EVALVERDICT_REQUIRE_SHARED === '1') {
    throw new Error(`${path} is missing: CI must run the peer tests (../shared beside the repo root)`);
  }
  console.warn(`skipping: ${path} not found (reference data lives in ../shared beside the repo; CI has it)`);
  return null;
}
