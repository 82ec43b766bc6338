#!/usr/bin/env python3
"""What a CTest run told, from its JUnit files (`ctest --output-junit FILE`): every skipped test with
its reason, then one line `N passed, N failed, N skipped` (the last line CI prints).

    scripts/test-summary.py [--allowed FILE] [--wine-startup-failures] JUNIT_XML...

A later file overrides an earlier one test by test (a rerun's results replace the first run's).
A test is skipped when CTest reports it "notrun" for its SKIP_RETURN_CODE; its reason is the first
line of its output that starts with `SKIP:` (`SKIPPED:` and `skipped:` too); a skip without such a
line has the reason "(no reason printed)". Any other "notrun" (a failed fixture, a missing
executable) and a timeout count as failed.

--allowed FILE: the skip reasons this machine may have (one Python regular expression a line,
  searched in the reason; `#` starts a comment line). A skip whose reason none matches is listed as
  "not allowed" and makes the exit status 1: on the CI machine a test that skips because a package
  install-deps installs is missing, or for want of root, is a failure of the machine.
--wine-startup-failures: print instead the names of the failed tests whose output shows Wine's own
  start-up failure (`wine client error:`), one a line, and exit 0 (scripts/test.sh reruns those).
  A test whose output also shows a crash (WINE_CRASH, the regular expression of
  tests/windows/CMakeLists.txt's TFWSL_WINE_CRASH_REGEX) is never named: a crash is not retried.

Exit 0: no failure (and no skip outside the allowed list); 1: a test failed or skipped without
leave; 2: bad usage or an unreadable file.
"""
import argparse
import re
import sys
import xml.etree.ElementTree as ET

SKIP_LINE = re.compile(r"^\s*(?:SKIP|SKIPPED|skipped)\s*:\s*(.+?)\s*$", re.MULTILINE)
WINE_STARTUP = "wine client error:"
WINE_CRASH = re.compile(r"wine: Unhandled|Unhandled exception: ")


def read_results(paths):
    """name -> (status, output), status one of passed, failed, skipped."""
    results = {}
    for path in paths:
        try:
            root = ET.parse(path).getroot()
        except (OSError, ET.ParseError) as e:
            print(f"test-summary: cannot read {path}: {e}", file=sys.stderr)
            sys.exit(2)
        for case in root.iter("testcase"):
            out = case.findtext("system-out") or ""
            skipped = case.find("skipped")
            if case.get("status") == "run" and case.find("failure") is None:
                status = "passed"
            elif skipped is not None and "SKIP_RETURN_CODE" in (skipped.get("message") or ""):
                status = "skipped"
            else:
                status = "failed"
            results[case.get("name")] = (status, out)
    return results


def skip_reason(output):
    m = SKIP_LINE.search(output)
    return m.group(1) if m else "(no reason printed)"


def read_allowed(path):
    patterns = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                patterns.append(re.compile(line))
    return patterns


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("junit", nargs="+")
    ap.add_argument("--allowed")
    ap.add_argument("--wine-startup-failures", action="store_true")
    a = ap.parse_args()
    results = read_results(a.junit)
    if a.wine_startup_failures:
        for name, (status, out) in sorted(results.items()):
            if status == "failed" and WINE_STARTUP in out and not WINE_CRASH.search(out):
                print(name)
        return 0
    allowed = read_allowed(a.allowed) if a.allowed else None
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    refused = []
    for name, (status, out) in sorted(results.items()):
        counts[status] += 1
        if status == "failed":
            print(f"failed: {name}")
        elif status == "skipped":
            reason = skip_reason(out)
            leave = allowed is None or any(p.search(reason) for p in allowed)
            print(f"skipped: {name}: {reason}" + ("" if leave else "  [not allowed here]"))
            if not leave:
                refused.append(name)
    if refused:
        print(f"{len(refused)} skip(s) for a reason this machine must not have (allowed: {a.allowed}): "
              + ", ".join(refused))
    print(f"{counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped")
    return 1 if counts["failed"] or refused else 0


if __name__ == "__main__":
    sys.exit(main())
