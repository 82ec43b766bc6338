#!/usr/bin/env python3
"""No Catch2 TEST_CASE name may start with '-' or hold ';' or a backslash: catch_discover_tests
passes the name to the test binary as its argument, and Catch2 reads a leading '-' as an option
instead (`-l ...` lists the tests and exits 0, so the test "passes" without running; `--exclude ...`
is an unknown option and fails); CTest splits a name at ';' into two tests, neither of which matches
("No tests ran"); and Catch2's test spec takes a backslash as an escape, so a name holding `'C:\\'`
matches nothing either.
Exit 0 none, 1 the names found."""
import pathlib
import re
import sys

found = []
for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.cpp")):
    for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        if re.search(r'TEST_CASE\(\s*"-', line):
            found.append(f"{path}:{number}: starts with '-': {line.strip()}")
        if re.search(r'TEST_CASE\(\s*"[^"]*;', line):
            found.append(f"{path}:{number}: holds ';': {line.strip()}")
        if re.search(r'TEST_CASE\(\s*"(?:[^"\\]|\\[^\\])*\\\\', line):  # "\\" in the source: one backslash
            found.append(f"{path}:{number}: holds a backslash: {line.strip()}")
for line in found:
    print("FAILED: a test name CTest cannot pass to Catch2:", line)
print(f"{len(found)} test names start with '-' or hold ';' or a backslash")
sys.exit(1 if found else 0)
