"""Tests of the run database writer: python3 -m unittest discover -s clients/python/tests (from the repository)."""

import json
import os
import sqlite3
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import evalgate_writer  # noqa: E402
from evalgate_writer import RunFormatError, RunWriter  # noqa: E402

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

    @unittest.skipUnless(os.path.exists(SCHEMA), "the repository's schemas/ is not beside this copy")
    def test_key_lists_are_the_published_schemas(self):
        with open(SCHEMA) as f:
            schema = json.load(f)
        defs = schema["$defs"]
        self.assertEqual(set(evalgate_writer.RESULT_KEYS), set(schema["properties"]))
        self.assertEqual(set(evalgate_writer.HIT_KEYS), set(defs["hit"]["properties"]))
        self.assertEqual(set(evalgate_writer.ANSWER_KEYS), set(defs["answer"]["properties"]))
        self.assertEqual(set(evalgate_writer.ANSWER_CITATION_KEYS), set(defs["answerCitation"]["properties"]))


if __name__ == "__main__":
    unittest.main()
