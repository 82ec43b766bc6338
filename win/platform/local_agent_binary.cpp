#include "win/platform/local_agent_binary.hpp"

#include "common/text/utf_convert.hpp"
#include "win/agent_client/agent_locator.hpp"
#include "win/platform/own_executable.hpp"
#include "win/wsl/wsl_client.hpp"

namespace tfwsl::cli {

namespace {

bool is_file(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec);
}

}  // namespace

bool running_from_build_tree() { return agent_client::in_build_tree(path_from_utf8(own_executable_path()), is_file); }

Result<std::filesystem::path> find_local_agent_binary(const std::string& option) {
  agent_client::AgentSearch search;
  search.option = option;
  search.env = wsl::process_environment_variable(agent_client::k_agent_binary_env);
  search.executable = path_from_utf8(own_executable_path());
  search.in_build_tree = agent_client::in_build_tree(search.executable, is_file);
  return agent_client::find_agent_binary(search, is_file);
}

}  // namespace tfwsl::cli
