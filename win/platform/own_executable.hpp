#pragma once
// The path of the running tfwsl executable: the tfwsl-agent it uses sits next to it (as shipped) or
// in the build tree beside it (win/agent_client/agent_locator.hpp).

#include <string>

namespace tfwsl::cli {

std::string own_executable_path();

}  // namespace tfwsl::cli
