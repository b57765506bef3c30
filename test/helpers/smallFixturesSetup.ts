/**
 * vitest globalSetup: writes the smaller Cranfield fixtures (test/helpers/smallFixtures.ts) once per test run and
 * gives their directory to the test files (`inject('smallFixtures')`); removes it at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { writeSmallFixtures } from './smallFixtures.js';

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'evalverdict-small-fixtures-'));
  project.provide('smallFixtures', await writeSmallFixtures(dir));
  return () => rmSync(dir, { recursive: true, force: true });
}
