/**
 * Issue 46, the Node version policy: every package package-lock.json installs supports every Node version
 * package.json's `engines.node` states (npm's own reading of the ranges, by semver), so that a dependency bump
 * cannot bring back `npm ci`'s EBADENGINE warning unnoticed; the README states the same versions.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './shared.js';

interface LockPackage {
  version?: string;
  engines?: { node?: string } | string[];
}

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  engines: { node: string };
  overrides?: Record<string, string>;
};
const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockPackage>;
};
const stated = manifest.engines.node;

/** The lowest version of each line the range states (`^20.19.0 || >=24` -> 20.19.0, 24.0.0). */
function lineMinimums(range: string): string[] {
  return new semver.Range(range).set.map(
    (comparators) => semver.minVersion(comparators.map(String).join(' '))!.version,
  );
}

/** A package's name from its lock path (`node_modules/a/node_modules/@b/c` -> `@b/c`). */
const nameOf = (path: string) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);

describe('the Node versions we state', () => {
  it('are a valid range, the lock file records them, and the Node running the tests is one of them', () => {
    expect(semver.validRange(stated)).not.toBeNull();
    expect(lock.packages['']?.engines).toEqual({ node: stated });
    expect(semver.satisfies(process.version, stated), process.version).toBe(true);
  });

  it("are each supported by every installed package's engines.node", () => {
    const excluding: string[] = [];
    let checked = 0;
    for (const [path, pkg] of Object.entries(lock.packages)) {
      const node = path === '' || Array.isArray(pkg.engines) ? undefined : pkg.engines?.node;
      if (node === undefined) continue;
      checked++;
      if (!semver.subset(stated, node)) excluding.push(`${nameOf(path)}@${pkg.version}: engines.node ${node}`);
    }
    expect(checked).toBeGreaterThan(50);
    expect(excluding).toEqual([]);
  });

  it('hold each override at the version the lock installs, one that supports them', () => {
    for (const [name, version] of Object.entries(manifest.overrides ?? {})) {
      const installed = Object.entries(lock.packages).filter(([path]) => path !== '' && nameOf(path) === name);
      expect(installed.length, name).toBeGreaterThan(0);
      for (const [path, pkg] of installed) expect(pkg.version, path).toBe(version);
    }
  });

  it('are the ones the README states', () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Node versions'));
    expect(section.length).toBeLessThan(readme.length);
    expect(section).toContain(`\`${stated}\``);
    for (const minimum of lineMinimums(stated)) {
      const shown = minimum.replace(/\.0$/, '').replace(/\.0$/, '');
      expect(section, minimum).toContain(`Node ${shown}`);
    }
  });
});
