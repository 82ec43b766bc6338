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
  // The container route only (a profile with route: container): the agent's check of that route's
  // provision steps (win/tasks/doctor_container_route.hpp). Not in every report: check_ids() leaves
  // them out, check_ids(CheckSource::container) lists them.
  container,
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
  // docs/doctor.md's "Checks" table is generated from these two (tfwsl-check-docs): what the check
  // reads, and what it says.
  std::string_view reads;
  std::string_view says;
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
    {"host.windows-build", "host", S::host, "platform.windows", k_fail, k_doctor_md,
     "registry `CurrentBuild` (RtlGetVersion when unreadable) + `UBR`",
     "build 19044 (Windows 10 21H2) or later, else no GPU in WSL 2"},
    {"host.virtualization", "host", S::host, "platform.windows", k_fail, k_doctor_md,
     "PF_VIRT_FIRMWARE_ENABLED, the `vmcompute` service key",
     "virtualization in firmware and the Virtual Machine Platform"},
    {"host.nvidia-driver", "host", S::host, "platform.windows", k_fail, k_doctor_md,
     "nvidia-smi.exe, else the display-class `DriverVersion` (31.0.15.3758 = 537.58), else the NVIDIA uninstall key",
     "a driver at least the profile's minimum"},
    // The model of the driver's GPU.
    {"host.gpu-driver-model", "host", S::host, "platform.windows host.nvidia-driver", k_fail, k_doctor_md,
     "nvidia-smi.exe `driver_model.current`", "TCC GPUs are invisible to WSL 2 (fail)"},
    {"host.tdr", "host", S::host, "platform.windows", k_warn, k_doctor_md, R"(`GraphicsDrivers\TdrDelay`, `TdrLevel`)",
     "long kernels under WDDM are reset after TdrDelay seconds, in WSL too"},
    {"host.fast-startup", "host", S::host, "platform.windows", k_warn, k_doctor_md,
     R"(`Session Manager\Power\HiberbootEnabled`)", "Fast Startup is a known cause of broken localhost forwarding"},
    // wsl.exe refuses to list anything with virtualization off.
    {"wsl.installed", "wsl", S::wsl_exe, "platform.windows host.virtualization", k_fail, k_doctor_md, "wsl.exe runs",
     "WSL present; virtualization/optional-component errors"},
    {"wsl.version", "wsl", S::wsl_exe, "platform.windows wsl.installed", k_warn, k_doctor_md, "`wsl --version`",
     "Store WSL version; an inbox wsl.exe (usage text / invalid option) warns"},
    {"wsl.default-version", "wsl", S::wsl_exe, "platform.windows wsl.installed", k_warn, k_doctor_md,
     "`wsl --status` or the Lxss key", "new distros get WSL 2"},
    {"wsl.distro", "wsl", S::wsl_exe, "platform.windows wsl.installed", k_fail, k_doctor_md, "`wsl -l -v`",
     "the chosen distro exists and runs as WSL 2"},
    // The agent runs in the chosen distro; forwarding is tried once it listens.
    {"wsl.agent", "wsl", S::doctor, "wsl.distro", k_fail, k_doctor_md, "the bridge",
     "the agent answered; if not, which checks stay unknown"},
    {"wsl.localhost-forwarding", "wsl", S::doctor, "wsl.agent", k_fail, k_doctor_md, "the bridge",
     "127.0.0.1 reaches the agent, or the stdio fallback was used"},
    // .wslconfig is read from the user's profile folder on either platform; a policy or a setting
    // WSL ignores is read from .wslconfig and the registry alone.
    {"wslconfig.parse", "wslconfig", S::doctor, "", k_fail, k_doctor_md, "`.wslconfig`",
     "well-formed (common/wslconfig lint)"},
    {"wslconfig.memory", "wslconfig", S::doctor, "", k_fail, k_doctor_md, "`.wslconfig`",
     "memory= readable and within the RAM"},
    {"wslconfig.overrides", "wslconfig", S::doctor, "", k_fail, "docs/wslconfig.md#show-what-wsl-will-use",
     R"(`.wslconfig` + `HKLM\Software\Policies\WSL`)",
     "which value WSL really uses and why: a computer policy (Group Policy / Intune, the values of WSL's ADMX: "
     "`AllowNetworkingModeUserSetting=0` with `DefaultNetworkingMode`, `AllowKernelUserSetting`, "
     "`AllowNestedVirtualization`, `AllowFirewallUserSetting`, ...) that makes WSL ignore a setting (warn, naming the "
     "policy and the value WSL uses), `sparseVhd=true`, which current WSL ignores (warn), `gpuSupport=false`, which "
     "hides the GPU from every distro (fail), or `AllowWSL=0` (fail) (`win/doctor/wslconfig_overrides.hpp`)"},
    // Everything below is the agent's observation of the distro, so it needs the agent. /dev/dxg
    // and /usr/lib/wsl/lib (libcuda, the loader path) exist only in a WSL 2 distro, and the
    // latter comes from the Windows NVIDIA driver. gpuSupport=false (wslconfig.overrides) takes
    // /dev/dxg away.
    {"linux.dxg", "linux", S::agent, "wsl.agent wsl.distro wslconfig.overrides", k_fail, k_doctor_md,
     "the agent's facts (`/v1/facts`): `/dev/dxg`, `/etc/wsl.conf`",
     "GPU paravirtualization reaches the distro: WSL 2, no `[gpu] enabled=false`; skip outside WSL"},
    {"linux.libcuda", "linux", S::agent, "wsl.agent wsl.distro host.nvidia-driver", k_fail, k_doctor_md,
     "the agent's facts (`/v1/facts`): libcuda loaded by the agent",
     "the Windows driver's `libcuda.so.1` from `/usr/lib/wsl/lib` is the one that loads"},
    {"linux.no-linux-driver", "linux", S::agent, "wsl.agent", k_fail, k_doctor_md,
     "the agent's facts (`/v1/facts`): dpkg, copies of libcuda",
     "no Linux NVIDIA driver package or copy of libcuda inside WSL; skip outside WSL"},
    {"linux.ldconfig", "linux", S::agent, "wsl.agent wsl.distro host.nvidia-driver", k_fail, k_doctor_md,
     "the agent's facts (`/v1/facts`): `/usr/lib/wsl/lib`, `ld.wsl.conf`",
     "the driver's libraries are mounted and on the loader path; skip outside WSL"},
    // CUDA sees a GPU through /dev/dxg and the stub libcuda, not past a Linux driver, and not in TCC mode.
    {"gpu.visible", "gpu", S::agent,
     "wsl.agent linux.dxg linux.libcuda linux.no-linux-driver linux.ldconfig host.gpu-driver-model", k_fail,
     k_doctor_md, "the agent's facts (`/v1/facts`): libcuda's device list", "CUDA sees at least one GPU, named"},
    {"gpu.compute-capability", "gpu", S::agent, "gpu.visible", k_fail, k_doctor_md,
     "the agent's facts (`/v1/facts`): libcuda's compute capability",
     "the profile's TensorFlow runs on the GPU: not below its minimum, not a Blackwell GPU the stock wheels lack "
     "kernels for"},
    {"cuda.toolkit", "cuda", S::agent, "wsl.agent", k_warn, k_doctor_md,
     "the agent's facts (`/v1/facts`): `/usr/local/cuda*`, apt's sources and lists, dpkg's version of apt",
     "a system toolkit of the profile's series, if any (none is fine for `tensorflow[and-cuda]`); warns when "
     "NVIDIA's CUDA repository is in apt's sources and apt's lists hold no index of it (apt 3's sqv refuses its "
     "SHA1-bound key since 2026-02-01: every `apt-get update` fails)"},
    {"cudnn", "cudnn", S::agent, "wsl.agent", k_warn, k_doctor_md, "the agent's facts (`/v1/facts`): the system cuDNN",
     "a system cuDNN of the profile's series, if any"},
    {"python.version", "python", S::agent, "wsl.agent", k_fail, k_doctor_md,
     "the agent's facts (`/v1/facts`): the venv's or the system python3",
     "a Python the profile's TensorFlow release has wheels for"},
    {"tf.installed", "tf", S::agent, "wsl.agent python.version", k_fail, k_doctor_md,
     "the agent's facts (`/v1/facts`): the TensorFlow probe", "TensorFlow imports, in the profile's specifier"},
    {"tf.build", "tf", S::agent, "tf.installed", k_fail, k_doctor_md,
     "the agent's facts (`/v1/facts`): `tf.sysconfig.get_build_info()`",
     "a CUDA build, for the CUDA and cuDNN the profile wants"},
    {"tf.gpu", "tf", S::agent, "tf.installed tf.build gpu.visible", k_fail, k_doctor_md,
     "the agent's facts (`/v1/facts`): `tf.config.list_physical_devices('GPU')`",
     "TensorFlow lists the GPU; if not, why, from its log (docs/explain.md)"},
    // On Windows the doctor tells the judge .wslconfig's memory=, and this says whether it is in effect.
    {"mem.effective", "mem", S::agent, "wsl.agent", k_warn, k_doctor_md,
     "`.wslconfig` memory= vs MemTotal in the agent's facts",
     "the setting is in effect (MemTotal within 85-102 % of it); natively, what the machine has (no `.wslconfig` "
     "applies)"},
    {"disk.free", "disk", S::agent, "wsl.agent", k_fail, k_doctor_md,
     "the agent's facts (`/v1/facts`): free space of the distro's root",
     "at least 20 GiB (warn) and 5 GiB (fail) free"},
    {"data.location", "data", S::agent, "wsl.agent", k_warn, k_doctor_md,
     "the agent's facts (`/v1/facts`) or `--data PATH`",
     "data on the Linux filesystem, not on a slow Windows mount (drvfs/9p)"},
    // Windows' driver version vs NVML's, which lives in /usr/lib/wsl/lib with libcuda.
    {"gpu.driver-parity", "gpu", S::doctor, "wsl.agent host.nvidia-driver linux.libcuda", k_warn, k_doctor_md,
     "Windows driver vs NVML inside WSL",
     "the same driver; a mismatch warns with `wsl --shutdown`. Judged by NVIDIA's branch, not by the strings: inside "
     "WSL the driver's libraries may report the Linux release of the Windows driver's branch (573.76 on Windows is "
     "570.194 there, both R570; `nvidia_driver_branch_width` in `profiles/compat.yaml`), which is parity"},
    // The container route (route: container): the distro half of `tfwsl provision --check`.
    {"container.engine", "container", S::container, "wsl.distro", k_fail, k_doctor_md,
     "`tfwsl-agent provision --check`: dpkg's status", "Podman is installed in the distro"},
    {"container.toolkit", "container", S::container, "container.engine", k_fail, k_doctor_md,
     "`tfwsl-agent provision --check`: the toolkit repository's key and entry, dpkg's status",
     "NVIDIA's container toolkit (nvidia-ctk) is installed from NVIDIA's repository"},
    {"container.cdi-spec", "container", S::container, "container.toolkit", k_fail, k_doctor_md,
     "`tfwsl-agent provision --check`: `/etc/cdi/nvidia.yaml` and `/usr/lib/wsl/drivers/*/libcuda.so.1.1`",
     "the CDI spec is present and names the driver store WSL shares now (a Windows driver update leaves it stale: "
     "`tfwsl doctor --fix` regenerates it)"},
    {"container.image", "container", S::container, "container.engine", k_fail, k_doctor_md,
     "`tfwsl-agent provision --check`: `podman image inspect` as the user",
     "the profile's image is in the user's image store, by its digest"},
    {"container.gpu", "container", S::container, "container.cdi-spec container.image", k_fail, k_doctor_md,
     "`tfwsl-agent provision --check`: the image run with `--device nvidia.com/gpu=all`",
     "TensorFlow inside a container of the image sees the GPU"},
    {"container.tensorflow", "container", S::container, "container.gpu", k_fail, k_doctor_md,
     "`tfwsl-agent provision --check`: the same run", "TensorFlow in the image runs an op on GPU:0"},
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
