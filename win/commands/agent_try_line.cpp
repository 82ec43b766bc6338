#include "win/commands/agent_try_line.hpp"

#include <vector>

#include "common/util/shell_quote.hpp"

namespace tfwsl::cli {

std::string agent_try_line(const TryLineSettings& s) {
  const std::string url = "http://127.0.0.1:" + std::to_string(s.port) + "/v1/info";
  if (!s.windows) {
    // the token's path quoted inside $(...), so no folder name runs as code
    return "try (bash, in the distro):   curl -s -H \"Authorization: Bearer $(cat " +
           bash_quote_keeping_home(s.token_file) + ")\" " + url;
  }
  // PowerShell: the token into a variable first (each argument single-quoted by powershell_command),
  // then a double-quoted header that holds nothing but that variable; curl.exe, not PowerShell's
  // curl alias of Invoke-WebRequest.
  std::vector<std::string> read_token{"wsl.exe"};
  if (!s.distro.empty()) read_token.insert(read_token.end(), {"-d", s.distro});
  read_token.insert(read_token.end(), {"--", "cat", s.token_file});
  return "try (PowerShell):   $token = " + powershell_command(read_token) +
         "; curl.exe -s -H \"Authorization: Bearer $token\" " + url;
}

}  // namespace tfwsl::cli
