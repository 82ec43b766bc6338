#!/usr/bin/env bash
# Installs everything tfwsl needs to build and test on a fresh Debian 12 machine, as root.
#
# Only apt is used (no other network is reachable on the build machines). Sources that Debian 12
# does not ship in the form we need (cpp-httplib 0.18.7 with Debian's CVE patches; yaml-cpp built
# with MinGW) are fetched as Debian *source* packages through a private apt configuration kept in
# the cache folder, so the machine's own apt set-up is never modified.
#
# A second run with everything present is fast and does not touch the network.
#
#   scripts/install-deps.sh [--no-windows]
#
# Environment:
#   TFWSL_DEPS   cache folder for fetched sources and the MinGW yaml-cpp (default ~/.cache/tfwsl-deps)
set -euo pipefail

want_windows=1
for arg in "$@"; do
  case "$arg" in
    --no-windows) want_windows=0 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "install-deps: unknown option '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

deps="${TFWSL_DEPS:-$HOME/.cache/tfwsl-deps}"
mkdir -p "$deps"
log() { printf 'install-deps: %s\n' "$*" >&2; }

if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null; then
  log "must run as root (apt-get install); re-run with sudo or as root"; exit 1
fi
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"

linux_pkgs=(cmake g++ make ninja-build pkg-config ca-certificates dpkg-dev xz-utils
  libboost1.81-dev libyaml-cpp-dev libspdlog-dev libfmt-dev catch2 nlohmann-json3-dev
  libcli11-dev libxxhash-dev libexpected-dev
  clang libclang-rt-14-dev          # libFuzzer + ASan/UBSan for the fuzz smoke runs
  binutils file rsync coreutils python3 ccache
  libfuse3-dev fuse3)               # fuse3: the dataset benchmark's delaying FUSE passthrough
windows_pkgs=(g++-mingw-w64-x86-64-posix binutils-mingw-w64-x86-64 wine64)

missing=()
pkgs=("${linux_pkgs[@]}")
[ "$want_windows" = 1 ] && pkgs+=("${windows_pkgs[@]}")
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  log "installing ${#missing[@]} Debian packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  log "Debian packages: all present"
fi

# --- private apt configuration for source packages -------------------------------------------
apt_dir="$deps/apt"
apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list"
          -o "Dir::Etc::SourceParts=$apt_dir/sources.list.d"
          -o "Dir::State::Lists=$apt_dir/lists"
          -o "Dir::Cache::archives=$apt_dir/archives")
fetch_source() { # name=version  destination-folder
  local spec="$1" dest="$2" work
  [ -d "$dest" ] && return 0
  if [ ! -f "$apt_dir/lists/.updated" ]; then
    mkdir -p "$apt_dir/sources.list.d" "$apt_dir/lists/partial" "$apt_dir/archives/partial"
    : > "$apt_dir/sources.list"
    cat > "$apt_dir/sources.list.d/tfwsl-src.sources" <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    log "updating the private source-package lists in $apt_dir"
    apt-get "${apt_opts[@]}" update -qq
    touch "$apt_dir/lists/.updated"
  fi
  work=$(mktemp -d "$deps/fetch.XXXXXX")
  log "fetching source package $spec"
  (cd "$work" && apt-get "${apt_opts[@]}" source --download-only -qq "$spec" 2>&1 | grep -v 'unsandboxed' >&2 || true)
  local dsc; dsc=$(ls "$work"/*.dsc 2>/dev/null | head -n1)
  [ -n "$dsc" ] || { log "could not fetch $spec: is deb.debian.org reachable?"; rm -rf "$work"; exit 1; }
  # dpkg-source -x verifies the checksums and applies Debian's patches (the CVE fixes).
  # The .dsc itself was authenticated by apt (its hash is in the signed Sources index), so
  # gpgv's "no public key" for the uploader's signature is noise and is filtered out.
  (cd "$work" && dpkg-source -q -x "$dsc" unpacked 2>&1 | grep -v -e '^gpgv:' >&2 || true)
  [ -d "$work/unpacked" ] || { log "dpkg-source could not unpack $dsc"; exit 1; }
  mv "$work/unpacked" "$dest"
  rm -rf "$work"
}

fetch_source cpp-httplib=0.18.7-1+deb13u1 "$deps/cpp-httplib-0.18.7"
grep -q 'CPPHTTPLIB_VERSION "0.18.7"' "$deps/cpp-httplib-0.18.7/httplib.h" \
  || { log "unexpected httplib.h in $deps/cpp-httplib-0.18.7"; exit 1; }

# spdlog's own .cpp files, to build it once as a static library (cmake/dependencies.cmake) against
# the headers of libspdlog-dev: the source package of the same Debian version.
spdlog_version=$(dpkg-query -W -f='${Version}' libspdlog-dev 2>/dev/null || true)
[ "$spdlog_version" = "1:1.10.0+ds-0.4" ] \
  || log "warning: libspdlog-dev is '$spdlog_version', the spdlog sources fetched are 1:1.10.0+ds-0.4"
fetch_source spdlog=1:1.10.0+ds-0.4 "$deps/spdlog-1.10.0"
[ -f "$deps/spdlog-1.10.0/src/spdlog.cpp" ] || { log "unexpected spdlog source in $deps/spdlog-1.10.0"; exit 1; }

if [ "$want_windows" = 1 ]; then
  prefix="$deps/mingw-yaml-cpp"
  if [ ! -f "$prefix/lib/libyaml-cpp.a" ]; then
    fetch_source yaml-cpp=0.7.0+dfsg-8 "$deps/yaml-cpp-0.7.0"
    log "building yaml-cpp 0.7.0 with MinGW-w64 into $prefix"
    here=$(cd "$(dirname "$0")/.." && pwd)
    rm -rf "$deps/yaml-cpp-build"
    cmake -S "$deps/yaml-cpp-0.7.0" -B "$deps/yaml-cpp-build" -G Ninja \
      -DCMAKE_TOOLCHAIN_FILE="$here/cmake/mingw-w64-x86_64.cmake" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_INSTALL_PREFIX="$prefix" -DYAML_CPP_BUILD_TESTS=OFF -DYAML_CPP_BUILD_TOOLS=OFF \
      -DYAML_CPP_BUILD_CONTRIB=OFF -DYAML_BUILD_SHARED_LIBS=OFF >/dev/null
    cmake --build "$deps/yaml-cpp-build" >/dev/null
    cmake --install "$deps/yaml-cpp-build" >/dev/null
    rm -rf "$deps/yaml-cpp-build"
  else
    log "MinGW yaml-cpp: present"
  fi
fi
log "done; cache: $deps"
