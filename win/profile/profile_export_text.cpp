#include "win/profile/profile_export_text.hpp"

#include <optional>
#include <vector>

#include "common/profile/profile_emitter.hpp"
#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_schema.hpp"
#include "common/profile/profile_source.hpp"
#include "common/profile/profile_value_types.hpp"
#include "common/version/version.hpp"
#include "common/version/version_spec.hpp"
#include "win/profile/profile_drift.hpp"
#include "win/profile/profile_export.hpp"

namespace tfwsl {
namespace {

// Both unset, or both set to the same value.
template <class T>
bool same_series(const Setting<T>& machine, const Setting<T>& builtin) {
  return machine.value == builtin.value;
}

bool builtin_matches(const Profile& machine, const Profile& builtin) {
  const std::string pinned = machine.tensorflow_version.value_or("");  // "==2.15.1": what is installed
  if (pinned.rfind("==", 0) != 0 || !builtin.tensorflow_version.value) return false;
  const auto installed = Version::parse(pinned.substr(2));
  const auto spec = VersionSpec::parse(*builtin.tensorflow_version.value);
  if (!installed || !spec || !spec->allows(*installed)) return false;
  if (machine.cuda_cudnn.value && !same_series(machine.cuda_cudnn, builtin.cuda_cudnn)) return false;
  return same_series(machine.cuda_toolkit, builtin.cuda_toolkit) &&
         same_series(machine.python_version, builtin.python_version);
}

// The machine's settings the built-in profile does not already give with the same value.
Profile settings_beyond(const Profile& machine, const Profile& builtin) {
  Profile own;
  for (const auto& row : profile_key_table())
    if (row.is_set(machine) && !row.same_value(machine, builtin)) row.ops->overlay(own, machine);
  return own;
}

// The short form loaded back as `profile diff` will load it: valid, and no drift on this machine.
std::optional<Profile> loads_without_drift(const std::string& text, const ProfileMachineFacts& machine) {
  InMemoryProfileResolver resolver({{"export.yaml", text}});
  auto root = resolver.open("export.yaml");
  if (!root) return std::nullopt;
  auto loaded = load_profile(*root, resolver);
  if (!loaded.ok() || !diff_profile(*loaded.profile, machine).drifts.empty()) return std::nullopt;
  return std::move(*loaded.profile);
}

ExportedProfile over_matching_builtin(const Profile& whole, const ProfileMachineFacts& machine) {
  for (const auto& builtin_name : shipped_profile_names()) {
    auto builtin = load_valid_profile(builtin_name);
    if (!builtin || !builtin_matches(whole, *builtin)) continue;
    const std::string extends = "builtin:" + builtin_name;
    std::string text = emit_profile_extending(settings_beyond(whole, *builtin), extends);
    if (auto loaded = loads_without_drift(text, machine)) return {std::move(text), extends, std::move(*loaded), {}};
  }
  return {emit_profile(whole), "", whole, {}};
}

// The base with the machine's own values over it: what the written file loads as.
ExportedProfile over_base(const Profile& whole, const ExportBase& base) {
  const Profile own = settings_beyond(whole, base.profile);
  Profile merged = base.profile;
  for (const auto& row : profile_key_table())
    if (row.is_set(own)) row.ops->overlay(merged, own);
  merged.sources.push_back(k_machine_source);
  return {emit_profile_extending(own, base.reference), base.reference, std::move(merged), {}};
}

std::string why_not_shown(std::string_view key, const ProfileMachineFacts& machine) {
  if (key != "tensorflow.version") return "this machine does not show it";
  if (!machine.linux) return "the distro's facts could not be read";
  if (!machine.linux->tf.ran) return "the TensorFlow probe did not run";
  return "this machine has no TensorFlow installed";
}

std::vector<ExportMissingKey> missing_keys(const Profile& exported, const ProfileMachineFacts& machine) {
  std::vector<ExportMissingKey> missing;
  for (const auto& row : profile_key_table())
    if (!row.required.message.empty() && !row.is_set(exported))
      missing.push_back({std::string(row.key), why_not_shown(row.key, machine)});
  return missing;
}

}  // namespace

ExportedProfile export_machine_profile(const ProfileMachineFacts& machine, const std::string& name,
                                       const ExportBase* base) {
  const Profile whole = profile_from_machine(machine, name);
  ExportedProfile exported = base ? over_base(whole, *base) : over_matching_builtin(whole, machine);
  exported.missing = missing_keys(exported.profile, machine);
  return exported;
}

}  // namespace tfwsl
