#!/usr/bin/env python3
"""Scores `tfwsl explain --json` against every sample in a fixtures folder (tests/fixtures, tests/corpus/explain).

Each fixture holds a header (source, category, what, expected, expect) and, after the first line
that is exactly '---', the text as published. The body is written to a temporary file byte for
byte and given to the REAL tfwsl binary; its JSON is compared with the `expect:` line as
fixtures/README.md defines: kind equal; facts (and `about`, when expected) a subset (objects key by key, lists element by element
in order, strings exactly); every `findings` id present; no `absent` id (or `severity:error`); and, when
the sample names `parts` (a paste of several outputs), exactly those parts' kinds in text order, each
part's facts a subset and its `findings` ids present.

Usage: run_fixtures.py TFWSL_BINARY FIXTURES_DIR [--verbose]
Exit: 0 when every fixture passes, 1 when any fails, 0 with "skipped" when the folder is absent.
A fixture whose header has `known_miss: WHY` (a miss the tool does not fix yet, its cause named) is
scored and its miss printed with the reason, without failing the run; once it passes, the run fails
until the mark is removed, so a mark never outlives its miss.
Standard library only (no pip packages).
"""
import json
import os
import subprocess
import sys
import tempfile


KNOWN_MISSES = {}        # fixture name -> why it still misses (its `known_miss:` line)
current_fixture = [""]   # the fixture split_fixture reads


def split_fixture(data: bytes):
    """Returns (expect dict, body bytes) or raises ValueError."""
    marker = b"\n---\n"
    crlf_marker = b"\r\n---\r\n"
    if data.startswith(b"---\n"):
        header, body = b"", data[4:]
    elif marker in data:
        header, body = data.split(marker, 1)
    elif crlf_marker in data:
        header, body = data.split(crlf_marker, 1)
    else:
        raise ValueError("no '---' line between the header and the sample")
    expect = None
    for line in header.decode("utf-8", "replace").splitlines():
        if line.startswith("expect:"):
            expect = json.loads(line[len("expect:"):].strip())
        elif line.startswith("known_miss:"):
            KNOWN_MISSES[current_fixture[0]] = line[len("known_miss:"):].strip()
    if expect is None:
        raise ValueError("no 'expect:' line in the header")
    return expect, body


def subset(expected, actual, path):
    """Problems found comparing `expected` as a subset of `actual` (empty list: it matches)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected an object, got {json.dumps(actual)[:80]}"]
        problems = []
        for key, value in expected.items():
            if key not in actual:
                problems.append(f"{path}.{key}: missing (expected {json.dumps(value)[:80]})")
            else:
                problems += subset(value, actual[key], f"{path}.{key}")
        return problems
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return [f"{path}: expected a list, got {json.dumps(actual)[:80]}"]
        if len(actual) < len(expected):
            return [f"{path}: expected {len(expected)} items, got {len(actual)}"]
        problems = []
        for i, value in enumerate(expected):
            problems += subset(value, actual[i], f"{path}[{i}]")
        return problems
    if expected != actual or type(expected) is not type(actual):
        if isinstance(expected, (int, float)) and isinstance(actual, (int, float)) and not isinstance(actual, bool) \
                and expected == actual:
            return []
        return [f"{path}: expected {json.dumps(expected)}, got {json.dumps(actual)}"]
    return []


def score_parts(expected, actual):
    """A paste with several outputs (issue 44): every part the sample names, no other, in text order;
    each part's kind equal, its facts a subset, its `findings` ids present."""
    kinds = [p.get("kind") for p in actual]
    if [p.get("kind") for p in expected] != kinds:
        return [f"parts: expected kinds {[p.get('kind') for p in expected]}, got {kinds}"]
    problems = []
    for i, (want, got) in enumerate(zip(expected, actual)):
        problems += subset(want.get("facts", {}), got.get("facts", {}), f"parts[{i}].facts")
        ids = {f.get("id") for f in got.get("findings", [])}
        problems += [f"parts[{i}]: finding {w} missing (got {sorted(ids)})" for w in want.get("findings", []) if w not in ids]
    return problems


def score(expect, result):
    problems = []
    if result.get("kind") != expect.get("kind"):
        problems.append(f"kind: expected {expect.get('kind')}, got {result.get('kind')}")
    problems += subset(expect.get("facts", {}), result.get("facts", {}), "facts")
    if "about" in expect:  # "this is about X, not TensorFlow" (issue 44), a field of its own
        problems += subset(expect["about"], result.get("about"), "about")
    if "parts" in expect:
        problems += score_parts(expect["parts"], result.get("parts", []))
    findings = result.get("findings", [])
    ids = {f.get("id") for f in findings}
    for wanted in expect.get("findings", []):
        if wanted not in ids:
            problems.append(f"finding {wanted} missing (got {sorted(ids)})")
    for banned in expect.get("absent", []):
        if banned.startswith("severity:"):
            severity = banned.split(":", 1)[1]
            bad = [f.get("id") for f in findings if f.get("severity") == severity]
            if bad:
                problems.append(f"no {severity} expected, got {bad}")
        elif banned in ids:
            problems.append(f"finding {banned} must be absent")
    return problems


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    binary, folder = argv[1], argv[2]
    verbose = "--verbose" in argv
    if not os.path.isdir(folder):
        print(f"explain fixtures: FAIL: {folder} does not exist (the samples are part of the repository)")
        return 1
    names = sorted(n for n in os.listdir(folder) if n.endswith(".txt") and n != "README.md")
    passed = 0
    failures = []
    known = []
    with tempfile.TemporaryDirectory(prefix="tfwsl-fixtures-") as tmp:
        for name in names:
            with open(os.path.join(folder, name), "rb") as f:
                data = f.read()
            current_fixture[0] = name
            try:
                expect, body = split_fixture(data)
            except (ValueError, json.JSONDecodeError) as e:
                failures.append((name, [f"unreadable fixture: {e}"]))
                continue
            sample = os.path.join(tmp, name)
            with open(sample, "wb") as f:
                f.write(body)
            run = subprocess.run([binary, "explain", "--json", sample], capture_output=True, timeout=60)
            if run.returncode not in (0, 1, 2):
                failures.append((name, [f"exit status {run.returncode}: {run.stderr.decode('utf-8', 'replace')[:300]}"]))
                continue
            try:
                result = json.loads(run.stdout.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as e:
                failures.append((name, [f"output is not JSON: {e}"]))
                continue
            problems = score(expect, result)
            if name in KNOWN_MISSES:
                if problems:
                    known.append((name, problems))
                else:
                    failures.append((name, [f"marked known_miss ({KNOWN_MISSES[name]}) but it passes now: remove the mark"]))
            elif problems:
                failures.append((name, problems))
            else:
                passed += 1
                if verbose:
                    print(f"ok   {name}")
    for name, problems in failures:
        print(f"FAIL {name}")
        for p in problems:
            print(f"     {p}")
    for name, problems in known:
        print(f"KNOWN MISS {name}: {KNOWN_MISSES[name]}")
        for p in problems:
            print(f"     {p}")
    print(f"{passed} of {len(names)} fixtures passed" + (f" ({len(known)} known misses)" if known else ""))
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
