// Preload for benchmark children (`node --import ./bench/rss.mjs ...`): on exit, writes the process's peak
// resident set size and CPU time to the file named by $EVALVERDICT_BENCH_STATS. getrusage's ru_maxrss covers the
// whole life of the process, so this is the same figure `/usr/bin/time -v` prints as "Maximum resident set size".
import { writeFileSync } from 'node:fs';

const out = process.env.EVALVERDICT_BENCH_STATS;
if (out) {
  process.on('exit', (code) => {
    const u = process.resourceUsage();
    writeFileSync(
      out,
      JSON.stringify({ maxRssKb: u.maxRSS, userCpuUs: u.userCPUTime, systemCpuUs: u.systemCPUTime, exitCode: code }),
    );
  });
}
