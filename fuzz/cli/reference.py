"""Independent reference of the `strmatch` CLI for the differential fuzzer (cli_fuzz.py).

Pure Python, standard library only, and no strmatch code: every rule below is written from
docs/cli.md and the contract in include/strmatch/approx.hpp, in the most naive form that states
it (every offset tried, the whole DP matrix kept), so that a disagreement means a defect on one
side, decided by reading the docs.

A case is a dict (see cli_fuzz.py, `Case`); `search(case)` and `approx(case)` return an
`Expected`: stdout bytes (or a list of JSON objects with wildcards), the exit status, and the
stderr lines the docs specify (a list of exact byte lines; every other stderr must be empty).
"""

from __future__ import annotations

import base64
import bisect
import json
import os
from dataclasses import dataclass, field

STDIN_NAME = b"(standard input)"
MISSING = object()  # a path that does not exist
DIR = None  # the value of a directory in case["fs"]
BINARY_HEAD = 96 * 1024  # a NUL in the first 96 KiB (grep 3.8's first read) makes an input binary
ANY = object()  # JSON wildcard: any value of the key is accepted (seconds, ...)


class AnyOf:
    """JSON wildcard: one of these values."""

    def __init__(self, *values):
        self.values = values

    def __repr__(self):
        return "AnyOf%r" % (self.values,)


@dataclass
class Expected:
    stdout: bytes = b""
    status: int = 1
    stderr: list = field(default_factory=list)  # exact lines (bytes, without '\n'), in order
    json: list | None = None  # with --json: one list of (key, value) pairs per stdout line
    # a usage error (status 2, nothing on stdout): stderr is one line starting with "strmatch: " that
    # names one of these options (the docs fix the prefix and that the option is named, not the words)
    usage_error: list | None = None
    # --color=always where the reference does not place the colours: stdout is compared with grep's
    # SGR sequences removed from both sides (what is printed, but not where the colours go)
    strip_sgr: bool = False


_UPPER = bytes(range(65, 91))
_LOWER = bytes(range(97, 123))
_FOLD = bytes.maketrans(_UPPER, _LOWER)


def fold(b: bytes) -> bytes:
    """ASCII case folding: A-Z become a-z, every other byte is kept."""
    return b.translate(_FOLD)


def plural(n: int, word: str) -> bytes:
    if n != 1:
        word = word + ("es" if word.endswith(("ch", "sh", "s", "x")) else "s")
    return ("%d %s" % (n, word)).encode()


def is_word_byte(c: int) -> bool:
    return c == 95 or 48 <= c <= 57 or 65 <= c <= 90 or 97 <= c <= 122


# ----------------------------------------------------------------------------------------------
# Inputs: the operands expanded into (name, bytes) or an error line, as docs/cli.md "Inputs" says.


def fnmatch_c(name: bytes, glob: bytes) -> bool:
    """fnmatch(3) without flags on bytes: *, ?, [...] (with ! and ^ negation and ranges), \\ escapes."""
    import fnmatch as _f
    import re

    # Python's fnmatch.translate handles *, ? and [] (with ! negation); ^ as negation and \ escapes
    # are added here. Patterns the generator produces use only *, ? and plain bytes.
    s = glob.decode("latin-1")
    rx = _f.translate(s)
    return re.match(rx, name.decode("latin-1"), re.S) is not None


def expand_inputs(case) -> list:
    """Inputs in search order: ('file', name, data) | ('error', line) | ('stdin', name, data)."""
    fs = case["fs"]
    opts = case["opts"]
    out = []
    operands = case["files"]
    if not operands:
        operands = [b"-"]
    for op in operands:
        if op == b"-":
            out.append(("file", STDIN_NAME, case["stdin"] or b""))
            continue
        node = fs.get(op, MISSING)
        if node is MISSING:
            out.append(("error", b"strmatch: " + op + b": No such file or directory"))
        elif isinstance(node, bytes):
            if glob_ok(op, opts, True):  # grep filters command-line files by --include/--exclude too
                out.append(("file", op, node))
        elif opts.get("r"):
            out.extend(walk(fs, op, opts))
        else:
            out.append(("error", b"strmatch: " + op + b": Is a directory"))
    return out


def glob_ok(name: bytes, opts, command_line=False) -> bool:
    """--include / --exclude (GNU grep): the last one that matches decides; when none matches the
    file is searched unless the first of them is --include. A file in the walk is matched by its
    base name, a command-line file by any suffix of its name that starts after a '/'."""
    globs = opts.get("globs", [])  # [("include" | "exclude", glob)] in command-line order
    if not globs:
        return True
    if command_line:
        parts = name.split(b"/")
        cands = [b"/".join(parts[i:]) for i in range(len(parts))]
    else:
        cands = [name.rsplit(b"/", 1)[-1]]
    verdict = None
    for kind, g in globs:
        if any(fnmatch_c(c, g) for c in cands):
            verdict = kind == "include"
    if verdict is None:
        verdict = globs[0][0] != "include"
    return verdict


def walk(fs, root: bytes, opts) -> list:
    out = []
    prefix = root + b"/"
    children = sorted({p[len(prefix):].split(b"/", 1)[0] for p in fs if p.startswith(prefix)})
    for c in children:
        path = prefix + c
        node = fs[path]
        if isinstance(node, bytes):
            if glob_ok(path, opts):
                out.append(("file", path, node))
        else:
            if any(fnmatch_c(c, g) for g in opts.get("exclude_dir", [])):
                continue
            out.extend(walk(fs, path, opts))
    return out


def show_names(case) -> bool:
    opts = case["opts"]
    hflag = opts.get("H_h")  # "H", "h" or None (the last one given)
    if hflag == "H":
        return True
    if hflag == "h":
        return False
    files = case["files"]
    if len(files) > 1:
        return True
    if opts.get("r") and files and not isinstance(case["fs"].get(files[0], b""), bytes):
        return True
    return False


# ----------------------------------------------------------------------------------------------
# Exact search and pattern sets.


def occurrences(text: bytes, patterns: list, icase: bool) -> list:
    """Every (offset, pattern id), overlapping ones included, ordered by (offset, id)."""
    t = fold(text) if icase else text
    occ = []
    for pid, p in enumerate(patterns):
        q = fold(p) if icase else p
        i = t.find(q)
        while i >= 0:
            occ.append((i, pid))
            i = t.find(q, i + 1)
    occ.sort()
    return occ


class Lines:
    """Records of a text split at `sep` (a record excludes its separator)."""

    def __init__(self, text: bytes, sep: int = 10):
        self.text = text
        self.sep = sep
        starts = [0]
        i = text.find(bytes([sep]))
        while i >= 0:
            starts.append(i + 1)
            i = text.find(bytes([sep]), i + 1)
        if starts[-1] == len(text):
            starts.pop()  # a final separator does not start an empty line
        self.starts = starts

    def __len__(self):
        return len(self.starts)

    def index(self, offset: int) -> int:
        """0-based index of the record holding byte `offset`."""
        return bisect.bisect_right(self.starts, offset) - 1

    def bounds(self, idx: int):
        s = self.starts[idx]
        e = self.text.find(bytes([self.sep]), s)
        if e < 0:
            e = len(self.text)
        return s, e


def json_name(name: bytes):
    """docs/cli.md "Strings and bytes": a JSON string where the bytes are UTF-8, else {"bytes": base64}
    (an object parsed with object_pairs_hook=list: a list of pairs)."""
    try:
        return name.decode("utf-8")
    except UnicodeDecodeError:
        return [("bytes", base64.b64encode(name).decode("ascii"))]


def word_ok(text: bytes, lines: Lines, off: int, m: int) -> bool:
    """-w for a literal (GNU grep): the occurrence is preceded and followed by a non-word byte or
    the line's edge."""
    if off > 0 and is_word_byte(text[off - 1]):
        return False
    e = off + m
    if e < len(text) and is_word_byte(text[e]):
        return False
    return True


def is_set(case) -> bool:
    """A pattern-set search: -e/-f, or one PATTERN with -i, --count-per-pattern, --with-pattern-id."""
    o = case["opts"]
    return case["pat_arg"] is None or bool(o.get("i") or o.get("count_per_pattern") or o.get("with_pattern_id"))


def search(case) -> Expected:
    opts = case["opts"]
    patterns = case["patterns"]
    case = dict(case, is_set=is_set(case))
    icase = bool(opts.get("i"))
    sep = 0 if opts.get("z") else 10
    names = show_names(case)
    limit = opts.get("m")
    mode = output_mode(opts)
    exp = Expected()
    for flag in ("total", "nonzero"):
        if opts.get(flag) and not any(opts.get(k) for k in ("c", "count_matches", "count_per_pattern")):
            # "without one of the three count forms either is a usage error, status 2"
            return Expected(b"", 2, [], None, ["--" + flag])
    if limit == 0 and mode != "L" and "m0-prints" not in case.get("known", ()):
        # "-m 0 prints nothing and searches nothing (status 1), except that -L -m 0 lists every file"
        # (docs/cli.md): no input is opened, so a missing one is no error (grep -m 0 neither), and
        # -v selects no line
        exp.json = [] if mode == "json" else None
        if mode == "l" and "l-m0-opens" in case.get("known", ()):
            # the known defect: -l -m 0 opens the inputs (a missing one or a directory is status 2)
            errors = [item[1] for item in expand_inputs(case) if item[0] == "error"]
            exp.stderr = [] if opts.get("s") else errors
            exp.status = 2 if errors else 1
        return exp
    found = False
    error = False
    stdout = []
    json_objs = []
    # --total / --nonzero (docs/cli.md, "Counts per pattern that scale"): the count forms' totals over
    # all inputs (printed after the last, without names), without the counts of 0
    count_form = mode in ("c", "count_matches", "count_per_pattern")
    total = count_form and opts.get("total")
    nonzero = count_form and opts.get("nonzero")
    totals = [0] * (len(patterns) if mode == "count_per_pattern" else 1)
    for item in expand_inputs(case):
        if item[0] == "error":
            if not opts.get("s"):
                exp.stderr.append(item[1])
            error = True
            continue
        _, name, text = item
        prefix = name + (b"\0" if opts.get("Z") else b":") if names else b""
        binary = binary_kind(opts, text)
        skipped = binary and opts_binary_files(opts) == "without-match"
        if skipped:
            # "-I: a binary file never matches": what an input without a result prints
            text = b""
        elif binary and binary_lines(case, mode):
            # "NUL ends lines in a binary file, as newline does" (grep's zapping: NUL read as newline)
            text = text.replace(b"\0", b"\n")
        else:
            binary = False
        occ = occurrences(text, patterns, icase)
        lines = Lines(text, sep)
        raw_per_line = {}
        for o, _ in occ:
            raw_per_line[lines.index(o)] = raw_per_line.get(lines.index(o), 0) + 1
        case["_raw_per_line"] = raw_per_line  # for the known defect w-x-elided-count
        if opts.get("x"):
            occ = [(o, p) for (o, p) in occ
                   if lines.bounds(lines.index(o)) == (o, o + len(patterns[p]))]
        elif opts.get("w"):
            occ = [(o, p) for (o, p) in occ if word_ok(text, lines, o, len(patterns[p]))]
        if opts.get("v"):
            res = search_inverted(case, name, text, occ, lines, prefix,
                                  "q" if binary and binary_quiet(opts, mode) else mode)
            n_res, out = res
        else:
            case["_hex"] = binary and opts_binary_files(opts) == "with-hex"  # (case: this run's copy)
            n_res, out, objs = search_one(case, name, text, occ, lines, prefix, mode)
            if limit == 0 and mode != "L" and "m0-prints" not in case.get("known", ()):
                # "-m 0 prints nothing (status 1)"; -L still lists the file (nothing was found), as grep
                out, objs = b"", []
            if skipped and objs:
                objs[-1] = [(k, ANY if k in ("bytes", "input") else v) for k, v in objs[-1]]
            json_objs.extend(objs)
        # "instead of its lines, strmatch: NAME: binary file matches on stderr" (grep 3.8's message)
        n_res, out = binary_output(exp, case, name, mode, binary, n_res, out)
        if total or nonzero:
            counts = [n_res]  # occurrences (--count-matches), selected lines (-c -v)
            if mode == "c" and not opts.get("v"):  # lines holding one of the first -m occurrences
                counts = [len({lines.index(o) for o, _ in (occ if limit is None else occ[:limit])})]
            if mode == "count_per_pattern":
                counts = [0] * len(patterns)
                for _, p in (occ if limit is None else occ[:limit]):
                    counts[p] += 1
            totals = [a + b for a, b in zip(totals, counts)]
            out = b"" if total else count_rows(case, prefix, mode, counts, nonzero)
        stdout.append(out)
        if n_res:
            found = True
            if mode == "q":
                break
    if total:
        stdout.append(count_rows(case, b"", mode, totals, nonzero))
    exp.stdout = b"".join(stdout)
    if mode == "json":
        exp.json = json_objs
    if opts.get("color") == "always" and mode not in ("json", "q"):
        exp.stdout = None  # grep's SGR sequences: compared with GNU grep only
    if found and mode == "q":
        exp.status = 0
    elif error:
        exp.status = 2
    else:
        exp.status = 0 if found else 1
    return exp


def output_mode(opts) -> str:
    if opts.get("q"):
        return "q"
    if opts.get("L"):
        return "L"  # the fuzzer writes -l before -L: the last wins
    if opts.get("l"):
        return "l"
    if opts.get("count_matches"):
        return "count_matches"
    if opts.get("c"):
        return "c"
    if opts.get("count_per_pattern"):
        return "count_per_pattern"
    if opts.get("json"):
        return "json"
    if opts.get("o"):
        return "o"
    return "lines"


def count_rows(case, prefix: bytes, mode: str, counts: list, nonzero: bool) -> bytes:
    """-c/--count-matches ([FILE:]N) or --count-per-pattern ([FILE:]COUNT:[ID:]PATTERN per pattern) rows of
    `counts`; with nonzero, the rows of 0 left out."""
    if mode != "count_per_pattern":
        return b"" if nonzero and counts[0] == 0 else prefix + str(counts[0]).encode() + b"\n"
    out = []
    for pid, p in enumerate(case["patterns"]):
        if nonzero and counts[pid] == 0:
            continue
        ident = str(pid).encode() + b":" if case["opts"].get("with_pattern_id") else b""
        out.append(prefix + str(counts[pid]).encode() + b":" + ident + p + b"\n")
    return b"".join(out)


def binary_lines(case, mode: str) -> bool:
    """docs/cli.md "Binary files": the forms in which a binary input's lines end at NUL too."""
    o = case["opts"]
    if mode in ("lines", "o", "c"):
        return True
    if mode in ("q", "l", "L"):
        return bool(o.get("v") or o.get("w") or o.get("x")
                    or any(b"\0" in p or b"\n" in p for p in case["patterns"]))
    return False


def search_one(case, name, text, occ, lines: Lines, prefix: bytes, mode: str):
    """(results found in this input, stdout bytes, json objects) for one input."""
    opts = case["opts"]
    patterns = case["patterns"]
    limit = opts.get("m")
    total = len(occ)
    if limit is not None:
        occ = occ[:limit]
    eol = b"\0" if opts.get("z") else b"\n"
    out = []
    objs = []
    if mode == "count_matches":
        return len(occ), prefix + str(len(occ)).encode() + b"\n", objs
    if mode == "count_per_pattern":
        counts = [0] * len(patterns)
        for _, p in occ:
            counts[p] += 1
        for pid, p in enumerate(patterns):
            out.append(prefix + str(counts[pid]).encode() + b":")
            if opts.get("with_pattern_id"):
                out.append(str(pid).encode() + b":")
            out.append(p + b"\n")
        return len(occ), b"".join(out), objs
    if mode == "json":
        jname = json_name(name)
        for o, p in occ:
            obj = [("type", "match"), ("file", jname), ("offset", o)]
            if opts.get("n"):
                obj.append(("line", lines.index(o) + 1))
            if case["is_set"]:
                obj.append(("pattern_id", p))
                obj.append(("pattern", json_name(patterns[p])))
            obj.append(("lines", json_lines(opts, text, *lines.bounds(lines.index(o)))))
            objs.append(obj)
        stopped = AnyOf(True, False) if (limit is not None and len(occ) == limit and total == limit) \
            else (limit is not None and total > limit)
        objs.append([("type", "summary"), ("file", jname),
                     # "the bytes read when streamed": fewer when -m stopped the search
                     ("bytes", len(text) if limit is None or len(occ) < limit else ANY),
                     ("occurrences", len(occ)), ("input", input_kind(case, name)),
                     ("stopped_early", stopped), ("seconds", ANY)])
        return len(occ), b"", objs
    per_line = {}
    for o, _ in occ:
        li = lines.index(o)
        per_line[li] = per_line.get(li, 0) + 1
    only = []
    if mode == "o":
        for o, p in occ:
            f = []
            if opts.get("n"):
                f.append(str(lines.index(o) + 1).encode() + b":")
            if opts.get("b"):
                f.append(str(o).encode() + b":")
            if case["is_set"] and opts.get("with_pattern_id"):
                f.append(str(p).encode() + b":")
            f.append(shown(case, text[o:o + len(patterns[p])]) + eol)
            only.append((lines.index(o), b"".join(f)))
    elided = per_line
    if "w-x-elided-count" in case.get("known", ()) and (opts.get("w") or opts.get("x")):
        elided = {li: case["_raw_per_line"].get(li, 0) for li in per_line}
    _, body = select_lines(case, name, text, lines, prefix, mode, per_line, only, elided=elided)
    return len(occ), body, objs


def search_inverted(case, name, text, occ, lines: Lines, prefix: bytes, mode: str):
    """-v: the lines without any occurrence (grep -v -F); -m counts selected lines then (grep)."""
    opts = case["opts"]
    matched = {}
    for o, _ in occ:
        matched[lines.index(o)] = matched.get(lines.index(o), 0) + 1
    raw = case["_raw_per_line"] if "w-x-elided-count" in case.get("known", ()) and (opts.get("w") or opts.get("x")) \
        else {}
    return select_lines(case, name, text, lines, prefix, mode, matched, (), elided=raw)


def select_lines(case, name, text, lines: Lines, prefix: bytes, mode: str, matched: dict, only=(),
                 word="occurrence", elided=None):
    """grep's line selection and its printing, shared by `search` (occurrences) and `approx` (its
    matches): docs/cli.md "Selecting lines", "Context" and approx's "grep's line selection".
    For the forms q, l, L, c (and --count-matches with -v), o and lines (with -v, -A/-B/-C).

    matched: {line index: the matches of that line that count} for the lines holding one;
    only: -o's lines [(line index, bytes after the name prefix)] in print order (their form is the
    subcommand's); word: what an elided line counts; elided: the counts an elided line (without
    context) gives, default `matched` (with -v: 0). -v selects the lines not in `matched` (the first
    -m of them). Returns (selected lines, stdout bytes)."""
    opts = case["opts"]
    eol = b"\0" if opts.get("z") else b"\n"
    zname = b"\0" if opts.get("Z") else b"\n"
    mlb = opts.get("max_line_bytes", 4096)
    if opts.get("v"):
        sel = [li for li in range(len(lines)) if li not in matched]
        if opts.get("m") is not None:
            sel = sel[:opts["m"]]
        elided = {} if elided is None else elided
    else:
        sel = sorted(matched)
        elided = matched if elided is None else elided
    if mode == "q":
        return len(sel), b""
    if mode == "l":
        return len(sel), name + zname if sel else b""
    if mode == "L":
        return len(sel), b"" if sel else name + zname
    if mode == "c" or (mode == "count_matches" and opts.get("v")):
        return len(sel), prefix + str(len(sel)).encode() + b"\n"
    if opts.get("v"):
        if mode == "o":
            return len(sel), b""  # grep -o -v prints nothing (the selected lines hold no match)
        if "ctx_flag" in opts:
            # context lines hold occurrences with -v: an elided one gives its count (docs/cli.md)
            return len(sel), context_lines(case, text, lines, sel, matched, prefix, True, word)
        return len(sel), b"".join(_line_out(case, text, lines, li, prefix, b":", elided.get(li, 0), mlb, eol, word)
                                  for li in sel)
    out = []
    if mode == "o":
        seps = context_separators(case, lines, sel) if "ctx_flag" in opts else set()
        done_sep = set()
        for li, body in only:
            if li in seps and li not in done_sep:
                done_sep.add(li)
                out.append(opts.get("group_sep", b"--") + b"\n")
            out.append(prefix + body)
        return len(sel), b"".join(out)
    if "ctx_flag" in opts:
        return len(sel), context_lines(case, text, lines, sel, matched, prefix, False, word)
    for li in sel:
        out.append(_line_out(case, text, lines, li, prefix, b":", elided[li], mlb, eol, word))
    return len(sel), b"".join(out)


def context_lines(case, text, lines: Lines, selected, per_line, prefix: bytes, inverted: bool,
                  word="occurrence") -> bytes:
    state = case.setdefault("_ctx_state", {"printed": False})
    body = _context_lines(case, text, lines, selected, per_line, prefix, inverted, state["printed"], word)
    if body:
        state["printed"] = True
    return body


def _context_lines(case, text, lines, selected, per_line, prefix, inverted, printed_before, word) -> bytes:
    """-A/-B/-C as GNU grep: selected lines with ':' after the prefixes, context lines with '-',
    '--' between groups that are not adjacent."""
    opts = case["opts"]
    a = opts.get("A", 0)
    b = opts.get("B", 0)
    eol = b"\0" if opts.get("z") else b"\n"
    names_sep_sel = b":"
    names_sep_ctx = b"-"
    sel = set(selected)
    show = []
    last = -1
    out = []
    mlb = opts.get("max_line_bytes", 4096)
    printed_any = printed_before
    # grep: after the last selected line of a -m limited run, trailing context is still printed.
    # An elided after-context line counts its occurrences with -v (without -v it holds none), but
    # not after the -m-th selected line: the search stopped there, as for -m without -v.
    stopped = opts.get("m") is not None and len(selected) >= opts["m"]
    for li in selected:
        lo = max(0, li - b, last + 1)
        if printed_any and (lo > last + 1 or last < 0) and opts.get("group_sep", b"--") is not None:
            out.append(opts.get("group_sep", b"--") + b"\n")
        for c in range(lo, li + 1):
            out.append(_line_out(case, text, lines, c, prefix, names_sep_sel if c in sel else names_sep_ctx,
                                 per_line.get(c, 0), mlb, eol, word))
        last = li
        printed_any = True
        # after-context up to the next selected line
        hi = min(len(lines) - 1, li + a)
        nxt = [x for x in selected if x > li]
        stop = min(hi, nxt[0] - 1) if nxt else hi
        after_counts = inverted and not (stopped and li == selected[-1])
        for c in range(li + 1, stop + 1):
            out.append(_line_out(case, text, lines, c, prefix, names_sep_ctx,
                                 per_line.get(c, 0) if after_counts else 0, mlb, eol, word))
            last = c
    return b"".join(out)


def context_separators(case, lines, selected) -> set:
    """-o with context: the selected lines before which grep prints a group separator (the context
    lines themselves are not printed)."""
    opts = case["opts"]
    if opts.get("group_sep", b"--") is None:
        return set()
    state = case.setdefault("_ctx_state", {"printed": False})
    a = opts.get("A", 0)
    b = opts.get("B", 0)
    out = set()
    last = -1
    for li in selected:
        lo = max(0, li - b, last + 1)
        if state["printed"] and (lo > last + 1 or last < 0):
            out.add(li)
        state["printed"] = True
        nxt = [x for x in selected if x > li]
        hi = min(len(lines) - 1, li + a)
        last = min(hi, nxt[0] - 1) if nxt else hi
        last = max(last, li)
    return out


def _line_out(case, text, lines, li, prefix, sep, nocc, mlb, eol, word="occurrence"):
    """One record with its prefixes (name, -n, -b, each followed by `sep`), or its elision."""
    opts = case["opts"]
    s, e = lines.bounds(li)
    p = (prefix if opts.get("Z") else prefix[:-1] + sep) if prefix else b""
    out = [p]
    if opts.get("n"):
        out.append(str(li + 1).encode() + sep)
    if opts.get("b"):
        out.append(str(s).encode() + sep)
    if mlb and e - s > mlb:
        out.append(b"[long line elided: " + plural(e - s, "byte") + b", " + plural(nocc, word) + b"]")
    else:
        out.append(text[s:e])
    out.append(eol)
    return b"".join(out)


def input_kind(case, name):
    """`input` of the JSON summary where docs/cli.md fixes it, else a wildcard."""
    io = case["opts"].get("io")
    if case["cmd"] == "approx" and "approx-json-input" in case.get("known", ()) and \
            case["opts"].get("mmap") != "never":
        return ANY
    data = case["stdin"] if name == STDIN_NAME else case["fs"].get(name)
    if not data:
        return ANY  # an empty file is never mapped; docs/cli.md does not say what it is called
    if name == STDIN_NAME and case.get("stdin_kind") == "pipe":
        return "streamed"
    if case.get("backend") == "cuda" and case["cmd"] == "search" and not case.get("is_set"):
        return ANY  # the GPU reads a file itself when the output needs no text (docs/cli.md)
    if io in ("mmap", "mmap-populate", "mmap-workers"):
        return "mapped"
    if io == "read":
        return "streamed"
    if io is None and case["opts"].get("mmap") == "never":
        return "streamed"
    return ANY


# ----------------------------------------------------------------------------------------------
# Approximate search (include/strmatch/approx.hpp's contract; docs/cli.md "Approximate search").


def sellers_matrix(p: bytes, t: bytes):
    """Semi-global DP (free first row): C[j][i] for columns j = 0..n, rows i = 0..m."""
    m = len(p)
    col = list(range(m + 1))
    cols = [col]
    for j in range(1, len(t) + 1):
        c = t[j - 1]
        new = [0] * (m + 1)
        prev = col
        for i in range(1, m + 1):
            v = prev[i - 1] + (p[i - 1] != c)
            w = prev[i] + 1
            if w < v:
                v = w
            w = new[i - 1] + 1
            if w < v:
                v = w
            new[i] = v
        cols.append(new)
        col = new
    return cols


def traceback(p: bytes, t: bytes, cols, e: int, i0=None):
    """From cell (m, e): diagonal first, then I (a pattern byte), then D (a text byte).
    Returns (begin, cigar)."""
    i = len(p) if i0 is None else i0
    j = e
    ops = []
    while i > 0:
        cur = cols[j][i]
        if j > 0 and cur == cols[j - 1][i - 1] + (p[i - 1] != t[j - 1]):
            ops.append("=" if p[i - 1] == t[j - 1] else "X")
            i -= 1
            j -= 1
        elif cur == cols[j][i - 1] + 1:
            ops.append("I")
            i -= 1
        else:
            ops.append("D")
            j -= 1
    ops.reverse()
    return j, rle(ops)


def rle(ops) -> str:
    out = []
    k = 0
    while k < len(ops):
        r = k
        while r < len(ops) and ops[r] == ops[k]:
            r += 1
        out.append("%d%s" % (r - k, ops[k]))
        k = r
    return "".join(out)


def line_d(p: bytes, t: bytes, metric: str):
    """d(e) for e = 0..len(t) of one record (None: no end there), and the DP columns (edit)."""
    m = len(p)
    if metric == "edit":
        cols = sellers_matrix(p, t)
        return [m] + [cols[j][m] for j in range(1, len(t) + 1)], cols
    d = [None] * (len(t) + 1)
    for e in range(m, len(t) + 1):
        d[e] = sum(1 for a, b in zip(p, t[e - m:e]) if a != b)
    return d, None


def local_minima(d, k):
    """Plateau ends e (1..n) of local minima of d within k (absent ends count as larger)."""
    n = len(d) - 1
    out = []
    big = float("inf")
    e = 1
    while e <= n:
        v = d[e]
        if v is None or v > k:
            e += 1
            continue
        s = e
        while e + 1 <= n and d[e + 1] == v:
            e += 1
        before = d[s - 1] if s - 1 >= 0 else None
        before = big if before is None else before
        after = d[e + 1] if e + 1 <= n else None
        after = big if after is None else after
        if before > v and after > v:
            out.append(e)
        e += 1
    return out


def approx_records(case, text: bytes, patterns):
    """Per record: (start, end, [(end_abs, pid, dist, begin_abs, cigar)] results)."""
    opts = case["opts"]
    metric = opts.get("metric", "edit")
    sep = 0 if opts.get("z") else 10
    lines = Lines(text, sep)
    k = opts.get("k", 0)
    task = "best" if opts.get("best") else "ends" if opts.get("ends") else "matches"
    recs = []
    for li in range(len(lines)):
        s, e = lines.bounds(li)
        t = text[s:e]
        res = []
        for pid, p in enumerate(patterns):
            d, cols = line_d(p, t, metric)
            if task == "matches":
                for end in local_minima(d, k):
                    if metric == "edit":
                        b, cig = traceback(p, t, cols, end)
                    else:
                        b = end - len(p)
                        cig = rle(["=" if x == y else "X" for x, y in zip(p, t[b:end])])
                    res.append((s + end, pid, d[end], s + b, cig))
            else:
                for end in range(1, len(t) + 1):
                    if d[end] is not None:
                        res.append((s + end, pid, d[end], None, None))
        recs.append((s, e, res))
    if task == "ends":
        recs = [(s, e, [r for r in res if r[2] <= k]) for s, e, res in recs]
    elif task == "best":
        best = []
        for pid in range(len(patterns)):
            ds = [r[2] for _, _, res in recs for r in res if r[1] == pid]
            mn = min(ds) if ds else None
            if mn is not None and "k" in opts and mn > opts["k"]:
                mn = None
            best.append(mn)
        recs = [(s, e, sorted([r for r in res if best[r[1]] is not None and r[2] == best[r[1]]],
                              key=lambda r: (r[0], r[1]))) for s, e, res in recs]
        return lines, recs, best
    for _, _, res in recs:
        res.sort(key=lambda r: (r[0], r[1]))
    return lines, recs, None


def align_pair(p: bytes, t: bytes, mode: str):
    """(distance, end, cigar) of `p` against a prefix (prefix) or the whole (global) of `t`."""
    m = len(p)
    cols = []
    col = list(range(m + 1))
    cols.append(col)
    for j in range(1, len(t) + 1):
        c = t[j - 1]
        new = [j] + [0] * m
        for i in range(1, m + 1):
            new[i] = min(col[i - 1] + (p[i - 1] != c), col[i] + 1, new[i - 1] + 1)
        cols.append(new)
        col = new
    if mode == "global":
        e = len(t)
    else:
        best = min(cols[j][m] for j in range(len(t) + 1))
        e = next(j for j in range(len(t) + 1) if cols[j][m] == best)
    # traceback without a free first row: row 0 is C[0][j] = j (D moves down to column 0)
    i, j = m, e
    ops = []
    while i > 0 or j > 0:
        cur = cols[j][i]
        if i > 0 and j > 0 and cur == cols[j - 1][i - 1] + (p[i - 1] != t[j - 1]):
            ops.append("=" if p[i - 1] == t[j - 1] else "X")
            i -= 1
            j -= 1
        elif i > 0 and cur == cols[j][i - 1] + 1:
            ops.append("I")
            i -= 1
        else:
            ops.append("D")
            j -= 1
    ops.reverse()
    return cols[e][m], e, rle(ops)


def approx_refusal(opts):
    """The options docs/cli.md refuses with approx ("Options"; "grep's line selection": where they are
    refused): None, or the options the message may name."""
    if opts.get("w") or opts.get("x"):
        return ["-w" if opts.get("w") else "-x"]
    named = []
    if opts.get("v"):
        named.append("-v")
    if "ctx_flag" in opts:
        named += ["-A", "-B", "-C", "--context", "--after-context", "--before-context"]
    if opts.get("color", "never") != "never":
        named += ["--color", "--colour"]
    if not named:
        return None
    if opts.get("mode", "infix") != "infix" or opts.get("ends") or opts.get("best"):
        return named
    lists = opts.get("q") or opts.get("l") or opts.get("L")
    if opts.get("v") and not lists and (opts.get("count_matches") or opts.get("json")):
        return ["-v"]
    if opts.get("v") and opts.get("o") and "ctx_flag" in opts and not lists and not opts.get("c"):
        return ["-o", "-v"]
    return None


def approx(case) -> Expected:
    opts = case["opts"]
    refused = approx_refusal(opts)
    if refused:
        return Expected(b"", 2, [], None, refused)
    case = dict(case)  # the context state (_ctx_state) is this run's
    patterns = case["patterns"]
    names = show_names(case)
    mode = output_mode(opts)
    several = len(patterns) > 1
    exp = Expected()
    exp.strip_sgr = opts.get("color") == "always"
    found = False
    error = False
    out = []
    objs = []
    eol = b"\0" if opts.get("z") else b"\n"
    pair = opts.get("mode", "infix") != "infix"
    for item in expand_inputs(case):
        if item[0] == "error":
            if not opts.get("s"):
                exp.stderr.append(item[1])
            error = True
            continue
        _, name, text = item
        prefix = name + (b"\0" if opts.get("Z") else b":") if names else b""
        jname = json_name(name)
        case["_hex"] = binary_kind(opts, text) and opts_binary_files(opts) == "with-hex"
        # docs/cli.md "Binary files" (approx follows search's rules): a binary input's lines end at NUL
        # in every form but --json and --count-matches; -I: it never matches
        binary = binary_kind(opts, text)
        skipped = binary and opts_binary_files(opts) == "without-match"
        if skipped:
            text = b""
        elif binary and mode not in ("json", "count_matches"):
            text = text.replace(b"\0", b"\n")
        else:
            binary = False
        if pair:
            n_res, o, js = approx_pairs(case, name, text, prefix)
            if skipped and js:
                js[-1] = ANY
            n_res, o = binary_output(exp, case, name, mode, binary, n_res, o)
            out.append(o)
            objs.extend(js)
            if n_res:
                found = True
                if mode == "q":
                    break
            continue
        lines, recs, best = approx_records(case, text, patterns)
        results = [(r, li) for li, (_, _, res) in enumerate(recs) for r in res]
        n_res = len(results)
        matching = [li for li, (_, _, res) in enumerate(recs) if res]
        ends = opts.get("ends") or opts.get("best")
        if mode == "count_matches":
            out.append(prefix + str(n_res).encode() + b"\n")
        elif mode == "json":
            for (end, pid, dist, b, cig), li in results:
                obj = [("type", "end" if ends else "match"), ("file", jname)]
                if opts.get("n"):
                    obj.append(("line", li + 1))
                obj.append(("pattern_id", pid))
                if not ends:
                    obj.append(("begin", b))
                obj.append(("end", end))
                obj.append(("distance", dist))
                if opts.get("cigar") and not ends:
                    obj.append(("cigar", cig))
                obj.append(("lines", json_lines(opts, text, *lines.bounds(li))))
                objs.append(obj)
            summ = [("type", "summary"), ("file", jname), ("bytes", len(text)), ("occurrences", n_res),
                    ("matching_lines", len(matching)), ("input", input_kind(case, name)), ("seconds", ANY)]
            if opts.get("best"):
                summ.append(("best", best))
            if skipped:
                summ = [(k, ANY if k in ("bytes", "input") else v) for k, v in summ]
            objs.append(summ)
        else:
            # q, l, L, c, -o and lines: grep's line selection over the matches (-v, context), as search's
            only = []
            for (end, pid, dist, b, cig), li in results if mode == "o" else ():
                f = []
                if opts.get("n"):
                    f.append(str(li + 1).encode() + b":")
                if ends:
                    f.append(str(end).encode() + b":")
                    if several:
                        f.append(str(pid).encode() + b":")
                    f.append(str(dist).encode() + eol)
                else:
                    if opts.get("b"):
                        f.append(str(b).encode() + b":")
                    if several:
                        f.append(str(pid).encode() + b":")
                    f.append(str(dist).encode() + b":")
                    if opts.get("cigar"):
                        f.append(cig.encode() + b":")
                    f.append(shown(case, text[b:end]) + eol)
                only.append((li, b"".join(f)))
            per_line = {li: len(recs[li][2]) for li in matching}
            n_sel, body = select_lines(case, name, text, lines, prefix, mode, per_line, only,
                                       "end" if ends else "match")
            if opts.get("v"):
                n_res = n_sel  # the selected lines (the exit status, -q)
            n_res, body = binary_output(exp, case, name, mode, binary, n_res, body)
            out.append(body)
        if n_res:
            found = True
            if mode == "q":
                break
    exp.stdout = b"".join(out)
    if mode == "json":
        exp.json = objs
    if found and mode == "q":
        exp.status = 0
    elif error:
        exp.status = 2
    else:
        exp.status = 0 if found else 1
    return exp


def json_lines(opts, text: bytes, s: int, e: int):
    """docs/cli.md, approx's JSON: "lines" is the hit's line with its separator (where it has one), as
    json_name writes bytes; null when the line is longer than --max-line-bytes (default 4096; 0: never)."""
    mlb = opts.get("max_line_bytes", 4096)
    if mlb and e - s > mlb:
        return None
    return json_name(text[s:e + 1] if e < len(text) else text[s:e])


def opts_binary_files(opts) -> str:
    """--binary-files' TYPE in effect (the fuzzer writes -a, -I, --binary-files in one order)."""
    return "text" if opts.get("a") else "without-match" if opts.get("I") else opts.get("binary_files", "binary")


def binary_kind(opts, text: bytes) -> bool:
    """docs/cli.md "Binary files": a NUL in the first 96 KiB makes an input binary (not with -a or -z)."""
    return opts_binary_files(opts) != "text" and not opts.get("z") and b"\0" in text[:BINARY_HEAD]


def binary_quiet(opts, mode: str) -> bool:
    """docs/cli.md "Binary files": the forms a binary input prints grep's message in instead of its
    output: lines, and -o unless --binary-files=with-hex prints its occurrences in hex."""
    return mode == "lines" or (mode == "o" and opts_binary_files(opts) != "with-hex")


def shown(case, b: bytes) -> bytes:
    """-o's TEXT: the bytes, or (--binary-files=with-hex on a binary input) two lowercase hex digits a byte."""
    return b.hex().encode() if case.get("_hex") else b


def binary_output(exp, case, name: bytes, mode: str, binary: bool, n_res: int, out: bytes):
    """The lines and -o forms of a binary input: no output, grep's message on stderr when a line was
    selected (docs/cli.md "Binary files"), which with context counts as output for the next group's
    separator (grep); (results, stdout)."""
    if binary and binary_quiet(case["opts"], mode):
        if n_res:
            exp.stderr.append(b"strmatch: " + name + b": binary file matches")
            if "ctx_flag" in case["opts"]:
                case.setdefault("_ctx_state", {"printed": False})["printed"] = True
        return n_res, b""
    return n_res, out


# ----------------------------------------------------------------------------------------------
# Sequence input (docs/sequence.md): --seq --alphabet bytes, forward strand, the TSV rows, -c, -l, -q.


def tsv_field(b: bytes) -> bytes:
    """docs/sequence.md "Output": fields escaped as \\\\, \\t, \\n, \\r."""
    return b.replace(b"\\", b"\\\\").replace(b"\t", b"\\t").replace(b"\n", b"\\n").replace(b"\r", b"\\r")


def seq_thresholds(opts, patterns):
    """Each pattern's k: -k K, or -k P% (P percent of its length, rounded down); None: refused
    (docs/sequence.md: a pattern not longer than the largest threshold is status 2)."""
    k = opts.get("k", 0)
    if isinstance(k, str):
        p = float(k[:-1])
        ks = [int(p * len(x) / 100 + 1e-9) for x in patterns]
    else:
        ks = [k] * len(patterns)
    if any(len(x) <= max(ks) for x in patterns):
        return None
    return ks


def seq_hits(case, records):
    """Per record: its hits (start, end, pattern id, distance, cigar, match), in the library's order:
    exact by (start, pattern), approximate by (end, pattern)."""
    opts = case["opts"]
    patterns = case["patterns"]
    metric = opts.get("metric", "edit")
    out = []
    ks = seq_thresholds(opts, patterns) if case["cmd"] == "approx" else [0] * len(patterns)
    for name, t in records:
        hits = []
        for pid, p in enumerate(patterns):
            if case["cmd"] == "search":
                hits += [(o, o + len(p), pid, 0, "%d=" % len(p), p) for o, _ in occurrences(t, [p], False)]
                continue
            d, cols = line_d(p, t, metric)
            for end in local_minima(d, ks[pid]):
                if metric == "edit":
                    b, cig = traceback(p, t, cols, end)
                else:
                    b = end - len(p)
                    cig = rle(["=" if x == y else "X" for x, y in zip(p, t[b:end])])
                hits.append((b, end, pid, d[end], cig, t[b:end]))
        hits.sort(key=(lambda h: (h[0], h[2])) if case["cmd"] == "search" else (lambda h: (h[1], h[2])))
        out.append((name, hits))
    return out


def seq(case) -> Expected:
    """`search --seq` / `approx --seq` with --alphabet bytes on one FASTA file (case["seq_records"]:
    its records as the generator wrote them, lines wrapped, empty lines and blanks mixed in)."""
    opts = case["opts"]
    patterns = case["patterns"]
    if case["cmd"] == "approx" and seq_thresholds(opts, patterns) is None:
        return Expected(b"", 2, [], None, ["-k", "--max-errors", "pattern"])
    per_record = seq_hits(case, case["seq_records"])
    if opts.get("best"):
        # each pattern's hits at its smallest distance within -k over every input (and up to
        # --stratum N above it)
        best = {}
        for _, hits in per_record:
            for h in hits:
                best[h[2]] = min(best.get(h[2], h[3]), h[3])
        n = opts.get("stratum", 0)
        per_record = [(name, [h for h in hits if h[3] <= best[h[2]] + n]) for name, hits in per_record]
    total = sum(len(h) for _, h in per_record)
    mode = output_mode(opts)
    status = 0 if total else 1
    name = case["files"][0]
    if mode == "q":
        return Expected(b"", status, [], None)
    if mode == "l":
        return Expected(name + b"\n" if total else b"", status, [], None)
    if mode in ("c", "count_matches"):
        return Expected(str(total).encode() + b"\n", status, [], None)
    rows = [] if opts.get("no_header") else [b"pattern\trecord\tstrand\tstart\tend\tdistance\tcigar\tmatch\n"]
    for rname, hits in per_record:
        for b, e, pid, d, cig, mt in hits:
            rows.append(b"\t".join([tsv_field(patterns[pid]), tsv_field(rname), b"+", str(b).encode(), str(e).encode(),
                                    str(d).encode(), cig.encode(), tsv_field(mt)]) + b"\n")
    return Expected(b"".join(rows), status, [], None)


def approx_pairs(case, name, text, prefix):
    opts = case["opts"]
    patterns = case["patterns"]
    several = len(patterns) > 1
    mode = output_mode(opts)
    lines = Lines(text, 0 if opts.get("z") else 10)
    k = opts.get("k")
    res = []
    for li in range(len(lines)):
        s, e = lines.bounds(li)
        for pid, p in enumerate(patterns):
            dist, end, cig = align_pair(p, text[s:e], opts["mode"])
            if k is None or dist <= k:
                res.append((li, s, pid, dist, end, cig))
    out = []
    objs = []
    zname = b"\0" if opts.get("Z") else b"\n"
    if mode == "l":
        if res:
            out.append(name + zname)
    elif mode == "L":
        if not res:
            out.append(name + zname)
    elif mode == "count_matches":
        out.append(prefix + str(len(res)).encode() + b"\n")
    elif mode == "c":
        out.append(prefix + str(len({r[0] for r in res})).encode() + b"\n")
    elif mode == "json":
        for li, s, pid, dist, end, cig in res:
            obj = [("type", "pair"), ("file", json_name(name)), ("line", li + 1), ("pattern_id", pid),
                   ("distance", dist), ("end", end)]
            if opts.get("cigar"):
                obj.append(("cigar", cig))
            obj.append(("lines", json_lines(opts, text, *lines.bounds(li))))
            objs.append(obj)
        objs.append(ANY)  # the summary: not specified for pairs in docs/cli.md
    elif mode != "q":
        for li, s, pid, dist, end, cig in res:
            out.append(prefix)
            if opts.get("n"):
                out.append(str(li + 1).encode() + b":")
            if opts.get("b"):
                out.append(str(s).encode() + b":")
            if several:
                out.append(str(pid).encode() + b":")
            out.append(str(dist).encode() + b":" + str(end).encode())
            if opts.get("cigar"):
                out.append(b":" + cig.encode())
            out.append(b"\n")
    return len(res), b"".join(out), objs


# ----------------------------------------------------------------------------------------------
# JSON comparison with wildcards.


def json_lines_match(expected: list, stdout: bytes):
    """None when stdout's lines are the expected objects (keys in order), else a reason."""
    lines = stdout.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    else:
        return "stdout does not end with a newline"
    if len(lines) != len(expected):
        return "%d JSON lines, expected %d" % (len(lines), len(expected))
    for n, (line, exp) in enumerate(zip(lines, expected)):
        try:
            got = json.loads(line.decode("utf-8", "surrogateescape"), object_pairs_hook=list)
        except ValueError as e:
            return "line %d is not JSON: %s" % (n + 1, e)
        if exp is ANY:
            continue
        if [k for k, _ in got] != [k for k, _ in exp]:
            return "line %d keys %r, expected %r" % (n + 1, [k for k, _ in got], [k for k, _ in exp])
        for (k, v), (_, w) in zip(got, exp):
            if w is ANY:
                continue
            if isinstance(w, AnyOf):
                if v not in w.values:
                    return "line %d %s=%r, expected one of %r" % (n + 1, k, v, w.values)
                continue
            if v != w or type(v) is not type(w):
                return "line %d %s=%r, expected %r" % (n + 1, k, v, w)
    return None
