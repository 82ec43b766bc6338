#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "common/profile/profile.hpp"
#include "common/util/byte_size_text.hpp"
#include "common/version/version.hpp"
#include "linux/checks/linux_checks.hpp"

namespace tfwsl::linux_checks {

namespace {

using agent_api::WslKind;

CheckResult make(const std::string& id, CheckStatus status, std::string summary, std::string fix = {},
                 std::vector<std::string> details = {}) {
  return CheckResult{id, status, std::move(summary), std::move(details), std::move(fix)};
}

bool timed_out(const LinuxFacts& f, const char* probe) {
  return std::find(f.timed_out.begin(), f.timed_out.end(), probe) != f.timed_out.end();
}

CheckResult timeout_result(const std::string& id, const char* probe) {
  return make(id, CheckStatus::fail, fmt::format("the {} probe ran past its time limit", probe),
              "Something is hanging (often the GPU driver): run 'wsl --shutdown' in Windows and retry; "
              "'tfwsl-agent --log-level debug check' shows which call hangs.");
}

// "3.10.12" -> 3.10, the precision a supported-Python range is given in; nothing when unreadable.
std::optional<Version> minor_series(const std::string& text) {
  auto v = Version::parse(text);
  if (!v) return std::nullopt;
  return v->truncated(2);
}

// Does the Python's x.y lie within the policy's bounds? An empty bound does not limit.
bool python_in_range(const Version& python, const CheckPolicy& p) {
  auto lo = minor_series(p.python_min), hi = minor_series(p.python_max);
  return (!lo || !(python < *lo)) && (!hi || !(*hi < python));
}

// The toolkit the profile names ("12.2") is a release series: 12.2.140 is in it, 12.20 is not.
bool toolkit_in_series(const std::string& version, const std::string& wanted) {
  auto v = Version::parse(version), w = Version::parse(wanted);
  if (!v || !w) return version == wanted;
  for (std::size_t i = 0; i < w->release.size(); ++i)
    if (v->segment(i) != w->segment(i)) return false;
  return true;
}

std::string join(const std::vector<std::string>& items, const char* sep = ", ") {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : sep) + i;
  return out;
}

bool is_wsl(const LinuxFacts& f) { return f.wsl.kind != WslKind::not_wsl; }

CheckResult check_dxg(const LinuxFacts& f) {
  if (timed_out(f, "wsl")) return timeout_result("linux.dxg", "wsl");
  if (!is_wsl(f)) return make("linux.dxg", CheckStatus::skip, "not WSL: /dev/dxg is only needed inside WSL 2");
  if (f.wsl.kind == WslKind::wsl1)
    return make("linux.dxg", CheckStatus::fail, "this distro runs as WSL 1: no GPU is available in WSL 1",
                "In Windows: wsl --set-version <distro> 2", {"kernel: " + f.wsl.kernel});
  if (f.wsl.dxg) return make("linux.dxg", CheckStatus::ok, "/dev/dxg present (GPU paravirtualization is on)");
  return make("linux.dxg", CheckStatus::fail, "no /dev/dxg: not WSL 2, or GPU paravirtualization is off",
              "Check that [gpu] enabled is not false in /etc/wsl.conf and gpuSupport is not false in .wslconfig, "
              "update WSL (wsl --update) and the Windows NVIDIA driver, then wsl --shutdown.",
              {f.wsl.dxg_error, "kernel: " + f.wsl.kernel});
}

CheckResult check_libcuda(const LinuxFacts& f) {
  if (timed_out(f, "gpu")) return timeout_result("linux.libcuda", "gpu");
  const auto& g = f.gpu;
  if (!g.libcuda_loaded)
    return make("linux.libcuda", CheckStatus::fail, "libcuda.so.1 not found",
                is_wsl(f) ? "The Windows NVIDIA driver provides /usr/lib/wsl/lib/libcuda.so.1: install or update it in "
                            "Windows (R495 or later; 528.33+ for CUDA 12), then wsl --shutdown."
                          : "Install the NVIDIA driver for this machine (it provides libcuda.so.1).",
                {g.libcuda_error});
  bool from_wsl = g.libcuda_path.rfind("/usr/lib/wsl/", 0) == 0;
  if (is_wsl(f) && !from_wsl)
    return make("linux.libcuda", CheckStatus::fail,
                "libcuda.so.1 resolves to " + g.libcuda_path + ", not the WSL stub in /usr/lib/wsl/lib",
                "A Linux NVIDIA driver inside WSL shadows the Windows one: remove it (see linux.no-linux-driver) "
                "and run 'sudo ldconfig'.",
                {"loaded: " + g.libcuda_path});
  return make("linux.libcuda", CheckStatus::ok,
              "libcuda.so.1 is " + g.libcuda_path + (is_wsl(f) ? " (the WSL stub)" : " (native driver)"));
}

CheckResult check_no_linux_driver(const LinuxFacts& f) {
  if (timed_out(f, "linux-driver")) return timeout_result("linux.no-linux-driver", "linux-driver");
  if (!is_wsl(f))
    return make("linux.no-linux-driver", CheckStatus::skip, "not WSL: a Linux NVIDIA driver is expected here");
  std::vector<std::string> details;
  for (const auto& p : f.driver.packages) details.push_back("package: " + p);
  for (const auto& c : f.driver.libcuda_copies) details.push_back("libcuda copy: " + c);
  if (!f.driver.dpkg_error.empty()) details.push_back("dpkg: " + f.driver.dpkg_error);
  if (f.driver.packages.empty() && f.driver.libcuda_copies.empty())
    return make("linux.no-linux-driver", CheckStatus::ok, "no Linux NVIDIA driver inside WSL", {}, details);
  return make("linux.no-linux-driver", CheckStatus::fail,
              "a Linux NVIDIA driver is installed inside WSL: " +
                  join(f.driver.packages.empty() ? f.driver.libcuda_copies : f.driver.packages),
              "Remove it: sudo apt-get remove --purge " +
                  (f.driver.packages.empty() ? std::string("<the package owning the libcuda copy>") : join(f.driver.packages, " ")) +
                  " ; install only cuda-toolkit-12-x from NVIDIA's wsl-ubuntu repository, never 'cuda' or 'cuda-drivers'.",
              details);
}

CheckResult check_ldconfig(const LinuxFacts& f) {
  if (timed_out(f, "wsl")) return timeout_result("linux.ldconfig", "wsl");
  if (!is_wsl(f)) return make("linux.ldconfig", CheckStatus::skip, "not WSL: ld.wsl.conf is only needed inside WSL");
  if (!f.wsl.wsl_lib_dir)
    return make("linux.ldconfig", CheckStatus::fail, "no /usr/lib/wsl/lib: the Windows driver's libraries are not mounted",
                "Update the Windows NVIDIA driver and WSL (wsl --update), then wsl --shutdown.");
  if (!f.wsl.ld_wsl_conf)
    return make("linux.ldconfig", CheckStatus::warn, "/etc/ld.so.conf.d/ld.wsl.conf does not list /usr/lib/wsl/lib",
                "Check [automount] ldconfig in /etc/wsl.conf (remove 'ldconfig = false'), then wsl --shutdown; or add "
                "/usr/lib/wsl/lib to a file in /etc/ld.so.conf.d and run 'sudo ldconfig'.",
                {"ld.wsl.conf: " + (f.wsl.ld_wsl_conf_text.empty() ? std::string("(absent)") : f.wsl.ld_wsl_conf_text)});
  return make("linux.ldconfig", CheckStatus::ok, "ld.wsl.conf puts /usr/lib/wsl/lib on the loader path", {},
              {"/usr/lib/wsl/lib: " + join(f.wsl.wsl_lib_files)});
}

CheckResult check_gpu_visible(const LinuxFacts& f) {
  if (timed_out(f, "gpu")) return timeout_result("gpu.visible", "gpu");
  const auto& g = f.gpu;
  std::vector<std::string> details;
  if (g.cuda_driver_version)
    details.push_back(fmt::format("CUDA driver API {}.{}", *g.cuda_driver_version / 1000, (*g.cuda_driver_version % 1000) / 10));
  if (!g.nvml_driver_version.empty()) details.push_back("driver " + g.nvml_driver_version + " (" + g.nvml_source + ")");
  if (!g.nvml_error.empty()) details.push_back("NVML: " + g.nvml_error);
  if (!g.devices.empty()) {
    std::vector<std::string> names;
    for (const auto& d : g.devices) names.push_back(d.name);
    return make("gpu.visible", CheckStatus::ok, fmt::format("{} GPU(s) through libcuda: {}", g.devices.size(), join(names)), {},
                details);
  }
  details.insert(details.begin(), g.libcuda_error);
  std::string why = g.libcuda_loaded ? g.libcuda_error : "libcuda.so.1 not found";
  return make("gpu.visible", CheckStatus::fail, "no GPU visible to CUDA: " + why,
              "Fix the linux.* checks above first; in Windows, check that nvidia-smi sees the GPU and that it is not in "
              "TCC mode, then wsl --shutdown.",
              details);
}

CheckResult check_compute_capability(const LinuxFacts& f, const CheckPolicy& p) {
  if (f.gpu.devices.empty()) return make("gpu.compute-capability", CheckStatus::skip, "no GPU to check");
  std::vector<std::string> details, low;
  for (const auto& d : f.gpu.devices) {
    details.push_back(fmt::format("{}: compute capability {}.{}, {}", d.name, d.cc_major, d.cc_minor, format_gib(d.memory_bytes)));
    if (std::make_pair(d.cc_major, d.cc_minor) < std::make_pair(p.min_cc_major, p.min_cc_minor))
      low.push_back(fmt::format("{} ({}.{})", d.name, d.cc_major, d.cc_minor));
  }
  if (!low.empty())
    return make("gpu.compute-capability", CheckStatus::fail,
                fmt::format("below compute capability {}.{} required by {}: {}", p.min_cc_major, p.min_cc_minor,
                            p.profile_name, join(low)),
                "Use a newer GPU, or a TensorFlow release whose wheels still include this architecture.", details);
  return make("gpu.compute-capability", CheckStatus::ok,
              fmt::format("compute capability meets the minimum {}.{}", p.min_cc_major, p.min_cc_minor), {}, details);
}

CheckResult check_toolkit(const LinuxFacts& f, const CheckPolicy& p) {
  if (timed_out(f, "cuda-stack")) return timeout_result("cuda.toolkit", "cuda-stack");
  std::vector<std::string> details;
  for (const auto& t : f.stack.toolkits) details.push_back(t.path + ": " + t.version);
  if (!f.stack.nvcc.empty()) details.push_back("nvcc: " + f.stack.nvcc);
  if (!f.stack.ptxas.empty()) details.push_back("ptxas: " + f.stack.ptxas);
  if (f.stack.toolkits.empty()) {
    if (p.cuda_toolkit.empty())
      return make("cuda.toolkit", CheckStatus::skip, "no CUDA toolkit in /usr/local (not needed for tensorflow[and-cuda])", {},
                  details);
    return make("cuda.toolkit", CheckStatus::warn, "no CUDA toolkit; the profile asks for " + p.cuda_toolkit,
                "sudo apt-get install " + cuda_toolkit_apt_package(p.cuda_toolkit) + " (from NVIDIA's wsl-ubuntu repository)",
                details);
  }
  if (!p.cuda_toolkit.empty()) {
    bool match = std::any_of(f.stack.toolkits.begin(), f.stack.toolkits.end(),
                             [&](const CudaToolkit& t) { return toolkit_in_series(t.version, p.cuda_toolkit); });
    if (!match)
      return make("cuda.toolkit", CheckStatus::warn, "CUDA toolkit present but not " + p.cuda_toolkit,
                  "sudo apt-get install " + cuda_toolkit_apt_package(p.cuda_toolkit) + " from NVIDIA's wsl-ubuntu repository.",
                  details);
  }
  return make("cuda.toolkit", CheckStatus::ok, "CUDA toolkit " + f.stack.toolkits.back().version, {}, details);
}

CheckResult check_cudnn(const LinuxFacts& f) {
  if (timed_out(f, "cuda-stack")) return timeout_result("cudnn", "cuda-stack");
  if (f.stack.cudnn_found) {
    std::string version = f.stack.cudnn_version
                              ? fmt::format("{}.{}.{}", *f.stack.cudnn_version / (*f.stack.cudnn_version >= 90000 ? 10000 : 1000),
                                            (*f.stack.cudnn_version >= 90000 ? *f.stack.cudnn_version % 10000 / 100 : *f.stack.cudnn_version % 1000 / 100),
                                            *f.stack.cudnn_version % 100)
                              : std::string("(version unknown)");
    return make("cudnn", CheckStatus::ok, "cuDNN " + version + " at " + f.stack.cudnn_library);
  }
  bool tf_gpu = !f.tf.gpus.empty();
  return make("cudnn", CheckStatus::skip,
              tf_gpu ? "no system cuDNN; TensorFlow uses the cuDNN from its pip packages"
                     : "no system cuDNN (tensorflow[and-cuda] brings its own through pip)",
              {}, {f.stack.cudnn_error});
}

CheckResult check_python(const LinuxFacts& f, const CheckPolicy& p) {
  if (timed_out(f, "cuda-stack")) return timeout_result("python.version", "cuda-stack");
  if (f.stack.python_version.empty())
    return make("python.version", CheckStatus::fail, "no usable Python: " + f.stack.python_error,
                "sudo apt-get install python3 python3-venv (or pass --python PATH)");
  auto v = minor_series(f.stack.python_version);
  if (v && !python_in_range(*v, p))
    return make("python.version", CheckStatus::fail,
                fmt::format("Python {} is outside {}–{} supported by {}", f.stack.python_version, p.python_min, p.python_max,
                            p.profile_name),
                fmt::format("Create a venv with a Python between {} and {} (e.g. from the deadsnakes PPA or pyenv) and "
                            "pass it with --python.", p.python_min, p.python_max),
                {"interpreter: " + f.stack.python_path});
  return make("python.version", CheckStatus::ok, "Python " + f.stack.python_version, {}, {"interpreter: " + f.stack.python_path});
}

CheckResult check_tf_installed(const LinuxFacts& f) {
  if (timed_out(f, "tensorflow")) return timeout_result("tf.installed", "tensorflow");
  if (!f.tf.ran)
    return make("tf.installed", CheckStatus::fail, "the TensorFlow probe failed: " + f.tf.error,
                "Run the interpreter by hand: python3 -c 'import tensorflow' and read its error.", f.tf.stderr_tail);
  if (!f.tf.installed)
    return make("tf.installed", CheckStatus::fail, "TensorFlow is not installed: " + f.tf.error,
                "pip install 'tensorflow[and-cuda]==2.15.*' in the profile's venv", f.tf.stderr_tail);
  return make("tf.installed", CheckStatus::ok, "TensorFlow " + f.tf.version);
}

CheckResult check_tf_build(const LinuxFacts& f) {
  if (!f.tf.installed) return make("tf.build", CheckStatus::skip, "TensorFlow is not installed");
  const auto& b = f.tf.build;
  auto str = [&](const char* key) {
    if (!b.contains(key)) return std::string();
    return b[key].is_string() ? b[key].get<std::string>() : b[key].dump();
  };
  std::vector<std::string> details{"build info: " + b.dump()};
  if (b.contains("is_cuda_build") && b["is_cuda_build"].is_boolean() && !b["is_cuda_build"].get<bool>())
    return make("tf.build", CheckStatus::fail, "TensorFlow " + f.tf.version + " is a CPU-only build",
                "pip install 'tensorflow[and-cuda]' (not tensorflow-cpu)", details);
  if (str("cuda_version").empty())
    return make("tf.build", CheckStatus::warn, "TensorFlow " + f.tf.version + " reports no CUDA version in its build info",
                "Reinstall with pip install 'tensorflow[and-cuda]'", details);
  return make("tf.build", CheckStatus::ok, "built for CUDA " + str("cuda_version") + ", cuDNN " + str("cudnn_version"), {},
              details);
}

// The most telling raw line when no signature base is wired in.
std::string telling_line(const std::string& log) {
  std::vector<std::string> lines;
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    // Drop the glog/absl prefix ("2024-01-01 10:00:00.1: W path.cc:12] "): the message is what matters.
    auto bracket = line.find("] ");
    if (bracket != std::string::npos && bracket < 120) line = line.substr(bracket + 2);
    lines.push_back(line.substr(0, 300));
  }
  static const char* k_markers[] = {"Could not find cuda drivers", "Cannot dlopen", "Could not load dynamic library",
                                    "cannot open shared object", "CUDA_ERROR", "failed call to cuInit",
                                    "Loaded runtime CuDNN", "Skipping registering GPU devices"};
  for (const auto* marker : k_markers)
    for (const auto& l : lines)
      if (l.find(marker) != std::string::npos) return l;
  return lines.empty() ? std::string() : lines.back();
}

CheckResult check_tf_gpu(const LinuxFacts& f, const CheckPolicy& p) {
  if (timed_out(f, "tensorflow")) return timeout_result("tf.gpu", "tensorflow");
  if (!f.tf.installed) return make("tf.gpu", CheckStatus::skip, "TensorFlow is not installed");
  std::vector<std::string> details = f.tf.stderr_tail;
  if (!f.tf.gpus.empty()) details.insert(details.begin(), "GPUs: " + join(f.tf.gpus));
  if (!f.tf.gpus.empty() && f.tf.matmul_device.find("GPU:0") != std::string::npos)
    return make("tf.gpu", CheckStatus::ok,
                fmt::format("TensorFlow sees {} GPU(s); a matmul ran on {}", f.tf.gpus.size(), f.tf.matmul_device), {},
                details);
  std::string why = f.tf.diagnosis;
  if (why.empty() && p.explain_tf_log) why = p.explain_tf_log(f.tf.stderr_text);
  if (why.empty()) why = telling_line(f.tf.stderr_text);
  if (!f.tf.gpus.empty())
    return make("tf.gpu", CheckStatus::fail,
                "TensorFlow lists a GPU but the test matmul did not run on GPU:0" + (f.tf.error.empty() ? "" : ": " + f.tf.error),
                "Read the log lines below; a cuDNN/CUDA mismatch or an out-of-memory GPU are the usual causes.", details);
  return make("tf.gpu", CheckStatus::fail, "TensorFlow sees no GPU" + (why.empty() ? "" : ": " + why),
              "Fix the gpu.* and linux.* checks first; then pip install 'tensorflow[and-cuda]' for the CUDA/cuDNN "
              "libraries TensorFlow loads.",
              details);
}

CheckResult check_memory(const LinuxFacts& f) {
  if (!f.system.mem_total_kb) return make("mem.effective", CheckStatus::warn, "MemTotal not readable from /proc/meminfo");
  return make("mem.effective", CheckStatus::ok, "MemTotal " + format_gib(*f.system.mem_total_kb * 1024) + " in this VM", {},
              {fmt::format("MemTotal: {} kB", *f.system.mem_total_kb)});
}

CheckResult check_disk(const LinuxFacts& f, const CheckPolicy& p) {
  if (!f.system.disk_free_bytes) return make("disk.free", CheckStatus::warn, "free space unknown: " + f.system.disk_error);
  auto free = *f.system.disk_free_bytes;
  auto summary = format_gib(free) + " free on the distro's filesystem";
  std::string fix = "Free space (pip cache: pip cache purge; apt: sudo apt-get clean), or grow the VHD; also keep the "
                    "Windows drive holding ext4.vhdx from filling up.";
  if (free < p.disk_fail_bytes) return make("disk.free", CheckStatus::fail, summary, fix);
  if (free < p.disk_warn_bytes) return make("disk.free", CheckStatus::warn, summary, fix);
  return make("disk.free", CheckStatus::ok, summary);
}

CheckResult check_data_location(const LinuxFacts& f) {
  if (f.system.data_paths.empty()) return make("data.location", CheckStatus::skip, "no project or dataset paths given");
  std::vector<std::string> details, slow;
  for (const auto& d : f.system.data_paths) {
    details.push_back(fmt::format("{}: {} ({})", d.path, d.mount_point, d.fs_type));
    if (d.slow) slow.push_back(d.path);
  }
  if (!slow.empty())
    return make("data.location", CheckStatus::warn, "on a slow Windows mount (drvfs/9p): " + join(slow),
                "Move data into the Linux filesystem: tfwsl data push <path>", details);
  return make("data.location", CheckStatus::ok, "data is on the Linux filesystem", {}, details);
}

}  // namespace

Report assess(const LinuxFacts& f, const CheckPolicy& p) {
  Report r;
  r.checks = {check_dxg(f),           check_libcuda(f),          check_no_linux_driver(f), check_ldconfig(f),
              check_gpu_visible(f),   check_compute_capability(f, p), check_toolkit(f, p), check_cudnn(f),
              check_python(f, p),     check_tf_installed(f),     check_tf_build(f),        check_tf_gpu(f, p),
              check_memory(f),        check_disk(f, p),          check_data_location(f)};
  return r;
}

}  // namespace tfwsl::linux_checks
