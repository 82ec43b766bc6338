#!/usr/bin/env python3
"""One rule, one implementation (issue 39, item 6): each rule below is written in the file named
for it and nowhere else in common/, win/ or linux/. A rule is recognised by the shape of its code,
so a second copy under another name is found too.
Usage: check_one_implementation.py ROOT. Exit 0 each rule once, 1 a rule written twice (named)."""
import pathlib
import re
import sys

RULES = [
    # (rule, the file that implements it, what it looks like there, what a second copy looks like)
    # PEP 508 environment markers: evaluated by the marker grammar, never by looking for platform
    # names in the marker's text.
    ("PEP 508 markers", "common/provision/environment_marker.cpp", re.compile(r"Result<bool> evaluate_marker\("),
     re.compile(r'\.find\("(win32|darwin|windows|linux|nt)"\)|Result<bool> evaluate_marker\(')),
    # MSVC's command-line quoting (CommandLineToArgvW's rules): backslashes doubled before a quote.
    ("MSVC command-line quoting", "common/util/shell_quote.cpp", re.compile(r"backslashes\s*\*\s*2"),
     re.compile(r"backslashes\s*\*\s*2")),
    # FileLock's move operations: one for both systems.
    ("FileLock moves", "common/util/file_lock.cpp", re.compile(r"FileLock::operator=\(FileLock&&"),
     re.compile(r"FileLock(::operator=)?\(FileLock&&")),
]

root = pathlib.Path(sys.argv[1])
sources = {str(p.relative_to(root)): p.read_text(errors="replace")
           for folder in ("common", "win", "linux") for p in (root / folder).rglob("*.cpp")}
failed = 0
for name, home, looks, copy in RULES:
    others = sorted(path for path, text in sources.items() if path != home and copy.search(text))
    if home not in sources or not looks.search(sources[home]) or others:
        failed += 1
        print(f"FAILED: {name} should be written once, in {home}; "
              f"{'also in ' + ', '.join(others) if others else 'not found there'}")
    else:
        print(f"ok: {name}: {home}")
sys.exit(1 if failed else 0)
