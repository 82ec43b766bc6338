#!/usr/bin/env python3
"""scripts/release/inventory.py names each file by packaging/components.json, and a file nothing
names fails it: a header of a Debian package the table lacks (libfuse3-dev's, which
scripts/install-deps.sh installs for the dataset benchmark), a file no package owns.

  inventory_rules_test.py --source SRC --deps DEPS
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

# A header no component names, of a package install-deps installs (zlib's was used before, and a
# fresh Debian root has no zlib1g-dev: the test failed there, not on a CI machine with it by hand).
k_unnamed_header = "/usr/include/fuse3/fuse.h"


def classify(args, paths):
    r = subprocess.run([sys.executable, f"{args.source}/scripts/release/inventory.py", "--source", args.source,
                        "--deps", args.deps, "--components", f"{args.source}/packaging/components.json",
                        "--classify", *paths], capture_output=True, text=True)
    return r.returncode, json.loads(r.stdout), r.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    ap.add_argument("--deps", required=True)
    args = ap.parse_args()
    failures = []
    named = {
        "/usr/include/boost/version.hpp": "boost",
        "/usr/include/nlohmann/json.hpp": "nlohmann-json",
        f"{args.deps}/cpp-httplib-0.18.7/httplib.h": "cpp-httplib",
        f"{args.source}/profiles/wsl-messages.json": "wsl-messages",
        f"{args.source}/common/core/error.hpp": "tfwsl",
    }
    code, out, err = classify(args, list(named))
    if code != 0:
        failures.append(f"known files were not all named: {err}")
    for path, want in named.items():
        got = out["named"].get(str(pathlib.Path(path).resolve()))
        if got != want:
            failures.append(f"{path}: named {got!r}, expected {want!r}")
    with tempfile.NamedTemporaryFile(prefix="tfwsl-unowned-", suffix=".h") as stray:
        code, out, err = classify(args, [k_unnamed_header, stray.name])
    unnamed = {u["path"]: u["debian_package"] for u in out["unnamed"]}
    print(err, end="")
    if code != 1:
        failures.append(f"files of no component passed (exit {code})")
    if unnamed.get(k_unnamed_header) != "libfuse3-dev":
        failures.append(f"{k_unnamed_header} not reported as libfuse3-dev's: {unnamed}")
    if len(unnamed) != 2 or "add it there" not in err:
        failures.append(f"the unnamed files were not both reported with the fix: {unnamed} {err}")
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
