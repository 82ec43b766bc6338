#!/usr/bin/env python3
"""The util layer (common/util) is used, not copied. Fails, naming file and line, when product code
(common/, linux/, win/ outside common/util) either
  - defines a function with the name of one util declares (a local copy: util's headers are read,
    so a new util function is covered the day it lands), or with a name listed below as a known
    copy under another name (the copies the issue found: split_lines, last_lines, gib, ...); or
  - calls YAML::Load itself (util's load_yaml / parse_yaml_document catch what yaml-cpp throws and
    say where).
Usage: check_util_bypass.py REPOSITORY_ROOT. Exit 0 none found, 1 found."""
import pathlib
import re
import sys

# Names that were local copies of a util function, and what to use instead.
KNOWN_COPIES = {
    "split_lines": "lines_of (common/util/text_lines.hpp)",
    "last_lines": "last_nonblank_lines (common/util/text_lines.hpp)",
    "last_output_lines": "last_nonblank_lines (common/util/text_lines.hpp)",
    "gib": "format_gib (common/util/byte_size_text.hpp)",
    "format_size_for_humans": "format_bytes (common/util/byte_size_text.hpp)",
}
# A function definition at the start of a line: a return type, the name, '(' ... and no ';' before '{'.
DEFINITION = re.compile(r"^(?:static\s+|inline\s+|constexpr\s+)*[\w:<>,\s*&]+?[\s*&](\w+)\s*\([^;]*$")
# A function declared (or defined) at namespace scope in a util header.
DECLARATION = re.compile(r"^(?:static\s+|inline\s+|constexpr\s+)*[\w:<>,*&]+(?:\s+[\w:<>,*&]+)*?[\s*&]+(\w+)\s*\(")
KEYWORDS = {"if", "for", "while", "switch", "return", "operator", "sizeof"}
# Names every type overloads for itself: not copies.
OVERLOADED = {"to_string"}


def util_functions(root):
    names = set()
    for header in (root / "common" / "util").glob("*.hpp"):
        for line in header.read_text(errors="replace").splitlines():
            m = DECLARATION.match(line)
            if m and not line.startswith((" ", "\t", "//", "#")):
                names.add(m.group(1))
    return names - KEYWORDS - OVERLOADED


def product_files(root):
    for top in ("common", "linux", "win"):
        for path in sorted((root / top).rglob("*")):
            if path.suffix in (".cpp", ".hpp") and "common/util/" not in path.as_posix():
                yield path


def main():
    root = pathlib.Path(sys.argv[1])
    copies = {name: f"{name} (common/util)" for name in util_functions(root)}
    copies.update(KNOWN_COPIES)
    found = []
    for path in product_files(root):
        rel = path.relative_to(root)
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if line.startswith((" ", "\t", "//", "#")):
                definition = None  # only definitions at namespace scope start a line
            else:
                definition = DEFINITION.match(line)
            if definition and definition.group(1) in copies:
                found.append(f"{rel}:{number}: defines {definition.group(1)}(): use {copies[definition.group(1)]}")
            if "YAML::Load(" in line and not line.lstrip().startswith("//"):
                found.append(f"{rel}:{number}: calls YAML::Load: use load_yaml or parse_yaml_document "
                             "(common/util/yaml_document.hpp)")
    for line in found:
        print("FAILED: util bypassed:", line)
    print(f"{len(copies)} util names checked; {len(found)} bypasses")
    return 1 if found else 0


sys.exit(main())
