#include "win/render/agent_try_line.hpp"

#include <vector>

#include "common/util/shell_quote.hpp"

namespace tfwsl::cli {

PrintedCommand agent_try_command(const TryLineSettings& s) {
  const std::string url = "http://127.0.0.1:" + std::to_string(s.port) + "/v1/info";
  if (!s.windows) {
    // the token's path quoted inside $(...), so no folder name runs as code
    return {Shell::bash,
            "curl -s -H \"Authorization: Bearer $(cat " + bash_quote_keeping_home(s.token_file) + ")\" " + url};
  }
  // PowerShell: the token into a variable first (each argument single-quoted by powershell_command),
  // then a double-quoted header that holds nothing but that variable; curl.exe, not PowerShell's
  // curl alias of Invoke-WebRequest.
  std::vector<std::string> read_token{"wsl.exe"};
  if (!s.distro.empty()) read_token.insert(read_token.end(), {"-d", s.distro});
  read_token.insert(read_token.end(), {"--", "cat", s.token_file});
  return {Shell::powershell,
          "$token = " + powershell_command(read_token) + "; curl.exe -s -H \"Authorization: Bearer $token\" " + url};
}

std::string agent_try_line(const TryLineSettings& s) {
  return (s.windows ? "try (PowerShell):   " : "try (bash, in the distro):   ") + agent_try_command(s).text;
}

}  // namespace tfwsl::cli
