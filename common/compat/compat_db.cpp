#include "common/compat/compat_db.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "common/compat/yaml_document.hpp"
#include "common/util/suggest.hpp"
#include "common/resources/embedded_resources.hpp"

namespace tfwsl {
namespace {

// Reads compat.yaml, collecting every problem instead of stopping at the first.
class CompatReader {
 public:
  explicit CompatReader(std::string_view source) : m_source(source) {}

  void problem(const YAML::Node& at, const std::string& message) {
    m_problems.push_back(fmt::format("{}: {}", yaml_position(m_source, at.Mark()), message));
  }
  const std::vector<std::string>& problems() const { return m_problems; }

  // Checks a map's keys against the expected ones.
  void check_keys(const YAML::Node& map, const std::vector<std::string>& known) {
    for (const auto& entry : map) {
      const std::string key = entry.first.Scalar();
      if (std::find(known.begin(), known.end(), key) != known.end()) continue;
      auto hint = closest_match(key, known);
      problem(entry.first, fmt::format("unknown key '{}'{}", key, hint ? fmt::format(" (did you mean '{}'?)", *hint) : ""));
    }
  }

  YAML::Node map_field(const YAML::Node& map, const char* key, bool required = true) {
    const YAML::Node node = map[key];
    if (!node.IsDefined() || node.IsNull()) {
      if (required) problem(map, fmt::format("missing '{}'", key));
      return YAML::Node(YAML::NodeType::Undefined);
    }
    return node;
  }

  std::optional<std::string> text(const YAML::Node& map, const char* key) {
    const YAML::Node node = map_field(map, key);
    if (!node.IsDefined()) return std::nullopt;
    if (!node.IsScalar()) {
      problem(node, fmt::format("'{}' must be a single value", key));
      return std::nullopt;
    }
    return node.Scalar();
  }

  std::optional<Version> version(const YAML::Node& map, const char* key) {
    auto t = text(map, key);
    if (!t) return std::nullopt;
    auto v = Version::parse(*t);
    if (!v) {
      problem(map[key], fmt::format("'{}': {}", key, v.error().message));
      return std::nullopt;
    }
    return *v;
  }

  std::optional<DriverVersion> driver(const YAML::Node& map, const char* key) {
    auto t = text(map, key);
    if (!t) return std::nullopt;
    auto v = parse_driver_version(*t);
    if (!v) {
      problem(map[key], fmt::format("'{}': {}", key, v.error().message));
      return std::nullopt;
    }
    return *v;
  }

  std::optional<VersionRange> range(const YAML::Node& map, const char* key) {
    auto t = text(map, key);
    if (!t) return std::nullopt;
    const auto dash = t->find('-');
    if (dash == std::string::npos) {
      problem(map[key], fmt::format("'{}' must be a range such as 3.9-3.12, got '{}'", key, *t));
      return std::nullopt;
    }
    auto lo = Version::parse(t->substr(0, dash));
    auto hi = Version::parse(t->substr(dash + 1));
    if (!lo || !hi || *hi < *lo) {
      problem(map[key], fmt::format("'{}' must be a range such as 3.9-3.12 (low end first), got '{}'", key, *t));
      return std::nullopt;
    }
    return VersionRange{*lo, *hi};
  }

  // A whole number in [0, max]: schema and CUDA majors are small, Windows builds are not.
  std::optional<int> integer(const YAML::Node& map, const char* key, long max = 1000) {
    auto t = text(map, key);
    if (!t) return std::nullopt;
    char* end = nullptr;
    const long value = std::strtol(t->c_str(), &end, 10);
    if (t->empty() || *end != '\0' || value < 0 || value > max) {
      problem(map[key], fmt::format("'{}' must be a whole number from 0 to {}, got '{}'", key, max, *t));
      return std::nullopt;
    }
    return static_cast<int>(value);
  }

  YAML::Node sequence(const YAML::Node& map, const char* key) {
    const YAML::Node node = map_field(map, key);
    if (node.IsDefined() && !node.IsSequence()) {
      problem(node, fmt::format("'{}' must be a list", key));
      return YAML::Node(YAML::NodeType::Undefined);
    }
    return node;
  }

  YAML::Node map(const YAML::Node& parent, const char* key) {
    const YAML::Node node = map_field(parent, key);
    if (node.IsDefined() && !node.IsMap()) {
      problem(node, fmt::format("'{}' must be a map of keys", key));
      return YAML::Node(YAML::NodeType::Undefined);
    }
    return node;
  }

  bool entry_is_map(const YAML::Node& entry, const char* list) {
    if (entry.IsMap()) return true;
    problem(entry, fmt::format("each entry of '{}' must be a map such as {{ release: \"2.15\", ... }}", list));
    return false;
  }

 private:
  std::string m_source;
  std::vector<std::string> m_problems;
};

bool digits_only(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

bool VersionRange::contains(const Version& v) const {
  const Version mm = v.truncated(2);
  return mm >= min.truncated(2) && mm <= max.truncated(2);
}

std::string VersionRange::to_string() const { return min.to_string() + "-" + max.to_string(); }

const char* to_string(NativeGpuFit fit) {
  switch (fit) {
    case NativeGpuFit::native_ok: return "native_ok";
    case NativeGpuFit::needs_wsl: return "needs_wsl";
    case NativeGpuFit::mixed: return "mixed";
    case NativeGpuFit::none: return "none";
  }
  return "none";
}

Result<CompatDb> CompatDb::from_yaml(std::string_view text, std::string_view source_name) {
  TFWSL_TRY(root, parse_yaml_document(text, source_name));
  CompatReader r(source_name);
  CompatDb db;
  if (!root.IsMap()) {
    return make_error(ErrorCode::invalid_input,
                      fmt::format("{}: the compatibility data must be a YAML map with keys such as 'tensorflow:'; "
                                  "start from the built-in profiles/compat.yaml",
                                  yaml_position(source_name, root.Mark())));
  }
  r.check_keys(root, {"schema", "tensorflow", "packaging", "native_windows_gpu", "cuda_drivers",
                      "cuda_minor_version_floor", "ubuntu_python", "wsl_default_ubuntu",
                      "wsl_gpu_min_windows_build"});
  if (auto schema = r.integer(root, "schema"); schema && *schema != 1)
    r.problem(root["schema"], fmt::format("schema {} is not understood by this tfwsl (it reads schema 1)", *schema));

  if (auto packaging = r.map(root, "packaging"); packaging.IsDefined()) {
    r.check_keys(packaging, {"and_cuda_extra_from", "tensorflow_gpu_removed_in"});
    db.m_and_cuda_from = r.version(packaging, "and_cuda_extra_from").value_or(Version{});
    db.m_tf_gpu_removed_in = r.version(packaging, "tensorflow_gpu_removed_in").value_or(Version{});
  }

  if (auto list = r.sequence(root, "tensorflow"); list.IsDefined()) {
    for (const auto& e : list) {
      if (!r.entry_is_map(e, "tensorflow")) continue;
      r.check_keys(e, {"release", "first_version", "python", "cuda", "cudnn", "min_compute_capability"});
      auto release = r.version(e, "release");
      auto first = r.version(e, "first_version");
      auto python = r.range(e, "python");
      auto cuda = r.version(e, "cuda");
      auto cudnn = r.version(e, "cudnn");
      auto cc = r.version(e, "min_compute_capability");
      if (!(release && first && python && cuda && cudnn && cc)) continue;
      if (release->release.size() != 2) {
        r.problem(e["release"], fmt::format("'release' names a minor series such as 2.15, got '{}'", release->to_string()));
        continue;
      }
      if (!first->same_minor_series(*release)) {
        r.problem(e["first_version"], fmt::format("first_version {} is not in the {} series", first->to_string(), release->to_string()));
        continue;
      }
      if (db.find_tf_release(*release)) {
        r.problem(e["release"], fmt::format("TensorFlow {} is listed twice", release->to_string()));
        continue;
      }
      TfRelease tf{*release, *first, *python, *cuda, *cudnn, *cc, false, false};
      tf.and_cuda_extra = !db.m_and_cuda_from.release.empty() && *release >= db.m_and_cuda_from;
      tf.tensorflow_gpu_package = !db.m_tf_gpu_removed_in.release.empty() && *release < db.m_tf_gpu_removed_in;
      db.m_tf.push_back(std::move(tf));
    }
    if (db.m_tf.empty()) r.problem(list, "'tensorflow' lists no release");
    std::stable_sort(db.m_tf.begin(), db.m_tf.end(), [](const TfRelease& a, const TfRelease& b) { return a.release > b.release; });
  }

  if (auto native = r.map(root, "native_windows_gpu"); native.IsDefined()) {
    r.check_keys(native, {"last_release", "releases"});
    db.m_last_native = r.version(native, "last_release").value_or(Version{});
    if (auto list = r.sequence(native, "releases"); list.IsDefined()) {
      for (const auto& e : list) {
        if (!r.entry_is_map(e, "native_windows_gpu.releases")) continue;
        r.check_keys(e, {"release", "python", "cuda", "cudnn"});
        auto release = r.version(e, "release");
        auto python = r.range(e, "python");
        auto cuda = r.version(e, "cuda");
        auto cudnn = r.version(e, "cudnn");
        if (release && python && cuda && cudnn) db.m_native.push_back({*release, *python, *cuda, *cudnn});
      }
    }
    if (!db.m_last_native.release.empty() && !db.find_native_windows_gpu(db.m_last_native))
      r.problem(native["last_release"], fmt::format("last_release {} is not among the releases listed", db.m_last_native.to_string()));
  }

  if (auto list = r.sequence(root, "cuda_drivers"); list.IsDefined()) {
    for (const auto& e : list) {
      if (!r.entry_is_map(e, "cuda_drivers")) continue;
      r.check_keys(e, {"cuda", "linux", "windows"});
      auto cuda = r.version(e, "cuda");
      auto linux_min = r.driver(e, "linux");
      std::optional<DriverVersion> windows_min;
      const YAML::Node w = e["windows"];
      if (!w.IsDefined()) {
        r.problem(e, "missing 'windows' (write windows: ~ when NVIDIA lists N/A)");
        continue;
      }
      if (!w.IsNull()) {
        windows_min = r.driver(e, "windows");
        if (!windows_min) continue;
      }
      if (!cuda || !linux_min) continue;
      if (cuda->release.size() != 3) {
        r.problem(e["cuda"], fmt::format("'cuda' must be a full toolkit version such as 12.2.0, got '{}'", cuda->to_string()));
        continue;
      }
      db.m_drivers.push_back({*cuda, *linux_min, windows_min});
    }
  }

  if (auto list = r.sequence(root, "cuda_minor_version_floor"); list.IsDefined()) {
    for (const auto& e : list) {
      if (!r.entry_is_map(e, "cuda_minor_version_floor")) continue;
      r.check_keys(e, {"cuda_major", "linux", "windows"});
      auto major = r.integer(e, "cuda_major");
      auto linux_min = r.driver(e, "linux");
      auto windows_min = r.driver(e, "windows");
      if (major && linux_min && windows_min) db.m_floors.push_back({*major, *linux_min, *windows_min});
    }
  }

  if (auto list = r.sequence(root, "ubuntu_python"); list.IsDefined()) {
    for (const auto& e : list) {
      if (!r.entry_is_map(e, "ubuntu_python")) continue;
      r.check_keys(e, {"ubuntu", "codename", "python3"});
      auto ubuntu = r.version(e, "ubuntu");
      auto codename = r.text(e, "codename");
      auto python = r.version(e, "python3");
      if (ubuntu && codename && python) db.m_ubuntu.push_back({*ubuntu, *codename, *python});
    }
  }
  db.m_wsl_default_ubuntu = r.version(root, "wsl_default_ubuntu").value_or(Version{});
  db.m_wsl_gpu_min_windows_build = static_cast<int>(r.integer(root, "wsl_gpu_min_windows_build", 1'000'000).value_or(0));

  if (!r.problems().empty()) {
    std::string message = fmt::format("the compatibility data in {} has {} problem(s):", source_name, r.problems().size());
    for (const auto& p : r.problems()) message += "\n  " + p;
    return make_error(ErrorCode::invalid_input, message);
  }
  return db;
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
    return make_error(ErrorCode::not_found,
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
  auto lower = [](std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>((c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c);
    return out;
  };
  const std::string name = lower(distro);
  if (name == "ubuntu") {
    if (m_wsl_default_ubuntu.release.empty()) return std::nullopt;
    return m_wsl_default_ubuntu;
  }
  constexpr std::string_view prefix = "ubuntu-";
  if (name.rfind(prefix, 0) != 0) return std::nullopt;
  const std::string rest = name.substr(prefix.size());
  // "Ubuntu-24.04" only: exactly two numeric fields. "Ubuntu-24.04-dev" is not a release name.
  const auto dot = rest.find('.');
  if (dot == std::string::npos || !digits_only(std::string_view(rest).substr(0, dot)) ||
      !digits_only(std::string_view(rest).substr(dot + 1)))
    return std::nullopt;
  auto v = Version::parse(rest);
  if (!v) return std::nullopt;
  return *v;
}

const CompatDb& builtin_compat_db() {
  static const CompatDb db = [] {
    const auto text = embedded_resource("compat.yaml");
    if (!text) {
      std::fputs("tfwsl: internal error: the built-in compatibility data (compat.yaml) is missing\n", stderr);
      std::abort();
    }
    auto loaded = CompatDb::from_yaml(*text, "built-in compat.yaml");
    if (!loaded) {
      std::fprintf(stderr, "tfwsl: internal error: %s\n", loaded.error().message.c_str());
      std::abort();
    }
    return std::move(*loaded);
  }();
  return db;
}

Result<CompatDb> load_compat_db(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error(ErrorCode::not_found,
                      fmt::format("cannot open the compatibility data file '{}'; check the path", path.string()));
  }
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return CompatDb::from_yaml(bytes.str(), path.string());
}

}  // namespace tfwsl
