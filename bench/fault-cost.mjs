// The cost of a first-touched page on this machine: maps 256 MB (a Buffer large enough that malloc takes it from
// mmap), writes one byte per 4 KiB page, and prints the minor page faults that took and the microseconds per fault,
// three times (then once more over the same pages, already mapped). The 100kx10 aggregate first-touches ~105,000
// pages, so this figure times that is what its memory costs in CPU: the thirteenth session measured ~12 µs here
// (~1.2 s a run), the sixteenth 1.4-1.7 µs (~0.17 s). Usage: node bench/fault-cost.mjs
const SIZE = 256 * 1024 * 1024;
const PAGE = 4096;

for (let round = 1; round <= 3; round++) {
  const faults0 = process.resourceUsage().minorPageFault;
  const t0 = process.hrtime.bigint();
  const bytes = Buffer.allocUnsafeSlow(SIZE);
  for (let i = 0; i < SIZE; i += PAGE) bytes[i] = 1;
  const t1 = process.hrtime.bigint();
  const faults = process.resourceUsage().minorPageFault - faults0;
  for (let i = 0; i < SIZE; i += PAGE) bytes[i] = 2;
  const t2 = process.hrtime.bigint();
  console.log(
    `round ${round}: ${faults} faults in ${(Number(t1 - t0) / 1e6).toFixed(1)} ms, ${(Number(t1 - t0) / faults / 1000).toFixed(2)} µs per fault; the same pages again: ${(Number(t2 - t1) / 1e6).toFixed(1)} ms`,
  );
}
