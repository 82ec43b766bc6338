#pragma once
// The one table of exit codes for both executables (docs/cli.md repeats it for users).

namespace tfwsl::exit_code {

inline constexpr int k_ok = 0;             // everything ok
inline constexpr int k_warning = 1;        // a report with warnings only
inline constexpr int k_failure = 2;        // a failed check, an error finding, or a command that failed
inline constexpr int k_usage = 2;          // bad command line (unknown subcommand, bad option): same as CLI11
inline constexpr int k_internal = 3;       // an unexpected exception: a bug, please report it
inline constexpr int k_interrupted = 130;  // Ctrl-C (SIGINT) or SIGTERM: stopped cleanly, as shells report 128+2

// A command that runs another (tfwsl run, tfwsl shell) exits with that command's status, so its own
// failures take the codes `docker run`, `env` and `timeout` keep for themselves (docs/cli.md).
inline constexpr int k_run_refused = 125;         // refused or failed before the command started (bad usage too)
inline constexpr int k_run_cannot_execute = 126;  // the command is there but cannot be run
inline constexpr int k_run_not_found = 127;       // the command is not found

// What `--help` lists (k_usage shares 2 with k_failure, so it has no row of its own).
struct Meaning {
  int code;
  const char* text;
};
inline constexpr Meaning k_meanings[] = {
    {k_ok, "everything ok"},
    {k_warning, "warnings only"},
    {k_failure, "a problem: a failed check, an error finding, a failed command, or bad usage"},
    {k_internal, "an internal error: a bug, please report it (with --log-level debug output)"},
    {k_interrupted, "interrupted (Ctrl-C)"},
};

}  // namespace tfwsl::exit_code
