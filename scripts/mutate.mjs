/**
 * `npm run mutate [MODULE...]`: StrykerJS over the core modules, one module at a time, each against the test files
 * that exercise it in process (issue 26: "only the tests that import the mutated file"). Run over every module at
 * once, Stryker gave each mutant every test that reached it, end-to-end suites included (the CLI, the Cranfield
 * fixtures, whole Markdown reports): a surviving or timing-out mutant of the gate code waited for all of them.
 * Each module's report goes to reports/mutation/NAME.json; a table of the scores ends the run. docs/mutation.md
 * has the last scores and the mutants judged equivalent.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';

/** Module -> its test files: those written for it, then the suites that compute its values in process. */
const MODULES = {
  'src/aggregate/rankMetrics.ts': [
    'test/retrieval.test.ts',
    'test/matching.test.ts',
    'test/trecEval.test.ts',
    'test/missingAndUnknownQueries.test.ts',
    'test/metricValues.test.ts',
    'test/aggregate.test.ts',
    'test/kebabSpec.test.ts',
    'test/coreSpec.test.ts',
    'test/unjudged.test.ts',
  ],
  'src/aggregate/answerChecks.ts': [
    'test/answers.test.ts',
    'test/retrieval.test.ts',
    'test/missingAndUnknownQueries.test.ts',
    'test/metricValues.test.ts',
    'test/aggregate.test.ts',
    'test/kebabSpec.test.ts',
    'test/coreSpec.test.ts',
    'test/compare.test.ts',
    'test/importWfgy.test.ts',
  ],
  'src/aggregate/matching.ts': [
    'test/matching.test.ts',
    'test/unjudged.test.ts',
    'test/answers.test.ts',
    'test/retrieval.test.ts',
    'test/metricValues.test.ts',
    'test/aggregate.test.ts',
    'test/kebabSpec.test.ts',
    'test/coreSpec.test.ts',
    'test/compare.test.ts',
  ],
  'src/compare/compare.ts': [
    'test/compareEdges.test.ts',
    'test/compare.test.ts',
    'test/kebabSpec.test.ts',
    'test/missingAndUnknownQueries.test.ts',
    'test/significance.test.ts',
  ],
  // Not verdict.test.ts: its simulations outlast their timeout in Stryker's instrumented dry run (2026-11-28); its
  // unit cases are in verdictUnits.test.ts.
  // Issue 47 split compare/significance.ts into the five stats/ files below; each keeps the tests that reached it.
  'src/stats/signFlip.ts': [
    'test/significance.test.ts',
    'test/verdictUnits.test.ts',
    'test/missingAndUnknownQueries.test.ts',
  ],
  'src/stats/signTest.ts': ['test/significance.test.ts', 'test/powerEdges.test.ts'],
  'src/stats/dropBounds.ts': ['test/dropBoundsEdges.test.ts', 'test/verdictUnits.test.ts', 'test/testedGates.test.ts'],
  'src/stats/distributions.ts': [
    'test/significance.test.ts',
    'test/dropBoundsEdges.test.ts',
    'test/verdictUnits.test.ts',
    'test/powerEdges.test.ts',
  ],
  'src/stats/random.ts': ['test/significance.test.ts'],
  // Issue 45: the detectable drop's model and the config's noise block. Not powerAdvice.test.ts for power.ts: its
  // latent-model simulations ran each mutant for seconds (powerEdges.test.ts checks the models in its place).
  'src/stats/power.ts': ['test/powerEdges.test.ts', 'test/verdictUnits.test.ts', 'test/testedGates.test.ts'],
  'src/gate/noise.ts': [
    'test/noiseBlock.test.ts',
    'test/gateConfigEdges.test.ts',
    'test/calibrate.test.ts',
    'test/powerAdvice.test.ts',
  ],
  'src/gate/gates.ts': [
    'test/gateOutcomes.test.ts',
    'test/gateConfig.test.ts',
    'test/gates.test.ts',
    'test/testedGates.test.ts',
    'test/verdictUnits.test.ts',
    'test/missingAndUnknownQueries.test.ts',
  ],
  'src/gate/testedGates.ts': ['test/testedGates.test.ts', 'test/verdictUnits.test.ts', 'test/gates.test.ts'],
  'src/gate/config.ts': [
    'test/gateConfigEdges.test.ts',
    'test/gateConfig.test.ts',
    'test/gates.test.ts',
    'test/scoringCutoffs.test.ts',
    'test/cutoffEdges.test.ts',
    'test/testedGates.test.ts',
  ],
  'src/render/escape.ts': ['test/escape.test.ts', 'test/markdown.test.ts'],
  'src/publish/stickyComment.ts': ['test/stickyComment.test.ts', 'test/acceptCommand.test.ts'],
  // Issue 44: the acceptance modules (command parsing, state, decision, its words) and the error panel.
  'src/action/parseCommand.ts': ['test/commandParserEdges.test.ts', 'test/acceptCommand.test.ts'],
  'src/acceptance/state.ts': ['test/acceptanceState.test.ts', 'test/acceptCommand.test.ts'],
  'src/acceptance/runDecision.ts': ['test/acceptanceAcrossRuns.test.ts', 'test/acceptCommand.test.ts'],
  'src/acceptance/decision.ts': [
    'test/acceptanceEdges.test.ts',
    'test/acceptance.test.ts',
    'test/acceptCommand.test.ts',
  ],
  'src/render/errorPanel.ts': ['test/errorPanel.test.ts', 'test/acceptCommand.test.ts'],
  // Issue 45: the change-point mark, main's history (the flaky-by-history rule), calibrate's suggested margins.
  // Not changePointAutocorrelated.test.ts or changePointScale.test.ts: their simulations outlast the 120 s test
  // timeout in Stryker's instrumented dry run (2026-12-07).
  'src/stats/changePoint.ts': ['test/changePointEdges.test.ts', 'test/history.test.ts'],
  'src/compare/historyTrend.ts': ['test/historyEdges.test.ts', 'test/flakyHistory.test.ts', 'test/history.test.ts'],
  'src/compare/calibration.ts': [
    'test/calibrateEdges.test.ts',
    'test/calibrate.test.ts',
    'test/calibrateCommand.test.ts',
  ],
  // Issue 46: repeats with document matching and repeats.may_differ; the CLI-level suites last.
  'src/compare/repeats.ts': [
    'test/repeatsUnits.test.ts',
    'test/repeatsRechunked.test.ts',
    'test/repeatsLoss.test.ts',
    'test/flaky.test.ts',
    'test/repeats.test.ts',
  ],
};

// `npm run mutate -- src/gate/gates.ts --concurrency 1`: the modules, then flags passed on to each `stryker run`.
const firstFlag = process.argv.findIndex((a, i) => i >= 2 && a.startsWith('--'));
const asked = process.argv.slice(2, firstFlag === -1 ? undefined : firstFlag);
const strykerFlags = firstFlag === -1 ? [] : process.argv.slice(firstFlag);
for (const m of asked)
  if (!(m in MODULES)) throw new Error(`not a mutated module: ${m} (one of ${Object.keys(MODULES).join(', ')})`);
const modules = asked.length > 0 ? asked : Object.keys(MODULES);
// vitest.mutate.config.ts runs only the files it lists: a test file named above but not there would be dropped
// without a word, and the mutants it kills would count as survivors. A module with such a file runs with a vitest
// config written for it instead (vitestConfigFor): its own files, in the order given above.
const mutateConfig = readFileSync('vitest.mutate.config.ts', 'utf8');
const unlisted = (module) => MODULES[module].filter((file) => !mutateConfig.includes(`'${file}'`));
for (const module of modules)
  for (const file of MODULES[module]) if (!existsSync(file)) throw new Error(`${file} (for ${module}) does not exist`);
mkdirSync('reports/mutation', { recursive: true });
// Stryker runs the tests in a sandbox copy of the repo, where ../shared is not beside it: name it, so the trec_eval
// peer suites run against mutants instead of skipping, and require it there (a peer test that reached a mutant and
// then skipped would count the mutant as surviving). A worktree whose ../shared is elsewhere sets
// EVALVERDICT_SHARED_DIR itself.
const shared = resolve(process.env.EVALVERDICT_SHARED_DIR ?? resolve('..', 'shared'));
const env = existsSync(shared)
  ? { ...process.env, EVALVERDICT_SHARED_DIR: shared, EVALVERDICT_REQUIRE_SHARED: '1' }
  : process.env;
if (!existsSync(shared)) console.warn(`mutate: ${shared} not found, the trec_eval peer suites will skip`);

// Stryker links node_modules into its sandbox only when it is a directory; a worktree's node_modules is often a
// link to the main checkout's, and the sandbox (outside the tree: stryker.config.mjs tempDirName) then finds no
// vitest. A link beside the sandboxes is found by Node's walk up from them.
const tempDir = join(tmpdir(), `evalverdict-stryker-${basename(process.cwd())}`);
const linkedModules = existsSync('node_modules') && lstatSync('node_modules').isSymbolicLink();

const rows = [];
for (const module of modules) {
  const started = Date.now();
  if (linkedModules) {
    mkdirSync(tempDir, { recursive: true });
    rmSync(join(tempDir, 'node_modules'), { force: true });
    symlinkSync(realpathSync('node_modules'), join(tempDir, 'node_modules'), 'dir');
  }
  const args = ['stryker', 'run', '--mutate', module, '--testFiles', MODULES[module].join(','), ...strykerFlags];
  const vitestConfig = unlisted(module).length > 0 ? vitestConfigFor(module) : null;
  const run = spawnSync('npx', args, {
    stdio: 'inherit',
    env: vitestConfig ? { ...env, EVALVERDICT_MUTATE_VITEST_CONFIG: vitestConfig } : env,
  });
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  if (run.status !== 0) throw new Error(`stryker failed on ${module} (exit ${run.status})`);
  const report = `reports/mutation/${basename(module, '.ts')}.json`;
  renameSync('reports/mutation/mutation.json', report);
  rows.push([module, ...scoreOf(report), minutes]);
}

console.log('\nmodule | mutants | killed + timed out | survived | no coverage | score | minutes');
for (const r of rows) console.log(r.join(' | '));

/**
 * A vitest config that runs exactly the module's test files, quickest first as MODULES lists them, for a module
 * whose files vitest.mutate.config.ts does not all list (stryker.config.mjs reads EVALVERDICT_MUTATE_VITEST_CONFIG).
 * Written outside the tree, beside Stryker's sandboxes, and without imports (none resolve from there); its paths
 * are relative to the root vitest takes, the sandbox Stryker runs it in.
 */
function vitestConfigFor(module) {
  const dir = join(tmpdir(), `evalverdict-vitest-${basename(process.cwd())}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${basename(module, '.ts')}.mjs`);
  const files = JSON.stringify(MODULES[module]);
  writeFileSync(
    file,
    `import { relative } from 'node:path';
const FILES = ${files};
class InOrder {
  constructor(ctx) { this.ctx = ctx; }
  async shard(files) { return files; }
  async sort(files) {
    const rank = (f) => FILES.indexOf(relative(this.ctx.config.root, f.moduleId));
    return [...files].sort((a, b) => rank(a) - rank(b));
  }
}
export default { test: { include: FILES, testTimeout: 120_000, hookTimeout: 120_000, sequence: { sequencer: InOrder } } };
`,
  );
  return file;
}

/** Mutants (less those ignored as static), killed + timed out, survived, no coverage, and the score in %. */
function scoreOf(file) {
  if (!existsSync(file)) return ['?', '?', '?', '?', '?'];
  const count = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0 };
  for (const f of Object.values(JSON.parse(readFileSync(file, 'utf8')).files))
    for (const m of f.mutants) if (m.status in count) count[m.status]++;
  const valid = count.Killed + count.Timeout + count.Survived + count.NoCoverage;
  const detected = count.Killed + count.Timeout;
  return [valid, detected, count.Survived, count.NoCoverage, ((100 * detected) / valid).toFixed(1)];
}
