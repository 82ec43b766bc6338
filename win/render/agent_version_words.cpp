#include "win/render/agent_version_words.hpp"

#include "common/util/visible_text.hpp"
#include "common/version/version.hpp"

namespace tfwsl::cli {

bool agent_is_older(const std::string& agent_version) {
  auto agent = Version::parse(agent_version);
  auto ours = Version::parse(TFWSL_VERSION);
  return agent && ours && *agent < *ours;
}

std::string older_agent_words(const std::string& installed_version, const std::string& distro) {
  return "tfwsl-agent " + visible_text(installed_version) + " is installed in " +
         (distro.empty() ? std::string("the default WSL distribution") : visible_text(distro)) + ", this tfwsl is " +
         TFWSL_VERSION + "; to upgrade it: tfwsl agent start" +
         (distro.empty() ? "" : " --distro " + visible_text(distro));
}

}  // namespace tfwsl::cli
