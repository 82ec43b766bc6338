#include "win/tasks/default_distro.hpp"

#include "common/parse/wsl_list_parser.hpp"

namespace tfwsl::cli {

std::string default_distro_name(wsl::WslClient& wsl) {
  auto list = wsl.list_verbose();
  if (!list || list->failure.kind != wsl::WslFailureKind::none) return {};
  for (const auto& d : parse::parse_wsl_list(list->text).distros)
    if (d.is_default) return d.name;
  return {};
}

std::optional<std::vector<std::string>> wsl2_distro_names(wsl::WslClient& wsl) {
  auto list = wsl.list_verbose();
  if (!list || list->failure.kind != wsl::WslFailureKind::none) return std::nullopt;
  std::vector<std::string> names;
  for (const auto& d : parse::parse_wsl_list(list->text).distros)
    if (d.version == 2) names.push_back(d.name);
  return names;
}

std::string distro_or_default(wsl::WslClient& wsl, const std::string& option) {
  return option.empty() ? default_distro_name(wsl) : option;
}

}  // namespace tfwsl::cli
