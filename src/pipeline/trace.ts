/** `EVALVERDICT_TRACE=1`: each phase of a command with its seconds and page faults, the worker's on the same clock. */
import type { WorkerPhase } from './twoThreads.js';

/** A phase's label, the seconds since the command started, and the process's minor page faults by then. */
export type Trace = (label: string, seconds: number, faults: number) => void;

/** Marks phases for `trace`, and the worker's phases, placed on the same clock. */
export function tracer(trace: Trace | undefined): {
  mark: (label: string) => void;
  worker: (phases: Promise<WorkerPhase[]>) => Promise<void>;
} {
  const start = performance.timeOrigin + performance.now();
  const now = () => (performance.timeOrigin + performance.now() - start) / 1000;
  return {
    mark: (label) => trace?.(label, now(), process.resourceUsage().minorPageFault),
    worker: async (phases) => {
      if (!trace) return;
      for (const [label, epochMs, faults] of await phases) trace(`worker: ${label}`, (epochMs - start) / 1000, faults);
    },
  };
}

export type Tracer = ReturnType<typeof tracer>;
