# Phases of scripts/test.sh and .ci/run (sourced, not run): each phase is one command with a time
# limit; it prints its start, its duration and how it ended, and adds a line to the phase table.
#
#   run_phase NAME LIMIT_S COMMAND [ARG...]   runs COMMAND under timeout(1): killed (with all its
#                                             children) after LIMIT_S seconds, or at the overall
#                                             deadline when that comes first; returns its status
#   print_phase_table                         the table: one line per phase run so far, and the total
#
# Environment:
#   TFWSL_CI_DEADLINE   seconds since the epoch (set by .ci/run): no phase runs past it, and a phase
#                       that would start after it does not start (status 124, "budget spent")
#   TFWSL_PHASE_TABLE   file the table lines are appended to (set by .ci/run, so that the phases of
#                       scripts/test.sh appear in CI's one table); default: a file of this shell
# Why timeout(1) on every phase: one hung test or build must end CI with a clear message within
# its budget, never eat the whole CI allowance.

: "${TFWSL_PHASE_TABLE:=$(mktemp "${TMPDIR:-/tmp}/tfwsl-phases.XXXXXX")}"
export TFWSL_PHASE_TABLE

phase_limit() {  # wanted limit -> the limit left under TFWSL_CI_DEADLINE
  local limit="$1" left
  if [ -n "${TFWSL_CI_DEADLINE:-}" ]; then
    left=$((TFWSL_CI_DEADLINE - $(date +%s)))
    [ "$left" -lt "$limit" ] && limit="$left"
  fi
  printf '%s\n' "$limit"
}

run_phase() {  # name limit_s command...
  local name="$1" limit; limit=$(phase_limit "$2"); shift 2
  if [ "$limit" -le 0 ]; then
    printf '\n== %s: not started, the CI budget is spent\n' "$name"
    printf '%s\t-\tnot started (budget spent)\n' "$name" >> "$TFWSL_PHASE_TABLE"
    return 124
  fi
  printf '\n== %s (%s, limit %s s)\n' "$name" "$(date +%T)" "$limit"
  local start=$SECONDS rc=0 outcome=ok
  # timeout(1) runs in a process group of its own (so that it can kill the whole tree), where a
  # terminal's Ctrl-C does not reach: this shell passes INT/TERM on, and waits for it to end.
  timeout --kill-after=30 "$limit" "$@" &
  phase_pid=$!
  trap 'kill -TERM "$phase_pid" 2>/dev/null; wait "$phase_pid"; exit 130' INT TERM
  wait "$phase_pid" || rc=$?
  trap - INT TERM
  case "$rc" in
    0) ;;
    124|137) outcome="TIMED OUT after $limit s" ;;
    *) outcome="failed (exit $rc)" ;;
  esac
  printf '   %s took %s s: %s\n' "$name" "$((SECONDS - start))" "$outcome"
  printf '%s\t%s\t%s\n' "$name" "$((SECONDS - start))" "$outcome" >> "$TFWSL_PHASE_TABLE"
  return "$rc"
}

print_phase_table() {
  local name took outcome total=0
  printf '\n== time per phase\n'
  while IFS=$'\t' read -r name took outcome; do
    printf '   %-34s %6s s  %s\n' "$name" "$took" "$outcome"
    [ "$took" = - ] || total=$((total + took))
  done < "$TFWSL_PHASE_TABLE"
  printf '   %-34s %6s s  (%d min %d s)\n' "total" "$total" "$((total / 60))" "$((total % 60))"
}
