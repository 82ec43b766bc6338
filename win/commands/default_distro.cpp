#include "win/commands/default_distro.hpp"

#include "common/parse/wsl_list_parser.hpp"

namespace tfwsl::cli {

std::string default_distro_name(wsl::WslClient& wsl) {
  auto list = wsl.list_verbose();
  if (!list || list->failure.kind != wsl::WslFailureKind::none) return {};
  for (const auto& d : parse::parse_wsl_list(list->text).distros)
    if (d.is_default) return d.name;
  return {};
}

std::string distro_or_default(wsl::WslClient& wsl, const std::string& option) {
  return option.empty() ? default_distro_name(wsl) : option;
}

}  // namespace tfwsl::cli
