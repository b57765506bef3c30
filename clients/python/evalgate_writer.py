"""Write an EvalGate run database from a Python eval runner: stdlib only (sqlite3, json).

    from evalgate_writer import RunWriter

    with RunWriter("candidate.sqlite", run_id="pr-42", suite="smoke",
                   config={"embedding_model": "bge-small", "chunker_version": "v2"}) as run:
        run.add_result("q1", query="How do I rotate a key?", elapsed_ms=41.5,
                       hits=[{"chunk_id": "c7", "doc_id": "keys.md", "score": 12.3}])

The format is docs/run-database.md; the key lists below are those of schemas/result.schema.json (a test checks
that they agree). A misspelt key is refused with the nearest known one, a hit that could match nothing (no
chunk_id, doc_id or doc_path) too, and ranks are numbered 1..n in list order unless given: mistakes that would
otherwise score as a quality regression are caught where they are made.
"""

import datetime
import difflib
import json
import sqlite3

__all__ = ["RunWriter", "RunFormatError"]

RESULT_KEYS = (
    "query_id", "query", "mode", "hits_top_k", "answer", "elapsed_ms", "error", "status", "abstained",
    "timings_ms", "cost_usd", "scope", "judge", "references", "conflict_acknowledged",
)
HIT_KEYS = (
    "rank", "chunk_id", "doc_id", "doc_path", "rel_path", "heading_path", "snippet", "score", "citation",
    "chunker_version",
)
ANSWER_KEYS = ("answer", "citations", "references", "grounded", "refusal_reason", "conflict_acknowledged", "usage")
ANSWER_CITATION_KEYS = ("marker", "chunk_id", "citation")

# The tables `evalgate init` creates (src/load/runDatabase.ts, RUN_DATABASE_DDL).
DDL = """
CREATE TABLE IF NOT EXISTS eval_runs (
  run_id TEXT PRIMARY KEY,
  suite TEXT NOT NULL,
  config_snapshot_json TEXT NOT NULL,
  aggregate_json TEXT NOT NULL,
  commit_hash TEXT,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS eval_query_results (
  run_id TEXT NOT NULL REFERENCES eval_runs(run_id),
  query_id TEXT NOT NULL,
  result_json TEXT NOT NULL,
  PRIMARY KEY (run_id, query_id)
);
CREATE TABLE IF NOT EXISTS documents (
  doc_id TEXT PRIMARY KEY,
  workspace_path TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS chunks (
  chunk_id TEXT PRIMARY KEY,
  doc_id TEXT NOT NULL,
  text TEXT NOT NULL,
  heading_path_json TEXT NOT NULL,
  source_spans_json TEXT NOT NULL,
  token_estimate INTEGER NOT NULL,
  chunker_version TEXT NOT NULL
);
"""


class RunFormatError(ValueError):
    """A result that EvalGate would misread: an unknown key, a hit that matches nothing, a bad rank."""


def _check_keys(obj, known, where):
    if not isinstance(obj, dict):
        raise RunFormatError("%s must be a dict, got %s" % (where, type(obj).__name__))
    for key in obj:
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
            hint = "; did you mean %r?" % close[0] if close else " (known keys: %s)" % ", ".join(known)
            raise RunFormatError("%s: unknown key %r%s" % (where, key, hint))


def _present(value):
    return (isinstance(value, str) and value != "") or (isinstance(value, (int, float)) and not isinstance(value, bool))


def _hits(hits, query_id):
    out = []
    for i, hit in enumerate(hits):
        where = "query %r, hit %d" % (query_id, i)
        _check_keys(hit, HIT_KEYS, where)
        if not any(_present(hit.get(k)) for k in ("chunk_id", "doc_id", "doc_path", "rel_path")):
            raise RunFormatError("%s has no chunk_id, doc_id or doc_path: it could match nothing" % where)
        hit = dict(hit)
        hit.setdefault("rank", i + 1)
        out.append(hit)
    ranks = sorted(h["rank"] for h in out)
    if ranks != list(range(1, len(out) + 1)):
        raise RunFormatError("query %r: ranks %s are not 1..%d" % (query_id, ranks, len(out)))
    return out


def _answer(answer, query_id):
    if answer is None:
        return None
    if isinstance(answer, str):
        return {"answer": answer}
    _check_keys(answer, ANSWER_KEYS, "query %r, answer" % query_id)
    for i, citation in enumerate(answer.get("citations") or []):
        _check_keys(citation, ANSWER_CITATION_KEYS, "query %r, answer citation %d" % (query_id, i))
    return answer


class RunWriter:
    """One run, written into `path` (created if missing; other runs already there are kept).

    Results are committed when the writer is closed (or the `with` block ends without an exception).
    """

    def __init__(self, path, run_id, suite, config=None, commit_hash=None, created_at=None):
        self._db = sqlite3.connect(path)
        self._db.executescript(DDL)
        self.run_id = run_id
        if created_at is None:
            created_at = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        try:
            self._db.execute(
                "INSERT INTO eval_runs (run_id, suite, config_snapshot_json, aggregate_json, commit_hash, created_at)"
                " VALUES (?, ?, ?, '{}', ?, ?)",
                (run_id, suite, json.dumps(config or {}), commit_hash, created_at),
            )
        except sqlite3.IntegrityError:
            self._db.close()
            raise RunFormatError("%s already holds a run %r: choose another run_id" % (path, run_id))
        self._ids = set()

    def add_result(self, query_id, query=None, hits=(), answer=None, elapsed_ms=None, error=None, **fields):
        """One query's result. `hits`: dicts of HIT_KEYS, best first; `answer`: a text or a dict of ANSWER_KEYS;
        `fields`: any other key of RESULT_KEYS (status, timings_ms, cost_usd, judge, abstained, ...)."""
        query_id = str(query_id)
        if query_id in self._ids:
            raise RunFormatError("query %r is written twice in run %r" % (query_id, self.run_id))
        _check_keys(fields, [k for k in RESULT_KEYS if k not in ("query_id", "hits_top_k")], "query %r" % query_id)
        result = {
            "query_id": query_id,
            "query": query,
            "hits_top_k": _hits(hits, query_id),
            "answer": _answer(answer, query_id),
            "elapsed_ms": elapsed_ms,
            "error": error,
        }
        result.update(fields)
        self._db.execute(
            "INSERT INTO eval_query_results (run_id, query_id, result_json) VALUES (?, ?, ?)",
            (self.run_id, query_id, json.dumps(result)),
        )
        self._ids.add(query_id)

    def close(self):
        if not self._ids:
            self._db.rollback()
            self._db.close()
            raise RunFormatError("run %r has no results: nothing was written" % self.run_id)
        self._db.commit()
        self._db.close()

    def __enter__(self):
        return self

    def __exit__(self, kind, value, traceback):
        if kind is None:
            self.close()
        else:
            self._db.rollback()
            self._db.close()
        return False
