#!/usr/bin/env python3
"""Every C and C++ source of the project is formatted as .clang-format says: clang-format
--dry-run -Werror on each file under common/, win/, linux/ and tests/ (a .clang-format nobody
applies misleads). Run `clang-format -i FILE` on a file it names.
Usage: check_format.py CLANG_FORMAT ROOT. Exit 0 all formatted, 1 files named, 2 usage."""
import pathlib
import subprocess
import sys

SUFFIXES = {".c", ".cc", ".cpp", ".h", ".hpp"}
FOLDERS = ("common", "win", "linux", "tests")

if len(sys.argv) != 3:
    print(__doc__)
    sys.exit(2)
clang_format, root = sys.argv[1], pathlib.Path(sys.argv[2])
files = sorted(p for folder in FOLDERS for p in (root / folder).rglob("*") if p.suffix in SUFFIXES and p.is_file())
bad = []
for start in range(0, len(files), 64):
    batch = files[start:start + 64]
    run = subprocess.run([clang_format, "--dry-run", "-Werror", *map(str, batch)], capture_output=True, text=True)
    if run.returncode != 0:
        # clang-format names each file at the start of its first complaint: "path:line:col: error: ..."
        bad += [str(p.relative_to(root)) for p in batch if f"{p}:" in run.stderr]
for name in bad:
    print(f"FAILED: not formatted as .clang-format says: {name} (fix: clang-format -i {name})")
print(f"{len(files)} sources checked, {len(bad)} not formatted")
sys.exit(1 if bad or not files else 0)
