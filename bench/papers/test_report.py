#!/usr/bin/env python3
"""That a failed check shows as failed: copies the CSVs of a run of scripts/reproduce_papers.sh,
turns one row's check into a failure and one program's exit status into 1, and checks that the
report says FAILED for both and exits 1, while the untouched copy's report exits 0.

    /usr/bin/python3 bench/papers/test_report.py RESULTS_DIR MACHINE MODE      (CI: after --tiny)
"""
import csv
import os
import shutil
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the tree beside bench/common/results.py
sys.path.insert(0, os.path.join(here, "..", "common"))
from results import dict_table, open_result  # noqa: E402


def report(folder, machine, mode):
    r = subprocess.run([sys.executable, os.path.join(here, "report.py"), "--results", folder, "--machine", machine,
                        "--mode", mode, "--no-plots"], capture_output=True, text=True)
    suffix = "" if mode == "full" else "-" + mode
    with open(os.path.join(folder, "report%s_%s.md" % (suffix, machine))) as f:
        md = f.read()
    with open(os.path.join(folder, "report%s_%s.html" % (suffix, machine))) as f:
        page = f.read()
    return r.returncode, md, page


def rewrite(path, change):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    change(rows)
    with open_result(path) as f:
        dict_table(rows).write_csv(f)


def main():
    src, machine, mode = sys.argv[1:4]
    suffix = "" if mode == "full" else "-" + mode
    tag = "%s_%s" % (suffix, machine)
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        good, bad = os.path.join(tmp, "good"), os.path.join(tmp, "bad")
        for d in (good, bad):
            shutil.copytree(src, d, ignore=shutil.ignore_patterns("report*"))
        rc, md, _ = report(good, machine, mode)
        if rc != 0 or "**FAILED**" in md:
            failures.append("the untouched run's report exits %d or shows FAILED" % rc)

        def fail_one(rows):
            rows[0]["check"] = "FAIL vs dp (d 3 vs 2, ends 1 vs 1)"

        rewrite(os.path.join(bad, "man-song-table1-cpu%s.csv" % tag), fail_one)

        def fail_program(rows):
            for r in rows:
                if r["paper"] == "zhang-mu":
                    r["exit_status"] = "1"

        rewrite(os.path.join(bad, "runs%s.csv" % tag), fail_program)
        rc, md, page = report(bad, machine, mode)
        if rc != 1:
            failures.append("a failed check and a failed program: exit status %d, not 1" % rc)
        if "**FAILED**: FAIL vs dp (d 3 vs 2" not in md and "**FAILED**" not in md.split("## Approximate")[1]:
            failures.append("the failed check is not shown as FAILED in Man and Song's section")
        if "| [man-song](#man-song) | " not in md or "| **1** |" not in md:
            failures.append("the summary does not count the failed check")
        if "**FAILED**: exit 1" not in md:
            failures.append("the failed program (exit 1) is not shown as FAILED")
        if 'class="fail"' not in page:
            failures.append("the HTML page does not mark the failure")
    for f in failures:
        print("test_report: " + f)
    print("test_report: %s" % ("FAILED" if failures else "passed (a failed check and a failed program show as FAILED)"))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
