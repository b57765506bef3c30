// `baseline: artifact:NAME` cost: the action finds a 50 MB baseline artifact for the pull request's base (an exact
// hit) on the local stand-in for GitHub's API (test/helpers/fakeGitHub.ts), downloads it through the 302 to the
// storage path, extracts and writes it. Prints the API calls and the time the action logs for look-up + download +
// extraction (median of 3 runs). Budget: at most 6 API calls, under 2 s.
//
//   npm run build && node --import tsx bench/artifact-baseline.mjs
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import initSqlJs from 'sql.js';
import { FakeGitHub, loadGitHubOpenApi } from '../test/helpers/fakeGitHub.ts';
import { writeZip } from '../test/helpers/zipWriter.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(join(tmpdir(), 'evalverdict-bench-artifact-'));
const SQL = await initSqlJs();
// The fixture baseline plus 50 MB of incompressible padding in a table EvalVerdict never reads.
const db = new SQL.Database(readFileSync(join(root, 'fixtures', 'baseline.sqlite')));
db.run('CREATE TABLE padding (b BLOB)');
for (let i = 0; i < 5; i++) db.run('INSERT INTO padding VALUES (randomblob(10000000))');
const bytes = Buffer.from(db.export());
db.close();
const zip = writeZip([{ name: 'baseline.sqlite', data: bytes }]);
console.log(`artifact: ${(zip.length / 1e6).toFixed(1)} MB zip, database ${(bytes.length / 1e6).toFixed(1)} MB`);

const spec = loadGitHubOpenApi();
const github = await FakeGitHub.start();
const BASE = '6dcb09b5b57875f334f61aebed695e2e4193db5e';
try {
  const pr = structuredClone(spec.components.examples['pull-request'].value);
  const eventPath = join(scratch, 'event.json');
  writeFileSync(eventPath, JSON.stringify({ action: 'synchronize', number: pr.number, pull_request: pr }));
  const times = [];
  for (let i = 0; i < 3; i++) {
    github.reset();
    github.addCommit(BASE, [], '2026-11-01T00:00:00Z');
    const run = github.addWorkflowRun({
      workflow: 'rag-eval.yml',
      headSha: BASE,
      branch: 'master',
      createdAt: '2026-11-01T00:01:00Z',
    });
    github.addArtifact(run, 'evalverdict-baseline', zip);
    const dir = join(scratch, `run-${i}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'output'), '');
    const env = {
      PATH: process.env.PATH,
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_REPOSITORY: 'octocat/Hello-World',
      GITHUB_API_URL: github.url,
      GITHUB_WORKSPACE: root,
      GITHUB_OUTPUT: join(dir, 'output'),
      GITHUB_WORKFLOW_REF: 'octocat/Hello-World/.github/workflows/rag-eval.yml@refs/pull/1347/merge',
      RUNNER_TEMP: dir,
      NO_PROXY: '127.0.0.1',
      INPUT_BASELINE: 'artifact:evalverdict-baseline',
      INPUT_CANDIDATE: 'fixtures/candidate.sqlite',
      INPUT_GOLDEN: 'fixtures/golden.yaml',
      'INPUT_GITHUB-TOKEN': 'ghs_bench',
      INPUT_COMMENT: 'never',
      'INPUT_REPORT-PATH': join(dir, 'report.md'),
      INPUT_GATES: 'gates:\n  - metric: hit@10\n    min: 0.5\n',
    };
    const out = await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [join(root, 'dist', 'index.js')], {
        cwd: root,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      child.stdout.on('data', (d) => (text += d));
      child.stderr.on('data', (d) => (text += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, text }));
    });
    const m = /(\d+) GitHub API calls, (\d+) ms with the download/.exec(out.text);
    if (out.code !== 0 || !m) throw new Error(`the action failed (${out.code}):\n${out.text}`);
    times.push(Number(m[2]));
    console.log(`run ${i + 1}: ${m[1]} API calls, ${m[2]} ms (look-up, download, extraction, write)`);
  }
  console.log(`median: ${[...times].sort((a, b) => a - b)[1]} ms`);
} finally {
  await github.close();
  rmSync(scratch, { recursive: true, force: true });
}
