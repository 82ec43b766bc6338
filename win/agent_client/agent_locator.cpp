#include "win/agent_client/agent_locator.hpp"

#include "common/text/utf_convert.hpp"

namespace tfwsl::agent_client {

std::vector<AgentCandidate> agent_candidates(const AgentSearch& search) {
  if (!search.option.empty()) return {{path_from_utf8(search.option), "--agent"}};
  if (search.env && !search.env->empty()) return {{path_from_utf8(*search.env), k_agent_binary_env}};
  std::vector<AgentCandidate> out;
  if (search.executable.empty()) return out;
  const auto folder = search.executable.parent_path();
  out.push_back({folder / k_agent_binary_name, "beside " + path_to_utf8(search.executable.filename())});
  if (search.in_build_tree)
    out.push_back({(folder / ".." / "linux" / k_agent_binary_name).lexically_normal(), "the build tree"});
  return out;
}

bool in_build_tree(const std::filesystem::path& executable,
                   const std::function<bool(const std::filesystem::path&)>& is_file) {
  return !executable.empty() && is_file(executable.parent_path() / ".." / "CMakeCache.txt");
}

std::string missing_agent_fix(bool in_build_tree) {
  if (in_build_tree) {
    return "build tfwsl-agent (cmake --build <build folder> --target tfwsl-agent) or name one with --agent PATH or "
           "TFWSL_AGENT=PATH";
  }
  return "reinstall tfwsl: tfwsl-agent belongs beside tfwsl.exe, as the release archive holds them "
         "(winget install tfwsl, scoop install tfwsl, or unzip the release archive again), or name one with "
         "--agent PATH";
}

Result<std::filesystem::path> find_agent_binary(const AgentSearch& search,
                                                const std::function<bool(const std::filesystem::path&)>& is_file) {
  const auto candidates = agent_candidates(search);
  std::string looked;
  for (const auto& c : candidates) {
    if (is_file(c.path)) return c.path;
    looked += (looked.empty() ? "" : ", ") + path_to_utf8(c.path) + " (" + c.source + ")";
  }
  const bool chosen = !search.option.empty() || (search.env && !search.env->empty());
  if (chosen) {
    return make_error(ErrorCode::not_found, "no tfwsl-agent at " + looked + ": give the path of a built tfwsl-agent");
  }
  return make_error(ErrorCode::not_found, "tfwsl-agent was not found" +
                                              (looked.empty() ? std::string() : " (looked for " + looked + ")") + ": " +
                                              missing_agent_fix(search.in_build_tree));
}

}  // namespace tfwsl::agent_client
