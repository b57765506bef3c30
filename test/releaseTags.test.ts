/**
 * scripts/release-tags.sh, as .github/workflows/release.yml runs it: in a clone whose origin is a local bare
 * repository. It tags package.json's version at HEAD and moves the major tag; it refuses a tag that is not
 * vX.Y.Z, a version that is not the tag's, and a version already tagged at another commit.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = resolve('scripts/release-tags.sh');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: tmpdir(),
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' }).trim();

/** A bare origin and a clone of it with one commit of package.json at `version`. */
function repository(version: string) {
  const root = mkdtempSync(join(tmpdir(), 'evalverdict-release-'));
  dirs.push(root);
  const origin = join(root, 'origin.git');
  const work = join(root, 'work');
  git(root, 'init', '--quiet', '--bare', origin);
  git(root, 'clone', '--quiet', origin, work);
  commitVersion(work, version);
  git(work, 'push', '--quiet', 'origin', 'HEAD:refs/heads/main');
  return { origin, work };
}

function commitVersion(work: string, version: string) {
  writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'x', version }));
  git(work, 'add', 'package.json');
  git(work, 'commit', '--quiet', '--allow-empty', '-m', `version ${version}`);
}

const release = (work: string, ...args: string[]) =>
  spawnSync('bash', [SCRIPT, ...args], { cwd: work, env: GIT_ENV, encoding: 'utf8' });
const tagAt = (repo: string, tag: string) => git(repo, 'rev-parse', `refs/tags/${tag}^{commit}`);

describe('scripts/release-tags.sh', () => {
  it('tags v1.0.0 at HEAD and moves v1 there, on origin', () => {
    const { origin, work } = repository('1.0.0');
    const run = release(work);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const head = git(work, 'rev-parse', 'HEAD');
    expect(tagAt(origin, 'v1.0.0')).toBe(head);
    expect(tagAt(origin, 'v1')).toBe(head);
    expect(git(origin, 'cat-file', '-t', 'refs/tags/v1.0.0')).toBe('tag'); // annotated
  });

  it('a later release moves v1 and leaves v1.0.0 where it was', () => {
    const { origin, work } = repository('1.0.0');
    expect(release(work).status).toBe(0);
    const first = git(work, 'rev-parse', 'HEAD');
    commitVersion(work, '1.1.0');
    const run = release(work);
    expect(run.status, run.stderr).toBe(0);
    const second = git(work, 'rev-parse', 'HEAD');
    expect(second).not.toBe(first);
    expect(tagAt(origin, 'v1.0.0')).toBe(first);
    expect(tagAt(origin, 'v1.1.0')).toBe(second);
    expect(tagAt(origin, 'v1')).toBe(second);
  });

  it("a published release's tag: accepted when it is package.json's version, moved to as vX", () => {
    const { origin, work } = repository('2.3.4');
    const run = release(work, 'v2.3.4');
    expect(run.status, run.stderr).toBe(0);
    expect(tagAt(origin, 'v2')).toBe(git(work, 'rev-parse', 'HEAD'));
  });

  it('refuses a tag that is not vX.Y.Z, a version that is not the tag, and a version tagged elsewhere', () => {
    const { origin, work } = repository('1.0.0');
    const notSemver = release(work, 'v1.0');
    expect(notSemver.status).toBe(1);
    expect(notSemver.stdout).toContain('v1.0 is not vMAJOR.MINOR.PATCH');
    const mismatch = release(work, 'v1.0.1');
    expect(mismatch.status).toBe(1);
    expect(mismatch.stdout).toContain('package.json says 1.0.0, the release is v1.0.1');
    expect(release(work).status).toBe(0);
    const tagged = git(work, 'rev-parse', 'HEAD');
    commitVersion(work, '1.0.0'); // a new commit that forgot to bump the version
    const again = release(work);
    expect(again.status).toBe(1);
    expect(again.stdout).toContain(`v1.0.0 already names ${tagged}`);
    expect(tagAt(origin, 'v1')).toBe(tagged);
  });
});
