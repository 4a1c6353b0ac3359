"""The reference against the worked examples of docs/cli.md and include/strmatch/approx.hpp
(values written from the docs, not produced by the reference). Run: python3 fuzz/cli/test_reference.py"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference as ref  # noqa: E402


def case(cmd, patterns, text, is_set=False, **opts):
    return {"cmd": cmd, "opts": opts, "fs": {b"t": text}, "files": [b"t"], "stdin": None, "stdin_kind": None,
            "patterns": patterns, "is_set": is_set, "pat_e": [], "pat_f": [], "pat_arg": None, "f_crlf": []}


class Search(unittest.TestCase):
    def test_overlapping(self):
        self.assertEqual(ref.occurrences(b"aaaa", [b"aa"], False), [(0, 0), (1, 0), (2, 0)])

    def test_set_ushers(self):
        # docs/cli.md: -o -b --with-pattern-id -f p.txt (he, she, hers) on "ushers\n"
        c = case("search", [b"he", b"she", b"hers"], b"ushers\n", True, o=True, b=True, with_pattern_id=True)
        self.assertEqual(ref.search(c).stdout, b"1:1:she\n2:0:he\n2:2:hers\n")
        c = case("search", [b"he", b"she", b"hers"], b"ushers\n", True, count_per_pattern=True)
        self.assertEqual(ref.search(c).stdout, b"1:he\n1:she\n1:hers\n")

    def test_binary_and_elision(self):
        c = case("search", [b"a"], b"a\0a\n")
        e = ref.search(c)
        self.assertEqual((e.stdout, e.stderr, e.status), (b"", [b"strmatch: t: binary file matches"], 0))
        # docs/cli.md, "Binary files": printf 'abc\0abc\0xyz\nabc' > f; -c abc: 3; -v abc: the message
        text = b"abc\0abc\0xyz\nabc"
        self.assertEqual(ref.search(case("search", [b"abc"], text, c=True)).stdout, b"3\n")
        e = ref.search(case("search", [b"abc"], text, v=True))
        self.assertEqual((e.stdout, e.stderr, e.status), (b"", [b"strmatch: t: binary file matches"], 0))
        self.assertEqual(ref.search(case("search", [b"abc"], text, c=True, I=True)).stdout, b"0\n")
        self.assertEqual(ref.search(case("search", [b"abc"], text, c=True, a=True)).stdout, b"2\n")
        c = case("search", [b"a"], b"a" * 5000, max_line_bytes=4096)
        self.assertEqual(ref.search(c).stdout, b"[long line elided: 5000 bytes, 5000 occurrences]\n")

    def test_inverted_context_elision(self):
        # docs/cli.md: with -v an elided context line gives its own occurrences, except the trailing
        # context after the -m-th selected line (the search stopped there)
        long = b"ab" + b"c" * 5000 + b"ab"
        text = b"x\n" + long + b"\ny\n" + long + b"\n"
        e = b"[long line elided: 5004 bytes, 2 occurrences]\n"
        c = case("search", [b"ab"], text, v=True, A=1, ctx_flag="A")
        self.assertEqual(ref.search(c).stdout, b"x\n" + e + b"y\n" + e)
        c = case("search", [b"ab"], text, v=True, B=1, ctx_flag="B")
        self.assertEqual(ref.search(c).stdout, b"x\n" + e + b"y\n")
        c = case("search", [b"ab"], text, v=True, m=2, A=1, ctx_flag="A")
        self.assertEqual(ref.search(c).stdout, b"x\n" + e + b"y\n[long line elided: 5004 bytes, 0 occurrences]\n")

    def test_m_counts_occurrences(self):
        c = case("search", [b"a"], b"aa\naa\naa\n", c=True, m=3)
        self.assertEqual(ref.search(c).stdout, b"2\n")


class Approx(unittest.TestCase):
    def test_paper_example(self):
        d, _ = ref.line_d(b"ababa", b"aaabbbaa", "edit")
        self.assertEqual(d, [5, 4, 3, 2, 2, 2, 2, 1, 2])
        c = case("approx", [b"ababa"], b"aaabbbaa", k=1, o=True, b=True, cigar=True)
        self.assertEqual(ref.approx(c).stdout, b"2:1:2=1X2=:abbba\n")
        c = case("approx", [b"ababa"], b"aaabbbaa", k=2, o=True, b=True)
        self.assertEqual(ref.approx(c).stdout, b"2:1:abbba\n")
        c = case("approx", [b"ababa"], b"aaabbbaa", k=2, ends=True, o=True)
        self.assertEqual(ref.approx(c).stdout, b"3:2\n4:2\n5:2\n6:2\n7:1\n8:2\n")

    def test_plateau(self):
        c = case("approx", [b"aa"], b"aaaa", o=True, b=True)
        self.assertEqual(ref.approx(c).stdout, b"2:0:aa\n")
        c = case("approx", [b"aa"], b"aaaa", ends=True, o=True)
        self.assertEqual(ref.approx(c).stdout, b"2:0\n3:0\n4:0\n")

    def test_traceback_diagonal_first(self):
        c = case("approx", [b"aba"], b"xx abxba yy", k=1, o=True)
        self.assertEqual(ref.approx(c).stdout, b"1:abx\n1:xba\n")


if __name__ == "__main__":
    unittest.main()
