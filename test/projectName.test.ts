/**
 * The project is EvalVerdict (issue 48): nothing a user meets says the name it had before its first release, but the
 * CHANGELOG's 1.0.0 note that says so. A scan of every tracked text file where a user meets the name.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const OLD_NAME = /\beval[-_ ]?gate/i;
const USER_FACING = [
  'src',
  'docs',
  'examples',
  'schemas',
  'clients',
  'dist',
  'README.md',
  'action.yml',
  'package.json',
];

const tracked = (paths: string[]) =>
  execFileSync('git', ['ls-files', '--', ...paths], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);

describe('the name', () => {
  it('no file a user meets says the old name', () => {
    const files = tracked(USER_FACING).filter((f) => !/\.(png|wasm|sqlite)$/.test(f));
    expect(files.length).toBeGreaterThan(100);
    const named = files.filter((f) => OLD_NAME.test(readFileSync(f, 'latin1')));
    expect(named).toEqual([]);
  });

  it("the CHANGELOG names it once, in the 1.0.0 note, and the package, bin and action are EvalVerdict's", () => {
    const changelog = readFileSync('CHANGELOG.md', 'utf8');
    const lines = changelog.split('\n').filter((l) => OLD_NAME.test(l));
    expect(lines.length).toBeGreaterThan(0);
    const note = changelog.slice(
      changelog.indexOf('## 1.0.0'),
      changelog.indexOf('\n### ', changelog.indexOf('## 1.0.0')),
    );
    for (const line of lines) expect(note).toContain(line);
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    expect([pkg.name, Object.keys(pkg.bin)]).toEqual(['evalverdict', ['evalverdict']]);
    expect(readFileSync('action.yml', 'utf8')).toMatch(/^name: EvalVerdict$/m);
  });
});
