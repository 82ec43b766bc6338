#include "win/commands/local_agent_binary.hpp"

#include "common/agent_client/agent_locator.hpp"
#include "common/text/utf_convert.hpp"
#include "common/wsl/wsl_client.hpp"
#include "win/platform/own_executable.hpp"

namespace tfwsl::cli {

Result<std::filesystem::path> find_local_agent_binary(const std::string& option) {
  agent_client::AgentSearch search;
  search.option = option;
  search.env = wsl::process_environment_variable(agent_client::k_agent_binary_env);
  search.executable = path_from_utf8(own_executable_path());
  return agent_client::find_agent_binary(search, [](const std::filesystem::path& p) {
    std::error_code ec;
    return std::filesystem::is_regular_file(p, ec);
  });
}

}  // namespace tfwsl::cli
