# Python's file search (ExactSearcher.count_file / find_all_file, the first call of a fresh process,
# as a script makes it): an old module against a new one, interleaved, 10 processes each, minimum.
#   /usr/bin/python3 bench/python/file_ab.py OLD_PYTHON_DIR NEW_PYTHON_DIR [FILE]
# (each a build's python/ folder: PYTHONPATH of its module). Prints a markdown table.
import os, subprocess, sys, json
sys.dont_write_bytecode = True  # no __pycache__ in the tree beside bench/common/results.py
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from results import ResultTable  # noqa: E402
tar = sys.argv[3] if len(sys.argv) > 3 else "corpora/linux-6.1.tar"
code = r'''
import sys, time, json, strmatch
tar, pat, what = sys.argv[1], sys.argv[2], sys.argv[3]
s = strmatch.ExactSearcher(pat)
t = time.perf_counter()
r = s.count_file(tar) if what == "count_file" else len(s.find_all_file(tar))
print(json.dumps([time.perf_counter() - t, r]))
'''
mods = {"old": sys.argv[1], "new": sys.argv[2]}
rows = []
for pat in ["Linus Torvalds", "struct"]:
    for what in ["count_file", "find_all_file"]:
        t = {"old": [], "new": []}; res = {}
        for r in range(10):
            for k in (["old", "new"] if r % 2 == 0 else ["new", "old"]):
                out = subprocess.run(["/usr/bin/python3", "-c", code, tar, pat, what], env={"PYTHONPATH": mods[k]}, capture_output=True, text=True, check=True).stdout
                sec, n = json.loads(out); t[k].append(sec); res[k] = n
        rows.append((pat, what, res["old"], res["new"], min(t["old"]), min(t["new"])))
table = ResultTable(["pattern", "call", "result old", "result new", "old (s)", "new (s)", "new/old - 1"])
for p, w, ro, rn, a, b in rows:
    table.add([f"`{p}`", f"`{w}`", f"{ro:,}", f"{rn:,}", f"{a:.4f}", f"{b:.4f}", f"{b / a - 1:+.1%}"])
print(table.markdown(), end="")
