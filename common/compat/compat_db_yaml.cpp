// CompatDb's loading: compat.yaml read section by section, every problem collected with its
// position instead of stopping at the first; the built-in copy and a file given by path.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "common/compat/compat_db.hpp"
#include "common/resources/embedded_resources.hpp"
#include "common/util/regular_file.hpp"
#include "common/util/suggest.hpp"
#include "common/util/yaml_document.hpp"

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
      problem(entry.first,
              fmt::format("unknown key '{}'{}", key, hint ? fmt::format(" (did you mean '{}'?)", *hint) : ""));
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

  // Calls read_entry with each map in the list parent[key] (`name`: how problems name the list;
  // other entries are reported). Returns the list, undefined when it is absent (reported too).
  template <typename ReadEntry>
  YAML::Node for_each_entry(const YAML::Node& parent, const char* key, const char* name, ReadEntry read_entry) {
    const YAML::Node list = sequence(parent, key);
    if (!list.IsDefined()) return list;
    for (const auto& e : list) {
      if (entry_is_map(e, name)) read_entry(e);
    }
    return list;
  }

 private:
  std::string m_source;
  std::vector<std::string> m_problems;
};

// The steps of CompatDb::from_yaml, one a section of compat.yaml. Each reports what is wrong
// through the reader and returns the entries that are right.

void check_top_level(CompatReader& r, const YAML::Node& root) {
  r.check_keys(root, {"schema", "tensorflow", "packaging", "native_windows_gpu", "cuda_drivers",
                      "cuda_minor_version_floor", "ubuntu_python", "wsl_default_ubuntu", "wsl_gpu_min_windows_build",
                      "stock_wheels_fail_from_compute_capability", "nvidia_tensorflow_container",
                      "nvidia_driver_branch_width", "wsl_container_cli_from"});
  if (auto schema = r.integer(root, "schema"); schema && *schema != 1)
    r.problem(root["schema"], fmt::format("schema {} is not understood by this tfwsl (it reads schema 1)", *schema));
}

// From packaging: which releases install with the [and-cuda] extra and which still have the
// tensorflow-gpu package.
struct PackagingCutoffs {
  Version and_cuda_from;
  Version tf_gpu_removed_in;
};

bool lists_minor_series(const std::vector<TfRelease>& releases, const Version& release) {
  return std::any_of(releases.begin(), releases.end(),
                     [&](const TfRelease& tf) { return tf.release.same_minor_series(release); });
}

std::optional<TfRelease> read_tensorflow_release(CompatReader& r, const YAML::Node& e,
                                                 const std::vector<TfRelease>& so_far,
                                                 const PackagingCutoffs& cutoffs) {
  r.check_keys(e, {"release", "first_version", "python", "cuda", "cudnn", "min_compute_capability"});
  auto release = r.version(e, "release");
  auto first = r.version(e, "first_version");
  auto python = r.range(e, "python");
  auto cuda = r.version(e, "cuda");
  auto cudnn = r.version(e, "cudnn");
  auto cc = r.version(e, "min_compute_capability");
  if (!(release && first && python && cuda && cudnn && cc)) return std::nullopt;
  if (release->release.size() != 2) {
    r.problem(e["release"], fmt::format("'release' names a minor series such as 2.15, got '{}'", release->to_string()));
    return std::nullopt;
  }
  if (!first->same_minor_series(*release)) {
    r.problem(e["first_version"],
              fmt::format("first_version {} is not in the {} series", first->to_string(), release->to_string()));
    return std::nullopt;
  }
  if (lists_minor_series(so_far, *release)) {
    r.problem(e["release"], fmt::format("TensorFlow {} is listed twice", release->to_string()));
    return std::nullopt;
  }
  TfRelease tf{*release, *first, *python, *cuda, *cudnn, *cc, false, false};
  tf.and_cuda_extra = !cutoffs.and_cuda_from.release.empty() && *release >= cutoffs.and_cuda_from;
  tf.tensorflow_gpu_package = !cutoffs.tf_gpu_removed_in.release.empty() && *release < cutoffs.tf_gpu_removed_in;
  return tf;
}

// Newest release first.
std::vector<TfRelease> read_tensorflow_releases(CompatReader& r, const YAML::Node& root,
                                                const PackagingCutoffs& cutoffs) {
  std::vector<TfRelease> releases;
  const YAML::Node list = r.for_each_entry(root, "tensorflow", "tensorflow", [&](const YAML::Node& e) {
    if (auto tf = read_tensorflow_release(r, e, releases, cutoffs)) releases.push_back(std::move(*tf));
  });
  if (!list.IsDefined()) return releases;
  if (releases.empty()) r.problem(list, "'tensorflow' lists no release");
  std::stable_sort(releases.begin(), releases.end(),
                   [](const TfRelease& a, const TfRelease& b) { return a.release > b.release; });
  return releases;
}

void read_native_windows_gpu(CompatReader& r, const YAML::Node& root, Version& last_release,
                             std::vector<NativeWindowsGpuRelease>& releases) {
  const YAML::Node native = r.map(root, "native_windows_gpu");
  if (!native.IsDefined()) return;
  r.check_keys(native, {"last_release", "releases"});
  last_release = r.version(native, "last_release").value_or(Version{});
  r.for_each_entry(native, "releases", "native_windows_gpu.releases", [&](const YAML::Node& e) {
    r.check_keys(e, {"release", "python", "cuda", "cudnn"});
    auto release = r.version(e, "release");
    auto python = r.range(e, "python");
    auto cuda = r.version(e, "cuda");
    auto cudnn = r.version(e, "cudnn");
    if (release && python && cuda && cudnn) releases.push_back({*release, *python, *cuda, *cudnn});
  });
  const bool listed = std::any_of(releases.begin(), releases.end(), [&](const NativeWindowsGpuRelease& n) {
    return n.release.same_minor_series(last_release);
  });
  if (!last_release.release.empty() && !listed)
    r.problem(native["last_release"],
              fmt::format("last_release {} is not among the releases listed", last_release.to_string()));
}

std::optional<CudaDriverMinimum> read_cuda_driver(CompatReader& r, const YAML::Node& e) {
  r.check_keys(e, {"cuda", "linux", "windows"});
  auto cuda = r.version(e, "cuda");
  auto linux_min = r.driver(e, "linux");
  std::optional<DriverVersion> windows_min;
  const YAML::Node w = e["windows"];
  if (!w.IsDefined()) {
    r.problem(e, "missing 'windows' (write windows: ~ when NVIDIA lists N/A)");
    return std::nullopt;
  }
  if (!w.IsNull()) {
    windows_min = r.driver(e, "windows");
    if (!windows_min) return std::nullopt;
  }
  if (!cuda || !linux_min) return std::nullopt;
  if (cuda->release.size() != 3) {
    r.problem(e["cuda"],
              fmt::format("'cuda' must be a full toolkit version such as 12.2.0, got '{}'", cuda->to_string()));
    return std::nullopt;
  }
  return CudaDriverMinimum{*cuda, *linux_min, windows_min};
}

std::vector<CudaDriverMinimum> read_cuda_drivers(CompatReader& r, const YAML::Node& root) {
  std::vector<CudaDriverMinimum> drivers;
  r.for_each_entry(root, "cuda_drivers", "cuda_drivers", [&](const YAML::Node& e) {
    if (auto driver = read_cuda_driver(r, e)) drivers.push_back(std::move(*driver));
  });
  return drivers;
}

std::vector<MinorVersionFloor> read_minor_version_floors(CompatReader& r, const YAML::Node& root) {
  std::vector<MinorVersionFloor> floors;
  r.for_each_entry(root, "cuda_minor_version_floor", "cuda_minor_version_floor", [&](const YAML::Node& e) {
    r.check_keys(e, {"cuda_major", "linux", "windows"});
    auto major = r.integer(e, "cuda_major");
    auto linux_min = r.driver(e, "linux");
    auto windows_min = r.driver(e, "windows");
    if (major && linux_min && windows_min) floors.push_back({*major, *linux_min, *windows_min});
  });
  return floors;
}

std::vector<UbuntuPython> read_ubuntu_pythons(CompatReader& r, const YAML::Node& root) {
  std::vector<UbuntuPython> pythons;
  r.for_each_entry(root, "ubuntu_python", "ubuntu_python", [&](const YAML::Node& e) {
    r.check_keys(e, {"ubuntu", "codename", "python3"});
    auto ubuntu = r.version(e, "ubuntu");
    auto codename = r.text(e, "codename");
    auto python = r.version(e, "python3");
    if (ubuntu && codename && python) pythons.push_back({*ubuntu, *codename, *python});
  });
  return pythons;
}

}  // namespace

Result<CompatDb> CompatDb::from_yaml(std::string_view text, std::string_view source_name) {
  TFWSL_TRY(root, parse_yaml_document(text, source_name));
  if (!root.IsMap()) {
    return make_error(ErrorCode::invalid_input,
                      fmt::format("{}: the compatibility data must be a YAML map with keys such as 'tensorflow:'; "
                                  "start from the built-in profiles/compat.yaml",
                                  yaml_position(source_name, root.Mark())));
  }
  CompatReader r(source_name);
  CompatDb db;
  // The sections in file order, so that the problems are listed in the order a reader meets them.
  check_top_level(r, root);
  if (auto packaging = r.map(root, "packaging"); packaging.IsDefined()) {
    r.check_keys(packaging, {"and_cuda_extra_from", "tensorflow_gpu_removed_in"});
    db.m_and_cuda_from = r.version(packaging, "and_cuda_extra_from").value_or(Version{});
    db.m_tf_gpu_removed_in = r.version(packaging, "tensorflow_gpu_removed_in").value_or(Version{});
  }
  db.m_tf = read_tensorflow_releases(r, root, {db.m_and_cuda_from, db.m_tf_gpu_removed_in});
  read_native_windows_gpu(r, root, db.m_last_native, db.m_native);
  db.m_drivers = read_cuda_drivers(r, root);
  db.m_floors = read_minor_version_floors(r, root);
  db.m_ubuntu = read_ubuntu_pythons(r, root);
  db.m_wsl_default_ubuntu = r.version(root, "wsl_default_ubuntu").value_or(Version{});
  db.m_wsl_gpu_min_windows_build =
      static_cast<int>(r.integer(root, "wsl_gpu_min_windows_build", 1'000'000).value_or(0));
  if (root["stock_wheels_fail_from_compute_capability"])
    db.m_stock_wheels_fail_from_cc = r.version(root, "stock_wheels_fail_from_compute_capability").value_or(Version{});
  if (root["nvidia_tensorflow_container"] && root["nvidia_tensorflow_container"].IsScalar())
    db.m_nvidia_tf_container = root["nvidia_tensorflow_container"].as<std::string>();
  if (root["wsl_container_cli_from"])
    db.m_wsl_container_cli_from = r.version(root, "wsl_container_cli_from").value_or(Version{});
  if (root["nvidia_driver_branch_width"])
    db.m_driver_branch_width = static_cast<int>(r.integer(root, "nvidia_driver_branch_width", 100).value_or(0));

  if (!r.problems().empty()) {
    std::string message =
        fmt::format("the compatibility data in {} has {} problem(s):", source_name, r.problems().size());
    for (const auto& p : r.problems()) message += "\n  " + p;
    return make_error(ErrorCode::invalid_input, message);
  }
  return db;
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
  // A bounded read of a regular file: a FIFO would block, /dev/zero would never end (F4).
  constexpr std::uintmax_t k_max_compat_bytes = 16u << 20;
  const RegularFileRead read = read_regular_file(path, k_max_compat_bytes);
  if (read.problem != FileReadProblem::none)
    return make_error(read.problem == FileReadProblem::missing ? ErrorCode::not_found : ErrorCode::invalid_input,
                      fmt::format("cannot read the compatibility data file '{}': it {}; check the path", path.string(),
                                  read_problem_text(read, k_max_compat_bytes)));
  return CompatDb::from_yaml(read.bytes, path.string());
}

}  // namespace tfwsl
