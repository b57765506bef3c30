// Preloaded into a child process by the bound tests (node --import ./test/helpers/maxRss.mjs ...): at exit, the
// process's own peak resident set in KiB as the last line of stderr, for the memory bound. Linux's VmHWM, not
// getrusage's maxRSS: the latter keeps the parent's peak across execve, so a child of a 2 GB vitest worker read
// 2 GB whatever it used itself.
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
  writeSync(2, `\nevalgate-test-maxrss-kib=${peakKib()}\n`);
});
