#!/usr/bin/env python3
"""The shipped binaries read no test variable: no byte string TFWSL_TEST_ (as UTF-8/ASCII or as
UTF-16LE, the way a Windows program would spell a wide string) appears in tfwsl, tfwsl-agent or
tfwsl.exe. The test programs (tfwsl-test, tfwsl-agent-test), which read those settings, are given
as --control: each must hold the string, so the search is shown to find it where it is.

  check_shipped_strings.py --shipped BIN... --control BIN...
"""
import argparse
import sys

NEEDLE = "TFWSL_TEST_"


def holds(path):
    with open(path, "rb") as f:
        data = f.read()
    return NEEDLE.encode("ascii") in data or NEEDLE.encode("utf-16-le") in data


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shipped", nargs="+", required=True)
    ap.add_argument("--control", nargs="+", required=True)
    a = ap.parse_args()
    failures = [f"{p}: holds {NEEDLE} (a shipped binary must read no test variable)" for p in a.shipped if holds(p)]
    failures += [f"{p}: the test program does not hold {NEEDLE}: the search proves nothing" for p in a.control
                 if not holds(p)]
    for f in failures:
        print("FAILED:", f)
    print(f"{len(a.shipped)} shipped binaries checked, {len(a.control)} test programs as controls")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
