/**
 * scoreToTable alone, N times in one process, for changes too small for the wall-clock bench to see on a noisy
 * machine: the golden set is read once, then each round opens the run, scores it into its table and prints the
 * time; the minimum is the figure to compare (the first rounds include compiling the code).
 *
 *   node --import tsx bench/score-only.ts bench/out/q20000-h100/baseline.sqlite bench/out/q20000-h100/golden.yaml [ROUNDS=4]
 *
 * For an A/B, run it on both versions in turn (e.g. `git stash` / `git stash pop` between runs), twice each.
 */
import { DEFAULT_OPTIONS } from '../src/aggregate/score.js';
import { scoreToTable } from '../src/aggregate/table.js';
import { tuneHeapForScoring } from '../src/heap.js';
import { readGoldenFile } from '../src/load/golden.js';
import { openRunStream } from '../src/load/runDatabase.js';

tuneHeapForScoring(); // as the CLI and the action do (src/heap.ts)
const [runFile, goldenFile, roundsArg] = process.argv.slice(2);
if (!runFile || !goldenFile) {
  process.stderr.write('usage: node --import tsx bench/score-only.ts RUN.sqlite GOLDEN.yaml [ROUNDS]\n');
  process.exit(2);
}
const golden = readGoldenFile(goldenFile);
const times: number[] = [];
for (let round = 0; round < Number(roundsArg ?? 4); round++) {
  const stream = await openRunStream(runFile, null);
  const start = performance.now();
  try {
    scoreToTable(stream, golden, { ...DEFAULT_OPTIONS });
  } finally {
    stream.release?.();
  }
  times.push(performance.now() - start);
}
process.stdout.write(
  `scoreToTable ms: ${times.map((t) => t.toFixed(0)).join(' ')}; min ${Math.min(...times).toFixed(0)}\n`,
);
