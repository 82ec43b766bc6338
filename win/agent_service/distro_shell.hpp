#pragma once
// `sh -c SCRIPT sh ARGS...` inside the distro: the one way `tfwsl agent` acts there. A port: through
// wsl.exe on Windows (WslDistroShell; as root with `-u root`), a plain child on the native Linux
// build (LocalDistroShell: the current user for both, there is no other to become). Data such as
// the token travels on stdin, never in the arguments.

#include <optional>
#include <string>
#include <vector>

#include "common/core/error.hpp"
#include "common/process/process_runner.hpp"
#include "win/wsl/wsl_client.hpp"

namespace tfwsl::agent_service {

struct ShellReply {
  long long exit_code = 0;
  std::string out;
  std::string err;
};

class DistroShell {
 public:
  virtual ~DistroShell() = default;
  virtual std::string where() const = 0;  // "in Ubuntu", "on this machine"
  virtual bool through_wsl() const = 0;   // paths of this side need wslpath there
  virtual Result<ShellReply> sh(const std::string& script, const std::vector<std::string>& args,
                                const std::optional<std::string>& input, bool as_root) = 0;
};

class WslDistroShell final : public DistroShell {
 public:
  WslDistroShell(wsl::WslClient& wsl, std::string distro) : m_wsl(wsl), m_distro(std::move(distro)) {}
  std::string where() const override { return m_distro.empty() ? "in the default WSL distribution" : "in " + m_distro; }
  bool through_wsl() const override { return true; }
  Result<ShellReply> sh(const std::string& script, const std::vector<std::string>& args,
                        const std::optional<std::string>& input, bool as_root) override;

 private:
  wsl::WslClient& m_wsl;
  std::string m_distro;
};

class LocalDistroShell final : public DistroShell {
 public:
  explicit LocalDistroShell(ProcessRunner& runner) : m_runner(runner) {}
  std::string where() const override { return "on this machine"; }
  bool through_wsl() const override { return false; }
  Result<ShellReply> sh(const std::string& script, const std::vector<std::string>& args,
                        const std::optional<std::string>& input, bool as_root) override;

 private:
  ProcessRunner& m_runner;
};

}  // namespace tfwsl::agent_service
