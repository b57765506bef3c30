// Preloaded into a child process by the hostile corpus test (node --import ./test/helpers/maxRss.mjs ...): at exit,
// the process's peak resident set in KiB as the last line of stderr, for the memory bound.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  writeSync(2, `\nevalgate-test-maxrss-kib=${process.resourceUsage().maxRSS}\n`);
});
