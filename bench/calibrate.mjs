// A fixed piece of JavaScript work, timed: how fast this machine is right now. The 2-core VMs we run on drift by
// 30% and more over minutes, so a bench figure means little without the machine's speed at that time. The work is
// the kind EvalVerdict does per result row (JSON.parse of result-like rows, a sticky regular expression over hits, Map
// lookups, short-lived objects), on generated data that is the same on every run, in one thread, cold (a new
// process each time, as the CLI runs). Prints the milliseconds of the work alone (not node's start-up).
//
//   node bench/calibrate.mjs        -> e.g. "412"
const rows = [];
let seed = 12345;
const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
for (let q = 0; q < 12_000; q++) {
  const hits = [];
  for (let r = 1; r <= 10; r++) {
    const doc = `d${String(Math.floor(next() * 400_000)).padStart(7, '0')}`;
    hits.push({
      rank: r,
      chunk_id: `${doc}#c0${r % 10}`,
      doc_id: doc,
      doc_path: `docs/area/${doc}.md`,
      heading_path: ['Area', 'Section'],
      snippet: 'Scope object index snapshot unless will timeout field dashboard.',
      score: 30 - r * next(),
    });
  }
  rows.push(
    JSON.stringify({
      query_id: `q${q}`,
      query: 'how do I retry replicas in localization?',
      hits_top_k: hits,
      answer: null,
      elapsed_ms: Math.floor(next() * 900),
    }),
  );
}
const HIT = /\{"rank":(\d+),"chunk_id":"([^"]*)","doc_id":"([^"]*)"/y;

const start = performance.now();
const relevant = new Map();
for (let i = 0; i < 40_000; i++) relevant.set(`d${String(Math.floor(next() * 400_000)).padStart(7, '0')}`, i % 4);
let found = 0;
for (let round = 0; round < 2; round++) {
  for (const row of rows) {
    const parsed = JSON.parse(row);
    for (const h of parsed.hits_top_k) if (relevant.has(h.doc_id)) found += h.rank;
    for (let at = row.indexOf('{"rank"'); at !== -1; at = row.indexOf('{"rank"', at + 1)) {
      HIT.lastIndex = at;
      const m = HIT.exec(row);
      if (m && relevant.get(m[3]) === 3) found++;
    }
  }
}
const ms = performance.now() - start;
if (found < 0) process.stdout.write('impossible\n'); // keeps the work observable
process.stdout.write(`${ms.toFixed(0)}\n`);
