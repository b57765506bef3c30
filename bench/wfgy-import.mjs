// `evalverdict import wfgy` on a large traces file against what Node needs to read and JSON.parse the same lines
// (issue 24: at most 2x that time, under 500 MB peak). Runs the built CLI (dist/) as a child process, alternating
// with the baseline, `--repeat` times each; prints the medians and the ratio.
//
//   node bench/wfgy-import.mjs [--lines 1000000] [--questions 10000] [--repeat 3]
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '1000000' },
    questions: { type: 'string', default: '10000' },
    repeat: { type: 'string', default: '3' },
  },
});
const lines = Number(values.lines);
const questions = Number(values.questions);
const repeat = Number(values.repeat);
const dir = join('bench', 'out', `wfgy-${lines}-${questions}`);
const qaset = join(dir, 'qaset.json');
const traces = join(dir, 'trace.jsonl');

if (!existsSync(traces)) {
  mkdirSync(dir, { recursive: true });
  const items = [];
  for (let i = 0; i < questions; i++) {
    const answerable = i % 4 !== 3;
    items.push({
      qid: `q${i}`,
      q: `What does section ${i} of the handbook say about topic ${i % 97}?`,
      answerable,
      gold_ids: answerable ? [`doc${i % 500}#${i % 7}`] : [],
      ...(answerable ? { gold_claim: `Section ${i} covers topic ${i % 97} in detail.` } : {}),
    });
  }
  writeFileSync(qaset, JSON.stringify(items, null, 1));
  const fd = openSync(traces, 'w');
  let batch = '';
  for (let n = 0; n < lines; n++) {
    const i = n % questions;
    const refusal = n % 11 === 0;
    const cited = `doc${(i + (n % 3)) % 500}#${i % 7}`;
    const line = {
      ts: 1764140400 + n,
      q: items[i].q,
      chunks: [{ id: cited }, { id: `doc${(i + 1) % 500}#1` }, { id: `doc${(i + 2) % 500}#2` }],
      answer: refusal ? 'not in context' : `- Section ${i} covers topic ${i % 97} in detail.\n- citations: [${cited}]`,
      ok: true,
    };
    batch += `${JSON.stringify(line)}\n`;
    if (batch.length > 1 << 20) {
      writeSync(fd, batch);
      batch = '';
    }
  }
  writeSync(fd, batch);
  closeSync(fd);
}

// What Node needs to read the lines and JSON.parse each: the same pieces and line splitting as the importer.
const BASELINE = `
const { openSync, readSync } = require('node:fs');
const fd = openSync(process.argv[1], 'r');
const buf = Buffer.allocUnsafe(1 << 20);
let carry = Buffer.alloc(0), n, count = 0;
while ((n = readSync(fd, buf, 0, buf.length, null)) > 0) {
  let chunk = carry.length ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
  let start = 0, end;
  while ((end = chunk.indexOf(10, start)) !== -1) { JSON.parse(chunk.toString('utf8', start, end)); count++; start = end + 1; }
  carry = Buffer.from(chunk.subarray(start));
}
if (carry.length) { JSON.parse(carry.toString('utf8')); count++; }
`;

function timed(args, statsFile) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--import', './bench/rss.mjs', ...args], {
    env: { ...process.env, EVALVERDICT_BENCH_STATS: statsFile },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (r.status !== 0) throw new Error(`${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  const stats = JSON.parse(readFileSync(statsFile, 'utf8'));
  return { seconds, mb: (stats.maxRssKb * 1024) / 1e6 };
}

const stats = join(dir, 'stats.json');
const out = join(dir, 'run.sqlite');
const runs = { parse: [], import: [] };
for (let i = 0; i < repeat; i++) {
  runs.parse.push(timed(['-e', BASELINE, traces], stats));
  rmSync(out, { force: true });
  runs.import.push(
    timed(['dist/cli/index.js', 'import', 'wfgy', '--qaset', qaset, '--traces', traces, '--out', out], stats),
  );
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const parse = median(runs.parse.map((r) => r.seconds));
const imp = median(runs.import.map((r) => r.seconds));
console.log(`${lines} trace lines over ${questions} questions (${dir}), median of ${repeat}:`);
console.log(`  read + JSON.parse: ${parse.toFixed(2)} s, ${median(runs.parse.map((r) => r.mb)).toFixed(0)} MB`);
console.log(`  import wfgy:       ${imp.toFixed(2)} s, ${median(runs.import.map((r) => r.mb)).toFixed(0)} MB`);
console.log(
  `  ratio: ${(imp / parse).toFixed(2)} (target <= 2), peak under 500 MB: ${runs.import.every((r) => r.mb < 500)}`,
);
