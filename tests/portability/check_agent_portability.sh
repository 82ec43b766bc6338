#!/usr/bin/env bash
# Fails when a binary could not start on Ubuntu 22.04: a glibc symbol version above the ceiling, or a
# shared library beyond the C library family (libstdc++ and libgcc_s must be linked in statically).
#   check_agent_portability.sh BINARY [MAX_GLIBC]   (default 2.35, Ubuntu 22.04's glibc)
set -euo pipefail
bin="$1"
ceiling="${2:-2.35}"
[ -x "$bin" ] || { echo "not an executable: $bin" >&2; exit 2; }

highest=$(objdump -T "$bin" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -n1)
echo "highest GLIBC symbol version needed: ${highest:-none} (ceiling $ceiling)"
if [ -n "$highest" ] && [ "$(printf '%s\n%s\n' "$highest" "$ceiling" | sort -V | tail -n1)" != "$ceiling" ]; then
  echo "FAIL: $bin needs GLIBC_$highest; symbols:" >&2
  objdump -T "$bin" | grep "GLIBC_$highest" >&2
  exit 1
fi

allowed='^(linux-vdso\.so\.1|libc\.so\.6|libm\.so\.6|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|/lib64/ld-linux-x86-64\.so\.2|ld-linux-x86-64\.so\.2)$'
bad=0
while read -r lib _; do
  [ -z "$lib" ] && continue
  if ! [[ "$lib" =~ $allowed ]]; then
    echo "FAIL: $bin links $lib dynamically (only the C library family is allowed)" >&2
    bad=1
  fi
done < <(ldd "$bin" | sed 's/^[[:space:]]*//')
[ "$bad" = 0 ] || exit 1
echo "ok: $bin is portable to glibc $ceiling"
