#!/usr/bin/env bash
# deep_input.sh WINE64 TFWSL_EXE: the depth bound of issue 38 (item 3) under Wine, whose threads have
# Windows' small stacks: a pyproject.toml with a dotted key or a table header 20,000 parts deep
# (40 KB) crashed `tfwsl.exe migrate` there (exit 1, migrate's "runs natively" code), and JSON
# nested 10,000 deep on stdin crashed `tfwsl.exe dsc test`. Each must now exit 2 with the error that
# names the input and its line, and never crash (the CMake test also fails on Wine's crash dump).
set -u
here=$(cd "$(dirname "$0")" && pwd)
wine64="$1" tfwsl="$2"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import os, sys
work = sys.argv[1]
def project(name, text):
    os.makedirs(os.path.join(work, name))
    with open(os.path.join(work, name, "pyproject.toml"), "w") as f:
        f.write('[project]\nname = "deep"\ndependencies = ["tensorflow==2.15.0"]\n' + text)
project("dotted", "a." * 20000 + "a = 1\n")
project("header", "[" + "a." * 20000 + "a]\nb = 1\n")
for depth in (10000, 200000):
    with open(os.path.join(work, f"bogus-{depth}.json"), "w") as f:
        f.write('{"bogus": ' + "[" * depth + "]" * depth + "}")
    with open(os.path.join(work, f"memory-{depth}.json"), "w") as f:
        f.write('{"memory": ' + "[" * depth + "]" * depth + "}")
PY
failed=0
# expect CODE REGEX STDIN ARGS...: tfwsl.exe ARGS, STDIN on its stdin, exits CODE with output matching REGEX.
expect() {
  local want="$1" pattern="$2" input="$3" output got
  shift 3
  output=$("$here/wine_run.sh" "$wine64" "$tfwsl" "$@" <"$input" 2>&1); got=$?
  printf 'tfwsl %s (stdin %s): exit %s\n%s\n' "$*" "$(basename "$input")" "$got" "${output:0:2000}"
  # Messages wrap at the terminal's width (80 columns here): as printed, or as one line, wraps joined.
  flat=$(tr -d '\r' <<<"$output" | sed -z 's/\n */ /g')
  if [ "$got" != "$want" ] || ! { grep -qE -- "$pattern" <<<"$output" || grep -qE -- "$pattern" <<<"$flat"; }; then
    echo "FAIL: expected exit $want and output matching: $pattern" >&2
    failed=1
  fi
}
for shape in dotted header; do
  expect 2 "pyproject.toml:4:1: cannot be read as TOML \(line 4: nested deeper than 64 levels" /dev/null \
    migrate --dry-run "Z:$work/$shape"
done
for doc in bogus-10000 bogus-200000 memory-10000 memory-200000; do
  expect 2 '"tfwsl dsc: the desired state \(stdin\):1: nested deeper than 64 levels' "$work/$doc.json" \
    dsc test --resource Tfwsl/WslConfig
done
exit "$failed"
