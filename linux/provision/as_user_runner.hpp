#pragma once
// A ProcessRunner that starts its commands as the distro's user when the agent is root: the
// TensorFlow probe in the venv, Podman in the user's image store (rootless).

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>
#include <utility>

#include "common/process/process_runner.hpp"
#include "linux/provision/distro_path.hpp"
#include "linux/provision/step_process.hpp"

namespace tfwsl::provision {

// The probe as the distro's user when the agent is root, so TensorFlow runs as it will for them and
// nothing in their venv becomes root's: setpriv (util-linux) drops to the user, and only then
// env(1), as the user, starts python with a fixed environment (fixed_child_environment, the probe's
// own variables, the fix-ups' checked ones: probe_fixups). Root's setpriv gets nothing from the
// user: not the fix-ups (an LD_PRELOAD there would have run the user's library as root) and the
// programs are named by absolute path. Under a probe root the user's uid is another machine's: the
// probe runs as the agent, with HOME at the user's home under that root.
class AsUserRunner final : public ProcessRunner {
 public:
  AsUserRunner(ProcessRunner& inner, const DistroUser* user, std::map<std::string, std::string> fixups,
               std::filesystem::path root)
      : m_inner(inner), m_user(user), m_fixups(std::move(fixups)), m_root(std::move(root)) {}
  Result<ProcessOutcome> run(const ProcessRequest& request) override {
    if (drops_root()) return run_dropped(request);
    ProcessRequest r = request;
    for (const auto& [k, v] : m_fixups) r.env[k] = v;  // as the user's shell has them
    r.env["PYTHONDONTWRITEBYTECODE"] = "1";
    if (observes_other_root(m_root) && m_user && !m_user->home.empty())
      r.env["HOME"] = distro_path_at(m_root, m_user->home).string();
    return m_inner.run(r);
  }

 private:
  bool drops_root() const { return !observes_other_root(m_root) && m_user && ::geteuid() == 0 && m_user->uid != 0; }

  Result<ProcessOutcome> run_dropped(const ProcessRequest& request) const {
    // env(1) takes every leading argument holding '=' for a variable, the program's path too.
    if (request.argv.empty() || request.argv.front().find('=') != std::string::npos)
      return make_error(ErrorCode::invalid_input,
                        fmt::format("cannot start '{}' as {}: env(1) would read a path holding '=' as a variable",
                                    request.argv.empty() ? "" : request.argv.front(), m_user->name),
                        "choose a venv path without '='");
    auto env = fixed_child_environment(m_user);
    for (const auto& [k, v] : request.env) env[k] = v;
    env["PYTHONDONTWRITEBYTECODE"] = "1";
    for (const auto& [k, v] : m_fixups) env[k] = v;
    ProcessRequest r = request;
    r.env.clear();
    r.argv = {"/usr/bin/setpriv",
              fmt::format("--reuid={}", m_user->uid),
              fmt::format("--regid={}", m_user->gid),
              "--init-groups",
              "--",
              "/usr/bin/env",
              "-i"};
    for (const auto& [k, v] : env) r.argv.push_back(k + "=" + v);
    r.argv.insert(r.argv.end(), request.argv.begin(), request.argv.end());
    return m_inner.run(r);
  }

  ProcessRunner& m_inner;
  const DistroUser* m_user;
  std::map<std::string, std::string> m_fixups;
  std::filesystem::path m_root;
};

}  // namespace tfwsl::provision
