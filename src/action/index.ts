/** Entry of the GitHub Action (bundled to dist/index.js): runs the action, nothing else at import time. */
import { run } from './main.js';

void run();
