/**
 * Imported first by the action's entry, before anything imports @actions/github, whose `context` reads and parses
 * GITHUB_EVENT_PATH at import time: a truncated event file would throw there, before any EvalVerdict code runs, and a
 * FIFO would block it. EvalVerdict reads the event itself (src/action/context.ts), so the path is hidden from that
 * import and restored by the entry (restoreEventPath).
 */
const eventPath = process.env.GITHUB_EVENT_PATH;
delete process.env.GITHUB_EVENT_PATH;

export function restoreEventPath(): void {
  if (eventPath !== undefined) process.env.GITHUB_EVENT_PATH = eventPath;
}
