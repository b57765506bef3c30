"""The hostile corpus test/pythonWriter.test.ts feeds to this writer and to EvalVerdict's reader, to check that the
writer refuses whatever the reader refuses (and in its words), and that what it writes the reader reads.

    python3 clients/python/tests/reader_agreement.py DIR

writes into DIR the databases the writer accepted (accepted-results.sqlite: one run, a query per accepted result;
accepted-runs.sqlite: a run per accepted run), and for each case of a run's own row the database the writer would
write without its checks, and prints one JSON line per case:

    {"name", "level": "result" | "db", "writer": null or the refusal, "detail": the refusal without the run or
     query it names, "raw": the result_json text written without checks (level "result"), "db": that database
     (level "db"), "words": false when the writer's words cannot be the reader's}

then a last line {"accepted_results", "accepted_runs", "results", "runs"}. The cases: every field the reader
checks, in four shapes of result, set to each value of VALUES; the depth and size bounds; each column of eval_runs.
"""

import copy
import json
import os
import re
import sqlite3
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import evalverdict_writer  # noqa: E402
from evalverdict_writer import DDL, JSON_VALUE_BOUNDS, MAX_JSON_DEPTH, RunWriter  # noqa: E402


class _Scratch:
    """sqlite3 for scratch files: no waiting for the disk at each commit (a hundred of them)."""

    def __getattr__(self, name):
        return getattr(sqlite3, name)

    @staticmethod
    def connect(path):
        db = sqlite3.connect(path)
        db.execute("PRAGMA synchronous = OFF")
        return db


evalverdict_writer.sqlite3 = _Scratch()

CREATED = "2026-11-22T10:00:00Z"
NAN, INF = float("nan"), float("inf")

VALUES = [
    None, True, False, 0, -1, 1, 2, 1.0, 2.5, -0.5, 7, -0.0, NAN, INF, -INF, 10 ** 400, -(10 ** 400), 2 ** 53 + 1,
    1e21, 1e-7, "", "x", "ok", "timeout", "on", "\U0001F600" * 30, "a\nb", [], ["a"], [1], [True], [None], [[1]], {},
    {"a": 1}, b"x",
]

CITATION = {"kind": "line", "path": "docs/a.md", "start": 1, "end": 2}
FULL = {
    "query": "what is it?", "mode": "hybrid",
    "hits_top_k": [
        {"rank": 1, "chunk_id": "c1", "doc_id": "d1", "doc_path": "docs/a.md", "heading_path": ["A", "B"],
         "snippet": "s", "score": 1.5, "citation": dict(CITATION), "chunker_version": "v1"},
        {"rank": 2, "chunk_id": "c2"},
    ],
    "answer": {
        "answer": "x [1]", "citations": [{"marker": "[1]", "chunk_id": "c1", "citation": dict(CITATION)}],
        "references": [{"rel_path": "docs/a.md", "heading_path": "A > B", "start": 1, "end": 2, "marker": "[2]",
                        "chunk_id": "c1"}],
        "grounded": True, "refusal_reason": None, "conflict_acknowledged": False,
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "latency_ms": 100},
    },
    "elapsed_ms": 12.5, "error": None, "status": "ok", "abstained": False,
    "timings_ms": {"retrieval": 3, "generation": 7.5}, "cost_usd": 0.01,
    "scope": {"folder_mode": "on", "selected_folders": ["docs"]},
    "judge": {"groundedness": 4, "correctness": 5, "unsupported_claims": ["x"],
              "spot_check": {"groundedness": 4, "correctness": 3}, "usage": {"prompt_tokens": 1, "completion_tokens": 1}},
    "conflict_acknowledged": True,
}
# The other spellings, read only when the first is absent: rel_path, start_line, an inner chunk_id, top-level references.
ALT = copy.deepcopy(FULL)
del ALT["hits_top_k"][0]["doc_path"]
ALT["hits_top_k"][0]["rel_path"] = "docs/a.md"
ALT["answer"]["citations"][0] = {"marker": "[1]", "citation": {"chunk_id": "c1", "path": "docs/a.md", "start_line": 1,
                                                               "end_line": 2}}
ALT["references"] = [{"path": "docs/a.md", "heading_path": ["A"], "start": 3}]
del ALT["answer"]["references"]
NO_ANSWER = dict(copy.deepcopy(ALT), answer=None)

HIT = "hits_top_k[0]."
ANSWER_CITATION = "answer.citations[0]."
PATHS = {
    "full": [
        "query", "mode", "error", "status", "abstained", "elapsed_ms", "cost_usd", "timings_ms", "timings_ms.retrieval",
        "scope", "scope.folder_mode", "scope.selected_folders", "scope.selected_folders[0]", "judge",
        "judge.groundedness", "judge.correctness", "judge.unsupported_claims", "judge.spot_check",
        "judge.spot_check.correctness", "judge.usage", "judge.usage.prompt_tokens", "conflict_acknowledged",
        "references", "hits_top_k", "hits_top_k[0]", "hits_top_k[1].rank",
    ] + [HIT + k for k in ("rank", "chunk_id", "doc_id", "doc_path", "rel_path", "heading_path", "heading_path[0]",
                           "snippet", "score", "citation", "citation.path", "citation.start", "citation.end",
                           "chunker_version")] + [
        "answer", "answer.answer", "answer.grounded", "answer.refusal_reason", "answer.conflict_acknowledged",
        "answer.usage", "answer.usage.latency_ms", "answer.usage.prompt_tokens", "answer.citations",
        "answer.citations[0]",
    ] + [ANSWER_CITATION + k for k in ("marker", "chunk_id", "citation", "citation.path", "citation.start",
                                       "citation.end", "citation.start_line")] + [
        "answer.references", "answer.references[0]",
    ] + ["answer.references[0]." + k for k in ("rel_path", "path", "start", "end", "heading_path", "marker",
                                                "chunk_id")],
    "alt": [HIT + "rel_path", ANSWER_CITATION + "citation.chunk_id", ANSWER_CITATION + "citation.start_line",
            ANSWER_CITATION + "citation.end_line", ANSWER_CITATION + "citation.line_start", "references",
            "references[0]", "references[0].path", "references[0].heading_path", "references[0].start"],
    "no_answer": ["references", "references[0].start", HIT + "score"],
}
BASES = {"full": FULL, "alt": ALT, "no_answer": NO_ANSWER}


def nested(levels, leaf=1):
    value = leaf
    for _ in range(levels):
        value = [value]
    return value


def nested_dicts(levels):
    value = 1
    for _ in range(levels):
        value = {"a": value}
    return value


def steps(path):
    return [int(s) if s.isdigit() else s for s in re.findall(r"[^.\[\]]+", path)]


def with_value(base, path, value):
    """A copy of `base` with `path` set to `value`, or None when the path's parent is not there."""
    result = copy.deepcopy(base)
    *parents, last = steps(path)
    node = result
    for step in parents:
        if isinstance(step, int) and not (isinstance(node, list) and step < len(node)):
            return None
        if isinstance(step, str) and not (isinstance(node, dict) and isinstance(node.get(step), (dict, list))):
            return None
        node = node[step]
    if isinstance(last, int) and not (isinstance(node, list) and last < len(node)):
        return None
    node[last] = value
    return result


def raw_text(query_id, result):
    """result_json as the writer wrote it before it checked values: ranks filled in, an answer text wrapped."""
    raw = dict(query_id=query_id, query=None, answer=None, elapsed_ms=None, error=None)
    raw.update(result)
    hits = raw.get("hits_top_k")
    if isinstance(hits, list):
        raw["hits_top_k"] = [dict(h, rank=h.get("rank", i + 1)) if isinstance(h, dict) else h
                             for i, h in enumerate(hits)]
    if isinstance(raw["answer"], str):
        raw["answer"] = {"answer": raw["answer"]}
    try:
        return json.dumps(raw)
    except (TypeError, ValueError, RecursionError):
        return None  # nothing could be written


def add(run, query_id, result):
    """The writer's refusal of `result` as query `query_id` of `run`, or None when it wrote it."""
    r = dict(result)
    kwargs = {k: r.pop(k) for k in ("query", "answer", "elapsed_ms", "error") if k in r}
    try:
        run.add_result(query_id, hits=r.pop("hits_top_k", ()), **kwargs, **r)
        return None
    except (ValueError, TypeError) as error:
        return error


def refusal(error, prefix):
    if error is None:
        return None, None
    message = "%s: %s" % (type(error).__name__, error)
    text = str(error)
    return message, text[len(prefix):] if text.startswith(prefix) else text


def result_cases():
    cases = [("%s %s = %r" % (base, path, value), with_value(BASES[base], path, value), True)
             for base, paths in PATHS.items() for path in paths for value in VALUES]
    # The root 1, `answer` 2, `usage` (a list, which the reader ignores) 3: 98 lists is the deepest the reader reads.
    # (Not in a member after `hits_top_k`: the reader's fast path does not check how deep those nest.)
    for path in ("answer.usage", "judge.unsupported_claims"):
        for levels in (MAX_JSON_DEPTH - 2, MAX_JSON_DEPTH - 1):
            cases.append(("%s nested %d lists" % (path, levels), with_value(FULL, path, nested(levels)), True))
    for ranks in ((1, 1), (2, 1), (0, 1), (1, 3), (1.0, 2.0), (2 ** 53, 2 ** 53 + 1)):
        hits = [{"rank": r, "chunk_id": "c%d" % i} for i, r in enumerate(ranks)]
        cases.append(("ranks %r" % (ranks,), dict(FULL, hits_top_k=hits), True))
    looped = copy.deepcopy(FULL)
    looped["judge"]["unsupported_claims"].append(looped["judge"])
    cases.append(("a judge that holds itself", looped, True))
    return [c for c in cases if c[1] is not None]


def run_cases():
    """(name, RunWriter's arguments, result or None for the default, whether the words can be the reader's)."""
    cases = []
    run_ids = [("b'r1'", b"r1"), ("of 60 bytes 0xff", bytearray(b"\xff" * 60)), ("None", None),
               ("'x' * 1025", "x" * 1025), ("'x' * 1024", "x" * 1024), ("'\u00e9' * 513", "\u00e9" * 513),
               ("of 600 emoji", "\U0001F600" * 600), ("of 256 emoji", "\U0001F600" * 256), ("42", 42),
               ("of a lone surrogate", "\ud800"), ("''", ""), ("'a\\nb'", "a\nb")]
    cases += [("run_id " + label, dict(run_id=run_id), None, True) for label, run_id in run_ids]
    for suite in (None, "s" * 1025, "s" * 1024, b"s", 5, 1.5):
        cases.append(("suite %r" % (suite if not isinstance(suite, str) else suite[:10] + "..."),
                      dict(suite=suite), None, True))
    for commit in ("c" * 1025, "c" * 1024, None, b"abc", 5):
        cases.append(("commit_hash %r" % (commit[:10] + "..." if isinstance(commit, str) else commit),
                      dict(commit_hash=commit), None, True))
    times = ["yesterday", "Sun Nov 22 2026", "2026-02-30", "2026-02-29", "2024-02-29", CREATED + "\n",
             "\uff12\uff10\uff12\uff16-11-22", "2026-11-22 10:00:00", "2026-11-22T10:00:00+0100",
             "2026-11-22T10:00:00+01:00", "2026-11-22", "2026-11-22T24:00:00Z", "2026-11-22T10:00:60Z",
             "2026-11-22T10:60:00Z", "2026-13-01", "2026-00-10", "0000-02-29", "1900-02-29", "2000-02-29",
             "2026-11-22T10:00Z", "2026-11-22T10:00:00.123456Z", "2026-11-22t10:00:00z", "2026-11-22T10:00:00+24:00",
             "2026-11-22T10:00:00+23:60", "2026-11-22T10", "2026-1-2", "x" * 2000, ""]
    cases += [("created_at %r" % (t[:40] if isinstance(t, str) else t), dict(created_at=t), None, True)
              for t in times + [5]]
    # The reader reads a BLOB as its bytes' numbers ("50,48,..."): the writer names the type instead.
    cases.append(("created_at b'2026-11-22'", dict(created_at=b"2026-11-22"), None, False))
    configs = [{"x": NAN}, {"x": INF}, [1], [], "str", 5, nested_dicts(MAX_JSON_DEPTH),
               nested_dicts(MAX_JSON_DEPTH + 1), {"index_stats": "many"}, {"index_stats": {"chunks_skipped": -1}},
               {"index_stats": {"chunks_skipped": True}}, {"index_stats": {"chunks_skipped": 5, "chunks_attempted": 3}},
               {"index_stats": {"chunks_skipped": 5, "chunks_embedded": 1}}, {"index_stats": {"chunks_skipped": 1.5}},
               {"index_stats": {"chunks_skipped": 2.0, "chunks_attempted": 3}},
               {"index_stats": {"chunks_embedded": 10 ** 400}}, {"index_stats": None}, {"embedding": {"model": "x"}},
               {"x": 10 ** 400}, {"x": b"y"}]
    cases += [("config %s" % json.dumps(c, default=repr)[:60], dict(config=c), None, True) for c in configs]
    # The reader counts the values of a text of a million characters or more (the cap of 64 MiB on a value and the
    # counts of lists and keys: clients/python/tests, with smaller bounds, since such cases take seconds each).
    cases.append(("a result of too many values", {}, {"hits_top_k": [{"chunk_id": "c1"}],
                                                      "judge": {"unsupported_claims": [0] * (JSON_VALUE_BOUNDS["commas"] + 2)}},
                  True))
    return cases


def write_raw(path, run, result):
    """The database as the writer wrote it before it checked values; False when SQLite refused to hold it."""
    db = _Scratch.connect(path)
    try:
        db.executescript(DDL)
        config = run.get("config")
        db.execute("INSERT INTO eval_runs VALUES (?, ?, ?, '{}', ?, ?)",
                   (run["run_id"], run["suite"], json.dumps(config or {}), run.get("commit_hash"), run["created_at"]))
        db.execute("INSERT INTO eval_query_results VALUES (?, ?, ?)", (run["run_id"], "q1", raw_text("q1", result)))
        db.commit()
        return True
    except (sqlite3.Error, TypeError, ValueError, RecursionError):
        return False
    finally:
        db.close()


def try_run(path, args, result):
    """The writer's refusal of the run `args` with one result, or None when it wrote it into `path`."""
    try:
        run = RunWriter(path, **args)
    except (ValueError, TypeError) as error:
        return error
    error = add(run, "q1", result)
    if error is not None:
        run._db.close()
        return error
    run.close()
    return None


def shown(run_id):
    return run_id[:200] + "\u2026" if isinstance(run_id, str) and len(run_id) > 200 else run_id


def main(out):
    accepted_results = os.path.join(out, "accepted-results.sqlite")
    run = RunWriter(accepted_results, "accepted", "smoke", created_at=CREATED)
    count = 0
    for i, (name, result, words) in enumerate(result_cases()):
        query_id = "case-%05d" % i
        writer, detail = refusal(add(run, query_id, result), "query %r: " % query_id)
        count += writer is None
        print(json.dumps(dict(name=name, level="result", query_id=query_id, writer=writer, detail=detail,
                              raw=raw_text(query_id, result), words=words)))
    run.close()
    accepted_runs, runs = os.path.join(out, "accepted-runs.sqlite"), []
    for i, (name, args, result, words) in enumerate(run_cases()):
        args = dict(dict(run_id="run-%03d" % i, suite="smoke", created_at=CREATED), **args)
        result = result or {"hits_top_k": [{"chunk_id": "c1"}]}
        error = try_run(accepted_runs, args, result)
        prefix = ("run %r: " % (shown(args["run_id"]),)) if error is not None and "query 'q1'" not in str(error) \
            else "query 'q1': "
        writer, detail = refusal(error, prefix)
        if writer is None:
            runs.append(str(args["run_id"]))
        db = os.path.join(out, "raw-%03d.sqlite" % i)
        written = write_raw(db, args, result)
        print(json.dumps(dict(name=name, level="db", writer=writer, detail=detail, db=db if written else None,
                              words=words)))
    print(json.dumps(dict(accepted_results=accepted_results, accepted_runs=accepted_runs, results=count, runs=runs)))


if __name__ == "__main__":
    main(sys.argv[1])
