/**
 * The look-up (src/action/artifactBaseline/findArtifact.ts) over an injected client: the messages for GitHub's refusals, and the
 * download that never reaches the storage host with GitHub's token (the client's download has no token to send).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  baselineClientOf,
  currentWorkflowFile,
  findBaselineArtifact,
} from '../src/action/artifactBaseline/findArtifact.js';
import type { ArtifactLookup, BaselineClient } from '../src/action/artifactBaseline/findArtifact.js';
import { writeZip } from './helpers/zipWriter.js';

const temp = mkdtempSync(join(tmpdir(), 'evalverdict-lookup-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const BASE = 'a'.repeat(40);
const lookup: ArtifactLookup = {
  owner: 'o',
  repo: 'r',
  artifact: 'evalverdict-baseline',
  workflow: 'rag-eval.yml',
  baseSha: BASE,
  headSha: 'b'.repeat(40),
  baseBranch: 'main',
  maxCommits: 50,
  path: null,
  tempDir: temp,
};

function httpError(status: number, message: string): Error {
  return Object.assign(new Error(message), { status });
}

function failingClient(error: Error): BaselineClient {
  return {
    request: () => Promise.reject(error),
    download: () => Promise.reject(new Error('not reached')),
  };
}

describe('GitHub refusals are one message saying what to change', () => {
  it('403: the permission line to add', async () => {
    await expect(
      findBaselineArtifact(failingClient(httpError(403, 'Resource not accessible by integration')), lookup),
    ).rejects.toThrow(
      "baseline artifact:evalverdict-baseline: the token may not list the runs of workflow rag-eval.yml (HTTP 403: Resource not accessible by integration); add `actions: read` to the job's `permissions:`",
    );
  });

  it('404 on the runs: the workflow does not exist, and the input that names it', async () => {
    await expect(findBaselineArtifact(failingClient(httpError(404, 'Not Found')), lookup)).rejects.toThrow(
      'baseline artifact:evalverdict-baseline: workflow "rag-eval.yml" not found in o/r (HTTP 404); set input `baseline-workflow` to the file name of the workflow that uploads the artifact, e.g. rag-eval.yml',
    );
  });

  it('a head GitHub cannot compare (404) is no merge base: the history is searched next', async () => {
    const routes: string[] = [];
    const client: BaselineClient = {
      request: async <T>(route: string) => {
        routes.push(route.replace('GET /repos/{owner}/{repo}', ''));
        if (route.includes('/compare/')) throw httpError(404, 'Not Found');
        if (route.endsWith('/commits'))
          return {
            data: [{ sha: BASE, parents: [], commit: { committer: { date: '2026-01-01T00:00:00Z' } } }] as T,
            headers: {},
          };
        return { data: { workflow_runs: [] } as T, headers: {} };
      },
      download: () => Promise.reject(new Error('not reached')),
    };
    const result = await findBaselineArtifact(client, lookup);
    expect(result.found).toBe(false);
    expect(routes).toEqual(['/actions/workflows/{workflow_id}/runs', '/compare/{basehead}', '/commits']);
    expect(result.notes).toEqual([`no merge base: GitHub cannot compare aaaaaaa...bbbbbbb (HTTP 404)`]);
  });

  it('a rate limit is not taken for a permission problem', async () => {
    await expect(
      findBaselineArtifact(failingClient(httpError(403, 'API rate limit exceeded for installation')), lookup),
    ).rejects.toThrow(/could not list the runs of workflow rag-eval.yml \(HTTP 403\): API rate limit exceeded/);
  });
});

describe('the octokit client', () => {
  it('downloads the redirect target with no Authorization header, and caps its size', async () => {
    const db = Buffer.from('SQLite format 3\0 database bytes');
    const zip = writeZip([{ name: 'baseline.sqlite', data: db }]);
    const seen: Array<{ url: string; init: RequestInit | undefined }> = [];
    const fakeFetch = (async (url: string, init?: RequestInit) => {
      seen.push({ url, init });
      return new Response(zip, { status: 200 });
    }) as typeof fetch;
    const routes: string[] = [];
    const octokit = {
      request: async (route: string, params: Record<string, unknown>) => {
        routes.push(route);
        if (route.endsWith('/runs'))
          return {
            data: {
              workflow_runs: [
                { id: 7, head_sha: BASE, html_url: 'https://x/runs/7', created_at: '2026-01-01T00:00:00Z' },
              ],
            },
            headers: {},
          };
        if (route.endsWith('/artifacts'))
          return {
            data: {
              total_count: 1,
              artifacts: [{ id: 9, name: 'evalverdict-baseline', size_in_bytes: zip.length, expired: false }],
            },
            headers: {},
          };
        expect(params.request).toEqual({ redirect: 'manual' });
        return { status: 302, data: '', headers: { location: 'https://storage.example/blob?sig=1' } };
      },
    };
    const result = await findBaselineArtifact(baselineClientOf(octokit, fakeFetch), lookup);
    expect(result.found && readFileSync(result.path).equals(db)).toBe(true);
    expect(result.apiCalls).toBe(3);
    expect(seen).toHaveLength(1);
    expect(seen[0].url).toBe('https://storage.example/blob?sig=1');
    expect(new Headers(seen[0].init?.headers).has('authorization')).toBe(false);

    await expect(baselineClientOf(octokit, fakeFetch).download('https://storage.example/b', 10)).rejects.toThrow(
      'more than the 10-byte cap',
    );
  });

  it('finds the workflow file in GITHUB_WORKFLOW_REF', () => {
    expect(currentWorkflowFile('octo/repo/.github/workflows/rag-eval.yml@refs/heads/main')).toBe('rag-eval.yml');
    expect(currentWorkflowFile(undefined)).toBeNull();
  });
});
