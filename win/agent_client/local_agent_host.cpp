#include "win/agent_client/local_agent_host.hpp"

namespace tfwsl::agent_client {

LocalAgentHost::LocalAgentHost(ChildLauncher& launcher, std::string agent_binary)
    : m_launcher(launcher), m_agent_binary(std::move(agent_binary)) {}

Result<std::unique_ptr<ChildChannel>> LocalAgentHost::start_agent(const std::vector<std::string>& args) {
  std::vector<std::string> argv{m_agent_binary};
  argv.insert(argv.end(), args.begin(), args.end());
  return m_launcher.start(argv, {});
}

Result<std::unique_ptr<ChildChannel>> LocalAgentHost::start_shipped_agent(const std::vector<std::string>&, ShippedRun) {
  return make_error(ErrorCode::not_found,
                    m_agent_binary +
                        " is not a usable tfwsl-agent: build tfwsl-agent (cmake --build "
                        "<build folder> --target tfwsl-agent) or name one of tfwsl's version with "
                        "--agent PATH or TFWSL_AGENT=PATH");
}

}  // namespace tfwsl::agent_client
