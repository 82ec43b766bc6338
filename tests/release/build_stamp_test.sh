#!/usr/bin/env bash
# cmake/build_stamp.cmake names the commit in a git checkout (with -dirty's mark when a tracked file
# changed), takes cmake/commit.txt in a tarball made by `git archive` (export-subst), and says
# "unknown" when it has neither.   build_stamp_test.sh CMAKE SCRIPT
set -euo pipefail
cmake="$1" script="$2"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*"; exit 1; }
stamp() { "$cmake" -DSOURCE_DIR="$1" -DOUTPUT="$work/out.cpp" -P "$script"; cat "$work/out.cpp"; }

mkdir -p "$work/tarball/cmake"
printf '$Format:%%H$\n' > "$work/tarball/cmake/commit.txt"
stamp "$work/tarball" | grep -q 'k_commit = "unknown"' || fail "an unfilled commit.txt did not give unknown"
printf '0123456789abcdef0123456789abcdef01234567\n' > "$work/tarball/cmake/commit.txt"
stamp "$work/tarball" | grep -q 'k_commit = "0123456"' || fail "git archive's commit.txt was not used"
stamp "$work/tarball" | grep -q 'k_modified = false' || fail "a tarball counted as modified"

git init -q "$work/repo"
git -C "$work/repo" -c user.name=t -c user.email=t@t commit -q --allow-empty -m one
echo a > "$work/repo/f" && git -C "$work/repo" add f
git -C "$work/repo" -c user.name=t -c user.email=t@t commit -q -m two
head=$(git -C "$work/repo" rev-parse --short=7 HEAD)
stamp "$work/repo" | grep -q "k_commit = \"$head\"" || fail "the checkout's commit $head was not stamped"
stamp "$work/repo" | grep -q 'k_modified = false' || fail "a clean checkout counted as modified"
echo untracked > "$work/repo/new"
stamp "$work/repo" | grep -q 'k_modified = false' || fail "an untracked file counted as modified"
echo b > "$work/repo/f"
stamp "$work/repo" | grep -q 'k_modified = true' || fail "a changed tracked file did not count as modified"
echo "ok: the stamp is the commit, git archive's commit.txt, or unknown; -dirty for tracked changes"
