#!/usr/bin/env bash
# Installs everything tfwsl needs to build and test on a fresh Debian 12 machine, as root.
#
# Only apt is used (no other network is reachable on the build machines). Sources that Debian 12
# does not ship in the form we need (cpp-httplib 0.18.7 with Debian's CVE patches; yaml-cpp built
# with MinGW) are fetched as Debian *source* packages through a private apt configuration kept in
# the cache folder, so the machine's own apt set-up is never modified.
#
# Tested on Debian 12 (bookworm), amd64. A second run with everything present is fast: it reads
# Debian's source lists at most once a day (to see new revisions) and fetches nothing unchanged.
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
  clang-format-14                   # layering.clang-format: every source as .clang-format says
  binutils file rsync coreutils python3 ccache
  python3-venv                      # tests/wsl_standin/provisioned_distro.py and integration.agent.venv: python3 -m venv
  python3-jsonschema                # validates the --json outputs against docs/schema (integration.schema.*)
  python3-ipykernel                 # integration.run.native: tfwsl notebook's kernel, listed by a real `jupyter kernelspec`
  debootstrap apt-utils             # integration.provision.chroot: a bookworm root, a local apt repository (apt-ftparchive)
  podman docker-registry gpg gpg-agent  # integration.container.provision: an image on a loopback registry, a signed repository
  libfuse3-dev fuse3                # fuse3: the dataset benchmark's delaying FUSE passthrough
  libtomlplusplus-dev               # toml++ 3.3 (header-only): migrate reads pyproject.toml with it, both builds
  zip unzip osslsigncode            # scripts/release.sh: the archive, its install test, optional Authenticode signing
  cloud-init                        # integration.provision.cloud_init: `cloud-init schema` checks tfwsl provision --cloud-init
  ansible-core                      # the fleet recipe's localhost run (docs/fleet/ansible)
  zsh fish                          # integration.cli.completion: the completion scripts in real shells
  ansible-lint)                     # integration.fleet.ansible-rules: the playbooks as ansible-lint 6.13 reads them
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
# Versions are never pinned to a Debian revision: Debian replaces a revision when it publishes a
# security update, and the old one disappears from the archive. We name the upstream version and
# the oldest acceptable revision (the one carrying the CVE patches we rely on) and take the newest
# revision on offer; the cache remembers which revision it holds and is refreshed when it changes.
apt_dir="$deps/apt"
apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list"
          -o "Dir::Etc::SourceParts=$apt_dir/sources.list.d"
          -o "Dir::State::Lists=$apt_dir/lists"
          -o "Dir::State::Status=$apt_dir/status"
          -o "Dir::Cache=$apt_dir/cache"
          -o "Dir::Cache::archives=$apt_dir/archives")
lists_max_age_min=$((24 * 60))  # the source lists are re-read once a day, so new revisions are seen

update_source_lists() {  # [force]
  local stamp="$apt_dir/lists/.updated"
  if [ "${1:-}" != force ] && [ -f "$stamp" ] && [ -z "$(find "$stamp" -mmin +"$lists_max_age_min")" ]; then
    return 0
  fi
  mkdir -p "$apt_dir/sources.list.d" "$apt_dir/lists/partial" "$apt_dir/archives/partial" "$apt_dir/cache"
  : > "$apt_dir/sources.list"
  : > "$apt_dir/status"
  cat > "$apt_dir/sources.list.d/tfwsl-src.sources" <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  log "updating the private source-package lists in $apt_dir"
  if ! apt-get "${apt_opts[@]}" update -qq; then
    [ -f "$stamp" ] && { log "warning: cannot refresh the source lists; using the cached ones"; return 0; }
    log "cannot read the Debian source lists: is deb.debian.org reachable?"; exit 1
  fi
  touch "$stamp"
}

upstream_of() {  # Debian version -> upstream version (no epoch, no Debian revision)
  local v="${1#*:}"
  printf '%s\n' "${v%-*}"
}

# The newest Debian revision of source package NAME whose upstream version is UPSTREAM.
newest_revision() {  # name upstream
  local name="$1" upstream="$2" best="" v
  while read -r v; do
    [ "$(upstream_of "$v")" = "$upstream" ] || continue
    if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$best"; then best="$v"; fi
  done < <(apt-cache "${apt_opts[@]}" showsrc "$name" 2>/dev/null | sed -n 's/^Version: //p')
  printf '%s\n' "$best"
}

# Unpacks source package NAME=VERSION into DEST; DEST/.debian-version records which revision it
# holds, and a different VERSION replaces it.
fetch_source() {  # name version destination-folder
  local name="$1" version="$2" dest="$3" work
  if [ -f "$dest/.debian-version" ] && [ "$(cat "$dest/.debian-version")" = "$version" ]; then return 0; fi
  update_source_lists
  work=$(mktemp -d "$deps/fetch.XXXXXX")
  log "fetching source package $name=$version"
  (cd "$work" && apt-get "${apt_opts[@]}" source --download-only -qq "$name=$version" 2>&1 | grep -v 'unsandboxed' >&2 || true)
  local dsc; dsc=$(ls "$work"/*.dsc 2>/dev/null | head -n1)
  [ -n "$dsc" ] || { log "could not fetch $name=$version: is deb.debian.org reachable?"; rm -rf "$work"; exit 1; }
  # dpkg-source -x verifies the checksums and applies Debian's patches (the CVE fixes).
  # The .dsc itself was authenticated by apt (its hash is in the signed Sources index), so
  # gpgv's "no public key" for the uploader's signature is noise and is filtered out.
  (cd "$work" && dpkg-source -q -x "$dsc" unpacked 2>&1 | grep -v -e '^gpgv:' >&2 || true)
  [ -d "$work/unpacked" ] || { log "dpkg-source could not unpack $dsc"; exit 1; }
  printf '%s\n' "$version" > "$work/unpacked/.debian-version"
  rm -rf "$dest"
  mv "$work/unpacked" "$dest"
  rm -rf "$work"
}

# cpp-httplib: Debian 12 ships 0.11.4, which lacks fixes we need; trixie's 0.18.7 with at least the
# revision that carries CVE-2025-46728, CVE-2025-52887 and CVE-2025-53629
# (https://security-tracker.debian.org/tracker/source-package/cpp-httplib).
httplib_upstream=0.18.7
httplib_min=0.18.7-1+deb13u1
httplib_dir="$deps/cpp-httplib-$httplib_upstream"
update_source_lists
httplib_version=$(newest_revision cpp-httplib "$httplib_upstream")
if [ -z "$httplib_version" ]; then
  update_source_lists force
  httplib_version=$(newest_revision cpp-httplib "$httplib_upstream")
fi
if [ -z "$httplib_version" ] && [ -f "$httplib_dir/.debian-version" ]; then
  httplib_version=$(cat "$httplib_dir/.debian-version")
  log "warning: Debian no longer lists cpp-httplib $httplib_upstream; keeping the cached $httplib_version"
fi
[ -n "$httplib_version" ] || { log "Debian lists no cpp-httplib $httplib_upstream source package"; exit 1; }
dpkg --compare-versions "$httplib_version" ge "$httplib_min" \
  || { log "cpp-httplib $httplib_version is older than $httplib_min (the CVE fixes): refusing it"; exit 1; }
fetch_source cpp-httplib "$httplib_version" "$httplib_dir"
grep -q "CPPHTTPLIB_VERSION \"$httplib_upstream\"" "$httplib_dir/httplib.h" \
  || { log "unexpected httplib.h in $httplib_dir"; exit 1; }

# spdlog's own .cpp files, to build it once as a static library (cmake/dependencies.cmake) against
# the headers of libspdlog-dev: the source package of exactly the installed version.
source_version_of() {  # installed binary package -> its source package's version
  dpkg-query -W -f='${source:Version}' "$1" 2>/dev/null
}
spdlog_version=$(source_version_of libspdlog-dev)
[ "$(upstream_of "$spdlog_version")" = "1.10.0+ds" ] \
  || { log "libspdlog-dev is '$spdlog_version'; cmake/dependencies.cmake expects spdlog 1.10.0"; exit 1; }
fetch_source spdlog "$spdlog_version" "$deps/spdlog-1.10.0"
[ -f "$deps/spdlog-1.10.0/src/spdlog.cpp" ] || { log "unexpected spdlog source in $deps/spdlog-1.10.0"; exit 1; }

# fmt's own format.cc likewise, built once as a static library: header-only fmt compiled its whole
# implementation into every file that formats (about 40% of each file's compile time in the fuzz
# build).
fmt_version=$(source_version_of libfmt-dev)
[ "$(upstream_of "$fmt_version")" = "9.1.0+ds1" ] \
  || { log "libfmt-dev is '$fmt_version'; cmake/dependencies.cmake expects fmt 9.1.0"; exit 1; }
fetch_source fmtlib "$fmt_version" "$deps/fmt-9.1.0"
[ -f "$deps/fmt-9.1.0/src/format.cc" ] || { log "unexpected fmt source in $deps/fmt-9.1.0"; exit 1; }

if [ "$want_windows" = 1 ]; then
  prefix="$deps/mingw-yaml-cpp"
  yaml_version=$(source_version_of libyaml-cpp-dev)  # the MinGW build matches the Linux headers
  [ "$(upstream_of "$yaml_version")" = "0.7.0+dfsg" ] \
    || { log "libyaml-cpp-dev is '$yaml_version'; cmake/dependencies.cmake expects yaml-cpp 0.7.0"; exit 1; }
  if [ ! -f "$prefix/lib/libyaml-cpp.a" ] || [ "$(cat "$prefix/.debian-version" 2>/dev/null)" != "$yaml_version" ]; then
    fetch_source yaml-cpp "$yaml_version" "$deps/yaml-cpp-0.7.0"
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
    printf '%s\n' "$yaml_version" > "$prefix/.debian-version"
  else
    log "MinGW yaml-cpp: present"
  fi
fi
log "done; cache: $deps"
