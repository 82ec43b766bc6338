#!/usr/bin/env python3
"""The size rule of docs/architecture.md as a check: no function body over 80 lines and no source
file over 500 lines in common/, win/ and linux/ (*.cpp, *.hpp).

    scripts/check-function-length.py [--root DIR] [--allow FILE] [--max-function N] [--max-file N]

Prints `file:line: name N lines` for each function (N counts the lines from its opening brace to
its closing brace, both included) and `file:1: (file) N lines` for each file over the limit, and
exits 1 if there is any that the allow-list does not name. An allow-list entry (`path name`, one a
line, `#` comments) that no longer matches anything over the limit is an error too, so the list
can only shrink.

It is a brace-matching scan, not a C++ parser: comments, string and character literals (raw ones
included) and preprocessor lines are blanked first; then at namespace and class scope each `{` is
classified by the text before it (back to the previous `;`, `{` or `}`): a parameter list and no
top-level `=` makes it a function body, `class`/`struct`/`union`/`enum`/`namespace`/`extern ""`
a scope to look inside, anything else an initializer. A lambda inside a function counts as part of
that function; a lambda at namespace scope or inside an initializer is measured as a function of
its own.
"""
import argparse
import os
import re
import sys

SOURCE_DIRS = ("common", "win", "linux")
SOURCE_EXTS = (".cpp", ".hpp")
DEFAULT_MAX_FUNCTION = 80
DEFAULT_MAX_FILE = 500

_IDENT = re.compile(r"[A-Za-z_0-9]")
_SCOPE_KEYWORD = re.compile(r"\b(class|struct|union|enum|namespace)\b|\bextern\s*\"\"")
_ACCESS_LABEL = re.compile(r"^\s*(public|private|protected)\s*:(?!:)")
_OPERATOR = re.compile(r"\boperator\s*(\(\s*\)|\[\s*\]|[^\sA-Za-z_(]+|[A-Za-z_][\w:<>\s*&]*?(?=\s*\())")
_NAME_BEFORE_PAREN = re.compile(
    r"((?:[A-Za-z_]\w*\s*(?:<[^()]*?>)?\s*::\s*)*~?(?:operator\s*(?:\(\s*\)|\[\s*\]|[^\s(]+)|[A-Za-z_]\w*))\s*$")
_NOT_A_NAME = {"decltype", "alignas", "noexcept", "__attribute__", "requires", "sizeof", "throw",
               "static_assert", "alignof", "__declspec"}
_LAMBDA_TAIL = re.compile(r"(\)|\]|\bmutable|\bnoexcept|\bconstexpr|->\s*[\w:<>,\s*&]+)\s*$")


def blank_literals(text):
    """Returns text of the same length and line structure with the contents of comments, string and
    character literals and preprocessor lines replaced by spaces (a string keeps its quotes)."""
    out = list(text)
    i, n = 0, len(text)
    at_line_start = True

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if c == "\n":
            at_line_start = True
            i += 1
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if at_line_start and c == "#":
            j = i
            while j < n and text[j] != "\n":
                if text[j] == "\\" and j + 1 < n and text[j + 1] == "\n":
                    j += 2
                    continue
                if text.startswith("/*", j):
                    end = text.find("*/", j + 2)
                    j = n if end < 0 else end + 2
                    continue
                j += 1
            blank(i, j)
            i = j
            continue
        at_line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            blank(i, j)
            i = j
            continue
        if c == '"':
            raw = re.search(r"(?:u8|[uUL])?R$", text[max(0, i - 3):i])
            if raw and (i - len(raw.group(0)) == 0 or not _IDENT.match(text[i - len(raw.group(0)) - 1])):
                m = re.match(r'"([^ ()\\\t\n]{0,16})\(', text[i:])
                if m:
                    closing = ")" + m.group(1) + '"'
                    end = text.find(closing, i + len(m.group(0)))
                    end = n if end < 0 else end + len(closing)
                    blank(i + 1, end - 1)
                    i = end
                    continue
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            blank(i + 1, min(j, n))
            i = j + 1
            continue
        if c == "'":
            k = i - 1
            while k >= 0 and (_IDENT.match(text[k]) or text[k] == "'"):
                k -= 1
            if k + 1 < i and text[k + 1].isdigit():  # a digit separator: 1'000'000
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != "'" and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            blank(i + 1, min(j, n))
            i = j + 1
            continue
        i += 1
    return "".join(out)


def top_level(header):
    """The header with the contents of (), [] and template <> groups removed, so that what is left
    is what stands at its own level."""
    out, depth, angle = [], 0, 0
    for k, c in enumerate(header):
        if c in "([":
            if depth == 0 and angle == 0:
                out.append(c)
            depth += 1
        elif c in ")]":
            depth = max(0, depth - 1)
            if depth == 0 and angle == 0:
                out.append(c)
        elif depth == 0 and c == "<" and re.search(r"[A-Za-z_]\w*\s*$", header[:k]) \
                and not re.search(r"\boperator\s*<*$", header[:k]):
            if angle == 0:
                out.append(c)
            angle += 1
        elif depth == 0 and angle > 0 and c == ">":
            angle -= 1
            if angle == 0:
                out.append(c)
        elif depth == 0 and angle == 0:
            out.append(c)
    return "".join(out)


def matching_brace(text, open_at):
    depth = 0
    for k in range(open_at, len(text)):
        if text[k] == "{":
            depth += 1
        elif text[k] == "}":
            depth -= 1
            if depth == 0:
                return k
    return len(text) - 1


def function_name(header):
    """The (qualified) name before the parameter list, or None when the header has none."""
    depth = 0
    for k, c in enumerate(header):
        if c == "(":
            if depth == 0:
                m = _NAME_BEFORE_PAREN.search(header[:k])
                if m:
                    name = re.sub(r"\s+", "", m.group(1))
                    if name.split("::")[-1] not in _NOT_A_NAME:
                        return name
            depth += 1
        elif c == ")":
            depth = max(0, depth - 1)
    return None


class Scanner:
    def __init__(self, text):
        self.text = text
        self.found = []  # (name, name_offset, open_offset, close_offset)

    def line_of(self, offset):
        return self.text.count("\n", 0, offset) + 1

    def scan_scope(self, start, end, qualifier):
        """Looks at the braces of a namespace or class body between start and end."""
        text = self.text
        header_start = start
        k = start
        while k < end:
            c = text[k]
            if c in ";}":
                header_start = k + 1
            elif c == "{":
                close = matching_brace(text, k)
                kind, name = self.classify(text[header_start:k])
                if kind == "scope":
                    self.scan_scope(k + 1, close, qualifier + name)
                elif kind == "function":
                    self.record(qualifier + name, header_start, k, close)
                elif kind == "initializer-in-list":
                    k = close + 1
                    continue  # the header goes on: this was a member initializer `m_a{...}`
                else:
                    self.scan_initializer(k + 1, close, qualifier + (name or ""))
                header_start = close + 1
                k = close + 1
                continue
            k += 1

    def scan_initializer(self, start, end, context):
        """An initializer is not looked into as code, but a lambda in it is measured on its own."""
        text = self.text
        k = start
        while k < end:
            if text[k] == "{":
                close = matching_brace(text, k)
                if _LAMBDA_TAIL.search(text[max(start, k - 200):k]):
                    self.record((context or "") + "<lambda>", k, k, close)
                else:
                    self.scan_initializer(k + 1, close, context)
                k = close + 1
                continue
            k += 1

    def classify(self, header):
        header = _ACCESS_LABEL.sub("", header)
        stripped = re.sub(r"^\s*template\s*<", "template<", header)
        level = top_level(stripped)
        before_paren = level.split("(", 1)[0]
        if _SCOPE_KEYWORD.search(before_paren):
            m = re.search(r"\b(?:class|struct|union|namespace)\s+(?:\[\[[^\]]*\]\]\s*)?([A-Za-z_]\w*)", before_paren)
            kw = re.search(r"\b(class|struct|union|namespace)\b", before_paren)
            if m and kw and kw.group(1) != "namespace":
                return "scope", m.group(1) + "::"
            return "scope", ""
        without_operators = _OPERATOR.sub("operator", level)
        if "=" in without_operators.replace("==", "").replace("<=", "").replace(">=", "").replace("!=", ""):
            variable = re.search(r"([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)?=", without_operators)
            if _LAMBDA_TAIL.search(header):
                return "function", (variable.group(1) if variable else "<lambda>")
            return "initializer", (variable.group(1) + "::") if variable else ""
        if "(" not in level:
            return "initializer", ""
        name = function_name(stripped)
        if name is None:
            return "initializer", ""
        after_params = level[level.rfind(")") + 1:] if ")" in level else ""
        in_init_list = re.search(r"(?<!:):(?!:)", after_params) is not None
        if in_init_list and re.search(r"[A-Za-z_0-9>]\s*$", header):
            return "initializer-in-list", name
        return "function", name

    def record(self, name, header_start, open_at, close):
        m = re.search(r"\S", self.text[header_start:open_at + 1])
        name_at = header_start + (m.start() if m else 0)
        leaf = name.split("::")[-1]
        pos = self.text.rfind(leaf, header_start, open_at)
        if pos >= 0:
            name_at = pos
        self.found.append((name, name_at, open_at, close))


def measure(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        raw = f.read()
    clean = blank_literals(raw)
    scanner = Scanner(clean)
    scanner.scan_scope(0, len(clean), "")
    functions = []
    for name, name_at, open_at, close in scanner.found:
        lines = scanner.line_of(close) - scanner.line_of(open_at) + 1
        functions.append((scanner.line_of(name_at), name, lines))
    file_lines = raw.count("\n") + (0 if raw.endswith("\n") or not raw else 1)
    return functions, file_lines


def read_allow_list(path):
    entries = {}
    if not path:
        return entries
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if line:
                parts = line.split()
                if len(parts) != 2:
                    sys.exit(f"{path}:{number}: expected `path name`, got {line!r}")
                entries[(parts[0], parts[1])] = number
    return entries


def source_files(root):
    for top in SOURCE_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith(SOURCE_EXTS):
                    yield os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.dirname(here))
    parser.add_argument("--allow", help="allow-list file: `path name` a line")
    parser.add_argument("--max-function", type=int, default=DEFAULT_MAX_FUNCTION)
    parser.add_argument("--max-file", type=int, default=DEFAULT_MAX_FILE)
    args = parser.parse_args()

    allowed = read_allow_list(args.allow)
    used = set()
    failures = 0
    for rel in source_files(args.root):
        functions, file_lines = measure(os.path.join(args.root, rel))
        over = [(line, name, n) for line, name, n in functions if n > args.max_function]
        if file_lines > args.max_file:
            over.append((1, "(file)", file_lines))
        for line, name, n in over:
            key = (rel, name)
            if key in allowed:
                used.add(key)
                print(f"{rel}:{line}: {name} {n} lines (allowed for now)")
            else:
                failures += 1
                print(f"{rel}:{line}: {name} {n} lines")
    for key, number in sorted(allowed.items(), key=lambda item: item[1]):
        if key not in used:
            failures += 1
            print(f"{args.allow}:{number}: {key[0]} {key[1]} is no longer over the limit: "
                  "remove it from the allow-list")
    if failures:
        print(f"{failures} over the limits (functions {args.max_function} lines, files {args.max_file})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
