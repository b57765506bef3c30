"""Tests of the run database writer: python3 -m unittest discover -s clients/python/tests (from the repository)."""

import json
import os
import sqlite3
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import evalverdict_writer  # noqa: E402
from evalverdict_writer import RunFormatError, RunWriter  # noqa: E402

SCHEMA = os.path.join(HERE, "..", "..", "..", "schemas", "result.schema.json")


class WriterTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.dir.name, "run.sqlite")

    def tearDown(self):
        self.dir.cleanup()

    def rows(self, sql, *args):
        db = sqlite3.connect(self.path)
        try:
            return db.execute(sql, args).fetchall()
        finally:
            db.close()

    def test_writes_the_documented_tables_and_numbers_ranks(self):
        with RunWriter(self.path, "r1", "smoke", config={"embedding_model": "bge"}, commit_hash="abc",
                       created_at="2026-11-22T10:00:00Z") as run:
            run.add_result("q1", query="what?", hits=[{"chunk_id": "c1"}, {"doc_id": "d2", "score": 1.5}],
                           answer="x [1]", elapsed_ms=12, timings_ms={"retrieval": 3})
        self.assertEqual(self.rows("SELECT run_id, suite, config_snapshot_json, aggregate_json, commit_hash, created_at"
                                   " FROM eval_runs"),
                         [("r1", "smoke", '{"embedding_model": "bge"}', "{}", "abc", "2026-11-22T10:00:00Z")])
        (query_id, text), = self.rows("SELECT query_id, result_json FROM eval_query_results")
        result = json.loads(text)
        self.assertEqual(query_id, "q1")
        self.assertEqual([h["rank"] for h in result["hits_top_k"]], [1, 2])
        self.assertEqual(result["answer"], {"answer": "x [1]"})
        self.assertEqual(result["timings_ms"], {"retrieval": 3})
        self.assertNotIn("hits", result)

    def test_a_second_run_joins_the_first(self):
        for run_id in ("base", "cand"):
            with RunWriter(self.path, run_id, "smoke") as run:
                run.add_result("q1", hits=[{"chunk_id": "c1"}])
        self.assertEqual(self.rows("SELECT run_id FROM eval_runs ORDER BY run_id"), [("base",), ("cand",)])
        with self.assertRaisesRegex(RunFormatError, "already holds a run 'base'"):
            RunWriter(self.path, "base", "smoke")

    def test_misspelt_keys_are_refused_with_the_nearest_known_one(self):
        cases = [
            (dict(hits=[{"chunk_idd": "c1"}]), "unknown key 'chunk_idd'; did you mean 'chunk_id'?"),
            (dict(hits=[{"chunk_id": "c1"}], elapsed=3), "unknown key 'elapsed'; did you mean 'elapsed_ms'?"),
            (dict(hits=[{"chunk_id": "c1"}], answer={"text": "x", "grounded": True}), "answer: unknown key 'text'"),
            (dict(hits=[{"chunk_id": "c1"}], answer={"answer": "x", "citations": [{"chunkid": "c1"}]}),
             "did you mean 'chunk_id'"),
            (dict(hits=[{"score": 1.0}]), "hit 0 has no chunk_id, doc_id or doc_path"),
            (dict(hits=[{"chunk_id": "a", "rank": 1}, {"chunk_id": "b", "rank": 3}]), r"ranks \[1, 3\] are not 1..2"),
        ]
        for i, (fields, message) in enumerate(cases):
            with self.subTest(message=message):
                with RunWriter(self.path, "r%d" % i, "smoke") as run:
                    with self.assertRaisesRegex(RunFormatError, message):
                        run.add_result("q1", **fields)
                    run.add_result("q2", hits=[{"chunk_id": "c"}])

    def test_an_empty_or_failed_run_writes_nothing(self):
        with self.assertRaisesRegex(RunFormatError, "no results"):
            with RunWriter(self.path, "empty", "smoke"):
                pass
        with self.assertRaises(KeyError):
            with RunWriter(self.path, "failed", "smoke") as run:
                run.add_result("q1", hits=[{"chunk_id": "c"}])
                raise KeyError("the runner failed")
        self.assertEqual(self.rows("SELECT count(*) FROM eval_runs"), [(0,)])
        self.assertEqual(self.rows("SELECT count(*) FROM eval_query_results"), [(0,)])

    def test_a_query_written_twice_is_refused(self):
        with RunWriter(self.path, "r1", "smoke") as run:
            run.add_result("q1", hits=[{"chunk_id": "c"}])
            with self.assertRaisesRegex(RunFormatError, "written twice"):
                run.add_result("q1", hits=[{"chunk_id": "c"}])

    def test_values_the_reader_refuses_are_refused_in_its_words(self):
        """Each would make EvalVerdict refuse the whole database (src/load/queryResult.ts, src/load/json.ts)."""
        nested = [1]
        for _ in range(98):  # with the root, `judge` and the list itself: 101 levels
            nested = [nested]
        cases = [
            (dict(elapsed_ms=float("nan")), "`elapsed_ms` must be a finite number, got number NaN"),
            (dict(hits=[{"chunk_id": "c", "score": float("inf")}]),
             r"`hits_top_k\[0\].score` must be a finite number, got number Infinity"),
            (dict(hits=[{"chunk_id": "c", "rank": True}]), r"`hits_top_k\[0\].rank` must be an integer, got boolean true"),
            (dict(hits=[{"chunk_id": "c", "rank": 0}]), r"`hits_top_k\[0\].rank` must be >= 1, got 0"),
            (dict(hits=[{"chunk_id": "a", "rank": 1}, {"chunk_id": "b", "rank": 1.0}]),
             r"`hits_top_k\[1\].rank` repeats rank 1 within the query"),
            (dict(hits=[{"chunk_id": ["c"]}]), r"`hits_top_k\[0\].chunk_id` must be a string, got a list"),
            (dict(cost_usd=-1), "`cost_usd` must be a number >= 0, got -1"),
            (dict(timings_ms={"retrieval": -0.5}), "`timings_ms.retrieval` must be a number >= 0, got -0.5"),
            (dict(timings_ms=[3]), "`timings_ms` must be an object of stage: milliseconds, got a list"),
            (dict(judge={"groundedness": 7}), "`judge.groundedness` must be a score from 0 to 5, got 7"),
            (dict(status="done"), '`status` must be "ok", "error" or "timeout", got "done"'),
            (dict(scope={"folder_mode": "sometimes"}), "`scope.folder_mode` must be \"off\", \"on\""),
            (dict(answer=["x"]), "`answer` must be an object or null, got a list"),
            (dict(answer={"answer": "x", "grounded": "yes"}), '`answer.grounded` must be true or false, got "yes"'),
            (dict(answer={"answer": "x", "usage": {"latency_ms": 10 ** 400}}),
             "`answer.usage.latency_ms` must be a finite number, got number Infinity"),
            (dict(judge={"unsupported_claims": [float("nan")]}),
             r"column `result_json`: `judge.unsupported_claims\[0\]` is NaN, which JSON cannot hold"),
            (dict(judge={"unsupported_claims": nested}), "column `result_json`: JSON nested more than 100 levels deep"),
        ]
        with RunWriter(self.path, "r1", "smoke") as run:
            for i, (fields, message) in enumerate(cases):
                with self.subTest(message=message):
                    fields.setdefault("hits", [{"chunk_id": "c"}])
                    with self.assertRaisesRegex(RunFormatError, "^query 'q%d': %s" % (i, message)):
                        run.add_result("q%d" % i, **fields)
            run.add_result("ok", hits=[{"chunk_id": "c", "rank": 1.0}], judge={"unsupported_claims": nested[0]})
        self.assertEqual(self.rows("SELECT query_id FROM eval_query_results"), [("ok",)])

    def test_a_run_the_reader_refuses_is_not_written(self):
        """The run's own row (src/load/runDatabase.ts): refused before the file is touched."""
        cases = [
            (dict(run_id=b"r1"), r"run_id is a BLOB \(x'7231'\), not text that result rows can name"),
            (dict(run_id=None), r"run_id is NULL \(x''\), not text that result rows can name"),
            (dict(run_id="\U0001F600" * 600),
             "column `run_id` holds 2400 bytes, more than the 1024 EvalVerdict reads in an id, suite, commit or time"),
            (dict(commit_hash="c" * 1025), "column `commit_hash` holds 1025 bytes"),
            (dict(suite=None), "suite must be text"),
            (dict(created_at="yesterday"),
             r'created_at "yesterday" is not an RFC 3339 time \(such as 2026-11-22T10:00:00Z; without a zone, UTC\)'),
            (dict(created_at="2026-02-30"), 'created_at "2026-02-30" is not an RFC 3339 time'),
            (dict(created_at="2026-11-22T10:00:00Z\n"), "is not an RFC 3339 time"),
            (dict(config={"x": float("nan")}), "column `config_snapshot_json`: `x` is NaN, which JSON cannot hold"),
            (dict(config=["bge"]), "column `config_snapshot_json`: must be a JSON object"),
            (dict(config={"index_stats": {"chunks_skipped": -1}}),
             r"`index_stats`: `chunks_skipped` must be a count \(a whole number >= 0\), got number -1"),
            (dict(config={"index_stats": {"chunks_skipped": 5, "chunks_attempted": 3}}),
             r"`chunks_skipped` \(5\) is more than `chunks_attempted` \(3\)"),
        ]
        for args, message in cases:
            with self.subTest(message=message):
                args = dict(dict(run_id="r1", suite="smoke"), **args)
                with self.assertRaisesRegex(RunFormatError, message):
                    RunWriter(self.path, **args)
                self.assertFalse(os.path.exists(self.path))

    def test_the_times_and_ids_the_reader_reads_are_written(self):
        times = ["2026-11-22T10:00:00Z", "2026-11-22 10:00:00", "2026-11-22T10:00:00+0100", "2026-11-22",
                 "2026-11-22T10:00Z", "2026-11-22T10:00:00.5-05:30", "2024-02-29T23:59:60Z"]
        ids = ["x" * 1024, "\U0001F600" * 256, 42]
        for i, (created_at, run_id) in enumerate([(t, "t%d" % i) for i, t in enumerate(times)] +
                                                 [("2026-11-22", r) for r in ids]):
            with RunWriter(self.path, run_id, "smoke", created_at=created_at, commit_hash="c" * 1024) as run:
                run.add_result("q", hits=[{"chunk_id": "c", "rank": 1.0, "score": 10 ** 20}], cost_usd=-0.0)
        self.assertEqual(self.rows("SELECT count(*) FROM eval_runs"), [(len(times) + len(ids),)])

    def test_a_value_past_the_readers_bounds_is_refused(self):
        """The reader's bounds on one value (64 MiB; in a long text, lists, keys and values), made small here."""
        saved = (evalverdict_writer.MAX_VALUE_BYTES, evalverdict_writer.JSON_SCAN_FROM_CHARS,
                 evalverdict_writer.JSON_VALUE_BOUNDS)
        evalverdict_writer.MAX_VALUE_BYTES = 1 << 20
        evalverdict_writer.JSON_SCAN_FROM_CHARS = 1000
        evalverdict_writer.JSON_VALUE_BOUNDS = {"containers": 20, "keys": 30, "commas": 40}
        cases = [
            (dict(query="q" * (2 << 20)), "column `result_json` holds 2 MiB, more than the 1 MiB EvalVerdict reads in one "
                                          "value"),
            (dict(judge={"unsupported_claims": [[]] * 20}),
             "column `result_json`: JSON holds more than 20 lists and objects, the most EvalVerdict reads in one value"),
            (dict(judge={"unsupported_claims": [{"k%d" % i: 0 for i in range(24)}]}),
             "JSON holds more than 30 object keys"),
            (dict(judge={"unsupported_claims": [0] * 40}), "JSON holds more than 40 values"),
        ]
        try:
            with RunWriter(self.path, "r1", "smoke") as run:
                for i, (fields, message) in enumerate(cases):
                    with self.subTest(message=message):
                        with self.assertRaisesRegex(RunFormatError, message):
                            fields.setdefault("query", "q" * 1000)  # a long text: the reader counts
                            run.add_result("q%d" % i, hits=[{"chunk_id": "c"}], **fields)
                # Under JSON_SCAN_FROM_CHARS the reader counts nothing.
                run.add_result("short", hits=[{"chunk_id": "c"}], judge={"unsupported_claims": [[]] * 21})
                run.add_result("ok", query="q" * 1000, hits=[{"chunk_id": "c"}], judge={"unsupported_claims": [[]] * 5})
        finally:
            (evalverdict_writer.MAX_VALUE_BYTES, evalverdict_writer.JSON_SCAN_FROM_CHARS,
             evalverdict_writer.JSON_VALUE_BOUNDS) = saved

    @unittest.skipUnless(os.path.exists(SCHEMA), "the repository's schemas/ is not beside this copy")
    def test_key_lists_are_the_published_schemas(self):
        with open(SCHEMA) as f:
            schema = json.load(f)
        defs = schema["$defs"]
        self.assertEqual(set(evalverdict_writer.RESULT_KEYS), set(schema["properties"]))
        self.assertEqual(set(evalverdict_writer.HIT_KEYS), set(defs["hit"]["properties"]))
        self.assertEqual(set(evalverdict_writer.ANSWER_KEYS), set(defs["answer"]["properties"]))
        self.assertEqual(set(evalverdict_writer.ANSWER_CITATION_KEYS), set(defs["answerCitation"]["properties"]))


if __name__ == "__main__":
    unittest.main()
