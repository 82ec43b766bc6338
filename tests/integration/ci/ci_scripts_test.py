#!/usr/bin/env python3
"""CI's scripts on real inputs.

  summary  a small CMake project with one test of each kind is run by the real CTest with
           --output-junit; scripts/test-summary.py must count it as `1 passed, 4 failed, 2 skipped`
           (the line alone, last), give each skip its printed reason (or say none was printed),
           fail a skip the allow-list does not name and pass one it does, and name only the test
           whose output shows Wine's start-up failure for the rerun.
  phases   scripts/lib/phases.sh: a phase past its limit is killed with its children and reported
           TIMED OUT, one past the overall deadline does not start, and the table lists both.
Exit 0: passed; 1: a failure (printed).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import textwrap
import time

failures = []


def check(ok, what, detail=""):
    print(("ok: " if ok else "FAILED: ") + what + ("" if ok or not detail else "\n    " + detail.replace("\n", "\n    ")))
    if not ok:
        failures.append(what)


PROJECT = textwrap.dedent("""\
    cmake_minimum_required(VERSION 3.25)
    project(summary_probe NONE)
    enable_testing()
    add_test(NAME passes COMMAND sh -c "echo fine")
    add_test(NAME skips.no-gpu COMMAND sh -c "echo 'some output'; echo 'SKIP: no NVIDIA GPU here'; exit 77")
    add_test(NAME skips.silently COMMAND sh -c "exit 77")
    set_tests_properties(skips.no-gpu skips.silently PROPERTIES SKIP_RETURN_CODE 77)
    add_test(NAME fails COMMAND sh -c "[ -f ${CMAKE_BINARY_DIR}/fixed ] && exit 0; echo 'wine client error:0: version mismatch'; exit 1")
    add_test(NAME crashes COMMAND sh -c "echo 'wine client error:0: version mismatch'; echo 'wine: Unhandled page fault on read access to 0000000000000010'; exit 1")
    add_test(NAME hangs COMMAND sh -c "sleep 30")
    set_tests_properties(hangs PROPERTIES TIMEOUT 1)
    add_test(NAME setup COMMAND sh -c "exit 1")
    set_tests_properties(setup PROPERTIES FIXTURES_SETUP fx)
    add_test(NAME needs-setup COMMAND sh -c "exit 0")
    set_tests_properties(needs-setup PROPERTIES FIXTURES_REQUIRED fx)
    """)


def summary(a):
    script = os.path.join(a.source, "scripts", "test-summary.py")
    with tempfile.TemporaryDirectory(prefix="tfwsl-ci-summary-") as work:
        src, build = os.path.join(work, "src"), os.path.join(work, "build")
        os.makedirs(src)
        with open(os.path.join(src, "CMakeLists.txt"), "w") as f:
            f.write(PROJECT)
        subprocess.run([a.cmake, "-S", src, "-B", build], check=True, capture_output=True)
        junit = os.path.join(work, "junit.xml")
        subprocess.run([a.ctest, "--test-dir", build, "--output-junit", junit], capture_output=True)
        allowed = os.path.join(work, "allowed.txt")
        with open(allowed, "w") as f:
            f.write("# comment\n(?i)no NVIDIA GPU\n")

        p = subprocess.run([sys.executable, script, junit], capture_output=True, text=True)
        lines = p.stdout.strip().splitlines()
        check(p.returncode == 1, "failures make the exit status 1", p.stdout)
        check(lines and lines[-1] == "1 passed, 5 failed, 2 skipped",
              "the last line counts passed, failed and skipped (a timeout and a failed fixture are failures)", p.stdout)
        check("skipped: skips.no-gpu: no NVIDIA GPU here" in lines, "a skip is listed with its printed reason", p.stdout)
        check("skipped: skips.silently: (no reason printed)" in lines, "a skip without a reason says so", p.stdout)

        p = subprocess.run([sys.executable, script, "--allowed", allowed, junit], capture_output=True, text=True)
        check("skipped: skips.silently: (no reason printed)  [not allowed here]" in p.stdout.splitlines(),
              "a skip the allow-list does not name is marked", p.stdout)
        check("skipped: skips.no-gpu: no NVIDIA GPU here" in p.stdout.splitlines(), "an allowed skip is not marked", p.stdout)

        open(os.path.join(build, "fixed"), "w").close()  # "fails" passes when run again
        rerun = os.path.join(work, "rerun.xml")
        subprocess.run([a.ctest, "--test-dir", build, "-R", "^(fails|skips\\.no-gpu)$", "--output-junit", rerun],
                       capture_output=True)
        p = subprocess.run([sys.executable, script, "--allowed", allowed, rerun], capture_output=True, text=True)
        check(p.returncode == 0 and p.stdout.strip().splitlines()[-1] == "1 passed, 0 failed, 1 skipped",
              "a run with only allowed skips passes", p.stdout)
        q = subprocess.run([sys.executable, script, junit, rerun], capture_output=True, text=True)
        check(q.stdout.strip().endswith("2 passed, 4 failed, 2 skipped") and "failed: fails" not in q.stdout,
              "a later file replaces an earlier one's results test by test (a rerun that passed)", q.stdout)
        p = subprocess.run([sys.executable, script, "--allowed", allowed, junit], capture_output=True, text=True)
        check(p.returncode == 1, "a skip outside the allow-list fails even where nothing else would", p.stdout)

        p = subprocess.run([sys.executable, script, "--wine-startup-failures", junit], capture_output=True, text=True)
        check(p.stdout.split() == ["fails"], "only the failure showing Wine's start-up error is named for a rerun, "
              "never one that also shows a crash", p.stdout)


def phases(a):
    lib = os.path.join(a.source, "scripts", "lib", "phases.sh")
    with tempfile.TemporaryDirectory(prefix="tfwsl-ci-phases-") as work:
        marker = os.path.join(work, "child-alive")
        script = textwrap.dedent(f"""\
            set -euo pipefail
            export TFWSL_CI_DEADLINE=$(( $(date +%s) + 3 ))
            export TFWSL_PHASE_TABLE="{work}/table"
            source "{lib}"
            run_phase quick 10 true
            run_phase hangs 10 bash -c 'sh -c "sleep 5; touch {marker}" & sleep 60' || echo "hangs exit $?"
            sleep 1
            run_phase late 10 true || echo "late exit $?"
            print_phase_table
            """)
        p = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60)
        out = p.stdout
        check("hangs exit 124" in out, "a phase past its limit (clipped to the deadline) ends with 124", out)
        check("TIMED OUT" in out, "it is reported as timed out", out)
        check("late: not started, the CI budget is spent" in out and "late exit 124" in out,
              "a phase after the deadline does not start", out)
        check(out.strip().splitlines()[-1].lstrip().startswith("total"), "the table ends with the total", out)
        time.sleep(4)  # past the grandchild's 5 s
        check(not os.path.exists(marker), "the timed-out phase's children were killed with it")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case", choices=["summary", "phases"])
    ap.add_argument("--source", required=True)
    ap.add_argument("--cmake", default="cmake")
    ap.add_argument("--ctest", default="ctest")
    a = ap.parse_args()
    summary(a) if a.case == "summary" else phases(a)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
