/**
 * Main's history (issue 33): the file's append and read (src/compare/historyTrend.ts, src/load/historyFile.ts,
 * src/write/historyWriter.ts), the queries flaky by history, the change-point test's false-alarm rate and power by
 * simulation (src/stats/changePoint.ts), and the trend's Markdown (src/render/trend.ts).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { changePointOf, MIN_RUNS, shiftTest } from '../src/stats/changePoint.js';
import { appendRun, emptyHistory, flakyByHistory, gatedMetrics, trendOf } from '../src/compare/historyTrend.js';
import type { History, HistoryRun } from '../src/load/historyFile.js';
import { parseHistory, readHistoryFile } from '../src/load/historyFile.js';
import { sparkline, trendMarkdownLines, trendTextLines } from '../src/render/trend.js';
import { historyText, writeHistoryFile } from '../src/write/historyWriter.js';
import { runMain } from '../src/cli/main.js';
import { historyFromArchive, previousHistory, pushToDefaultBranch, recordHistory } from '../src/action/mainHistory.js';
import { writeZip } from './helpers/zipWriter.js';
import { repoRoot } from './shared.js';
import {
  chunkQuery,
  compareAndGate,
  gates,
  goldenSet,
  hostile,
  rankedResult,
  runData,
} from './helpers/compareFixtures.js';

const scratch = mkdtempSync(join(tmpdir(), 'evalverdict-history-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A report of three queries: q1 hit at rank `r1` (null: missed), q2 always hit, q3 always missed. */
function reportWith(r1: number | null, runId: string, commit: string) {
  const golden = goldenSet(['q1', 'q2', 'q3'].map((id) => chunkQuery(id)));
  const baseline = runData('base', [rankedResult('q1', 1), rankedResult('q2', 1), rankedResult('q3', null)]);
  const candidate = runData(runId, [rankedResult('q1', r1), rankedResult('q2', 2), rankedResult('q3', null)], {
    commitHash: commit,
    createdAt: '2026-11-20T10:00:00Z',
  });
  return compareAndGate(
    baseline,
    candidate,
    golden,
    gates('gates:\n  - metric: hit@5\n    min: 0.1\n  - metric: mrr@10\n    max_drop: 0.5\n'),
  ).report;
}

function run(outcomes: string, metrics: Record<string, number | null>, golden = 'g1', i = 0): HistoryRun {
  return {
    run_id: `r${i}`,
    commit: null,
    time: `2026-11-${String(i + 1).padStart(2, '0')}T00:00:00Z`,
    golden,
    metrics,
    outcomes,
  };
}

describe('appending a run', () => {
  it('records commit, time, the gated metrics and each query hit or miss; drops the oldest beyond max_runs', () => {
    const report = reportWith(null, 'c1', 'a'.repeat(40));
    expect(gatedMetrics(report)).toEqual(['hit@5', 'mrr@10']);
    let history = emptyHistory(2);
    history = appendRun(history, report, gatedMetrics(report));
    expect(history.queries).toEqual(['q1', 'q2', 'q3']);
    expect(history.runs[0]).toEqual({
      run_id: 'c1',
      commit: 'a'.repeat(40),
      time: '2026-11-20T10:00:00Z',
      golden: report.golden.fingerprint,
      metrics: { 'hit@5': report.metrics['hit@5'].candidate, 'mrr@10': report.metrics['mrr@10'].candidate },
      outcomes: 'mhm',
    });
    history = appendRun(history, reportWith(1, 'c2', 'b'.repeat(40)), ['hit@5']);
    history = appendRun(history, reportWith(null, 'c3', 'c'.repeat(40)), ['hit@5']);
    expect(history.runs.map((r) => r.run_id)).toEqual(['c2', 'c3']);
    expect(history.runs.map((r) => r.outcomes)).toEqual(['hhm', 'mhm']);
  });

  it('carries older outcomes over by query id when the golden set changes', () => {
    const old: History = { ...emptyHistory(), queries: ['q3', 'gone', 'q1'], runs: [run('hmh', {}, 'g0')] };
    const next = appendRun(old, reportWith(1, 'c', 'd'.repeat(40)), []);
    expect(next.queries).toEqual(['q1', 'q2', 'q3']);
    expect(next.runs[0].outcomes).toBe('h-h'); // q1 was h, q2 unknown, q3 was h
  });

  it('a candidate-only report keeps the query list and records no outcomes', () => {
    const old: History = { ...emptyHistory(), queries: ['q1'], runs: [run('h', {})] };
    const report = { ...reportWith(1, 'c', 'e'.repeat(40)), per_query: [] };
    expect(appendRun(old, report, []).runs[1].outcomes).toBe('-');
  });
});

describe('flaky by history', () => {
  it('a query that flipped hit/miss twice is flaky; once (a real change) is not; other golden sets do not count', () => {
    const history: History = {
      ...emptyHistory(),
      queries: ['steady', 'moved', 'flaky', 'sparse'],
      runs: [
        run('hhmh', {}, 'old', 0), // another golden set: its flips are not counted
        run('hhhh', {}, 'g1', 1),
        run('hhmh', {}, 'g1', 2),
        run('hmh-', {}, 'g1', 3),
        run('hmhm', {}, 'g1', 4),
      ],
    };
    const flaky = flakyByHistory(history);
    expect([...flaky.keys()]).toEqual(['flaky']);
    expect(flaky.get('flaky')).toBe('flipped between hit and miss 2 times in the last 4 main runs');
  });
});

describe('reading a history: untrusted input', () => {
  const valid: History = {
    ...emptyHistory(5),
    queries: ['q1', 'q2'],
    runs: [run('hm', { 'hit@5': 0.5 }), run('-h', { 'hit@5': null }, 'g1', 1)],
  };

  it('round-trips through the written file (atomic write, one run per line)', () => {
    const file = join(scratch, 'h.json');
    writeHistoryFile(file, valid);
    expect(readHistoryFile(file)).toEqual(valid);
    expect(
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"run_id"')),
    ).toHaveLength(2);
    expect(parseHistory(historyText(emptyHistory()), 'x')).toEqual(emptyHistory());
  });

  const refused: Array<[string, string, RegExp]> = [
    ['not JSON', '{"schema_version": 1,', /^f: the history is not JSON/],
    [
      'another schema version',
      JSON.stringify({ ...valid, schema_version: 2 }),
      /^f: not an EvalVerdict history: schema_version number 2 is not 1/,
    ],
    ['no schema version', JSON.stringify({ runs: [] }), /schema_version nothing is not 1/],
    ['a list', '[]', /`\(the file\)` must be a JSON object/],
    [
      'max_runs too large',
      JSON.stringify({ ...valid, max_runs: 1000 }),
      /`max_runs` must be a whole number from 1 to 50/,
    ],
    [
      'more runs than max_runs',
      JSON.stringify({ ...valid, max_runs: 1 }),
      /`runs` must be a list of at most max_runs \(1\)/,
    ],
    [
      'outcomes of the wrong length',
      JSON.stringify({ ...valid, queries: ['q1'] }),
      /`runs\[0\]\.outcomes` must be a string of 1 characters/,
    ],
    [
      'a metric that is text',
      JSON.stringify({ ...valid, runs: [{ ...valid.runs[0], metrics: { m: '1' } }] }),
      /`runs\[0\]\.metrics\.m` must be a finite number or null/,
    ],
    [
      'a query id that is an object',
      JSON.stringify({ ...valid, queries: [{}, 'q2'] }),
      /`queries\[0\]` must be a query id, got an object/,
    ],
    [
      'a run without a time',
      JSON.stringify({ ...valid, runs: [{ ...valid.runs[0], time: 7 }] }),
      /`runs\[0\]\.time` must be a string/,
    ],
    ['nesting deeper than a history', JSON.stringify({ ...valid, extra: [[[[1]]]] }), /nests deeper than 4 levels/],
  ];
  it.each(refused)('%s: one message naming the file and field', (_what, text, message) => {
    expect(() => parseHistory(text, 'f')).toThrow(message);
  });

  it('100,000 levels of nesting: a message, no stack overflow, at once', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    // "At once" in CPU time of this process (user + system), not the wall clock a busy machine stretches: the
    // refusal takes 1-2 ms of CPU here; the bound leaves room for a collection of the worker's heap on the way.
    const before = process.cpuUsage();
    expect(() => parseHistory(deep, 'f')).toThrow(/nests deeper than 4 levels/);
    const used = process.cpuUsage(before);
    const cpuMs = (used.user + used.system) / 1000;
    expect(cpuMs, `${cpuMs.toFixed(0)} ms of CPU`).toBeLessThan(200);
  });

  it('a file over the cap is refused before it is read', () => {
    const file = join(scratch, 'huge.json');
    writeFileSync(file, Buffer.alloc((32 << 20) + 1, 0x20));
    expect(() => readHistoryFile(file)).toThrow(
      `${file}: the history file is 32 MiB, more than the 32 MiB EvalVerdict reads`,
    );
    expect(() => parseHistory(Buffer.alloc((32 << 20) + 1, 0x20), 'f')).toThrow(/more than the 32 MiB/);
  });
});

/** 20 runs of main: a wobble around 0.80, then a drop to about 0.70 from run 15 (six runs back) on. */
const DROP_SIX_BACK = [
  0.81, 0.8, 0.82, 0.79, 0.8, 0.81, 0.8, 0.82, 0.8, 0.79, 0.81, 0.8, 0.82, 0.8, 0.7, 0.71, 0.69, 0.7, 0.71, 0.7,
];

describe('change point: one shift in the level, prewhitened, located (the simulations: test/changePoint*.test.ts)', () => {
  it('needs 14 runs (a shift of the last 3 can then reach p <= 0.01); a flat series has no change point', () => {
    expect(MIN_RUNS).toBe(14);
    expect(shiftTest(new Array(13).fill(0.5))).toBeNull();
    expect(shiftTest([...new Array(10).fill(0.8), 0.5, 0.5, 0.5])).toBeNull();
    expect(changePointOf(new Array(20).fill(0.5))).toBeNull();
    expect(changePointOf([...new Array(11).fill(0.8), 0.5, 0.5, 0.5])).toMatchObject({ direction: 'down', start: 11 });
  });

  it('a drop six runs back is located at its run, not "in the last 3 runs"', () => {
    const found = changePointOf(DROP_SIX_BACK)!;
    expect(found).toMatchObject({ direction: 'down', start: 14, runs: 20 });
    expect(found.pValue).toBeLessThanOrEqual(0.01);
    expect(found.shift).toBeCloseTo(0.7017 - 0.805, 3);
  });

  it('a constant series, a series with a missing or infinite value: no test', () => {
    expect(shiftTest([...new Array(19).fill(0.5), Number.NaN])).toBeNull();
    expect(shiftTest([...new Array(19).fill(0.5), Number.POSITIVE_INFINITY])).toBeNull();
    expect(shiftTest(new Array(20).fill(0.5))?.pValue).toBe(1);
  });
});

describe('the trend in the comment', () => {
  it('a sparkline scaled to the series, flat in the middle, a dot for a missing value', () => {
    expect(sparkline([0, 0.5, 1, null])).toBe('▁▅█·');
    expect(sparkline([0.3, 0.3])).toBe('▄▄');
  });

  it('the gated metrics over the runs, the change-point mark, flaky queries; text from the file escaped', () => {
    const values = [...new Array(12).fill(0.8), 0.5, 0.5, 0.5];
    const queries = [hostile(0), hostile(3), 'q-ok'];
    const runs = values.map((v, i) => ({
      ...run(i % 2 === 0 ? 'hhh' : 'mhh', { 'hit@5': v, 'mrr@10': 0.4 }, 'g1', i),
      commit: i === values.length - 1 ? '<img src=x>@admin' : 'f'.repeat(40),
    }));
    const history: History = { ...emptyHistory(), queries, runs };
    const trend = trendOf(history, ['hit@5', 'mrr@10', 'not-recorded']);
    expect(trend.metrics.map((m) => m.id)).toEqual(['hit@5', 'mrr@10']);
    const text = trendMarkdownLines(trend).join('\n');
    expect(text).toContain(
      "<details><summary>Main's history: the last 15 runs on the default branch · ⚠️ main shifted down: `hit@5` at run 13 of 15 · 1 query flaky by history</summary>",
    );
    expect(text).toContain('Oldest to newest (newest &lt;img src=x&gt;@&#8203;admin, 2026-11-15T00:00:00Z).');
    expect(text).toContain(
      '| `hit@5` | `████████████▁▁▁` | 0.8000 | 0.5000 | ⚠️ main shifted down at run 13 of 15 (`fffffff`; p = 0.0070) |',
    );
    expect(text).toContain('| `mrr@10` | `▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄` | 0.4000 | 0.4000 | — |');
    expect(text).toContain(
      "_Change point: a permutation test for one shift in the metric's level, prewhitened for runs that follow each other (AR(1) coefficients up to 0.7), false-alarm rate at most 1% per metric; a shift lasts 3 runs or more, and the test needs 14 runs or more._",
    );
    expect(text).toContain('_Flaky by history: 1 query went between hit and miss on main, each in at least a quarter');
    expect(text.replace(/^<\/?details>(<summary>.*<\/summary>)?$/gm, '')).not.toMatch(
      /<img|<details|<\/summary|@admin|\| broken \|/,
    );
    expect(trendMarkdownLines(trendOf(emptyHistory(), ['hit@5']))).toEqual([]);
  });

  it('the mark names the run the shift starts at and its commit, alike in the Markdown and the text report', () => {
    const runs = DROP_SIX_BACK.map((v, i) => ({
      ...run('h', { 'hit@5': v }, 'g1', i),
      commit: i === 14 ? '0123456789abcdef0123456789abcdef01234567' : 'f'.repeat(40),
    }));
    const trend = trendOf({ ...emptyHistory(), queries: ['q1'], runs }, ['hit@5']);
    const markdown = trendMarkdownLines(trend).join('\n');
    expect(markdown).toContain('⚠️ main shifted down: `hit@5` at run 15 of 20</summary>');
    expect(markdown).toContain('| 0.8100 | 0.7000 | ⚠️ main shifted down at run 15 of 20 (`0123456`; p = 0.0010) |');
    expect(trendTextLines(trend).join('\n')).toContain('0.7000  shifted down at run 15 of 20 (0123456, p = 0.0010)');
    // A run without a commit: the run alone.
    const noCommit = trendOf({ ...emptyHistory(), queries: ['q1'], runs: runs.map((r) => ({ ...r, commit: null })) }, [
      'hit@5',
    ]);
    expect(trendMarkdownLines(noCommit).join('\n')).toContain('⚠️ main shifted down at run 15 of 20 (p = 0.0010) |');
    expect(trendTextLines(noCommit).join('\n')).toContain('shifted down at run 15 of 20 (p = 0.0010)');
  });
});

describe('evalverdict compare --history / --history-out', () => {
  const fixture = (name: string) => join(repoRoot, 'fixtures', name);
  const compare = async (...extra: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runMain(
      [
        'compare',
        fixture('baseline.sqlite'),
        fixture('candidate.sqlite'),
        '--golden',
        fixture('golden.yaml'),
        ...extra,
      ],
      { stdout: (t) => out.push(t), stderr: (t) => err.push(t) },
    );
    return { code, stdout: out.join(''), stderr: err.join('') };
  };

  it('appends each run, and shows the trend of the history it is given', async () => {
    const file = join(scratch, 'cli-history.json');
    const first = await compare('--history-out', file, '--format', 'json');
    expect(first.stderr).toBe('');
    expect(readHistoryFile(file).runs).toHaveLength(1);
    const second = await compare('--history', file, '--history-out', file, '--format', 'text');
    expect(second.stdout).toContain("Main's history (last 1 run, oldest to newest):");
    expect(second.code).toBe(first.code);
    const history = readHistoryFile(file);
    expect(history.runs).toHaveLength(2);
    expect(Object.keys(history.runs[0].metrics).length).toBeGreaterThan(0);
    expect(history.runs[1].outcomes).toMatch(/^[hm]{200,}$/);
    const shown = await compare('--history', file, '--format', 'markdown');
    expect(shown.stdout).toContain("<details><summary>Main's history: the last 2 runs on the default branch</summary>");
  });

  it('a hostile history: one warning, the report without the trend', async () => {
    const file = join(scratch, 'cli-hostile.json');
    writeFileSync(file, JSON.stringify({ schema_version: 9 }));
    const run = await compare('--history', file, '--format', 'markdown');
    expect(run.code).toBeLessThan(2);
    expect(run.stderr).toBe(
      `warning: --history: ${file}: not an EvalVerdict history: schema_version number 9 is not 1, the version this EvalVerdict reads; the report has no trend\n`,
    );
    expect(run.stdout).not.toContain("Main's history");
  });
});

describe('the action side: the archive entry, the default branch, recording', () => {
  const where = 'baseline artifact:x (artifact 1 of run 2)';
  const limits = { maxEntryBytes: 1 << 30, maxTotalBytes: 1 << 30, maxEntries: 100 };
  const text = historyText({ ...emptyHistory(), queries: ['q1'], runs: [run('h', { 'hit@5': 0.5 })] });

  it('the entry named like history-file, at the top or in a folder; none; two; over the cap', () => {
    const top = historyFromArchive(
      writeZip([
        { name: 'db.sqlite', data: 'x' },
        { name: 'h.json', data: text },
      ]),
      where,
      'h.json',
      limits,
    );
    expect(top && 'bytes' in top ? top.bytes.toString() : top).toBe(text);
    const nested = historyFromArchive(
      writeZip([{ name: 'eval/h.json', data: text, method: 'deflate' }]),
      where,
      'h.json',
      limits,
    );
    expect(nested && 'entry' in nested ? nested.entry : nested).toBe('eval/h.json');
    expect(historyFromArchive(writeZip([{ name: 'xh.json', data: text }]), where, 'h.json', limits)).toBeNull();
    expect(
      historyFromArchive(
        writeZip([
          { name: 'h.json', data: text },
          { name: 'a/h.json', data: text },
        ]),
        where,
        'h.json',
        limits,
      ),
    ).toEqual({
      problem: `${where}: 2 entries named "h.json", expected one`,
    });
    // Declared over the cap: refused before a byte is inflated.
    expect(
      historyFromArchive(writeZip([{ name: 'h.json', data: 'x', size: 40 << 20 }]), where, 'h.json', limits),
    ).toEqual({
      problem: `${where}: entry "h.json" is 40 MiB, more than the 32 MiB a history may be`,
    });
    // A damaged entry is a problem with the history, not an exception.
    expect(historyFromArchive(writeZip([{ name: 'h.json', data: text, crc: 1 }]), where, 'h.json', limits)).toEqual({
      problem: `${where}: entry "h.json" fails its CRC-32 check (damaged or altered)`,
    });
  });

  it('records on a push to the default branch only', () => {
    const ctx = (eventName: string, ref: string, branch?: string) =>
      ({ eventName, payload: { ref, repository: branch === undefined ? {} : { default_branch: branch } } }) as never;
    expect(pushToDefaultBranch(ctx('push', 'refs/heads/main', 'main'))).toBe(true);
    expect(pushToDefaultBranch(ctx('push', 'refs/heads/dev', 'main'))).toBe(false);
    expect(pushToDefaultBranch(ctx('push', 'refs/heads/main'))).toBe(false);
    expect(pushToDefaultBranch(ctx('pull_request', 'refs/heads/main', 'main'))).toBe(false);
  });

  it('a push after an unreadable history starts a new one; a failed evaluation carries the old one on', () => {
    const path = join(scratch, 'recorded.json');
    const settings = { path, entryName: 'recorded.json', records: true };
    const previous = previousHistory(settings, { problem: 'bad' });
    expect(previous).toBeNull();
    expect(recordHistory(settings, previous, reportWith(1, 'c9', '9'.repeat(40)))).toEqual([]);
    expect(readHistoryFile(path).runs.map((r) => r.run_id)).toEqual(['c9']);
    const old = parseHistory(text, 'x');
    expect(recordHistory(settings, old, null)).toEqual([]);
    expect(readHistoryFile(path)).toEqual(old);
    expect(recordHistory({ ...settings, records: false }, old, reportWith(1, 'c10', 'a'.repeat(40)))).toEqual([]);
    expect(readHistoryFile(path)).toEqual(old);
  });
});
