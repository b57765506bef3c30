// Summarises a V8 .cpuprofile (from `node --cpu-prof`): top functions by self time, and total (inclusive) time
// of chosen functions. Usage: node bench/profile-summary.mjs FILE.cpuprofile [TOP=25] [--total name1,name2,...]
// [--under name] (self times counted only in samples with that function on the stack)
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const file = args[0];
if (!file) {
  process.stderr.write('usage: node bench/profile-summary.mjs FILE.cpuprofile [TOP] [--total fn1,fn2]\n');
  process.exit(2);
}
const top = Number(args.find((a, i) => i > 0 && /^\d+$/.test(a)) ?? 25);
const totalIdx = args.indexOf('--total');
const totalNames = totalIdx >= 0 ? args[totalIdx + 1].split(',') : [];
const underIdx = args.indexOf('--under');
const under = underIdx >= 0 ? args[underIdx + 1] : null;

const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

// Sample i lasted timeDeltas[i + 1] (V8's convention: the delta before the next sample).
const selfUs = new Map();
const deltas = profile.timeDeltas;
let totalUs = 0;
const onStack = (sample, name) => {
  for (let id = sample; id !== undefined; id = parent.get(id))
    if (nodes.get(id).callFrame.functionName === name) return true;
  return false;
};
for (let i = 0; i < profile.samples.length; i++) {
  const dt = deltas[i + 1] ?? 0;
  if (under !== null && !onStack(profile.samples[i], under)) continue;
  totalUs += dt;
  selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + dt);
}

const keyOf = (n) => {
  const cf = n.callFrame;
  const where = cf.url ? `${cf.url.replace(/^.*\//, '')}:${cf.lineNumber + 1}` : '';
  return `${cf.functionName || '(anonymous)'} ${where}`.trim();
};
const byFn = new Map();
for (const [id, us] of selfUs) {
  const k = keyOf(nodes.get(id));
  byFn.set(k, (byFn.get(k) ?? 0) + us);
}
const ms = (us) => (us / 1000).toFixed(0).padStart(7);
const pct = (us) => `${((100 * us) / totalUs).toFixed(1).padStart(5)}%`;
process.stdout.write(`profile ${file}: ${(totalUs / 1e6).toFixed(2)} s sampled\n\ntop ${top} by self time:\n`);
for (const [k, us] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, top))
  process.stdout.write(`${ms(us)} ms ${pct(us)}  ${k}\n`);

if (totalNames.length > 0) {
  // Inclusive: a sample counts for a function when the function is anywhere on its stack (once per sample).
  const inclusive = new Map(totalNames.map((n) => [n, 0]));
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = deltas[i + 1] ?? 0;
    const seen = new Set();
    for (let id = profile.samples[i]; id !== undefined; id = parent.get(id)) {
      const name = nodes.get(id).callFrame.functionName;
      if (inclusive.has(name) && !seen.has(name)) {
        seen.add(name);
        inclusive.set(name, inclusive.get(name) + dt);
      }
    }
  }
  process.stdout.write('\ntotal (inclusive) time:\n');
  for (const [name, us] of inclusive) process.stdout.write(`${ms(us)} ms ${pct(us)}  ${name}\n`);
}
