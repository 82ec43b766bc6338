#!/usr/bin/env bash
# Proves the README's claim before a change to the build or the dependencies lands: in a fresh
# Debian 12 root (debootstrap --variant=minbase, plus git to clone; nothing else by hand), a clone
# of this repository's committed HEAD passes `CI=true bash .ci/run`, which installs everything
# itself (scripts/install-deps.sh). The clone sits at /work/main in the root, with no shared/
# folder beside it: what the tests need must be in the repository.
#
#   scripts/fresh-root-check.sh [--work DIR] [--ccache DIR] [--bind PATH]... [--mirror URL] [--keep]
#
#   --work DIR     where the root is made (default: a new folder under /var/tmp); about 8 GB
#   --ccache DIR   a ccache folder the root's builds use (bind-mounted at /root/.cache/ccache): a
#                  machine that built this tree before saves most of the compile time; without it
#                  everything compiles from scratch, as on a new CI machine. The host's ccache
#                  base_dir, prefix_command and max_size apply in the root too (same hashes, the
#                  same wrapper, no cleanup to a smaller size in a folder others use)
#   --bind PATH    a host file or folder bind-mounted at the same path in the root, e.g. a compile
#                  wrapper's folder and lock files shared with the machine's other builds
#   --mirror URL   the Debian mirror (default http://deb.debian.org/debian)
#   --keep         keep the root afterwards (default: removed, unless the run failed)
# Environment passed into the root: TFWSL_FUZZ_SECONDS (shorter fuzz runs), TFWSL_JOBS,
# TFWSL_CI_BUDGET_S.
#
# As root, with debootstrap installed (scripts/install-deps.sh installs it). The run happens in a
# private mount namespace (nothing is mounted on the machine itself): /proc, /sys, /dev (FUSE
# included), /dev/pts and /dev/shm are mounted in the root, as the tests need them (mount
# namespaces, loop mounts, Wine). The whole log is kept in WORK/ci.log; the script ends with
# .ci/run's own phase table and test summary, then its own line:
#   fresh-root-check: PASSED|FAILED (.ci/run exit N) in M min S s; log: WORK/ci.log
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)

work="" ccache="" mirror="http://deb.debian.org/debian" keep=0 binds=()
while [ $# -gt 0 ]; do
  case "$1" in
    --work) work="$2"; shift 2 ;;
    --ccache) ccache="$2"; shift 2 ;;
    --bind) binds+=("$2"); shift 2 ;;
    --mirror) mirror="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,31p' "$0"; exit 0 ;;
    *) echo "fresh-root-check: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done
log() { printf 'fresh-root-check: %s\n' "$*" >&2; }
[ "$(id -u)" = 0 ] || { log "must run as root (debootstrap, chroot, mounts)"; exit 2; }
command -v debootstrap >/dev/null || { log "debootstrap is missing: apt-get install debootstrap"; exit 2; }
[ -z "$ccache" ] || [ -d "$ccache" ] || { log "--ccache $ccache is not a folder"; exit 2; }
head_commit=$(git -C "$here" rev-parse HEAD)
[ -n "$work" ] || work=$(mktemp -d /var/tmp/tfwsl-fresh-root.XXXXXX)
mkdir -p "$work"
root="$work/root"
started=$(date +%s)

make_root() {
  [ ! -e "$root" ] || { log "$root exists: give another --work"; exit 2; }
  log "debootstrap bookworm (minbase, plus git) into $root"
  local t=$(date +%s)
  debootstrap --variant=minbase --include=git,ca-certificates bookworm "$root" "$mirror" > "$work/debootstrap.log" 2>&1 \
    || { log "debootstrap failed; see $work/debootstrap.log"; tail -n 20 "$work/debootstrap.log" >&2; exit 1; }
  log "root made in $(( $(date +%s) - t )) s"
}

clone_head() {  # with the root's own git, from the repository mounted read-only
  mkdir -p "$root/mnt/source" "$root/work"
  mount --bind "$here" "$root/mnt/source"
  mount -o remount,bind,ro "$root/mnt/source"
  chroot "$root" git -c safe.directory='*' clone -q /mnt/source /work/main
  chroot "$root" git -c safe.directory='*' -C /work/main checkout -q --detach "$head_commit"
  umount "$root/mnt/source"
  log "cloned $head_commit into /work/main (no shared/ beside it)"
}

mount_system() {
  # The root is made a mount point of its own first: inside it "/" must be one, or the tests'
  # private mount namespaces (unshare -m; mount(2) with MS_REC|MS_PRIVATE on "/") fail with EINVAL.
  mount --bind "$root" "$root"
  mount -t proc proc "$root/proc"
  mount -t sysfs sysfs "$root/sys"
  mount --rbind /dev "$root/dev"
  mount -t tmpfs tmpfs "$root/dev/shm"
  # /tmp stays the root's own folder on disk, as on a CI machine: a tmpfs of half the RAM (11.7 GiB
  # here) made the doctor scenarios' disk.free warn below 20 GiB, which no CI machine shows.
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  if [ -n "$ccache" ]; then
    mkdir -p "$root/root/.cache/ccache"
    mount --bind "$ccache" "$root/root/.cache/ccache"
  fi
  local path
  for path in "${binds[@]}"; do
    if [ -d "$path" ]; then mkdir -p "$root$path"; else mkdir -p "$(dirname "$root$path")"; touch "$root$path"; fi
    mount --bind "$path" "$root$path"
  done
}

run_ci() {
  local env=(HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 CI=true
             TERM=dumb)
  local v
  for v in TFWSL_FUZZ_SECONDS TFWSL_JOBS TFWSL_CI_BUDGET_S; do
    [ -z "${!v:-}" ] || env+=("$v=${!v}")
  done
  if [ -n "$ccache" ] && command -v ccache >/dev/null; then
    v=$(ccache -k base_dir 2>/dev/null || true); [ -z "$v" ] || env+=("CCACHE_BASEDIR=$v")
    v=$(ccache -k prefix_command 2>/dev/null || true); [ -z "$v" ] || env+=("CCACHE_PREFIX=$v")
    v=$(ccache -k max_size 2>/dev/null || true); [ -z "$v" ] || env+=("CCACHE_MAXSIZE=$v")  # never a smaller cleanup
  fi
  chroot "$root" /usr/bin/env -i "${env[@]}" bash -c 'cd /work/main && bash .ci/run'
}

# The mounts live in a private mount namespace: they end with it, even when this script is killed.
if [ "${FRESH_ROOT_INNER:-}" != 1 ]; then
  [ -z "$(git -C "$here" status --porcelain --untracked-files=no)" ] \
    || log "note: uncommitted changes are not checked: the root clones the committed HEAD ($head_commit)"
  make_root
  rc=0
  inner=(--work "$work" --mirror "$mirror")
  [ -z "$ccache" ] || inner+=(--ccache "$ccache")
  for path in "${binds[@]}"; do inner+=(--bind "$path"); done
  FRESH_ROOT_INNER=1 unshare -m --propagation private "$0" "${inner[@]}" 2>&1 | tee "$work/ci.log" || rc=$?
  [ "$rc" = 0 ] && rc=$(cat "$work/ci.rc" 2>/dev/null || echo 1)
  took=$(( $(date +%s) - started ))
  verdict=PASSED; [ "$rc" = 0 ] || verdict=FAILED
  if [ "$keep" = 0 ] && [ "$rc" = 0 ]; then rm -rf "$root"; fi
  echo "fresh-root-check: $verdict (.ci/run exit $rc) in $((took / 60)) min $((took % 60)) s; log: $work/ci.log"
  exit "$rc"
fi

clone_head
mount_system
rc=0
run_ci || rc=$?
echo "$rc" > "$work/ci.rc"
