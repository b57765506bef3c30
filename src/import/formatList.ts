/** Every format `evalverdict import` reads, in the order `evalverdict import --help` lists them: the one switch. */
import { CKV_FORMAT } from './ckv/ckvImport.js';
import type { ImportFormat } from './importFormat.js';
import { PAPERBOT_FORMAT } from './paperbot/paperbotImport.js';
import { TREC_FORMAT } from './trec/trecImport.js';
import { WFGY_FORMAT } from './wfgy/wfgyImport.js';

export const IMPORT_FORMATS: readonly ImportFormat[] = [TREC_FORMAT, CKV_FORMAT, PAPERBOT_FORMAT, WFGY_FORMAT];

/** `evalverdict import --help`: every format with its line; `evalverdict import FORMAT --help` gives its flags. */
export const IMPORT_USAGE = `usage: evalverdict import FORMAT --out RUN.sqlite [--golden-out golden.jsonl] [--created-at RFC3339] [--force] ...

formats:
${IMPORT_FORMATS.map((f) => `  ${f.name.padEnd(9)} ${f.summary}`).join('\n')}

Run \`evalverdict import FORMAT --help\` for a format's input flags. The run database and the golden set are written
together or not at all; docs/cli.md ("Importing other systems' files").`;
