/** Entry of the GitHub Action (bundled to dist/index.js): runs the action, nothing else at import time. */
// First: before @actions/github (imported by ./main.js) reads the event file at import time.
import { restoreEventPath } from './hideEventPath.js';
import { isMainThread } from 'node:worker_threads';
import { run } from './main.js';
import { enableScoringWorkers } from '../pipeline/twoThreads.js';
import { tuneHeapForScoring } from '../heap.js';

// In a scoring worker thread (src/pipeline/twoThreads.ts) this bundle only scores: the action runs once, in the main thread.
restoreEventPath();
tuneHeapForScoring();
if (isMainThread) {
  enableScoringWorkers(process.env.EVALVERDICT_WORKERS);
  // Past the publish deadline the API client may still hold a retry's timer: the step ends now, its outcome set.
  void run().then((abandoned) => {
    if (abandoned) process.exit();
  });
}
