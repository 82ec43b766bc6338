#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <thread>

#include "common/util/ascii.hpp"
#include "linux/provision/dpkg_state.hpp"

namespace tfwsl::provision {
namespace {

// One paragraph's Package and Status into `state`.
void add_package(DpkgState& state, const std::string& package, const std::string& status) {
  if (package.empty() || status.empty()) return;
  std::istringstream words(status);
  std::string want, flag, current;
  words >> want >> flag >> current;
  if (current == "installed")
    state.installed.insert(package);
  else if (current != "not-installed" && current != "config-files")
    state.unfinished.push_back(package + " (" + current + ")");
}

std::string proc_name(const std::filesystem::path& root, pid_t pid) {
  std::ifstream in(root / "proc" / std::to_string(pid) / "comm");
  std::string name;
  if (!in || !std::getline(in, name) || name.empty()) return "?";
  return name;
}

}  // namespace

std::string DpkgState::describe_interruption() const {
  std::vector<std::string> parts;
  if (!pending_updates.empty())
    parts.push_back(fmt::format("{} unmerged journal file(s) in /var/lib/dpkg/updates", pending_updates.size()));
  if (!unfinished.empty()) {
    std::string list;
    for (const auto& p : unfinished) list += (list.empty() ? "" : ", ") + p;
    parts.push_back("packages left half-done: " + list);
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

Result<DpkgState> read_dpkg_state(const std::filesystem::path& root) {
  DpkgState state;
  const auto status_path = root / "var/lib/dpkg/status";
  std::ifstream in(status_path);
  if (!in)
    return make_error(ErrorCode::not_found,
                      fmt::format("{} cannot be read: is this a Debian or Ubuntu system?", status_path.string()));
  std::string line, package, status;
  while (std::getline(in, line)) {
    if (line.empty()) {
      add_package(state, package, status);
      package.clear();
      status.clear();
    } else if (line.rfind("Package:", 0) == 0) {
      package = std::string(trim(std::string_view(line).substr(8)));
    } else if (line.rfind("Status:", 0) == 0) {
      status = std::string(trim(std::string_view(line).substr(7)));
    }
  }
  add_package(state, package, status);
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(root / "var/lib/dpkg/updates", ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; }))
      state.pending_updates.push_back(name);
  }
  std::sort(state.pending_updates.begin(), state.pending_updates.end());
  return state;
}

std::optional<DpkgLockHolder> dpkg_lock_holder(const std::filesystem::path& root) {
  for (const char* name : {"var/lib/dpkg/lock-frontend", "var/lib/dpkg/lock"}) {
    const auto path = root / name;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    struct flock probe {};
    probe.l_type = F_WRLCK;
    probe.l_whence = SEEK_SET;
    const int rc = ::fcntl(fd, F_GETLK, &probe);
    ::close(fd);
    if (rc == 0 && probe.l_type != F_UNLCK)
      return DpkgLockHolder{probe.l_pid, proc_name(root, probe.l_pid), "/" + std::string(name)};
  }
  return std::nullopt;
}

Status wait_for_dpkg_lock(const std::filesystem::path& root, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (true) {
    auto holder = dpkg_lock_holder(root);
    if (!holder) return {};
    if (std::chrono::steady_clock::now() >= deadline)
      return make_error(
          ErrorCode::conflict,
          fmt::format("dpkg lock busy (held by PID {}, {}) after waiting {} s", holder->pid, holder->name,
                      std::chrono::duration_cast<std::chrono::seconds>(limit).count()),
          fmt::format("{} is locked; let that apt or dpkg finish, then run provision again", holder->lock));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

}  // namespace tfwsl::provision
