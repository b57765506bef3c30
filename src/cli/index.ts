#!/usr/bin/env node
/** Entry of the `evalverdict` bin: runs main, maps a user mistake to exit 2 with its message and no stack trace. */
import { isMainThread } from 'node:worker_threads';
import { runMain } from './main.js';
import { enableScoringWorkers } from '../pipeline/twoThreads.js';
import { tuneHeapForScoring } from '../heap.js';

const io = {
  tty: process.stdout.isTTY === true,
  // https://no-color.org: any non-empty NO_COLOR turns colour off.
  color: process.stdout.isTTY === true && !process.env.NO_COLOR,
  stdout: (text: string) => {
    process.stdout.write(text);
  },
  stderr: (text: string) => {
    process.stderr.write(text);
  },
};

// A reader that stops early (`evalverdict metrics --json | head`) closes the pipe: the rest of the output has nowhere
// to go, which is no error of the user's. Without a listener Node throws it with a stack trace; the exit code is
// still the command's.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
});

tuneHeapForScoring();
// In a scoring worker thread (src/pipeline/twoThreads.ts) this bundle only scores: no command runs.
if (isMainThread) enableScoringWorkers(process.env.EVALVERDICT_WORKERS);
if (isMainThread)
  runMain(process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
  });
