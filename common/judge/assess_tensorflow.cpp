// The TensorFlow verdicts: installed (and the release the profile wants), built for CUDA, and
// running a matmul on the GPU, with the knowledge base's reading of its log when it does not.
#include <fmt/format.h>

#include <sstream>

#include "common/judge/verdict_parts.hpp"
#include "common/version/version_spec.hpp"

namespace tfwsl::judge::detail {
namespace {

std::string tf_install_fix(const CheckPolicy& p) {
  const std::string requirement = p.tensorflow_requirement.empty() ? "tensorflow[and-cuda]" : p.tensorflow_requirement;
  return "tfwsl provision (installs " + requirement + " into " + venv_phrase(p) + ")";
}

// The verdict with `tfwsl provision` as the command `tfwsl doctor --fix` runs.
CheckResult provision_fixes(CheckResult r) {
  r.fix_command = {"provision"};
  return r;
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
  static const char* k_markers[] = {"Could not find cuda drivers",
                                    "Cannot dlopen",
                                    "Could not load dynamic library",
                                    "cannot open shared object",
                                    "CUDA_ERROR",
                                    "failed call to cuInit",
                                    "Loaded runtime CuDNN",
                                    "Skipping registering GPU devices"};
  for (const auto* marker : k_markers)
    for (const auto& l : lines)
      if (l.find(marker) != std::string::npos) return l;
  return lines.empty() ? std::string() : lines.back();
}

}  // namespace

CheckResult check_tf_installed(const LinuxFacts& f, const CheckPolicy& p) {
  if (probe_timed_out(f, "tensorflow")) return timeout_verdict("tf.installed", "tensorflow");
  if (!f.tf.ran)
    return verdict("tf.installed", CheckStatus::fail, "the TensorFlow probe failed: " + f.tf.error,
                   "Run the interpreter by hand: python3 -c 'import tensorflow' and read its error.", f.tf.stderr_tail);
  if (!f.tf.installed)
    return provision_fixes(verdict("tf.installed", CheckStatus::fail, "TensorFlow is not installed: " + f.tf.error,
                                   tf_install_fix(p), f.tf.stderr_tail));
  if (p.tensorflow_version.empty()) return verdict("tf.installed", CheckStatus::ok, "TensorFlow " + f.tf.version);
  auto spec = VersionSpec::parse(p.tensorflow_version);
  auto installed = Version::parse(f.tf.version);
  if (spec && installed && !spec->allows(*installed))
    return provision_fixes(
        verdict("tf.installed", CheckStatus::warn,
                "TensorFlow " + f.tf.version + " is installed, " + p.profile_name + " wants " + p.tensorflow_version,
                tf_install_fix(p)));
  return verdict("tf.installed", CheckStatus::ok,
                 "TensorFlow " + f.tf.version + ", as the profile wants (" + p.tensorflow_version + ")");
}

CheckResult check_tf_build(const LinuxFacts& f, const CheckPolicy& p) {
  if (!f.tf.installed) return verdict("tf.build", CheckStatus::skip, "TensorFlow is not installed");
  const auto& b = f.tf.build;
  auto str = [&](const char* key) {
    if (!b.contains(key)) return std::string();
    return b[key].is_string() ? b[key].get<std::string>() : b[key].dump();
  };
  std::vector<std::string> details{"build info: " + b.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)};
  const std::string reinstall = tf_install_fix(p) + ", not tensorflow-cpu";
  if (b.contains("is_cuda_build") && b["is_cuda_build"].is_boolean() && !b["is_cuda_build"].get<bool>())
    return provision_fixes(verdict("tf.build", CheckStatus::fail, "TensorFlow " + f.tf.version + " is a CPU-only build",
                                   reinstall, details));
  if (str("cuda_version").empty())
    return provision_fixes(verdict("tf.build", CheckStatus::warn,
                                   "TensorFlow " + f.tf.version + " reports no CUDA version in its build info",
                                   reinstall, details));
  return verdict("tf.build", CheckStatus::ok,
                 "built for CUDA " + str("cuda_version") + ", cuDNN " + str("cudnn_version"), {}, details);
}

CheckResult check_tf_gpu(const LinuxFacts& f, const CheckPolicy& p) {
  if (probe_timed_out(f, "tensorflow")) return timeout_verdict("tf.gpu", "tensorflow");
  if (!f.tf.installed) return verdict("tf.gpu", CheckStatus::skip, "TensorFlow is not installed");
  std::vector<std::string> details = f.tf.stderr_tail;
  if (!f.tf.gpus.empty()) details.insert(details.begin(), "GPUs: " + join(f.tf.gpus));
  if (!f.tf.gpus.empty() && f.tf.matmul_device.find("GPU:0") != std::string::npos)
    return verdict("tf.gpu", CheckStatus::ok,
                   fmt::format("TensorFlow sees {} GPU(s); a matmul ran on {}", f.tf.gpus.size(), f.tf.matmul_device),
                   {}, details);
  std::string why = p.explain_tf_log ? p.explain_tf_log(f.tf.stderr_text) : std::string();
  if (why.empty()) why = telling_line(f.tf.stderr_text);
  if (!f.tf.gpus.empty())
    return verdict("tf.gpu", CheckStatus::fail,
                   "TensorFlow lists a GPU but the test matmul did not run on GPU:0" +
                       (f.tf.error.empty() ? "" : ": " + f.tf.error),
                   "Read the log lines below; a cuDNN/CUDA mismatch or an out-of-memory GPU are the usual causes.",
                   details);
  return verdict("tf.gpu", CheckStatus::fail, "TensorFlow sees no GPU" + (why.empty() ? "" : ": " + why),
                 "Fix the gpu.* and linux.* checks first; then " + tf_install_fix(p) +
                     " for the CUDA and cuDNN libraries TensorFlow loads.",
                 details);
}

}  // namespace tfwsl::judge::detail
