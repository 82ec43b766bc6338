#pragma once
// `tfwsl wslconfig set ... --apply`: makes WSL read the new .wslconfig and checks from inside that
// it did. WSL reads the file only when its VM starts, so: `wsl --shutdown`, then wait until
// `wsl --list --running` lists nothing (the docs' "8 second rule": the VM takes a few seconds to
// stop after the last distribution does; https://learn.microsoft.com/windows/wsl/wsl-config),
// bounded by a timeout; then start the distro by asking it for /proc/meminfo and nproc, and compare
// MemTotal, SwapTotal and the processor count with what the file says WSL will use.
//
// The waiting runs on the Clock port and a sleeper, so tests neither wait nor depend on timing.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/clock.hpp"
#include "common/core/error.hpp"
#include "common/wslconfig/wslconfig_effective.hpp"
#include "win/wsl/wsl_client.hpp"

namespace tfwsl::wslconfig {

struct ApplySettings {
  std::string distro;  // the distribution to start and look into; empty: WSL's default
  std::chrono::milliseconds stop_timeout{std::chrono::seconds(60)};
  std::chrono::milliseconds poll_interval{std::chrono::milliseconds(500)};
};

using Sleeper = std::function<void(std::chrono::milliseconds)>;

// What the started distro reports.
struct DistroShape {
  std::optional<std::uint64_t> mem_total_bytes;   // /proc/meminfo MemTotal
  std::optional<std::uint64_t> swap_total_bytes;  // /proc/meminfo SwapTotal
  std::optional<std::uint64_t> processors;        // nproc
};

// /proc/meminfo text and nproc's output -> the shape (fields that are absent stay empty).
DistroShape parse_distro_shape(std::string_view meminfo, std::string_view nproc);

enum class Verdict { took_effect, not_in_effect, unknown };
const char* to_string(Verdict verdict);

struct SettingCheck {
  std::string key;                        // "memory", "processors", "swap"
  std::optional<std::uint64_t> expected;  // bytes, or the count for processors
  std::optional<std::uint64_t> observed;
  Verdict verdict = Verdict::unknown;
  std::string summary;  // one line for people
};

// memory against MemTotal (the kernel keeps a few percent: 85 % to 102 % of the size counts,
// common/check/memory_band.hpp, the band the doctor's mem.effective uses too), swap against SwapTotal (within 2 %, 0
// exactly), processors against nproc (equal).
std::vector<SettingCheck> compare_shape(const std::vector<EffectiveValue>& expected, const DistroShape& observed);

struct ApplyOutcome {
  std::chrono::milliseconds waited_for_stop{0};  // from the shutdown until nothing ran
  int running_polls = 0;                         // `wsl --list --running` calls
  DistroShape observed;
  std::vector<SettingCheck> checks;
  bool all_took_effect() const;
};

// Shuts WSL down, waits (at most settings.stop_timeout on `clock`, sleeping poll_interval between
// polls), starts the distro and compares. `progress` is told each step ("wsl --shutdown", ...).
Result<ApplyOutcome> apply_and_verify(wsl::WslClient& wsl, const Clock& clock, const Sleeper& sleep,
                                      const std::vector<EffectiveValue>& expected, const ApplySettings& settings,
                                      const std::function<void(const std::string&)>& progress = {});

}  // namespace tfwsl::wslconfig
