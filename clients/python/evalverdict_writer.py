"""Write an EvalVerdict run database from a Python eval runner: stdlib only (sqlite3, json).

    from evalverdict_writer import RunWriter

    with RunWriter("candidate.sqlite", run_id="pr-42", suite="smoke",
                   config={"embedding_model": "bge-small", "chunker_version": "v2"}) as run:
        run.add_result("q1", query="How do I rotate a key?", elapsed_ms=41.5,
                       hits=[{"chunk_id": "c7", "doc_id": "keys.md", "score": 12.3}])

The format is docs/run-database.md; the key lists below are those of schemas/result.schema.json (a test checks
that they agree). A misspelt key is refused with the nearest known one, a hit that could match nothing (no
chunk_id, doc_id or doc_path) too, and ranks are numbered 1..n in list order unless given: mistakes that would
otherwise score as a quality regression are caught where they are made.

Everything EvalVerdict's reader refuses (src/load/runDatabase.ts, src/load/queryResult.ts, src/load/json.ts) is
refused here, when it is written, in the reader's words: NaN and Infinity (JSON has neither, so the reader would
refuse the result as malformed JSON), a value of the wrong type (`rank: True`, a list as `score`), a negative time,
cost or token count, a judge score outside 0..5, a `created_at` that is no RFC 3339 time, a `run_id` that is bytes
(SQLite would store a BLOB that no result row can name), an id, suite, commit or time over 1,024 UTF-8 bytes, a
value over 64 MiB, JSON nested more than 100 levels or (in a text of 1 Mi characters or more) holding more lists,
objects, keys or values than the reader parses in one value. A run the reader would refuse would stop every compare
of the database, so it is better never written: test/pythonWriter.test.ts feeds the same values to both and checks it.
"""

import datetime
import decimal
import difflib
import json
import math
import re
import sqlite3

__all__ = ["RunWriter", "RunFormatError"]

RESULT_KEYS = (
    "query_id", "query", "mode", "hits_top_k", "answer", "elapsed_ms", "error", "status", "abstained",
    "timings_ms", "cost_usd", "scope", "judge", "references", "conflict_acknowledged",
)
HIT_KEYS = (
    "rank", "chunk_id", "doc_id", "doc_path", "rel_path", "heading_path", "snippet", "score", "citation",
    "chunker_version",
    # kebab's own hit fields: read without warning, scored by nothing (docs/sources/kebab.md)
    "section_label", "index_version", "embedding_model", "indexed_at", "stale", "score_kind",
)
ANSWER_KEYS = ("answer", "citations", "references", "grounded", "refusal_reason", "conflict_acknowledged", "usage")
ANSWER_CITATION_KEYS = ("marker", "chunk_id", "citation")

# The reader's limits (test/pythonWriter.test.ts checks that they equal its constants).
MAX_ID_BYTES = 1024  # src/load/queryResult.ts: a run's id, suite, commit and time, and a query id, in UTF-8 bytes
MAX_VALUE_BYTES = 64 << 20  # src/load/runDatabase.ts: one value of the database
MAX_JSON_DEPTH = 100  # src/load/json.ts: how deep a JSON column may nest
JSON_SCAN_FROM_CHARS = 1 << 20  # src/load/json.ts: a JSON text this long is held to JSON_VALUE_BOUNDS
JSON_VALUE_BOUNDS = {"containers": 500000, "keys": 500000, "commas": 1000000}  # src/load/json.ts
RUN_TIME_FORM = "such as 2026-11-22T10:00:00Z; without a zone, UTC"  # src/time.ts

# The tables `evalverdict init` creates (src/load/runDatabase.ts, RUN_DATABASE_DDL).
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
    """A run or result that EvalVerdict would misread or refuse: an unknown key, a hit that matches nothing, a bad
    rank, a value of the wrong type, NaN, a time that is no RFC 3339 time, ..."""


class _Refusal(Exception):
    """What the reader would say about a field (its words, without the file, run and query it names)."""


# --- values as JavaScript reads and prints them, for the reader's words ---


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _js_float(v):
    """The number JavaScript reads from the JSON Python writes for `v` (an int past a double's range: Infinity)."""
    try:
        return float(v)
    except OverflowError:
        return math.inf if v > 0 else -math.inf


def _js_number_text(v):
    """JavaScript's String(n) of the number read for `v`: 1 for 1.0, 1e-7, 1e+21, Infinity."""
    f = _js_float(v)
    if f != f:
        return "NaN"
    if math.isinf(f):
        return "Infinity" if f > 0 else "-Infinity"
    if f == 0:
        return "0"
    shortest = decimal.Decimal(repr(abs(f))).as_tuple()  # repr: the shortest digits that read back, as JS's
    n = shortest.exponent + len(shortest.digits)  # the value is 0.DIGITS x 10^n
    digits = "".join(map(str, shortest.digits)).rstrip("0")
    k = len(digits)
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * -n + digits
    else:
        text = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if n > 0 else "-") + str(abs(n - 1))
    return ("-" if f < 0 else "") + text


def _js_string(v):
    """String(v) in JavaScript for a text, a number or a boolean (what the reader makes of them where it wants text)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    return _js_number_text(v) if _is_number(v) else v


def _js_json_string(text):
    """JSON.stringify of a text: as json.dumps without ensure_ascii, a lone surrogate escaped."""
    return re.sub("[\ud800-\udfff]", lambda m: "\\u%04x" % ord(m.group()), json.dumps(text, ensure_ascii=False))


def _describe(v):
    """The reader's `describe` (src/load/json.ts): how a value that does not fit is named in a message."""
    if v is None:
        return "null"
    if isinstance(v, (list, tuple)):
        return "a list"
    if isinstance(v, str):
        units = v.encode("utf-16-le", "surrogatepass")
        if len(units) > 80:  # more than 40 UTF-16 units, as JavaScript counts a text's length
            v = units[:80].decode("utf-16-le", "surrogatepass") + "\u2026"
        return _js_json_string(v)
    if isinstance(v, dict):
        return "an object"
    if isinstance(v, bool):
        return "boolean true" if v else "boolean false"
    if _is_number(v):
        return "number " + _js_number_text(v)
    return "a Python %s, which is no JSON value" % type(v).__name__


# --- the reader's field checks (src/load/json.ts, src/load/queryResult.ts), in its order ---


def _opt_string(obj, key, path=None):
    v = obj.get(key)
    if v is None or isinstance(v, str):
        return v
    if isinstance(v, (int, float)):
        return _js_string(v)
    raise _Refusal("`%s` must be a string, got %s" % (path or key, _describe(v)))


def _opt_number(obj, key, path=None):
    v = obj.get(key)
    if v is None:
        return None
    if _is_number(v) and math.isfinite(_js_float(v)):
        return _js_float(v)
    raise _Refusal("`%s` must be a finite number, got %s" % (path or key, _describe(v)))


def _opt_boolean(obj, key, path=None):
    v = obj.get(key)
    if v is None or isinstance(v, bool):
        return v
    raise _Refusal("`%s` must be true or false, got %s" % (path or key, _describe(v)))


def _opt_string_array(obj, key, path):
    v = obj.get(key)
    if v is None:
        return
    if not isinstance(v, (list, tuple)):
        raise _Refusal("`%s` must be a list of strings, got %s" % (path, _describe(v)))
    for i, item in enumerate(v):
        if not (isinstance(item, str) or _is_number(item)):
            raise _Refusal("`%s[%d]` must be a string, got %s" % (path, i, _describe(item)))


def _measure(obj, key, path):
    """A time, a cost or a count of tokens: a number >= 0 or null."""
    v = _opt_number(obj, key, path)
    if v is not None and v < 0:
        raise _Refusal("`%s` must be a number >= 0, got %s" % (path, _js_number_text(v)))


def _judge_score(obj, key, path):
    v = _opt_number(obj, key, path)
    if v is not None and not 0 <= v <= 5:
        raise _Refusal("`%s` must be a score from 0 to 5, got %s" % (path, _js_number_text(v)))


def _heading(obj, path):
    v = obj.get("heading_path")
    if not isinstance(v, str):
        _opt_string_array(obj, "heading_path", path)


def _line_citation(c, path):
    if not isinstance(c, dict):
        raise _Refusal("`%s` must be an object, got %s" % (path, _describe(c)))
    _opt_string(c, "path", path + ".path")
    _opt_number(c, "start", path + ".start")
    _opt_number(c, "end", path + ".end")


def _check_rank(rank, i, seen):
    path = "hits_top_k[%d].rank" % i
    if rank is None:
        raise _Refusal("`%s` is missing" % path)
    value = _js_float(rank) if _is_number(rank) else None
    if value is None or not math.isfinite(value) or not value.is_integer():
        raise _Refusal("`%s` must be an integer, got %s" % (path, _describe(rank)))
    if value < 1:
        raise _Refusal("`%s` must be >= 1, got %s" % (path, _js_number_text(value)))
    if value in seen:
        raise _Refusal("`%s` repeats rank %s within the query" % (path, _js_number_text(value)))
    seen.add(value)


def _check_hits(hits):
    if hits is None:
        return
    if not isinstance(hits, (list, tuple)):
        raise _Refusal("`hits_top_k` must be a list, got %s" % _describe(hits))
    seen = set()
    for i, h in enumerate(hits):
        at = "hits_top_k[%d]" % i
        if not isinstance(h, dict):
            raise _Refusal("`%s` must be an object, got %s" % (at, _describe(h)))
        _check_rank(h.get("rank"), i, seen)
        for key in ("chunk_id", "doc_id", "doc_path"):
            _opt_string(h, key, "%s.%s" % (at, key))
        if h.get("doc_path") is None:  # the reader reads `rel_path` only when `doc_path` is not given
            _opt_string(h, "rel_path", at + ".rel_path")
        _heading(h, at + ".heading_path")
        _opt_string(h, "snippet", at + ".snippet")
        _opt_number(h, "score", at + ".score")
        if h.get("citation") is not None:
            _line_citation(h["citation"], at + ".citation")
        _opt_string(h, "chunker_version", at + ".chunker_version")


def _first_of(obj, keys, at, check):
    """The reader's `a ?? b ?? c`: each key is read (and checked) only while the ones before it are null."""
    for key in keys:
        if check(obj, key, at + key) is not None:
            return


def _check_answer_citation(c, i):
    at = "answer.citations[%d]" % i
    if not isinstance(c, dict):
        raise _Refusal("`%s` must be an object, got %s" % (at, _describe(c)))
    inner = c.get("citation") if isinstance(c.get("citation"), dict) else {}
    _opt_string(c, "marker", at + ".marker")
    if _opt_string(c, "chunk_id", at + ".chunk_id") is None:
        _opt_string(inner, "chunk_id", at + ".citation.chunk_id")
    _opt_string(inner, "path", at + ".citation.path")
    _first_of(inner, ("start", "start_line", "line_start"), at + ".citation.", _opt_number)
    _first_of(inner, ("end", "end_line", "line_end"), at + ".citation.", _opt_number)


def _check_reference(r, at):
    if not isinstance(r, dict):
        raise _Refusal("`%s` must be an object, got %s" % (at, _describe(r)))
    _opt_number(r, "start", at + ".start")
    _opt_string(r, "marker", at + ".marker")
    _opt_string(r, "chunk_id", at + ".chunk_id")
    _first_of(r, ("rel_path", "path"), at + ".", _opt_string)
    _opt_number(r, "end", at + ".end")
    _heading(r, at + ".heading_path")


def _check_answer(a, top_level_references):
    if a is None:
        return
    if not isinstance(a, dict):
        raise _Refusal("`answer` must be an object or null, got %s" % _describe(a))
    citations = a.get("citations")
    if citations is not None and not isinstance(citations, (list, tuple)):
        raise _Refusal("`answer.citations` must be a list")
    for i, c in enumerate(citations or ()):
        _check_answer_citation(c, i)
    in_answer = a.get("references") is not None
    references = a["references"] if in_answer else top_level_references
    field = "answer.references" if in_answer else "references"
    if references is not None:
        if not isinstance(references, (list, tuple)):
            raise _Refusal("`%s` must be a list, got %s" % (field, _describe(references)))
        for i, r in enumerate(references):
            _check_reference(r, "%s[%d]" % (field, i))
    _opt_boolean(a, "grounded", "answer.grounded")
    _opt_string(a, "answer", "answer.answer")
    _opt_boolean(a, "conflict_acknowledged", "answer.conflict_acknowledged")
    _opt_string(a, "refusal_reason", "answer.refusal_reason")
    usage = a.get("usage") if isinstance(a.get("usage"), dict) else {}
    for key in ("prompt_tokens", "completion_tokens", "latency_ms"):
        _measure(usage, key, "answer.usage." + key)


def _check_judge(j):
    if j is None:
        return
    if not isinstance(j, dict):
        raise _Refusal("`judge` must be an object, got %s" % _describe(j))
    _judge_score(j, "groundedness", "judge.groundedness")
    _judge_score(j, "correctness", "judge.correctness")
    spot = j.get("spot_check") if isinstance(j.get("spot_check"), dict) else {}
    _judge_score(spot, "groundedness", "judge.spot_check.groundedness")
    _judge_score(spot, "correctness", "judge.spot_check.correctness")
    usage = j.get("usage") if isinstance(j.get("usage"), dict) else {}
    _measure(usage, "prompt_tokens", "judge.usage.prompt_tokens")
    _measure(usage, "completion_tokens", "judge.usage.completion_tokens")


def _check_scope_and_timings(value):
    scope = value.get("scope")
    if isinstance(scope, dict):
        mode = _opt_string(scope, "folder_mode", "scope.folder_mode")
        if mode not in (None, "off", "on", "on_with_fallback"):
            raise _Refusal('`scope.folder_mode` must be "off", "on" or "on_with_fallback", got %s' % _describe(mode))
        _opt_string_array(scope, "selected_folders", "scope.selected_folders")
    timings = value.get("timings_ms")
    if isinstance(timings, dict):
        for key in timings:
            _measure(timings, key, "timings_ms.%s" % key)
    elif timings is not None:
        raise _Refusal("`timings_ms` must be an object of stage: milliseconds, got %s" % _describe(timings))


def _check_result(value):
    """What the reader refuses in one `result_json` (queryResultOf in src/load/queryResult.ts), in its order."""
    _check_hits(value.get("hits_top_k"))
    status = _opt_string(value, "status")
    _opt_string(value, "error")
    if status not in (None, "ok", "error", "timeout"):
        raise _Refusal('`status` must be "ok", "error" or "timeout", got %s' % _describe(status))
    _check_scope_and_timings(value)
    _opt_string(value, "query")
    _opt_string(value, "mode")
    _opt_boolean(value, "conflict_acknowledged")
    _check_answer(value.get("answer"), value.get("references"))
    _measure(value, "elapsed_ms", "elapsed_ms")
    _opt_boolean(value, "abstained")
    _measure(value, "cost_usd", "cost_usd")
    _check_judge(value.get("judge"))


# --- JSON columns: depth, NaN and size, as the reader checks them ---


def _children(value, path):
    if isinstance(value, dict):
        return (("%s.%s" % (path, k) if path else str(k), v) for k, v in value.items())
    return (("%s[%d]" % (path, i), v) for i, v in enumerate(value))


def _shape(value, column):
    """How many lists and objects, object keys and commas `value`'s JSON holds; refused when it nests deeper than
    MAX_JSON_DEPTH (the reader's nestedDeeperThan; a list that holds itself too)."""
    counts = {"containers": 0, "keys": 0, "commas": 0}
    stack = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise _Refusal("column `%s`: JSON nested more than %d levels deep" % (column, MAX_JSON_DEPTH))
        items = v.values() if isinstance(v, dict) else v
        counts["containers"] += 1
        counts["keys"] += len(v) if isinstance(v, dict) else 0
        counts["commas"] += max(len(v) - 1, 0)
        stack.extend((child, depth + 1) for child in items if isinstance(child, (dict, list, tuple)))
    return counts


def _non_finite(value):
    """The path and value of the first NaN or infinite float in `value`, or None."""
    stack = [("", value)]
    while stack:
        path, v = stack.pop()
        if isinstance(v, float) and not math.isfinite(v):
            return path, v
        if isinstance(v, (dict, list, tuple)):
            stack.extend(reversed(list(_children(v, path))))
    return None


def _mib(size):
    return int(math.floor(size / float(1 << 20) + 0.5))


def _json_text(value, column, shape=None):
    """`value` as the JSON the column holds, refused as the reader would refuse the text. `shape`: _shape's counts."""
    if shape is None:
        shape = _shape(value, column) if isinstance(value, (dict, list, tuple)) else {}
    try:
        text = json.dumps(value, allow_nan=False)
    except ValueError as error:
        found = _non_finite(value)
        if found is None:
            raise _Refusal("column `%s`: %s" % (column, error))
        raise _Refusal(
            "column `%s`: `%s` is %s, which JSON cannot hold (the reader refuses such a text as malformed JSON)"
            % (column, found[0] or "(the value)", _js_number_text(found[1])))
    if len(text) > MAX_VALUE_BYTES:  # ASCII: json.dumps escapes every other character
        raise _Refusal("column `%s` holds %d MiB, more than the %d MiB EvalVerdict reads in one value"
                       % (column, _mib(len(text)), _mib(MAX_VALUE_BYTES)))
    if len(text) >= JSON_SCAN_FROM_CHARS:  # the reader counts, before it parses, only in a text this long
        for key, what in (("containers", "lists and objects"), ("keys", "object keys"), ("commas", "values")):
            if shape.get(key, 0) > JSON_VALUE_BOUNDS[key]:
                raise _Refusal("column `%s`: JSON holds more than %s %s, the most EvalVerdict reads in one value"
                               % (column, "{:,}".format(JSON_VALUE_BOUNDS[key]), what))
    return text


# --- the run's own row (listRuns, pickRun and runInfoFrom in src/load/runDatabase.ts) ---

_RUN_TIME = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})"
    r"(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?"
    r"(?:([Zz])|([+-])(\d{2}):?(\d{2}))?)?",
    re.ASCII,
)


def _is_run_time(text):
    """Whether the reader reads `text` as a time (runTime in src/time.ts)."""
    m = _RUN_TIME.fullmatch(text)
    if m is None:
        return False
    year, month, day = int(m.group(1)), int(m.group(2)), int(m.group(3))
    hour, minute, second = (int(m.group(i) or 0) for i in (4, 5, 6))
    if not 1 <= month <= 12 or day < 1 or hour > 23 or minute > 59 or second > 60:
        return False
    if m.group(9) is not None and (int(m.group(10)) > 23 or int(m.group(11)) > 59):
        return False
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return day <= (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[month - 1]


def _run_text(name, value, nullable=False):
    """A text column of eval_runs, as the reader reads it: text (a BLOB run_id names no result), of valid UTF-8,
    at most MAX_ID_BYTES bytes."""
    if value is None and nullable:
        return None
    if name == "run_id" and (value is None or isinstance(value, (bytes, bytearray, memoryview))):
        raw = b"" if value is None else bytes(value)
        shown = "x'%s'%s" % (raw[:48].hex(), "\u2026 (%d bytes)" % len(raw) if len(raw) > 48 else "")
        raise _Refusal("run_id is %s (%s), not text that result rows can name"
                       % ("NULL" if value is None else "a BLOB", shown))
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)  # as SQLite stores it (TEXT affinity)
    if not isinstance(value, str):
        raise _Refusal("%s must be text (a str), got %s" % (name, _describe(value)))
    try:
        size = len(value.encode("utf-8"))
    except UnicodeEncodeError:
        raise _Refusal("%s is not valid UTF-8 (it holds a lone surrogate): store it as UTF-8 text" % name) from None
    if size > MAX_ID_BYTES:
        raise _Refusal("column `%s` holds %d bytes, more than the %d EvalVerdict reads in an id, suite, commit or time"
                       % (name, size, MAX_ID_BYTES))
    return value


def _check_index_stats(stats):
    """`index_stats` of the config, as chunkIndexingOf in src/load/runDatabase.ts reads it."""
    where = "column `config_snapshot_json`, `index_stats`"
    if stats is None:
        return
    if not isinstance(stats, dict):
        raise _Refusal("%s: must be an object of chunk counts, got %s" % (where, _describe(stats)))

    def count(key):
        v = stats.get(key)
        if v is None:
            return None
        if not _is_number(v) or not math.isfinite(_js_float(v)) or not _js_float(v).is_integer() or v < 0:
            raise _Refusal("%s: `%s` must be a count (a whole number >= 0), got %s" % (where, key, _describe(v)))
        return _js_float(v)

    skipped, embedded, attempted = count("chunks_skipped"), count("chunks_embedded"), count("chunks_attempted")
    if attempted is None and embedded is not None and skipped is not None:
        attempted = embedded + skipped
    if skipped is not None and attempted is not None and skipped > attempted:
        raise _Refusal("%s: `chunks_skipped` (%s) is more than `chunks_attempted` (%s)"
                       % (where, _js_number_text(skipped), _js_number_text(attempted)))


def _run_row(run_id, suite, config, commit_hash, created_at):
    """The values of the run's eval_runs row, each checked as the reader checks it."""
    run_id = _run_text("run_id", run_id)
    suite = _run_text("suite", suite)
    commit_hash = _run_text("commit_hash", commit_hash, nullable=True)
    if created_at is None:
        created_at = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    created_at = _run_text("created_at", created_at)
    if not _is_run_time(created_at):
        raise _Refusal("created_at %s is not an RFC 3339 time (%s)" % (_describe(created_at), RUN_TIME_FORM))
    config = {} if config is None else config
    config_json = _json_text(config, "config_snapshot_json")
    if not isinstance(config, dict):
        raise _Refusal("column `config_snapshot_json`: must be a JSON object")
    _check_index_stats(config.get("index_stats"))
    return run_id, suite, config_json, commit_hash, created_at


# --- the writer's own checks: what the reader reads without a word, but reads wrong ---


def _check_keys(obj, known, where):
    if not isinstance(obj, dict):
        raise RunFormatError("%s must be a dict, got %s" % (where, type(obj).__name__))
    for key in obj:
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1, cutoff=0.6) if isinstance(key, str) else []
            hint = "; did you mean %r?" % close[0] if close else " (known keys: %s)" % ", ".join(known)
            raise RunFormatError("%s: unknown key %r%s" % (where, key, hint))


def _present(value):
    return (isinstance(value, str) and value != "") or (isinstance(value, (int, float)) and not isinstance(value, bool))


def _ranked(hits):
    """The hits as written: copies, ranked 1..n in list order where a hit gives no rank."""
    if not isinstance(hits, (list, tuple)):
        return hits  # refused by _check_hits, in the reader's words
    out = []
    for i, hit in enumerate(hits):
        if isinstance(hit, dict):
            hit = dict(hit)
            hit.setdefault("rank", i + 1)
        out.append(hit)
    return out


def _check_hit_keys(hits, query_id):
    for i, hit in enumerate(hits):
        where = "query %r, hit %d" % (query_id, i)
        _check_keys(hit, HIT_KEYS, where)
        if not any(_present(hit.get(k)) for k in ("chunk_id", "doc_id", "doc_path", "rel_path")):
            raise RunFormatError("%s has no chunk_id, doc_id or doc_path: it could match nothing" % where)
    ranks = sorted(h["rank"] for h in hits)
    if ranks != list(range(1, len(hits) + 1)):
        raise RunFormatError("query %r: ranks %s are not 1..%d" % (query_id, ranks, len(hits)))


def _check_answer_keys(answer, query_id):
    if answer is None:
        return
    _check_keys(answer, ANSWER_KEYS, "query %r, answer" % query_id)
    for i, citation in enumerate(answer.get("citations") or []):
        _check_keys(citation, ANSWER_CITATION_KEYS, "query %r, answer citation %d" % (query_id, i))


def _query_id(query_id):
    if isinstance(query_id, (bytes, bytearray, memoryview)) or query_id is None or isinstance(query_id, bool):
        raise RunFormatError("query_id must be text (a str), got %s" % _describe(query_id))
    query_id = str(query_id)
    try:
        size = len(query_id.encode("utf-8"))
    except UnicodeEncodeError:
        raise RunFormatError("query %r: query_id is not valid UTF-8 (it holds a lone surrogate)" % query_id) from None
    if size > MAX_ID_BYTES:
        shown = query_id[:200] + "\u2026 (%d bytes)" % size
        raise RunFormatError("query %r: query_id holds more than the %d bytes EvalVerdict reads in an id"
                             % (shown, MAX_ID_BYTES))
    return query_id


class RunWriter:
    """One run, written into `path` (created if missing; other runs already there are kept).

    Results are committed when the writer is closed (or the `with` block ends without an exception).
    """

    def __init__(self, path, run_id, suite, config=None, commit_hash=None, created_at=None):
        try:
            row = _run_row(run_id, suite, config, commit_hash, created_at)
        except _Refusal as refusal:
            shown = run_id[:200] + "\u2026" if isinstance(run_id, str) and len(run_id) > 200 else run_id
            raise RunFormatError("run %r: %s" % (shown, refusal)) from None
        self.run_id = row[0]
        self._db = sqlite3.connect(path)
        self._db.executescript(DDL)
        try:
            self._db.execute(
                "INSERT INTO eval_runs (run_id, suite, config_snapshot_json, aggregate_json, commit_hash, created_at)"
                " VALUES (?, ?, ?, '{}', ?, ?)",
                row,
            )
        except sqlite3.IntegrityError:
            self._db.close()
            raise RunFormatError("%s already holds a run %r: choose another run_id" % (path, self.run_id))
        self._ids = set()

    def add_result(self, query_id, query=None, hits=(), answer=None, elapsed_ms=None, error=None, **fields):
        """One query's result. `hits`: dicts of HIT_KEYS, best first; `answer`: a text or a dict of ANSWER_KEYS;
        `fields`: any other key of RESULT_KEYS (status, timings_ms, cost_usd, judge, abstained, ...)."""
        query_id = _query_id(query_id)
        if query_id in self._ids:
            raise RunFormatError("query %r is written twice in run %r" % (query_id, self.run_id))
        _check_keys(fields, [k for k in RESULT_KEYS if k not in ("query_id", "hits_top_k")], "query %r" % query_id)
        result = {
            "query_id": query_id,
            "query": query,
            "hits_top_k": _ranked([] if hits is None else hits),
            "answer": {"answer": answer} if isinstance(answer, str) else answer,
            "elapsed_ms": elapsed_ms,
            "error": error,
        }
        result.update(fields)
        try:
            shape = _shape(result, "result_json")
            _check_result(result)
            _check_hit_keys(result["hits_top_k"], query_id)
            _check_answer_keys(result["answer"], query_id)
            text = _json_text(result, "result_json", shape)
        except _Refusal as refusal:
            raise RunFormatError("query %r: %s" % (query_id, refusal)) from None
        self._db.execute(
            "INSERT INTO eval_query_results (run_id, query_id, result_json) VALUES (?, ?, ?)",
            (self.run_id, query_id, text),
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
