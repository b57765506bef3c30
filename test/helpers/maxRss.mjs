// Preloaded into a child process by the bound tests (node --import ./test/helpers/maxRss.mjs ...): at exit, two lines
// at the end of stderr, read by test/helpers/childUsage.ts:
// - the process's CPU time (user + system, in microseconds): process.cpuUsage() is getrusage(RUSAGE_SELF), the
//   whole process with every worker thread, and unlike the wall clock it does not grow when other processes share
//   the cores; the bound for work (the house rule: no test asserts wall-clock time).
// - its peak resident set in KiB, for the memory bound. Linux's VmHWM, not getrusage's maxRSS: the latter keeps the
//   parent's peak across execve, so a child of a 2 GB vitest worker read 2 GB whatever it used itself.
// A worker thread that loads the probe too writes its own pair at its exit (the process's figures so far).
import { readFileSync, writeSync } from 'node:fs';

function peakKib() {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]);
  } catch {
    // no /proc: not Linux
  }
  return process.resourceUsage().maxRSS;
}

process.on('exit', () => {
  const cpu = process.cpuUsage();
  writeSync(2, `\nevalverdict-test-cpu-us=${cpu.user + cpu.system}\nevalverdict-test-maxrss-kib=${peakKib()}\n`);
});
