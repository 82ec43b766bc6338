// seeds: tests/fuzz/migrate_profile_seeds tests/fuzz/deep_seeds
// libs: tfwsl_win_migrate
// libFuzzer target for the tfwsl.yaml migrate writes (win/migrate/apply_report.cpp, yaml-cpp's
// emitter): the input is split at newlines into the project's name, then dataset folder names and
// Windows paths in turns; the emitted text must load as YAML and give back every name and path
// unchanged, and the project's name must add no key. Input that is not UTF-8 is skipped (names
// reach the emitter from path_to_utf8, always UTF-8).

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/text/utf_convert.hpp"
#include "win/migrate/apply_plan.hpp"

namespace {

bool has_control(const std::string& text) {
  for (char c : text)
    if (static_cast<unsigned char>(c) < 0x20) return true;
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tfwsl;
  using namespace tfwsl::migrate;
  if (size > 4096) return 0;
  const std::string input(reinterpret_cast<const char*>(data), size);
  if (!is_valid_utf8(input)) return 0;
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= input.size()) {
    const auto nl = input.find('\n', start);
    parts.push_back(input.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  static const auto profiles = shipped_wsl_profiles();
  MigratePlan plan;
  plan.project_name = parts[0];
  plan.decision.target = profiles.front();
  for (std::size_t i = 1; i + 1 < parts.size(); i += 2) {
    // A dataset's folder name and Windows path come from Windows, whose file names hold no character
    // below 0x20 (NTFS refuses them): such parts are not inputs migrate can get.
    if (parts[i].empty() || parts[i].find('/') != std::string::npos || has_control(parts[i]) ||
        has_control(parts[i + 1]))
      continue;
    plan.datasets.push_back({parts[i + 1], "~/datasets/" + parts[i], "", 0, 0, 0});
  }
  const std::string text = project_profile_yaml(plan);
  YAML::Node doc;
  try {
    doc = YAML::Load(text);
  } catch (const YAML::Exception&) {
    std::abort();  // migrate wrote YAML that does not load
  }
  if (!doc.IsMap() || doc["extends"].as<std::string>() != "builtin:" + plan.decision.target->name) std::abort();
  if (doc.size() != (plan.datasets.empty() ? 2u : 3u)) std::abort();
  for (std::size_t i = 0; i < plan.datasets.size(); ++i) {
    const auto& ds = plan.datasets[i];
    if (doc["datasets"][i]["name"].as<std::string>() != ds.linux_path.substr(11)) std::abort();
    if (doc["datasets"][i]["source"].as<std::string>() != ds.windows_path) std::abort();
  }
  return 0;
}
