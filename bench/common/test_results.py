#!/usr/bin/env python3
"""Tests of bench/common/results.py against results.cpp's rules: CSV quoting, the markdown table and
its escaping, save_tables, machine_name (STRMATCH_MACHINE, and nvidia-smi faked on PATH).

    /usr/bin/python3 bench/common/test_results.py      (CI: after bench/papers/test_report.py)
"""
import os
import sys
import tempfile
import unittest
from unittest import mock

sys.dont_write_bytecode = True  # no __pycache__ in the tree beside results.py
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results  # noqa: E402
from results import Column, ResultTable  # noqa: E402


def table():
    t = ResultTable([Column("name"), Column("n,um", True), Column('q"uote'), Column("x", True)])
    t.add(["a", 1.5, 'say "hi"', None])
    t.add(["cr\rlf\n", "a|b", "é", " sp "])
    t.add(['"', ",", 7, True])
    return t


class Csv(unittest.TestCase):
    def test_field(self):
        self.assertEqual(results.csv_field("plain text"), "plain text")
        self.assertEqual(results.csv_field(""), "")
        self.assertEqual(results.csv_field("a,b"), '"a,b"')
        self.assertEqual(results.csv_field('say "hi"'), '"say ""hi"""')
        self.assertEqual(results.csv_field("a\rb"), '"a\rb"')
        self.assertEqual(results.csv_field("a\nb"), '"a\nb"')
        self.assertEqual(results.csv_field("a|b; 'c'"), "a|b; 'c'")

    def test_table(self):
        self.assertEqual(table().csv(),
                         'name,"n,um","q""uote",x\n'
                         'a,1.5,"say ""hi""",\n'
                         '"cr\rlf\n",a|b,é, sp \n'
                         '"""",",",7,True\n')

    def test_dict_table(self):
        rows = [{"a": 1, "b": "x,y"}, {"a": 2.5}]
        self.assertEqual(results.dict_table(rows).csv(), 'a,b\n1,"x,y"\n2.5,\n')
        self.assertEqual(results.dict_table(rows[1:], ["a"]).csv(), "a\n2.5\n")
        with self.assertRaises(ValueError):
            results.dict_table(rows, ["a"])

    def test_row_width(self):
        with self.assertRaises(ValueError):
            ResultTable(["a", "b"]).add(["1"])


class Markdown(unittest.TestCase):
    def test_cell(self):
        self.assertEqual(results.markdown_cell("cat|wc"), "cat\\|wc")
        self.assertEqual(results.markdown_cell("||"), "\\|\\|")
        self.assertEqual(results.markdown_cell("a `b` *c*"), "a `b` *c*")

    def test_table(self):
        t = ResultTable([Column("tool"), Column("threads", True), Column("a|b"), Column("s", True)])
        t.add([results.markdown_cell("cat|wc"), 1, "", "0.5"])
        t.add(["rg", "all", "x", ""])
        expected = ("| tool | threads | a|b | s |\n"
                    "|---|---:|---|---:|\n"
                    "| cat\\|wc | 1 |  | 0.5 |\n"
                    "| rg | all | x |  |\n")
        self.assertEqual(t.markdown(), expected)
        self.assertEqual(t.markdown(blank_after=True), expected + "\n")

    def test_no_rows(self):
        self.assertEqual(ResultTable(["a"]).markdown(), "| a |\n|---|\n")


class Save(unittest.TestCase):
    def test_save_tables(self):
        with tempfile.TemporaryDirectory() as d:
            prefix = os.path.join(d, "exp_dev-2core")
            md = ResultTable([Column("name"), Column("n", True)])
            md.add(["a", "1"])
            self.assertTrue(results.save_tables(prefix, table(), md))
            with open(prefix + ".csv", "rb") as f:
                self.assertEqual(f.read(), table().csv().encode())
            with open(prefix + ".md", "rb") as f:
                self.assertEqual(f.read(), b"| name | n |\n|---|---:|\n| a | 1 |\n")
            self.assertFalse(results.save_tables(os.path.join(d, "missing", "x"), table(), md))


class Machine(unittest.TestCase):
    def fake_smi(self, d, lines):
        path = os.path.join(d, "nvidia-smi")
        with open(path, "w") as f:
            f.write("#!/bin/sh\nprintf '%s'\n" % "".join(line + "\\n" for line in lines))
        os.chmod(path, 0o755)

    def test_override(self):
        with mock.patch.dict(os.environ, {"STRMATCH_MACHINE": "dev-2core"}):
            self.assertEqual(results.machine_name(), "dev-2core")

    def test_nvidia_smi(self):
        cores = "%dcore" % max(1, os.cpu_count() or 1)
        with tempfile.TemporaryDirectory() as d:
            env = {"STRMATCH_MACHINE": "", "PATH": d}
            with mock.patch.dict(os.environ, env):
                self.assertEqual(results.machine_name(), "cpu-" + cores)
                for lines, model in ((["NVIDIA H200"], "h200"), (["NVIDIA H200", "NVIDIA H200"], "2xh200"),
                                     (["NVIDIA A100-SXM4-80GB"], "a100"), (["NVIDIA H100 80GB HBM3"], "h100"),
                                     (["Tesla V100-SXM2-16GB"], "v100"), (["GeForce RTX 4090"], "gpu")):
                    self.fake_smi(d, lines)
                    self.assertEqual(results.machine_name(), model + "-" + cores)

    def test_gpu_model(self):
        self.assertEqual(results.gpu_model("NVIDIA H200"), "h200")
        self.assertEqual(results.gpu_model(""), "gpu")


if __name__ == "__main__":
    unittest.main()
