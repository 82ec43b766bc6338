#pragma once
// The rows of the one table of the checks (check_table.hpp reads them): every id `tfwsl doctor`,
// `tfwsl-agent check` and /v1/checks can report, with its category, who judges it, what it needs,
// what its fault costs and where it is documented. Kept as a constant array so that code naming a
// check outside the verdicts (a value to read, a report to look in) spells it through checked_id,
// which the compiler holds to these rows. A check is added here first.

#include <string_view>

#include "common/check/check.hpp"

namespace tfwsl {

// Who judges a check, from which facts.
enum class CheckSource {
  host,     // the Windows host's facts (win/host): registry, nvidia-smi.exe
  wsl_exe,  // what wsl.exe answers (win/doctor/doctor_checks.cpp)
  doctor,   // the doctor's own: .wslconfig, the bridge to the agent, the two sides compared
  agent,    // the distro's facts from the agent, judged by common/judge (also `tfwsl-agent check`)
};

struct CheckRow {
  std::string_view id;        // "gpu.visible": what the JSON's `id` says
  std::string_view category;  // "gpu": the part of the id before the first dot, a heading in the text
  CheckSource source;
  // The check ids and preconditions (k_platform_windows) it needs, separated by spaces: a failure
  // of one of them folds this check under it (check_fold.hpp).
  std::string_view needs;
  // What its fault costs: fail (no GPU or no TensorFlow until it is fixed) or warn (it works, but
  // slower or fragile). A probe that ran past its time limit fails whatever check it feeds.
  CheckStatus fault;
  std::string_view doc;  // where it is documented: "docs/doctor.md#checks"
};

namespace check_rows_detail {

inline constexpr std::string_view k_doctor_md = "docs/doctor.md#checks";
using S = CheckSource;
inline constexpr CheckStatus k_fail = CheckStatus::fail;
inline constexpr CheckStatus k_warn = CheckStatus::warn;

// Every check, in the order of the doctor's report and of docs/doctor.md's table. Each row's needs
// say why in a comment: what the check reads, and whose fault makes it fail or not run.
inline constexpr CheckRow rows[] = {
    // Windows facts (registry, nvidia-smi.exe, wsl.exe) exist only on Windows.
    {"host.windows-build", "host", S::host, "platform.windows", k_fail, k_doctor_md},
    {"host.virtualization", "host", S::host, "platform.windows", k_fail, k_doctor_md},
    {"host.nvidia-driver", "host", S::host, "platform.windows", k_fail, k_doctor_md},
    // The model of the driver's GPU.
    {"host.gpu-driver-model", "host", S::host, "platform.windows host.nvidia-driver", k_fail, k_doctor_md},
    {"host.tdr", "host", S::host, "platform.windows", k_warn, k_doctor_md},
    {"host.fast-startup", "host", S::host, "platform.windows", k_warn, k_doctor_md},
    // wsl.exe refuses to list anything with virtualization off.
    {"wsl.installed", "wsl", S::wsl_exe, "platform.windows host.virtualization", k_fail, k_doctor_md},
    {"wsl.version", "wsl", S::wsl_exe, "platform.windows wsl.installed", k_warn, k_doctor_md},
    {"wsl.default-version", "wsl", S::wsl_exe, "platform.windows wsl.installed", k_warn, k_doctor_md},
    {"wsl.distro", "wsl", S::wsl_exe, "platform.windows wsl.installed", k_fail, k_doctor_md},
    // The agent runs in the chosen distro; forwarding is tried once it listens.
    {"wsl.agent", "wsl", S::doctor, "wsl.distro", k_fail, k_doctor_md},
    {"wsl.localhost-forwarding", "wsl", S::doctor, "wsl.agent", k_fail, k_doctor_md},
    // .wslconfig is read from the user's profile folder on either platform; a policy or a setting
    // WSL ignores is read from .wslconfig and the registry alone.
    {"wslconfig.parse", "wslconfig", S::doctor, "", k_fail, k_doctor_md},
    {"wslconfig.memory", "wslconfig", S::doctor, "", k_fail, k_doctor_md},
    {"wslconfig.overrides", "wslconfig", S::doctor, "", k_fail, "docs/wslconfig.md#show-what-wsl-will-use"},
    // Everything below is the agent's observation of the distro, so it needs the agent. /dev/dxg
    // and /usr/lib/wsl/lib (libcuda, the loader path) exist only in a WSL 2 distro, and the
    // latter comes from the Windows NVIDIA driver. gpuSupport=false (wslconfig.overrides) takes
    // /dev/dxg away.
    {"linux.dxg", "linux", S::agent, "wsl.agent wsl.distro wslconfig.overrides", k_fail, k_doctor_md},
    {"linux.libcuda", "linux", S::agent, "wsl.agent wsl.distro host.nvidia-driver", k_fail, k_doctor_md},
    {"linux.no-linux-driver", "linux", S::agent, "wsl.agent", k_fail, k_doctor_md},
    {"linux.ldconfig", "linux", S::agent, "wsl.agent wsl.distro host.nvidia-driver", k_fail, k_doctor_md},
    // CUDA sees a GPU through /dev/dxg and the stub libcuda, not past a Linux driver, and not in TCC mode.
    {"gpu.visible", "gpu", S::agent,
     "wsl.agent linux.dxg linux.libcuda linux.no-linux-driver linux.ldconfig host.gpu-driver-model", k_fail,
     k_doctor_md},
    {"gpu.compute-capability", "gpu", S::agent, "gpu.visible", k_fail, k_doctor_md},
    {"cuda.toolkit", "cuda", S::agent, "wsl.agent", k_warn, k_doctor_md},
    {"cudnn", "cudnn", S::agent, "wsl.agent", k_warn, k_doctor_md},
    {"python.version", "python", S::agent, "wsl.agent", k_fail, k_doctor_md},
    {"tf.installed", "tf", S::agent, "wsl.agent python.version", k_fail, k_doctor_md},
    {"tf.build", "tf", S::agent, "tf.installed", k_fail, k_doctor_md},
    {"tf.gpu", "tf", S::agent, "tf.installed tf.build gpu.visible", k_fail, k_doctor_md},
    // On Windows the doctor tells the judge .wslconfig's memory=, and this says whether it is in effect.
    {"mem.effective", "mem", S::agent, "wsl.agent", k_warn, k_doctor_md},
    {"disk.free", "disk", S::agent, "wsl.agent", k_fail, k_doctor_md},
    {"data.location", "data", S::agent, "wsl.agent", k_warn, k_doctor_md},
    // Windows' driver version vs NVML's, which lives in /usr/lib/wsl/lib with libcuda.
    {"gpu.driver-parity", "gpu", S::doctor, "wsl.agent host.nvidia-driver linux.libcuda", k_warn, k_doctor_md},
};

}  // namespace check_rows_detail

inline constexpr const auto& k_check_rows = check_rows_detail::rows;

// A check id spelled in code, held to the rows as it compiles: checked_id("tf.gpu") is "tf.gpu", and
// checked_id("tf.gpus") does not compile (the throw is not a constant expression), so a renamed or
// misspelt id cannot silently match nothing (tests/layering: layering.checked-id).
consteval std::string_view checked_id(std::string_view id) {
  for (const CheckRow& row : k_check_rows)
    if (row.id == id) return id;
  throw "checked_id: not an id of common/check/check_rows.hpp";
}

}  // namespace tfwsl
