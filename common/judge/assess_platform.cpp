// The platform verdicts: WSL's GPU plumbing (/dev/dxg, the libcuda stub, no Linux driver, the
// loader path) and the GPU CUDA sees.
#include <fmt/format.h>

#include <optional>

#include "common/judge/verdict_parts.hpp"
#include "common/util/byte_size_text.hpp"
#include "common/util/shell_quote.hpp"

namespace tfwsl::judge::detail {
namespace {

// Quoted for bash: the package names come from dpkg, in the distro.
std::string removal_command(const std::vector<std::string>& packages) {
  std::vector<std::string> argv{"sudo", "apt-get", "remove", "--purge"};
  argv.insert(argv.end(), packages.begin(), packages.end());
  return bash_command(argv);
}

}  // namespace

using agent_api::WslKind;

namespace {

// /etc/wsl.conf [gpu] enabled=false: WSL starts the distro without /dev/dxg and /usr/lib/wsl/lib.
// With /dev/dxg still there the line was written since the distro started, and hides the GPU at its
// next start.
CheckResult gpu_disabled_by_wsl_conf(const LinuxFacts& f) {
  const std::string fix =
      "remove enabled=false under [gpu] in /etc/wsl.conf (sudo nano /etc/wsl.conf), then in "
      "Windows: wsl --terminate " +
      distro_for_command(f);
  if (f.wsl.dxg)
    return verdict("linux.dxg", CheckStatus::warn,
                   "/etc/wsl.conf has [gpu] enabled=false: the GPU is gone at this distro's next start", fix);
  return verdict("linux.dxg", CheckStatus::fail,
                 "no /dev/dxg: /etc/wsl.conf has [gpu] enabled=false, which hides the GPU", fix, {f.wsl.dxg_error});
}

}  // namespace

CheckResult check_dxg(const LinuxFacts& f) {
  if (probe_timed_out(f, "wsl")) return timeout_verdict("linux.dxg", "wsl");
  if (!is_wsl(f)) return verdict("linux.dxg", CheckStatus::skip, "not WSL: /dev/dxg is only needed inside WSL 2");
  if (f.wsl.kind == WslKind::wsl1)
    return verdict("linux.dxg", CheckStatus::fail, "this distro runs as WSL 1: no GPU is available in WSL 1",
                   "In Windows: wsl --set-version " + distro_for_command(f) + " 2", {"kernel: " + f.wsl.kernel});
  if (f.wsl.gpu_disabled) return gpu_disabled_by_wsl_conf(f);
  if (f.wsl.dxg) return verdict("linux.dxg", CheckStatus::ok, "/dev/dxg present (GPU paravirtualization is on)");
  return verdict("linux.dxg", CheckStatus::fail, "no /dev/dxg: not WSL 2, or GPU paravirtualization is off",
                 "Check that [gpu] enabled is not false in /etc/wsl.conf and gpuSupport is not false in .wslconfig, "
                 "update WSL (wsl --update) and the Windows NVIDIA driver, then wsl --shutdown.",
                 {f.wsl.dxg_error, "kernel: " + f.wsl.kernel});
}

CheckResult check_libcuda(const LinuxFacts& f, const CheckPolicy& p) {
  if (probe_timed_out(f, "gpu")) return timeout_verdict("linux.libcuda", "gpu");
  const auto& g = f.gpu;
  if (!g.libcuda_loaded)
    return verdict(
        "linux.libcuda", CheckStatus::fail, "libcuda.so.1 not found",
        is_wsl(f)
            ? "The Windows NVIDIA driver provides /usr/lib/wsl/lib/libcuda.so.1: install or update it in "
              "Windows" +
                  (p.windows_driver_floor.empty() ? std::string() : " (" + p.windows_driver_floor + " or later)") +
                  ", then wsl --shutdown."
            : "Install the NVIDIA driver for this machine (it provides libcuda.so.1).",
        {g.libcuda_error});
  bool from_wsl = g.libcuda_path.rfind("/usr/lib/wsl/", 0) == 0;
  if (is_wsl(f) && !from_wsl)
    return verdict("linux.libcuda", CheckStatus::fail,
                   "libcuda.so.1 resolves to " + g.libcuda_path + ", not the WSL stub in /usr/lib/wsl/lib",
                   "A Linux NVIDIA driver inside WSL shadows the Windows one: remove it (see linux.no-linux-driver) "
                   "and run 'sudo ldconfig'.",
                   {"loaded: " + g.libcuda_path});
  return verdict("linux.libcuda", CheckStatus::ok,
                 "libcuda.so.1 is " + g.libcuda_path + (is_wsl(f) ? " (the WSL stub)" : " (native driver)"));
}

CheckResult check_no_linux_driver(const LinuxFacts& f) {
  if (probe_timed_out(f, "linux-driver")) return timeout_verdict("linux.no-linux-driver", "linux-driver");
  if (!is_wsl(f))
    return verdict("linux.no-linux-driver", CheckStatus::skip, "not WSL: a Linux NVIDIA driver is expected here");
  std::vector<std::string> details;
  for (const auto& p : f.driver.packages) details.push_back("package: " + p);
  for (const auto& c : f.driver.libcuda_copies) details.push_back("libcuda copy: " + c);
  if (!f.driver.dpkg_error.empty()) details.push_back("dpkg: " + f.driver.dpkg_error);
  if (f.driver.packages.empty() && f.driver.libcuda_copies.empty())
    return verdict("linux.no-linux-driver", CheckStatus::ok, "no Linux NVIDIA driver inside WSL", {}, details);
  const std::string removal = f.driver.packages.empty()
                                  ? "find the package owning it (" +
                                        bash_command({"dpkg", "-S", f.driver.libcuda_copies.front()}) +
                                        ") and remove it with sudo apt-get remove --purge"
                                  : removal_command(f.driver.packages);
  return verdict(
      "linux.no-linux-driver", CheckStatus::fail,
      "a Linux NVIDIA driver is installed inside WSL: " +
          join(f.driver.packages.empty() ? f.driver.libcuda_copies : f.driver.packages),
      "Remove it: " + removal +
          " ; install only cuda-toolkit-12-x from NVIDIA's wsl-ubuntu repository, never 'cuda' or 'cuda-drivers'.",
      details);
}

CheckResult check_ldconfig(const LinuxFacts& f) {
  if (probe_timed_out(f, "wsl")) return timeout_verdict("linux.ldconfig", "wsl");
  if (!is_wsl(f)) return verdict("linux.ldconfig", CheckStatus::skip, "not WSL: ld.wsl.conf is only needed inside WSL");
  if (!f.wsl.wsl_lib_dir)
    return verdict("linux.ldconfig", CheckStatus::fail,
                   "no /usr/lib/wsl/lib: the Windows driver's libraries are not mounted",
                   "Update the Windows NVIDIA driver and WSL (wsl --update), then wsl --shutdown.");
  if (!f.wsl.ld_wsl_conf)
    return verdict(
        "linux.ldconfig", CheckStatus::warn, "/etc/ld.so.conf.d/ld.wsl.conf does not list /usr/lib/wsl/lib",
        "Check [automount] ldconfig in /etc/wsl.conf (remove 'ldconfig = false'), then wsl --shutdown; or add "
        "/usr/lib/wsl/lib to a file in /etc/ld.so.conf.d and run 'sudo ldconfig'.",
        {"ld.wsl.conf: " + (f.wsl.ld_wsl_conf_text.empty() ? std::string("(absent)") : f.wsl.ld_wsl_conf_text)});
  return verdict("linux.ldconfig", CheckStatus::ok, "ld.wsl.conf puts /usr/lib/wsl/lib on the loader path", {},
                 {"/usr/lib/wsl/lib: " + join(f.wsl.wsl_lib_files)});
}

CheckResult check_gpu_visible(const LinuxFacts& f) {
  if (probe_timed_out(f, "gpu")) return timeout_verdict("gpu.visible", "gpu");
  const auto& g = f.gpu;
  std::vector<std::string> details;
  if (g.cuda_driver_version)
    details.push_back(
        fmt::format("CUDA driver API {}.{}", *g.cuda_driver_version / 1000, (*g.cuda_driver_version % 1000) / 10));
  if (!g.nvml_driver_version.empty()) details.push_back("driver " + g.nvml_driver_version + " (" + g.nvml_source + ")");
  if (!g.nvml_error.empty()) details.push_back("NVML: " + g.nvml_error);
  if (!g.devices.empty()) {
    std::vector<std::string> names;
    for (const auto& d : g.devices) names.push_back(d.name);
    return verdict("gpu.visible", CheckStatus::ok,
                   fmt::format("{} GPU(s) through libcuda: {}", g.devices.size(), join(names)), {}, details);
  }
  details.insert(details.begin(), g.libcuda_error);
  std::string why = g.libcuda_loaded ? g.libcuda_error : "libcuda.so.1 not found";
  return verdict(
      "gpu.visible", CheckStatus::fail, "no GPU visible to CUDA: " + why,
      "Fix the linux.* checks above first; in Windows, check that nvidia-smi sees the GPU and that it is not in "
      "TCC mode, then wsl --shutdown.",
      details);
}

namespace {

// A GPU newer than every stock wheel (compute capability 12.0, Blackwell): pip's TensorFlow fails on
// it whatever the profile pins, so say so before anything is installed, with what does run there.
std::optional<CheckResult> stock_wheels_verdict(const LinuxFacts& f, const CheckPolicy& p) {
  if (p.stock_fail_cc_major == 0) return std::nullopt;
  std::vector<std::string> details, too_new;
  for (const auto& d : f.gpu.devices) {
    details.push_back(
        fmt::format("{}: compute capability {}.{}, {}", d.name, d.cc_major, d.cc_minor, format_gib(d.memory_bytes)));
    if (std::make_pair(d.cc_major, d.cc_minor) >= std::make_pair(p.stock_fail_cc_major, p.stock_fail_cc_minor))
      too_new.push_back(fmt::format("{} ({}.{})", d.name, d.cc_major, d.cc_minor));
  }
  if (too_new.empty()) return std::nullopt;
  const std::string container = p.container.empty() ? std::string("nvcr.io/nvidia/tensorflow") : p.container;
  const std::string run = fmt::format(
      "docker run --rm --gpus all {} python -c 'import tensorflow as tf; "
      "print(tf.config.list_physical_devices())'",
      container);
  const bool ready = !f.stack.docker.empty() && !f.stack.nvidia_container_runtime.empty();
  details.push_back(f.stack.docker.empty()
                        ? std::string("Docker: not installed in the distro")
                        : "Docker: " + f.stack.docker + ", NVIDIA container runtime: " +
                              (f.stack.nvidia_container_runtime.empty() ? std::string("not installed")
                                                                        : f.stack.nvidia_container_runtime));
  details.push_back(
      fmt::format("the stock TensorFlow wheels have no kernels from compute capability {}.{} on "
                  "(CUDA_ERROR_INVALID_PTX, then CUDA_ERROR_INVALID_HANDLE)",
                  p.stock_fail_cc_major, p.stock_fail_cc_minor));
  return verdict("gpu.compute-capability", CheckStatus::fail,
                 fmt::format("{}: no pip TensorFlow runs on it (Blackwell), whatever {} pins", join(too_new),
                             p.profile_name.empty() ? "the profile" : p.profile_name),
                 ready
                     ? "use NVIDIA's TensorFlow container, built for it (Docker and the NVIDIA container runtime are "
                       "already here): " +
                           run
                     : std::string("use NVIDIA's TensorFlow container, built for it: install Docker inside the distro "
                                   "with the NVIDIA Container Toolkit, then ") +
                           run,
                 details);
}

}  // namespace

CheckResult check_compute_capability(const LinuxFacts& f, const CheckPolicy& p) {
  if (f.gpu.devices.empty()) return verdict("gpu.compute-capability", CheckStatus::skip, "no GPU to check");
  std::vector<std::string> details, low;
  for (const auto& d : f.gpu.devices) {
    details.push_back(
        fmt::format("{}: compute capability {}.{}, {}", d.name, d.cc_major, d.cc_minor, format_gib(d.memory_bytes)));
    if (std::make_pair(d.cc_major, d.cc_minor) < std::make_pair(p.min_cc_major, p.min_cc_minor))
      low.push_back(fmt::format("{} ({}.{})", d.name, d.cc_major, d.cc_minor));
  }
  if (auto blackwell = stock_wheels_verdict(f, p)) return *blackwell;
  if (!low.empty())
    return verdict("gpu.compute-capability", CheckStatus::fail,
                   fmt::format("below compute capability {}.{} required by {}: {}", p.min_cc_major, p.min_cc_minor,
                               p.profile_name, join(low)),
                   "Use a newer GPU, or a TensorFlow release whose wheels still include this architecture.", details);
  const auto& first = f.gpu.devices.front();
  return verdict(
      "gpu.compute-capability", CheckStatus::ok,
      fmt::format("{} has compute capability {}.{}; {} needs {}.{}", first.name, first.cc_major, first.cc_minor,
                  p.profile_name.empty() ? "the profile" : p.profile_name, p.min_cc_major, p.min_cc_minor),
      {}, details);
}

}  // namespace tfwsl::judge::detail

namespace tfwsl::judge {

std::optional<CheckResult> stock_wheels_cannot_run(const agent_api::LinuxFacts& facts, const CheckPolicy& policy) {
  return detail::stock_wheels_verdict(facts, policy);
}

}  // namespace tfwsl::judge
