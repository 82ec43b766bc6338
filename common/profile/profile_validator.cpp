#include "common/profile/profile_validator.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <span>
#include <string_view>

#include "common/compat/ubuntu_release.hpp"
#include "common/profile/profile_schema.hpp"
#include "common/util/ascii.hpp"
#include "common/util/suggest.hpp"

namespace tfwsl {
namespace {

bool from_builtin_defaults(const SourceLocation& where) { return where.file == k_builtin_defaults_name; }

std::string join_releases(const std::vector<const TfRelease*>& list) {
  std::string out;
  for (const auto* tf : list) out += (out.empty() ? "" : ", ") + tf->release.to_string();
  return out;
}

class Validator {
 public:
  Validator(const Profile& p, const CompatDb& db, std::span<const std::string_view> reported_keys)
      : m_p(p), m_db(db), m_reported_keys(reported_keys) {}

  std::vector<ProfileIssue> run() {
    check_required_keys();
    std::optional<VersionSpec> spec = tf_spec();
    const ProfileRoute route = m_p.route.value_or(ProfileRoute::wsl);
    if (route == ProfileRoute::native_windows) {
      check_native(spec);
    } else if (route == ProfileRoute::container) {
      check_container();
    } else {
      check_wsl(spec);
    }
    check_pip_packages();
    return std::move(m_issues);
  }

 private:
  SourceLocation root_location() const {
    return SourceLocation{m_p.sources.empty() ? std::string("<profile>") : m_p.sources.back(), 0, 0};
  }
  void error(const SourceLocation& at, std::string message, std::string fix) {
    m_issues.push_back({IssueSeverity::error, at, std::move(message), std::move(fix)});
  }
  void warning(const SourceLocation& at, std::string message, std::string fix) {
    m_issues.push_back({IssueSeverity::warning, at, std::move(message), std::move(fix)});
  }

  void check_required_keys() {
    for (const auto& row : profile_key_table()) {
      if (row.required.message.empty() || row.is_set(m_p)) continue;
      if (std::find(m_reported_keys.begin(), m_reported_keys.end(), row.key) == m_reported_keys.end())
        error(root_location(), std::string(row.required.message), std::string(row.required.fix));
    }
  }

  // A value the profile itself sets (the built-in defaults set what every profile gets).
  bool set_by_profile(const ProfileKeyRow& row) const {
    return row.is_set(m_p) && !from_builtin_defaults(row.where(m_p));
  }

  // WSL settings mean nothing on native Windows: one warning per top-level key, one per section.
  void check_wsl_only_keys() {
    std::vector<std::string_view> warned_sections;
    for (const auto& row : profile_key_table()) {
      if (!row.wsl_only || !set_by_profile(row)) continue;
      if (row.section().empty()) {
        warning(row.where(m_p), fmt::format("'{}' does not apply to route native-windows", row.key),
                "remove it, or use route: wsl");
      } else if (std::find(warned_sections.begin(), warned_sections.end(), row.section()) == warned_sections.end()) {
        warned_sections.push_back(row.section());
        warning(row.where(m_p), fmt::format("'{}' settings do not apply to route native-windows", row.section()),
                "remove them, or use route: wsl");
      }
    }
  }

  std::optional<VersionSpec> tf_spec() {
    if (!m_p.tensorflow_version.has_value()) return std::nullopt;  // check_required_keys reported it
    auto spec = VersionSpec::parse(*m_p.tensorflow_version);
    if (!spec) return std::nullopt;  // the loader reported it
    return *spec;
  }

  // ---- the container route: the image brings TensorFlow, CUDA and Python ----
  void check_container() {
    const SourceLocation at = m_p.route.where;
    if (!m_p.container_image.has_value())
      error(at, "route container names no image",
            "add container: { image: nvcr.io/nvidia/tensorflow:25.02-tf2-py3, digest: \"sha256:...\" }");
    const bool builds = m_p.container_build.has_value() && !m_p.container_build->empty();
    if (!builds && !m_p.container_digest.has_value())
      error(m_p.container_image.has_value() ? m_p.container_image.where : at,
            "route container pulls its image by digest, and the profile names none",
            "add container.digest: the image's \"sha256:...\" as its registry shows it");
    if (builds) check_dockerfile();
  }

  // The base a local build starts from is pinned like a pulled image is.
  void check_dockerfile() {
    static const std::regex k_from(R"(^FROM\s+(--platform=\S+\s+)?\S+@sha256:[0-9a-f]{64}(\s+AS\s+\S+)?$)",
                                   std::regex::icase);
    const auto& lines = *m_p.container_build;
    const auto first = std::find_if(lines.begin(), lines.end(), [](const std::string& line) {
      return !line.empty() && line.front() != '#' && line.rfind("ARG ", 0) != 0;
    });
    if (first == lines.end() || !std::regex_match(*first, k_from))
      error(m_p.container_build.where, "container.build's FROM line does not pin its base image by digest",
            "write FROM IMAGE:TAG@sha256:... as the first instruction");
  }

  // ---- native Windows (TF <= 2.10) ----
  void check_native(const std::optional<VersionSpec>& spec) {
    const std::string last = m_db.last_native_windows_gpu_release().to_string();
    check_wsl_only_keys();
    if (!spec) return;
    const auto fit = m_db.native_gpu_fit(*spec);
    const SourceLocation at = m_p.tensorflow_version.where;
    if (fit == NativeGpuFit::none) {
      error(at,
            fmt::format("tensorflow.version '{}' allows no TensorFlow release with GPU support on native Windows",
                        *m_p.tensorflow_version),
            fmt::format("write a version up to {}, e.g. version: \"<2.11\"", last));
      return;
    }
    if (fit == NativeGpuFit::needs_wsl || fit == NativeGpuFit::mixed) {
      error(at,
            fmt::format("tensorflow.version '{}' allows TensorFlow 2.11 or later, which has no GPU support on native "
                        "Windows (the last was {})",
                        *m_p.tensorflow_version, last),
            fit == NativeGpuFit::mixed
                ? fmt::format("add an upper bound: \"{},<2.11\", or use route: wsl", *m_p.tensorflow_version)
                : "use route: wsl (GPU TensorFlow >= 2.11 runs in WSL2)");
      return;
    }
    // The newest native release the spec allows is what pip would pick.
    const NativeWindowsGpuRelease* target = nullptr;
    for (const auto& n : m_db.native_windows_gpu()) {
      for (int micro = 0; micro <= 99 && !target; ++micro) {
        Version candidate = n.release.truncated(2);
        candidate.release.push_back(micro);
        if (spec->allows(candidate)) target = &n;
      }
      if (target) break;
    }
    if (!target) return;
    const std::string tf = target->release.to_string();
    if (m_p.python_version.has_value()) {
      auto py = Version::parse(*m_p.python_version);
      if (py && !target->python.contains(*py))
        error(m_p.python_version.where,
              fmt::format("TensorFlow {} on Windows supports Python {}, not {}", tf, target->python.to_string(),
                          *m_p.python_version),
              fmt::format("use a Python from {} (e.g. version: \"{}\")", target->python.to_string(),
                          target->python.max.to_string()));
    }
    check_cuda_pair(tf, target->cuda, target->cudnn, "on Windows");
  }

  // ---- WSL ----
  void check_wsl(const std::optional<VersionSpec>& spec) {
    std::optional<Version> distro_python;
    std::optional<Version> ubuntu;
    if (m_p.distro.has_value()) {
      ubuntu = m_db.ubuntu_release_of_distro(*m_p.distro);
      if (ubuntu) distro_python = m_db.ubuntu_default_python(*ubuntu);
      const std::string lower = ascii_lower(*m_p.distro);
      if (lower == "ubuntu") {
        warning(
            m_p.distro.where,
            fmt::format("distro 'Ubuntu' means whatever WSL installs by default: Ubuntu {} now (python3 {}), and it "
                        "changes over time",
                        ubuntu ? ubuntu_release_text(*ubuntu) : "?", distro_python ? distro_python->to_string() : "?"),
            "pin a release: distro: Ubuntu-22.04 or Ubuntu-24.04");
      }
    }
    const auto python = effective_python(m_p, m_db);
    if (m_p.python_version.has_value() && distro_python && python && !python->same_minor_series(*distro_python)) {
      warning(m_p.python_version.where,
              fmt::format("{}'s python3 is {}; Python {} has to be installed separately (e.g. from the deadsnakes PPA)",
                          *m_p.distro, distro_python->to_string(), *m_p.python_version),
              distro_for_python(*python).empty()
                  ? fmt::format("drop python.version: no Ubuntu release's python3 is {}, and the distro's own is "
                                "the one tfwsl sets up",
                                python->to_string())
                  : fmt::format("use a distro whose python3 is {} ({}), or drop python.version", python->to_string(),
                                distro_for_python(*python)));
    }
    if (!spec) return;
    const auto allowed = m_db.allowed_tf_releases(*spec);
    const SourceLocation at = m_p.tensorflow_version.where;
    if (allowed.empty()) {
      const auto& all = m_db.tf_releases();
      error(at,
            fmt::format("tensorflow.version '{}' allows no TensorFlow release tfwsl knows ({} to {})",
                        *m_p.tensorflow_version, all.empty() ? "?" : all.back().release.to_string(),
                        all.empty() ? "?" : all.front().release.to_string()),
            "write a known series, e.g. version: \"2.15.*\"");
      return;
    }
    const TfRelease* target = target_tf_release(m_p, m_db);
    if (python) {
      std::vector<const TfRelease*> fitting;
      for (const auto* tf : allowed) {
        if (tf->python.contains(*python)) fitting.push_back(tf);
      }
      if (fitting.empty()) {
        const auto for_python = m_db.tf_releases_for_python(*python);
        const std::string python_source = m_p.python_version.has_value()
                                              ? fmt::format("Python {}", *m_p.python_version)
                                              : fmt::format("{}'s Python {}", *m_p.distro, python->to_string());
        std::string supports;
        for (const auto* tf : allowed) {
          supports += fmt::format("{}TensorFlow {} supports Python {}", supports.empty() ? "" : "; ",
                                  tf->release.to_string(), tf->python.to_string());
          if (supports.size() > 300) break;
        }
        std::string fix;
        const std::string distro = distro_for_python_range(allowed.back()->python);
        if (!distro.empty())
          fix = fmt::format("use distro: {} (Python {})", distro, distro_python_of(distro));
        else
          fix = fmt::format("use Python {}", allowed.back()->python.to_string());
        if (!for_python.empty())
          fix += fmt::format(", or tensorflow.version: \">={}\" which supports Python {}",
                             for_python.front()->first_version.to_string(), python->truncated(2).to_string());
        else
          fix += no_release_for_python(*python);
        error(
            m_p.python_version.has_value() ? m_p.python_version.where
                                           : (m_p.distro.has_value() ? m_p.distro.where : at),
            fmt::format("{} cannot run tensorflow.version '{}': {}", python_source, *m_p.tensorflow_version, supports),
            fix);
        target = nullptr;
      }
    }
    check_extras(allowed);
    if (target) check_cuda_pair(target->release.to_string(), target->cuda, target->cudnn, "");
    check_apt_packages();
  }

  std::string distro_python_of(const std::string& distro) const {
    auto ubuntu = m_db.ubuntu_release_of_distro(distro);
    auto py = ubuntu ? m_db.ubuntu_default_python(*ubuntu) : std::nullopt;
    return py ? py->to_string() : "?";
  }

  // Why no release fits `python`: newer than any release supports yet, or older than all of them
  // (Python 2.7: "yet" would promise a release that will never come).
  std::string no_release_for_python(const Version& python) const {
    const std::string minor = python.truncated(2).to_string();
    const auto& releases = m_db.tf_releases();
    const bool older_than_all =
        std::all_of(releases.begin(), releases.end(), [&](const TfRelease& tf) { return python < tf.python.min; });
    return older_than_all ? fmt::format(" (Python {} is older than any TensorFlow release supports)", minor)
                          : fmt::format(" (no TensorFlow release supports Python {} yet)", minor);
  }

  // The newest Ubuntu whose python3 is `python` ("Ubuntu-22.04"), or "".
  std::string distro_for_python(const Version& python) const {
    std::string out;
    for (const auto& u : m_db.ubuntu_pythons()) {
      if (u.python3.same_minor_series(python)) out = "Ubuntu-" + ubuntu_release_text(u.ubuntu);
    }
    return out;
  }
  std::string distro_for_python_range(const VersionRange& range) const {
    std::string out;
    for (const auto& u : m_db.ubuntu_pythons()) {
      if (range.contains(u.python3)) out = "Ubuntu-" + ubuntu_release_text(u.ubuntu);
    }
    return out;
  }

  void check_extras(const std::vector<const TfRelease*>& allowed) {
    if (!m_p.tensorflow_extras.has_value()) return;
    for (const auto& extra : *m_p.tensorflow_extras) {
      if (extra != "and-cuda") {
        auto hint = closest_match(extra, {"and-cuda"});
        error(m_p.tensorflow_extras.where,
              fmt::format("TensorFlow has no extra '{}'{}", extra,
                          hint ? fmt::format(" (did you mean '{}'?)", *hint) : ""),
              "write extras: [and-cuda], or extras: []");
        continue;
      }
      std::vector<const TfRelease*> without;
      for (const auto* tf : allowed) {
        if (!tf->and_cuda_extra) without.push_back(tf);
      }
      if (without.empty()) continue;
      const std::string from = m_db.and_cuda_extra_from().to_string();
      if (without.size() == allowed.size()) {
        error(m_p.tensorflow_extras.where,
              fmt::format("tensorflow[and-cuda] exists from TensorFlow {}; tensorflow.version '{}' allows only {}",
                          from, *m_p.tensorflow_version, join_releases(without)),
              fmt::format("use TensorFlow >= {}, or remove and-cuda and install CUDA {} with cuDNN {} yourself", from,
                          without.back()->cuda.to_string(), without.back()->cudnn.to_string()));
      } else {
        warning(
            m_p.tensorflow_extras.where,
            fmt::format("tensorflow[and-cuda] exists from TensorFlow {}, but tensorflow.version '{}' also allows {}",
                        from, *m_p.tensorflow_version, join_releases(without)),
            fmt::format("raise the lower bound: \">={}\"", from));
      }
    }
  }

  void check_cuda_pair(const std::string& tf, const Version& cuda, const Version& cudnn, std::string_view where_run) {
    const std::string suffix = where_run.empty() ? "" : " " + std::string(where_run);
    if (m_p.cuda_toolkit.has_value()) {
      auto toolkit = Version::parse(*m_p.cuda_toolkit);
      if (toolkit) {
        if (!m_db.driver_minimum_for_cuda(*toolkit)) {
          error(m_p.cuda_toolkit.where, fmt::format("CUDA {} is not a CUDA release", *m_p.cuda_toolkit),
                fmt::format("write toolkit: \"{}\" (what TensorFlow {} is built for)", cuda.to_string(), tf));
        } else if (toolkit->major() != cuda.major()) {
          error(m_p.cuda_toolkit.where,
                fmt::format("TensorFlow {}{} is built for CUDA {}; CUDA {} is a different major version", tf, suffix,
                            cuda.to_string(), *m_p.cuda_toolkit),
                fmt::format("write toolkit: \"{}\"", cuda.to_string()));
        } else if (toolkit->truncated(2) < cuda.truncated(2)) {
          warning(
              m_p.cuda_toolkit.where,
              fmt::format("TensorFlow {}{} is built for CUDA {}; the older CUDA {} works only through minor-version "
                          "compatibility (PTX compilation may fail)",
                          tf, suffix, cuda.to_string(), *m_p.cuda_toolkit),
              fmt::format("write toolkit: \"{}\"", cuda.to_string()));
        }
      }
    }
    if (m_p.cuda_cudnn.has_value()) {
      auto have = Version::parse(*m_p.cuda_cudnn);
      if (have && have->major() != cudnn.major()) {
        error(m_p.cuda_cudnn.where,
              fmt::format(
                  "TensorFlow {}{} is built against cuDNN {}; cuDNN {} is a different major version and will not load",
                  tf, suffix, cudnn.to_string(), *m_p.cuda_cudnn),
              fmt::format("write cudnn: \"{}\"", cudnn.to_string()));
      } else if (have && *have < cudnn.truncated(2)) {
        warning(m_p.cuda_cudnn.where,
                fmt::format("TensorFlow {}{} is built against cuDNN {}; {} is older", tf, suffix, cudnn.to_string(),
                            *m_p.cuda_cudnn),
                fmt::format("write cudnn: \"{}\"", cudnn.to_string()));
      }
    }
  }

  void check_apt_packages() {
    if (!m_p.apt_packages.has_value()) return;
    for (const auto& package : *m_p.apt_packages) {
      if (is_linux_driver_package(package)) {
        error(
            m_p.apt_packages.where,
            fmt::format(
                "apt package '{}' installs a Linux NVIDIA driver inside WSL, which replaces the driver Windows shares "
                "with WSL and breaks CUDA",
                package),
            m_p.cuda_toolkit.has_value()
                ? fmt::format("remove it; for the CUDA toolkit use {} (set by cuda.toolkit)",
                              cuda_toolkit_apt_package(*m_p.cuda_toolkit))
                : std::string("remove it; for the CUDA toolkit set cuda.toolkit (it installs cuda-toolkit-X-Y only)"));
      }
    }
  }

  void check_pip_packages() {
    if (!m_p.pip_packages.has_value()) return;
    for (const auto& line : *m_p.pip_packages) {
      auto req = parse_requirement(line);
      if (!req) continue;
      if (req->name == "tensorflow-gpu") {
        error(m_p.pip_packages.where,
              fmt::format("'{}': the tensorflow-gpu package was removed in TensorFlow {} and now fails to install",
                          line, m_db.tensorflow_gpu_removed_in().to_string()),
              "remove it; set tensorflow.version (with extras: [and-cuda] for the GPU libraries)");
      } else if (req->name == "tensorflow" || req->name == "tensorflow-cpu" || req->name == "tf-nightly") {
        warning(m_p.pip_packages.where, fmt::format("'{}' in packages.pip competes with tensorflow.version", line),
                "remove it from packages.pip and set tensorflow.version instead");
      }
    }
  }

  const Profile& m_p;
  const CompatDb& m_db;
  std::span<const std::string_view> m_reported_keys;
  std::vector<ProfileIssue> m_issues;
};

}  // namespace

bool is_linux_driver_package(std::string_view package) {
  // The Windows driver is shared into WSL; a Linux driver installed there breaks CUDA (NVIDIA's CUDA
  // on WSL user guide, https://docs.nvidia.com/cuda/wsl-user-guide/index.html).
  static const std::regex k_driver_packages(
      R"(^(cuda|cuda-drivers(-[0-9]+)?|cuda-[0-9]+-[0-9]+|nvidia-driver-.*|nvidia-utils-.*|nvidia-dkms-.*|libnvidia-compute-.*|nvidia-headless-.*)(=.*)?$)");
  return std::regex_match(std::string(package), k_driver_packages);
}

std::optional<Version> effective_python(const Profile& profile, const CompatDb& db) {
  if (profile.python_version.has_value()) {
    auto v = Version::parse(*profile.python_version);
    if (v) return *v;
    return std::nullopt;
  }
  if (!profile.distro.has_value()) return std::nullopt;
  auto ubuntu = db.ubuntu_release_of_distro(*profile.distro);
  if (!ubuntu) return std::nullopt;
  return db.ubuntu_default_python(*ubuntu);
}

const TfRelease* target_tf_release(const Profile& profile, const CompatDb& db) {
  if (!profile.tensorflow_version.has_value()) return nullptr;
  auto spec = VersionSpec::parse(*profile.tensorflow_version);
  if (!spec) return nullptr;
  const auto allowed = db.allowed_tf_releases(*spec);
  const auto python = effective_python(profile, db);
  for (auto it = allowed.rbegin(); it != allowed.rend(); ++it) {
    if (!python || (*it)->python.contains(*python)) return *it;
  }
  return nullptr;
}

std::vector<ProfileIssue> validate_profile(const Profile& profile, const CompatDb& db,
                                           std::span<const std::string_view> reported_keys) {
  return Validator(profile, db, reported_keys).run();
}

}  // namespace tfwsl
