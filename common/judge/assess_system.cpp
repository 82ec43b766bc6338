// The system verdicts: memory the VM has, free disk, and data on a slow Windows mount.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/check/memory_band.hpp"
#include "common/judge/verdict_parts.hpp"
#include "common/util/byte_size_text.hpp"
#include "common/util/shell_quote.hpp"
#include "common/wsl/drive_path.hpp"

namespace tfwsl::judge::detail {

namespace {

// On Windows: is .wslconfig's memory= in effect? MemTotal against the configured size
// (common/check/memory_band.hpp), or WSL's default when none is configured.
CheckResult windows_memory_verdict(std::uint64_t mem_total_kb, const WindowsMemory& w) {
  const double total = double(mem_total_kb) * 1024;
  std::vector<std::string> details{"MemTotal inside WSL: " + format_gib(total)};
  if (w.host_ram_bytes) details.push_back("Windows RAM: " + format_gib(double(*w.host_ram_bytes)));
  if (!w.configured_bytes)
    return verdict("mem.effective", CheckStatus::ok,
                   "WSL has " + format_gib(total) + " (no memory= in .wslconfig: WSL's default, half of the RAM)", {},
                   details);
  const double configured = double(*w.configured_bytes);
  details.push_back(".wslconfig memory=: " + format_gib(configured) + " (" + w.wslconfig_path + ")");
  const double ratio = total / configured;
  if (ratio > k_memtotal_low_ratio && ratio < k_memtotal_high_ratio)
    return verdict("mem.effective", CheckStatus::ok, ".wslconfig memory= is in effect (" + format_gib(total) + ")", {},
                   details);
  return verdict("mem.effective", CheckStatus::warn,
                 ".wslconfig asks for " + format_gib(configured) + " but the VM has " + format_gib(total) +
                     ": the setting is not in effect",
                 "stop WSL completely so it re-reads .wslconfig: wsl --shutdown; if it still differs, check that " +
                     w.wslconfig_path +
                     " is saved as UTF-8 without BOM and holds memory= under [wsl2] (see wslconfig.parse)",
                 details);
}

}  // namespace

CheckResult check_memory(const LinuxFacts& f, const std::optional<WindowsMemory>& windows_memory) {
  if (windows_memory) {
    if (!f.system.mem_total_kb)
      return verdict("mem.effective", CheckStatus::skip, "unknown: MemTotal inside the distro was not reported");
    return windows_memory_verdict(*f.system.mem_total_kb, *windows_memory);
  }
  if (!f.system.mem_total_kb)
    return verdict("mem.effective", CheckStatus::warn, "MemTotal not readable from /proc/meminfo");
  const char* where = f.wsl.kind == agent_api::WslKind::not_wsl
                          ? " on this machine (not WSL: .wslconfig does not apply)"
                          : " in this VM";
  return verdict("mem.effective", CheckStatus::ok, "MemTotal " + format_gib(*f.system.mem_total_kb * 1024) + where, {},
                 {fmt::format("MemTotal: {} kB", *f.system.mem_total_kb)});
}

CheckResult check_disk(const LinuxFacts& f, const CheckPolicy& p) {
  if (!f.system.disk_free_bytes)
    return verdict("disk.free", CheckStatus::warn, "free space unknown: " + f.system.disk_error);
  auto free = *f.system.disk_free_bytes;
  auto summary = format_gib(free) + " free on the distro's filesystem";
  std::string fix =
      "Free space (pip cache: pip cache purge; apt: sudo apt-get clean), or grow the VHD; also keep the "
      "Windows drive holding ext4.vhdx from filling up.";
  if (free < p.disk_fail_bytes)
    return verdict("disk.free", CheckStatus::fail, summary + ", below " + format_gib(p.disk_fail_bytes), fix);
  if (free < p.disk_warn_bytes)
    return verdict("disk.free", CheckStatus::warn, summary + ", below " + format_gib(p.disk_warn_bytes), fix);
  return verdict("disk.free", CheckStatus::ok, summary);
}

namespace {

// tfwsl data push takes the folder as Windows names it: under the distro's automount root (wsl.conf,
// "/mnt/" by default) /mnt/c/data is C:\data; any other path is given as it is.
std::string as_windows_folder(const std::string& linux_path, const std::string& automount_root) {
  return wsl::windows_path_of_drive_mount(linux_path, automount_root).value_or(linux_path);
}

}  // namespace

CheckResult check_data_location(const LinuxFacts& f) {
  if (f.system.data_paths.empty())
    return verdict("data.location", CheckStatus::skip, "no project or dataset paths given (--data PATH)");
  std::vector<std::string> details, slow;
  for (const auto& d : f.system.data_paths) {
    details.push_back(fmt::format("{}: {} ({})", d.path, d.mount_point, d.fs_type));
    if (d.slow) slow.push_back(d.path);
  }
  if (!slow.empty()) {
    CheckResult r = verdict(
        "data.location", CheckStatus::warn, "on a slow Windows mount (drvfs/9p): " + join(slow),
        std::string("copy it into the distro's own filesystem, verified and resumable, and use it there: ") +
            powershell_command({"tfwsl", "data", "push", as_windows_folder(slow.front(), f.wsl.automount_root)}) +
            " (it lands in ~/datasets)",
        details);
    r.fix_command = {"data", "push", as_windows_folder(slow.front(), f.wsl.automount_root)};
    return r;
  }
  return verdict("data.location", CheckStatus::ok, "data is on the Linux filesystem", {}, details);
}

}  // namespace tfwsl::judge::detail
