#include "win/profile/profile_drift.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>

#include "common/compat/compat_db.hpp"
#include "common/profile/profile.hpp"
#include "common/profile/profile_schema.hpp"
#include "common/units/size_parser.hpp"
#include "common/util/ascii.hpp"
#include "common/version/driver_version.hpp"
#include "common/version/version_spec.hpp"
#include "common/wslconfig/wslconfig_document.hpp"

namespace tfwsl {
namespace {

// One key's comparison: the same, a drift (found + fix), or not compared (why).
struct Outcome {
  enum class Kind { same, drift, not_compared } kind = Kind::same;
  std::string found;
  std::string fix_or_why;
};
Outcome same() { return {}; }
Outcome drift(std::string found, std::string fix) { return {Outcome::Kind::drift, std::move(found), std::move(fix)}; }
Outcome not_compared(std::string why) { return {Outcome::Kind::not_compared, {}, std::move(why)}; }

struct Context {
  const Profile& profile;
  const ProfileMachineFacts& machine;
  std::string wanted;  // the profile's value as text
};

bool in_series(const std::string& found, const std::string& wanted) {
  auto v = Version::parse(found), w = Version::parse(wanted);
  if (!v || !w) return false;
  for (std::size_t i = 0; i < w->release.size(); ++i)
    if (v->segment(i) != w->segment(i)) return false;
  return true;
}

// ---- host side ----

Outcome compare_distro(const Context& c) {
  const std::string& found = c.machine.host.distro;
  if (found.empty())
    return not_compared(c.machine.host.distro_why.empty() ? "no WSL distribution here" : c.machine.host.distro_why);
  if (ascii_lower(found) == ascii_lower(c.wanted)) return same();
  return drift(found, fmt::format("compare the distribution the profile names: tfwsl profile diff --distro {0} "
                                  "(wsl --install -d {0} when it is not installed)",
                                  c.wanted));
}

// A [wsl2] key of .wslconfig; `read` turns its text into the profile's value text, or nothing.
Outcome compare_wslconfig(const Context& c, std::string_view key,
                          const std::function<std::optional<std::string>(std::string_view)>& read) {
  const ProfileHostFacts& h = c.machine.host;
  if (h.wslconfig_path.empty()) return not_compared("no .wslconfig here (not Windows)");
  if (!h.wslconfig_error.empty()) return not_compared(h.wslconfig_path + " could not be read: " + h.wslconfig_error);
  const std::string fix = fmt::format(
      "tfwsl wslconfig set {}={} --apply (under [wsl2] in {}; --apply restarts WSL so "
      "that it reads it)",
      key, c.wanted, h.wslconfig_path);
  if (!h.wslconfig_bytes) return drift(fmt::format("no {} (WSL's default)", h.wslconfig_path), fix);
  const auto value = wslconfig::Document::parse(*h.wslconfig_bytes).get("wsl2", key);
  if (!value) return drift("not set (WSL's default)", fix);
  const auto found = read(*value);
  if (!found) return drift(fmt::format("'{}' (WSL does not read it)", *value), fix);
  if (*found == c.wanted) return same();
  return drift(*found, fix);
}

std::optional<std::string> size_text(std::string_view text) {
  auto bytes = parse_wsl_size(text);
  if (!bytes) return std::nullopt;
  return format_wsl_size(*bytes);
}

std::optional<std::string> count_text(std::string_view text) {
  if (text.empty() || !std::all_of(text.begin(), text.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
    return std::nullopt;
  return std::string(text);
}

Outcome compare_driver(const Context& c) {
  std::string source;
  const std::string found = machine_gpu_driver(c.machine, &source);
  if (found.empty())
    return not_compared(c.machine.linux ? "no NVIDIA driver was found"
                                        : "the agent could not be reached: " + c.machine.linux_error);
  auto have = parse_driver_version(found), want = parse_driver_version(c.wanted);
  if (!have || !want) return not_compared(fmt::format("'{}' ({}) is not a driver number", found, source));
  if (have->is_linux_numbering() != want->is_linux_numbering())
    return not_compared(fmt::format("{} ({}) is numbered as a Linux driver, the profile's as Windows'", found, source));
  if (!(*have < *want)) return same();
  return drift(
      fmt::format("{} ({})", have->to_string(), source),
      fmt::format("install NVIDIA's Windows driver {} or newer (https://www.nvidia.com/Download/index.aspx); WSL "
                  "uses the Windows driver, never install one inside the distro",
                  want->to_string()));
}

// ---- distro side (the agent's facts) ----

Outcome compare_toolkit(const Context& c, const agent_api::LinuxFacts& f) {
  std::string found;
  for (const auto& t : f.stack.toolkits) {
    if (in_series(t.version, c.wanted)) return same();
    found += (found.empty() ? "" : ", ") + t.version;
  }
  return drift(found.empty() ? "no CUDA toolkit" : found, cuda_toolkit_install_fix(c.wanted));
}

Outcome compare_cudnn(const Context& c, const agent_api::LinuxFacts& f) {
  if (!f.stack.cudnn_found || !f.stack.cudnn_version)
    return not_compared("no cuDNN library outside TensorFlow's own pip wheels (tensorflow[and-cuda] brings its cuDNN)");
  const std::string found = cudnn_series(*f.stack.cudnn_version);
  if (in_series(found, c.wanted)) return same();
  return drift(
      found + " (" + f.stack.cudnn_library + ")",
      fmt::format("install cuDNN {} for the profile's CUDA, or rely on tensorflow[and-cuda]'s wheels and remove {}",
                  c.wanted, f.stack.cudnn_library));
}

// The doctor's rule (common/judge, python.version): a Python inside the range that the newest
// TensorFlow release the profile allows supports is fine, whichever series the profile names; the
// profile's series is its wish for a new venv, not a drift of a machine that runs TensorFlow.
bool python_fits_profile_tensorflow(const Profile& profile, const std::string& found) {
  auto spec = VersionSpec::parse(profile.tensorflow_version.value_or(""));
  auto python = Version::parse(found);
  if (!spec || !python) return false;
  const TfRelease* newest = nullptr;
  for (const auto* r : builtin_compat_db().allowed_tf_releases(*spec))
    if (!newest || newest->release < r->release) newest = r;
  return newest && newest->python.contains(*python);
}

Outcome compare_python(const Context& c, const agent_api::LinuxFacts& f) {
  const std::string& found = f.stack.python_version;
  if (in_series(found, c.wanted) || python_fits_profile_tensorflow(c.profile, found)) return same();
  return drift(
      found.empty() ? "no python3 (" + f.stack.python_error + ")" : found,
      fmt::format("use a distribution whose python3 is {} (Ubuntu-22.04 has 3.10, Ubuntu-24.04 3.12), or install "
                  "python{} and make the profile's venv with it",
                  c.wanted, c.wanted));
}

Outcome compare_tensorflow(const Context& c, const agent_api::LinuxFacts& f) {
  if (!f.tf.ran) return not_compared("the TensorFlow probe did not run: " + f.tf.error);
  const std::string fix = fmt::format("tfwsl provision (installs {} into the profile's venv, {})",
                                      tensorflow_pip_requirement(c.profile), c.profile.python_venv.value_or("none"));
  if (!f.tf.installed) return drift("none installed", fix);  // "this machine has none installed"
  auto spec = VersionSpec::parse(c.wanted);
  auto version = Version::parse(f.tf.version);
  if (!spec || !version) return not_compared(fmt::format("'{}' cannot be compared with '{}'", f.tf.version, c.wanted));
  if (spec->allows(*version)) return same();
  return drift(f.tf.version, fix);
}

using LinuxCompare = Outcome (*)(const Context&, const agent_api::LinuxFacts&);

Outcome compare_on_linux(const Context& c, LinuxCompare compare) {
  if (!c.machine.linux) return not_compared("the agent could not be reached: " + c.machine.linux_error);
  return compare(c, *c.machine.linux);
}

Outcome compare_route(const Context& c) {
  if (!c.machine.linux) return not_compared("the agent could not be reached: " + c.machine.linux_error);
  const auto kind = c.machine.linux->wsl.kind;
  if (c.wanted != "wsl" || kind == agent_api::WslKind::not_wsl)
    return not_compared(c.wanted != "wsl" ? "a native-Windows profile: nothing in WSL to compare"
                                          : "not a WSL distribution");
  if (kind == agent_api::WslKind::wsl2) return same();
  return drift("WSL 1", fmt::format("convert it: wsl --set-version {} 2",
                                    c.machine.host.distro.empty() ? "DISTRO" : c.machine.host.distro));
}

Outcome compare_key(std::string_view key, const Context& c) {
  if (key == "route") return compare_route(c);
  if (key == "distro") return compare_distro(c);
  if (key == "wsl.memory") return compare_wslconfig(c, "memory", size_text);
  if (key == "wsl.swap") return compare_wslconfig(c, "swap", size_text);
  if (key == "wsl.processors") return compare_wslconfig(c, "processors", count_text);
  if (key == "gpu.driver") return compare_driver(c);
  if (key == "cuda.toolkit") return compare_on_linux(c, compare_toolkit);
  if (key == "cuda.cudnn") return compare_on_linux(c, compare_cudnn);
  if (key == "python.version") return compare_on_linux(c, compare_python);
  if (key == "tensorflow.version") return compare_on_linux(c, compare_tensorflow);
  if (key == "python.venv" || key == "tensorflow.extras" || key == "packages.pip")
    return not_compared("the agent does not look into virtual environments or pip's packages");
  if (key == "packages.apt")
    return not_compared("the agent reports only Linux NVIDIA driver packages, not every apt package");
  if (key == "env") return not_compared("environment variables are set per process, not on the machine");
  if (key == "datasets") return not_compared("datasets are imported by tfwsl-agent dataset import, not compared");
  return not_compared("profile diff does not compare this key");
}

}  // namespace

ProfileDiff diff_profile(const Profile& profile, const ProfileMachineFacts& machine) {
  ProfileDiff diff;
  for (const auto& row : profile_key_table()) {
    if (row.key == "name" || row.key == "extends" || !row.is_set(profile)) continue;
    const std::string key(row.key);
    const Context context{profile, machine, row.value_text(profile).value_or("")};
    Outcome outcome = compare_key(key, context);
    switch (outcome.kind) {
      case Outcome::Kind::same:
        diff.same.push_back(key);
        break;
      case Outcome::Kind::drift:
        diff.drifts.push_back({key, context.wanted, outcome.found, row.where(profile), outcome.fix_or_why});
        break;
      case Outcome::Kind::not_compared:
        diff.not_compared.push_back({key, outcome.fix_or_why});
        break;
    }
  }
  return diff;
}

}  // namespace tfwsl
