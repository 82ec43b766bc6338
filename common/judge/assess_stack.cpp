// The CUDA stack verdicts: the CUDA toolkit, the system cuDNN and the Python the profile asks for.
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "common/compat/apt_signature_policy.hpp"
#include "common/compat/compat_db.hpp"
#include "common/compat/ubuntu_release.hpp"
#include "common/judge/verdict_parts.hpp"
#include "common/profile/profile.hpp"

namespace tfwsl::judge::detail {
namespace {

// Does the Python's x.y lie within the policy's bounds? An empty bound does not limit.
bool python_in_range(const Version& python, const CheckPolicy& p) {
  auto lo = minor_series(p.python_min), hi = minor_series(p.python_max);
  return (!lo || !(python < *lo)) && (!hi || !(*hi < python));
}

std::string toolkit_versions(const LinuxFacts& f) {
  std::vector<std::string> versions;
  for (const auto& t : f.stack.toolkits) versions.push_back(t.version);
  return join(versions);
}

// The verdict with `tfwsl provision` as the command `tfwsl doctor --fix` runs.
CheckResult toolkit_fixed_by_provision(CheckResult r) {
  r.fix_command = {"provision"};
  return r;
}

// NVIDIA's CUDA repository in apt's sources with no index of it in apt's lists: its last update
// failed (or never ran). With apt 3 that is sqv refusing the repository's SHA1-bound key
// (profiles/apt-signatures.yaml): every `apt-get update` then fails, whatever else it fetches.
std::optional<CheckResult> refused_repository(const LinuxFacts& f) {
  if (f.stack.cuda_repository_sources.empty() || f.stack.cuda_repository_lists) return std::nullopt;
  const auto& policy = builtin_apt_signature_policy();
  const auto* cuda = policy.repository("cuda");
  const auto apt = Version::parse(f.stack.apt_version);
  const bool sqv = apt && apt->major() >= 3 && cuda && cuda->refused_by_sqv;
  const std::string file = f.stack.cuda_repository_sources.front();
  std::vector<std::string> details = f.stack.cuda_repository_sources;
  details.push_back("apt " + (f.stack.apt_version.empty() ? std::string("(version not found)") : f.stack.apt_version));
  return verdict(
      "cuda.toolkit", CheckStatus::warn,
      sqv ? fmt::format("apt-get update fails on NVIDIA's CUDA repository ({}): apt {} verifies with sqv, which "
                        "rejects its key {} (bound by SHA1) since {}",
                        file, f.stack.apt_version, cuda->key.substr(cuda->key.size() - 8), policy.sha1_rejected_from)
          : fmt::format("apt's lists hold no index of NVIDIA's CUDA repository ({}): its last apt-get update failed "
                        "or never ran",
                        file),
      fmt::format("remove {} (tensorflow[and-cuda] brings CUDA and cuDNN from pip; the toolkit only compiles CUDA "
                  "code), or run `sudo apt-get update` to see apt's own error",
                  file),
      details);
}

}  // namespace

CheckResult check_toolkit(const LinuxFacts& f, const CheckPolicy& p) {
  if (probe_timed_out(f, "cuda-stack")) return timeout_verdict("cuda.toolkit", "cuda-stack");
  if (auto refused = refused_repository(f)) return *refused;
  if (p.container_route)
    return verdict("cuda.toolkit", CheckStatus::skip,
                   "the container route: the image brings it (the container.* checks)");
  std::vector<std::string> details;
  for (const auto& t : f.stack.toolkits) details.push_back(t.path + ": " + t.version);
  if (!f.stack.nvcc.empty()) details.push_back("nvcc: " + f.stack.nvcc);
  if (!f.stack.ptxas.empty()) details.push_back("ptxas: " + f.stack.ptxas);
  if (f.stack.toolkits.empty()) {
    if (p.cuda_toolkit.empty())
      return verdict("cuda.toolkit", CheckStatus::skip,
                     "no CUDA toolkit in /usr/local (not needed for tensorflow[and-cuda])", {}, details);
    return toolkit_fixed_by_provision(verdict("cuda.toolkit", CheckStatus::warn,
                                              "no CUDA toolkit in /usr/local; the profile wants " + p.cuda_toolkit,
                                              cuda_toolkit_install_fix(p.cuda_toolkit), details));
  }
  if (p.cuda_toolkit.empty())
    return verdict("cuda.toolkit", CheckStatus::ok, "CUDA toolkit " + toolkit_versions(f) + " (the profile names none)",
                   {}, details);
  auto match = std::find_if(f.stack.toolkits.begin(), f.stack.toolkits.end(),
                            [&](const agent_api::CudaToolkit& t) { return in_series(t.version, p.cuda_toolkit); });
  if (match == f.stack.toolkits.end())
    return toolkit_fixed_by_provision(
        verdict("cuda.toolkit", CheckStatus::warn,
                "CUDA toolkit " + toolkit_versions(f) + " found, the profile wants " + p.cuda_toolkit,
                cuda_toolkit_install_fix(p.cuda_toolkit), details));
  return verdict(
      "cuda.toolkit", CheckStatus::ok,
      "CUDA toolkit " + match->version + " at " + match->path + ", the " + p.cuda_toolkit + " series the profile wants",
      {}, details);
}

CheckResult check_cudnn(const LinuxFacts& f, const CheckPolicy& p) {
  if (probe_timed_out(f, "cuda-stack")) return timeout_verdict("cudnn", "cuda-stack");
  if (!f.stack.cudnn_found) {
    bool tf_gpu = !f.tf.gpus.empty();
    return verdict("cudnn", CheckStatus::skip,
                   tf_gpu ? "no system cuDNN; TensorFlow uses the cuDNN from its pip packages"
                          : "no system cuDNN (tensorflow[and-cuda] brings its own through pip)",
                   {}, {f.stack.cudnn_error});
  }
  const std::string where = " at " + f.stack.cudnn_library;
  if (!f.stack.cudnn_version) {
    if (p.cudnn.empty()) return verdict("cudnn", CheckStatus::ok, "cuDNN (version unknown)" + where);
    return verdict("cudnn", CheckStatus::warn,
                   "cuDNN" + where + " does not say its version; the profile wants " + p.cudnn,
                   "Check the library: cudnnGetVersion() did not answer, so it may be broken or not cuDNN.");
  }
  const std::string version = cudnn_version_from(*f.stack.cudnn_version).to_string();
  if (p.cudnn.empty()) return verdict("cudnn", CheckStatus::ok, "cuDNN " + version + where);
  if (in_series(version, p.cudnn))
    return verdict("cudnn", CheckStatus::ok,
                   "cuDNN " + version + where + ", the " + p.cudnn + " series the profile wants");
  return verdict(
      "cudnn", CheckStatus::warn,
      "cuDNN " + version + where + ", but " + p.profile_name + " wants " + p.cudnn + ": TensorFlow built for cuDNN " +
          p.cudnn + " does not load this one",
      "Install cuDNN " + p.cudnn + " for your CUDA, or rely on the cuDNN that pip installs with " +
          (p.tensorflow_requirement.empty() ? std::string("tensorflow[and-cuda]") : p.tensorflow_requirement) +
          " (and keep the system one off LD_LIBRARY_PATH).");
}

namespace {

// The distro's own python3 is newer than any TensorFlow the profile allows: Ubuntu 26.04's 3.14
// (what a plain `wsl --install` gives now, compat.yaml wsl_default_ubuntu) has no TensorFlow wheel.
// The distro is named as WSL names it ("Ubuntu", "Ubuntu-26.04") or as os-release does ("Ubuntu 26.04 LTS").
std::optional<Version> ubuntu_release_of(const std::string& distro) {
  const auto& db = builtin_compat_db();
  if (auto release = db.ubuntu_release_of_distro(distro)) return release;
  const auto at = distro.find("Ubuntu ");
  if (at == std::string::npos) return std::nullopt;
  const std::string rest = distro.substr(at + 7);
  auto parsed = Version::parse(rest.substr(0, rest.find(' ')));
  return parsed ? std::optional<Version>(*parsed) : std::nullopt;
}

bool distro_python_too_new(const LinuxFacts& f, const CheckPolicy& p, const Version& python) {
  auto max = Version::parse(p.python_max);
  if (!max || !(*max < python)) return false;
  const std::string& path = f.stack.python_path;
  if (path.find("venv") != std::string::npos || path.find("/envs/") != std::string::npos ||
      path.find("conda") != std::string::npos)
    return false;
  auto release = ubuntu_release_of(f.wsl.distro);
  auto own = release ? builtin_compat_db().ubuntu_default_python(*release) : std::nullopt;
  return own && minor_series(own->to_string()) == minor_series(python.to_string());
}

CheckResult newer_distro_python(const LinuxFacts& f, const CheckPolicy& p, const std::string& range) {
  std::string distro = f.wsl.distro.empty() ? std::string("this distro") : f.wsl.distro;
  std::string summary = fmt::format(
      "{}'s python3 is {}, newer than TensorFlow supports for {} ({}): no TensorFlow "
      "wheel installs there",
      distro, f.stack.python_version, p.profile_name, range);
  std::string beside = p.distro.empty() ? std::string("the profile's distro") : p.distro;
  std::string fix =
      fmt::format("keep {} as it is and install {} beside it for TensorFlow: tfwsl provision --profile {}", distro,
                  beside, p.profile_id.empty() ? std::string("<profile>") : p.profile_id);
  std::vector<std::string> details{"interpreter: " + f.stack.python_path};
  const auto& db = builtin_compat_db();
  if (const Version plain = db.wsl_default_ubuntu(); !plain.release.empty()) {
    if (auto python = db.ubuntu_default_python(plain))
      details.push_back(fmt::format("a plain `wsl --install` installs Ubuntu {} now, whose python3 is {}",
                                    ubuntu_release_text(plain), python->to_string()));
  }
  return verdict("python.version", CheckStatus::fail, summary, fix, details);
}

}  // namespace

CheckResult check_python(const LinuxFacts& f, const CheckPolicy& p) {
  if (probe_timed_out(f, "cuda-stack")) return timeout_verdict("python.version", "cuda-stack");
  if (f.stack.python_version.empty())
    return verdict("python.version", CheckStatus::fail, "no usable Python: " + f.stack.python_error,
                   "sudo apt-get install python3 python3-venv (or pass --python PATH)");
  const std::string range = p.python_min + "–" + p.python_max;
  auto v = minor_series(f.stack.python_version);
  if (v && !python_in_range(*v, p) && distro_python_too_new(f, p, *v)) return newer_distro_python(f, p, range);
  if (v && !python_in_range(*v, p))
    return verdict(
        "python.version", CheckStatus::fail,
        fmt::format("Python {} is outside {} supported by {}", f.stack.python_version, range, p.profile_name),
        fmt::format("Create {} with a Python between {} and {} (e.g. from the deadsnakes PPA or pyenv) and "
                    "pass its bin/python with --python.",
                    venv_phrase(p), p.python_min, p.python_max),
        {"interpreter: " + f.stack.python_path});
  std::string summary = "Python " + f.stack.python_version;
  if (!p.python_min.empty() || !p.python_max.empty()) summary += ", within " + range + " of " + p.profile_name;
  return verdict("python.version", CheckStatus::ok, summary, {}, {"interpreter: " + f.stack.python_path});
}

}  // namespace tfwsl::judge::detail
