#include "common/compat/compat_db.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "common/util/ascii.hpp"

namespace tfwsl {

bool VersionRange::contains(const Version& v) const {
  const Version mm = v.truncated(2);
  return mm >= min.truncated(2) && mm <= max.truncated(2);
}

std::string VersionRange::to_string() const { return min.to_string() + "-" + max.to_string(); }

const char* to_string(NativeGpuFit fit) {
  switch (fit) {
    case NativeGpuFit::native_ok:
      return "native_ok";
    case NativeGpuFit::needs_wsl:
      return "needs_wsl";
    case NativeGpuFit::mixed:
      return "mixed";
    case NativeGpuFit::none:
      return "none";
  }
  return "none";
}

const TfRelease* CompatDb::find_tf_release(const Version& version) const {
  for (const auto& tf : m_tf) {
    if (tf.release.same_minor_series(version)) return &tf;
  }
  return nullptr;
}

std::vector<const TfRelease*> CompatDb::allowed_tf_releases(const VersionSpec& spec) const {
  std::vector<const TfRelease*> out;
  for (auto it = m_tf.rbegin(); it != m_tf.rend(); ++it) {
    const TfRelease& tf = *it;
    for (int micro = tf.first_version.micro(); micro <= 99; ++micro) {
      Version candidate = tf.release.truncated(2);
      candidate.release.push_back(micro);
      if (spec.allows(candidate)) {
        out.push_back(&tf);
        break;
      }
    }
  }
  return out;
}

std::vector<const TfRelease*> CompatDb::tf_releases_for_python(const Version& python) const {
  std::vector<const TfRelease*> out;
  for (auto it = m_tf.rbegin(); it != m_tf.rend(); ++it) {
    if (it->python.contains(python)) out.push_back(&*it);
  }
  return out;
}

const NativeWindowsGpuRelease* CompatDb::find_native_windows_gpu(const Version& version) const {
  for (const auto& n : m_native) {
    if (n.release.same_minor_series(version)) return &n;
  }
  return nullptr;
}

NativeGpuFit CompatDb::native_gpu_fit(const VersionSpec& spec) const {
  bool native = false;
  bool wsl = false;
  for (const TfRelease* tf : allowed_tf_releases(spec)) {
    (tf->release <= m_last_native ? native : wsl) = true;
  }
  // Releases older than the WSL table (2.0-2.8) count when the native table knows them.
  for (const auto& n : m_native) {
    if (find_tf_release(n.release)) continue;
    for (int micro = 0; micro <= 99 && !native; ++micro) {
      Version candidate = n.release.truncated(2);
      candidate.release.push_back(micro);
      if (spec.allows(candidate)) native = true;
    }
  }
  if (native && wsl) return NativeGpuFit::mixed;
  if (native) return NativeGpuFit::native_ok;
  if (wsl) return NativeGpuFit::needs_wsl;
  return NativeGpuFit::none;
}

Result<CudaDriverMinimum> CompatDb::driver_minimum_for_cuda(const Version& toolkit) const {
  std::vector<const CudaDriverMinimum*> series;
  for (const auto& d : m_drivers) {
    if (d.cuda.same_minor_series(toolkit)) series.push_back(&d);
  }
  if (series.empty()) {
    return make_error(
        ErrorCode::not_found,
        fmt::format("CUDA {} is not in the driver table (known: {} to {}); use a released toolkit such as 12.2",
                    toolkit.to_string(), m_drivers.empty() ? "none" : m_drivers.back().cuda.truncated(2).to_string(),
                    m_drivers.empty() ? "none" : m_drivers.front().cuda.truncated(2).to_string()));
  }
  if (toolkit.release.size() <= 2) {
    // The GA release is the oldest listed for the series (11.0's GA is 11.0.2, 10.2's is 10.2.89).
    return **std::min_element(series.begin(), series.end(), [](auto* a, auto* b) { return a->cuda < b->cuda; });
  }
  for (const auto* d : series) {
    if (d->cuda == toolkit) return *d;
  }
  std::string known;
  for (const auto* d : series) known += (known.empty() ? "" : ", ") + d->cuda.to_string();
  return make_error(ErrorCode::not_found, fmt::format("CUDA {} is not a release NVIDIA lists (known {} releases: {})",
                                                      toolkit.to_string(), toolkit.truncated(2).to_string(), known));
}

std::optional<MinorVersionFloor> CompatDb::minor_version_floor(int cuda_major) const {
  for (const auto& f : m_floors) {
    if (f.cuda_major == cuda_major) return f;
  }
  return std::nullopt;
}

std::optional<Version> CompatDb::ubuntu_default_python(const Version& ubuntu_release) const {
  for (const auto& u : m_ubuntu) {
    if (u.ubuntu.same_minor_series(ubuntu_release)) return u.python3;
  }
  return std::nullopt;
}

std::optional<Version> CompatDb::ubuntu_release_of_distro(std::string_view distro) const {
  const std::string name = ascii_lower(distro);
  if (name == "ubuntu") {
    if (m_wsl_default_ubuntu.release.empty()) return std::nullopt;
    return m_wsl_default_ubuntu;
  }
  constexpr std::string_view prefix = "ubuntu-";
  if (name.rfind(prefix, 0) != 0) return std::nullopt;
  const std::string rest = name.substr(prefix.size());
  // "Ubuntu-24.04" only: exactly two numeric fields. "Ubuntu-24.04-dev" is not a release name.
  const auto dot = rest.find('.');
  if (dot == std::string::npos || !ascii_all_digits(std::string_view(rest).substr(0, dot)) ||
      !ascii_all_digits(std::string_view(rest).substr(dot + 1)))
    return std::nullopt;
  auto v = Version::parse(rest);
  if (!v) return std::nullopt;
  return *v;
}

}  // namespace tfwsl
