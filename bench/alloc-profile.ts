/**
 * What scoring allocates, by function: the inspector's sampling heap profiler over one scoreToTable of a run
 * (or one read of the golden set), counting objects the collectors freed too, so the figures are all allocation,
 * not what survived. Unlike wall time on a noisy machine, these totals repeat within ~1% from run to run.
 *
 *   node --import tsx bench/alloc-profile.ts bench/out/q100000-h10/baseline.sqlite bench/out/q100000-h10/golden.yaml [golden]
 *
 * Prints the total and the 30 functions that allocate most (self), then the callers of a few builtins.
 */
import { Session } from 'node:inspector/promises';
import { DEFAULT_OPTIONS } from '../src/aggregate/score.js';
import { scoreToTable } from '../src/aggregate/table.js';
import { tuneHeapForScoring } from '../src/heap.js';
import { readGoldenFile } from '../src/load/golden.js';
import { openRunStream } from '../src/load/runDatabase.js';

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

tuneHeapForScoring(); // as the CLI and the action do
const [runFile, goldenFile, what] = process.argv.slice(2);
if (!runFile || !goldenFile) {
  process.stderr.write('usage: node --import tsx bench/alloc-profile.ts RUN.sqlite GOLDEN.yaml [golden]\n');
  process.exit(2);
}
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
const golden = what === 'golden' ? null : readGoldenFile(goldenFile);
const stream = what === 'golden' ? null : await openRunStream(runFile, null);
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 2048,
  includeObjectsCollectedByMinorGC: true,
  includeObjectsCollectedByMajorGC: true,
});
if (golden === null) readGoldenFile(goldenFile);
else {
  try {
    scoreToTable(stream!, golden, { ...DEFAULT_OPTIONS });
  } finally {
    stream!.release?.();
  }
}
const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: ProfileNode } };
const name = (n: ProfileNode) =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber + 1}`;
const self = new Map<string, number>();
const byCaller = new Map<string, number>();
const BUILTINS = new Set(['sort', 'replace', 'exec', 'keys', 'Map', 'set', 'slice', 'subarray']);
let total = 0;
const walk = (n: ProfileNode, parent: string) => {
  const here = name(n);
  total += n.selfSize;
  self.set(here, (self.get(here) ?? 0) + n.selfSize);
  if (BUILTINS.has(n.callFrame.functionName) && n.selfSize > 0)
    byCaller.set(`${here} <- ${parent}`, (byCaller.get(`${here} <- ${parent}`) ?? 0) + n.selfSize);
  for (const c of n.children) walk(c, here);
};
walk(profile.head, '');
const mb = (bytes: number) => (bytes / 1e6).toFixed(1).padStart(8);
process.stdout.write(
  `allocated: ${(total / 1e6).toFixed(0)} MB (${what === 'golden' ? 'reading the golden set' : 'scoreToTable'})\n`,
);
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) process.stdout.write(`${mb(v)} MB  ${k}\n`);
process.stdout.write('builtins by caller:\n');
for (const [k, v] of [...byCaller].sort((a, b) => b[1] - a[1]).slice(0, 12))
  process.stdout.write(`${mb(v)} MB  ${k}\n`);
