#pragma once
// What dpkg's own files say, read in-process (no dpkg-query, no apt: a provisioned distro is
// checked without starting a single process). Paths are under `root` so tests can point at a tree.
//   /var/lib/dpkg/status: the installed packages, and any left half-done by a killed run;
//   /var/lib/dpkg/updates/NNNN: journal entries dpkg had not merged when it was stopped
//     (dpkg(1): "dpkg was interrupted, you must manually run 'dpkg --configure -a'");
//   /var/lib/dpkg/lock-frontend, /var/lib/dpkg/lock: the fcntl locks apt and dpkg hold.

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/core/error.hpp"

namespace tfwsl::provision {

struct DpkgState {
  std::set<std::string> installed;           // Status "... ok installed"
  std::vector<std::string> unfinished;       // "cuda-toolkit-12-2 (half-configured)"
  std::vector<std::string> pending_updates;  // numbered files in updates/

  bool interrupted() const { return !unfinished.empty() || !pending_updates.empty(); }
  bool has(const std::string& package) const { return installed.count(package) != 0; }
  std::string describe_interruption() const;
};

Result<DpkgState> read_dpkg_state(const std::filesystem::path& root);

struct DpkgLockHolder {
  pid_t pid = 0;
  std::string name;  // /proc/PID/comm, "?" when unreadable
  std::string lock;  // the lock file
};

// Who holds lock-frontend or lock, as fcntl(F_GETLK) says; nothing when free (or absent).
std::optional<DpkgLockHolder> dpkg_lock_holder(const std::filesystem::path& root);

// Waits up to `limit` for both locks to be free. conflict: "dpkg lock busy (held by PID N, name)".
Status wait_for_dpkg_lock(const std::filesystem::path& root, std::chrono::milliseconds limit);

}  // namespace tfwsl::provision
