/**
 * A smaller copy of the Cranfield fixtures for the end-to-end action tests, built once per test run (vitest's
 * globalSetup, vitest.config.ts) from the committed fixtures/: every 8th Cranfield query from q004 (q004, q012, ...,
 * the offset whose headline metrics move as the full set's do: hit@1 and mrr@10 up, hit@5 down, hit@10 even, and the
 * built-in default config fails) and the 10 out-of-domain ones, the same rows and bytes as in fixtures/, with the index cut to the documents those queries' hits and golden
 * entries name (each kept document with all its chunks, in both runs). The action tests are about what the action
 * does with GitHub, the runner and its inputs; scoring the full collection took ~1.9 s of CPU per bundle run, this
 * copy ~0.9 s, and the full fixtures stay scored by the library and CLI tests (compareEndToEnd, golden, ...).
 *
 * The directory mirrors fixtures/ (the other entries linked in), so a workspace whose `fixtures` link points here
 * takes the same input paths (fixtures/baseline.sqlite, fixtures/candidate.sqlite, fixtures/golden.yaml).
 */
import { readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSqlJs } from '../../src/load/sqlite.js';
import { repoRoot } from '../shared.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The directory smallFixtures wrote (test/helpers/smallFixturesSetup.ts). */
    smallFixtures: string;
  }
}

const FIXTURES = join(repoRoot, 'fixtures');
const RUN_FILES = ['baseline.sqlite', 'candidate.sqlite'];
const EVERY_NTH_CRANFIELD_QUERY = 8;
const FIRST_CRANFIELD_QUERY = 4;

/** The golden entries kept: q004, q012, ... and every x query (out of domain), in the file's order. */
function goldenEntries(text: string): { header: string; kept: string[]; ids: Set<string> } {
  const [header, ...entries] = text.split(/^(?=- id: )/m);
  const kept = entries.filter((entry) => {
    const id = /^- id: (\S+)/.exec(entry)?.[1] ?? '';
    const cranfield = /^q(\d+)$/.exec(id);
    return cranfield ? (Number(cranfield[1]) - FIRST_CRANFIELD_QUERY) % EVERY_NTH_CRANFIELD_QUERY === 0 : true;
  });
  const ids = new Set(kept.map((entry) => /^- id: (\S+)/.exec(entry)?.[1] ?? ''));
  return { header, kept, ids };
}

const DOC_ID = /cran-\d{4}/g;

/** Writes the smaller fixtures into `dir` (which must exist and be empty) and returns it. */
export async function writeSmallFixtures(dir: string): Promise<string> {
  const golden = goldenEntries(readFileSync(join(FIXTURES, 'golden.yaml'), 'utf8'));
  writeFileSync(join(dir, 'golden.yaml'), golden.header + golden.kept.join(''));
  const SQL = await loadSqlJs();
  const databases = RUN_FILES.map((name) => new SQL.Database(readFileSync(join(FIXTURES, name))));
  try {
    // The documents named by the kept golden entries and by either run's kept results.
    const docs = new Set(golden.kept.join('').match(DOC_ID));
    for (const db of databases) {
      const rows = db.exec('SELECT query_id, result_json FROM eval_query_results')[0].values;
      for (const [queryId, resultJson] of rows)
        if (golden.ids.has(String(queryId))) for (const doc of String(resultJson).match(DOC_ID) ?? []) docs.add(doc);
    }
    databases.forEach((db, i) => {
      db.run('PRAGMA foreign_keys = OFF');
      db.run('CREATE TEMP TABLE kept_queries (id TEXT PRIMARY KEY)');
      db.run('CREATE TEMP TABLE kept_docs (id TEXT PRIMARY KEY)');
      for (const id of golden.ids) db.run('INSERT INTO kept_queries VALUES (?)', [id]);
      for (const doc of docs) db.run('INSERT INTO kept_docs VALUES (?)', [doc]);
      db.run('DELETE FROM eval_query_results WHERE query_id NOT IN (SELECT id FROM kept_queries)');
      db.run('DELETE FROM chunks WHERE doc_id NOT IN (SELECT id FROM kept_docs)');
      db.run('DELETE FROM documents WHERE doc_id NOT IN (SELECT id FROM kept_docs)');
      db.run('DROP TABLE kept_queries');
      db.run('DROP TABLE kept_docs');
      db.run('VACUUM');
      writeFileSync(join(dir, RUN_FILES[i]), db.export());
    });
  } finally {
    for (const db of databases) db.close();
  }
  for (const entry of readdirSync(FIXTURES))
    if (entry !== 'golden.yaml' && !RUN_FILES.includes(entry)) symlinkSync(join(FIXTURES, entry), join(dir, entry));
  return dir;
}
