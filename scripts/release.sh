#!/usr/bin/env bash
# Makes a tfwsl release from a clean checkout (docs/building.md, "Making a release"):
#   scripts/release.sh [--out DIR] [--no-build] [--allow-dirty] [--windows-build DIR] [--linux-build DIR]
# builds tfwsl.exe (the windows-mingw preset) and tfwsl-agent (the linux preset, the portable build the
# CLI deploys), or reuses those build folders with --no-build, and writes into DIR (default dist/):
#   tfwsl-VERSION-windows-x64.zip, tfwsl-VERSION.spdx.json, winget/ and scoop/ manifests, SHA256SUMS.
# The same commit gives the same bytes: times come from SOURCE_DATE_EPOCH (default: the commit's time).
# Signing (optional): TFWSL_SIGN_CERT and TFWSL_SIGN_KEY (PEM files) make osslsigncode Authenticode-sign
# tfwsl.exe; TFWSL_SIGN_TIMESTAMP_URL adds an RFC 3161 timestamp from that server.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export PYTHONDONTWRITEBYTECODE=1  # no __pycache__ in the tree
out=dist build=1 allow_dirty=0 windows_build=build/windows linux_build=build/linux
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --no-build) build=0; shift ;;
    --allow-dirty) allow_dirty=1; shift ;;
    --windows-build) windows_build="$2"; shift 2 ;;
    --linux-build) linux_build="$2"; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "release: unknown option $1 (see scripts/release.sh --help)" >&2; exit 2 ;;
  esac
done
die() { echo "release: $*" >&2; exit 1; }

git rev-parse --git-dir >/dev/null 2>&1 || die "$root is not a git checkout: a release is made from one (its commit is stamped in)"
git update-index -q --refresh || true
if ! git diff-index --quiet HEAD --; then
  [ "$allow_dirty" = 1 ] || die "the checkout has uncommitted changes (git status): commit them, or pass --allow-dirty for a test release (its binaries say -dirty)"
fi
commit=$(git rev-parse --short=7 HEAD)
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct HEAD)}"

if [ "$build" = 1 ]; then
  [ -f "$windows_build/CMakeCache.txt" ] || cmake --preset windows-mingw >/dev/null
  [ -f "$linux_build/CMakeCache.txt" ] || cmake --preset linux >/dev/null
  cmake --build "$windows_build" --target tfwsl
  cmake --build "$linux_build" --target tfwsl-agent tfwsl
fi
exe="$windows_build/win/tfwsl.exe" agent="$linux_build/linux/tfwsl-agent"
[ -f "$exe" ] || die "$exe is not built (run without --no-build, or cmake --build --preset windows-mingw)"
[ -f "$agent" ] || die "$agent is not built (run without --no-build, or cmake --build --preset linux)"
cache_value() { sed -n "s/^$1:[A-Z]*=//p" "$linux_build/CMakeCache.txt"; }
version=$(cache_value CMAKE_PROJECT_VERSION)
deps=$(cache_value TFWSL_DEPS)
source_dir=$(cache_value CMAKE_HOME_DIRECTORY)
[ -n "$version" ] || die "no CMAKE_PROJECT_VERSION in $linux_build/CMakeCache.txt"
vcpkg_version=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' vcpkg.json)
[ "$vcpkg_version" = "$version" ] || die "vcpkg.json says version $vcpkg_version, CMakeLists.txt's project() $version: make them one"

# The binaries must be this commit's, and say so.
stamp=$("$agent" --version)
case "$stamp" in
  "tfwsl-agent $version ($commit)"|"tfwsl-agent $version ($commit-dirty)") ;;
  *) die "$agent says '$stamp', not tfwsl-agent $version ($commit): rebuild it" ;;
esac
# The agent must start in Ubuntu 22.04 (tests/portability), and neither binary may hold a path of the
# machine that built it.
tests/portability/check_agent_portability.sh "$agent" 2.35 >/dev/null || die "$agent is not portable (tests/portability)"
for bin in "$exe" "$agent"; do
  for path in "$source_dir" "$root" "$deps" "$(cd "$windows_build" && pwd)" "$(cd "$linux_build" && pwd)"; do
    [ -n "$path" ] || continue
    if strings -a "$bin" | grep -qF -- "$path"; then
      die "$bin contains the build path $path (strings -a $bin | grep -F $path): the -ffile-prefix-map options of CMakeLists.txt missed it"
    fi
  done
done

work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
# The DSC v3 manifests, from the code that serves them (the Linux tfwsl prints the same bytes).
mkdir -p "$work/dsc"
for type in Tfwsl/WslConfig Tfwsl/Profile; do
  file=$(printf '%s' "$type" | tr 'A-Z/' 'a-z.').dsc.resource.json
  "$linux_build/win/tfwsl" dsc manifest --resource "$type" > "$work/dsc/$file" || die "tfwsl dsc manifest --resource $type failed"
done
python3 scripts/release/inventory.py --source "$source_dir" --deps "$deps" --components packaging/components.json \
  --binary "$windows_build:win/tfwsl.exe" --binary "$linux_build:linux/tfwsl-agent" --json "$work/inventory.json" \
  || die "a file built into the binaries belongs to no component of packaging/components.json (above)"
python3 scripts/release/notices.py --components packaging/components.json --source "$root" --deps "$deps" \
  --check THIRD-PARTY-NOTICES.txt >/dev/null || die "THIRD-PARTY-NOTICES.txt is out of date (above)"

# DIR is replaced: only when it is empty or a release made before (it holds SHA256SUMS).
if [ -d "$out" ] && [ -n "$(ls -A "$out")" ] && [ ! -f "$out/SHA256SUMS" ]; then
  die "$out holds files that are not a release (no SHA256SUMS): refusing to replace it; pick another --out"
fi
rm -rf "$out"
python3 scripts/release/make_release.py --out "$out" --version "$version" --commit "$commit" \
  --epoch "$SOURCE_DATE_EPOCH" --exe "$exe" --agent "$agent" --readme packaging/README.txt \
  --license LICENSE --notices THIRD-PARTY-NOTICES.txt --inventory "$work/inventory.json" \
  --components packaging/components.json --source "$root" --deps "$deps" --dsc-manifests "$work/dsc" \
  ${TFWSL_SIGN_CERT:+--sign-cert "$TFWSL_SIGN_CERT"} ${TFWSL_SIGN_KEY:+--sign-key "$TFWSL_SIGN_KEY"} \
  ${TFWSL_SIGN_TIMESTAMP_URL:+--timestamp-url "$TFWSL_SIGN_TIMESTAMP_URL"}
(cd "$out" && sha256sum -c --quiet SHA256SUMS) || die "SHA256SUMS does not check"
echo "release: $out (SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH, commit $commit)"
