#!/usr/bin/env python3
"""One rule, one implementation (issue 39, item 6): each rule below is written in the file named
for it and nowhere else in common/, win/ or linux/. A rule is recognised by the shape of its code,
so a second copy under another name is found too.
Usage: check_one_implementation.py ROOT. Exit 0 each rule once, 1 a rule written twice (named)."""
import pathlib
import re
import sys

RULES = [
    # (rule, the file that implements it, what it looks like there, what a second copy looks like,
    #  whether each match of a copy may occur only once in the file itself)
    # PEP 508 environment markers: evaluated by the marker grammar, never by looking for platform
    # names in the marker's text.
    ("PEP 508 markers", "common/provision/environment_marker.cpp", re.compile(r"Result<bool> evaluate_marker\("),
     re.compile(r'\.find\("(win32|darwin|windows|linux|nt)"\)|Result<bool> evaluate_marker\('), False),
    # MSVC's command-line quoting (CommandLineToArgvW's rules): backslashes doubled before a quote.
    ("MSVC command-line quoting", "common/util/shell_quote.cpp", re.compile(r"backslashes\s*\*\s*2"),
     re.compile(r"backslashes\s*\*\s*2"), False),
    # LinuxFacts on the wire: each field's key spelled once, in the table the writer and the reader
    # both walk (a key written twice means a writer and a reader that can drift apart).
    ("LinuxFacts' fields", "common/agent_api/linux_facts.cpp", re.compile(r'"ld_wsl_conf_text"'),
     re.compile(r'"ld_wsl_conf_text"|"nvidia_container_runtime"|"disk_free_bytes"'), True),
    # FileLock's move operations: one for both systems.
    ("FileLock moves", "common/util/file_lock.cpp", re.compile(r"FileLock::operator=\(FileLock&&"),
     re.compile(r"FileLock(::operator=)?\(FileLock&&"), False),
]

root = pathlib.Path(sys.argv[1])
sources = {str(p.relative_to(root)): p.read_text(errors="replace")
           for folder in ("common", "win", "linux") for p in (root / folder).rglob("*.cpp")}
failed = 0
for name, home, looks, copy, once_there in RULES:
    others = sorted(path for path, text in sources.items() if path != home and copy.search(text))
    once = not once_there or home not in sources or all(len(re.findall(re.escape(m), sources[home])) <= 1
                                                        for m in set(copy.findall(sources[home])))
    if home not in sources or not looks.search(sources[home]) or others or not once:
        failed += 1
        where = ("also in " + ", ".join(others) if others else
                 "written more than once there" if home in sources and looks.search(sources[home]) else
                 "not found there")
        print(f"FAILED: {name} should be written once, in {home}; {where}")
    else:
        print(f"ok: {name}: {home}")
sys.exit(1 if failed else 0)
