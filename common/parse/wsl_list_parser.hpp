#pragma once
// `wsl -l -v` (the NAME/STATE/VERSION table, English in every locale), `wsl -l` (a localized header,
// then names, the default marked with a localized "(Default)"), and `wsl --list --online` (the
// catalogue of installable distributions, which must not be taken for installed ones).
// Works on clean wsl.exe output and on pastes (prompts around it, lost indentation, collapsed
// columns, quotes); the error states travel in `errors`.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/parse/wsl_error_parser.hpp"

namespace tfwsl::parse {

struct WslDistro {
  std::string name;
  std::optional<std::string> state;  // "Running", ...; nothing when the output does not show it
  std::optional<int> version;        // 1 or 2; nothing when the output does not show it
  bool is_default = false;
};

struct OnlineDistro {
  std::string name;
  std::string friendly_name;
};

struct WslListResult {
  std::vector<WslDistro> distros;
  bool verbose_table = false;  // the NAME/STATE/VERSION table was seen
  bool plain_list = false;     // the `wsl -l` header and names were seen
  bool online_list = false;    // the text is `wsl --list --online`
  std::vector<OnlineDistro> online;
  std::string windows_version;  // from a `ver` line pasted alongside, when present
  WslErrorFlags errors;
};

WslListResult parse_wsl_list(std::string_view text);

// `wsl -l -q` / `wsl --list --quiet` (the command as the paste shows it, prompt stripped).
bool is_wsl_quiet_list_command(std::string_view command);
// Its output: one name per line and nothing else, so no default marker. The first line that is not
// a distribution name ends the list; a paste of anything else gives an empty result.
WslListResult parse_wsl_quiet_list(std::string_view text);

// Docker Desktop's own distributions (docker-desktop, docker-desktop-data): not the user's.
bool is_docker_desktop_distro(std::string_view name);

// The facts of the `tfwsl explain` contract: {"distros": [{name, state, version, default}], ...}.
nlohmann::json to_json(const WslListResult& result);

}  // namespace tfwsl::parse
