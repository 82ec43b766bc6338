#pragma once
// The verdicts `tfwsl doctor` adds to the host checks (win/host) and the agent's Linux-side
// checks: WSL itself, localhost forwarding, driver parity and .wslconfig (mem.effective is the
// judge's, told .wslconfig's memory=: common/judge/assess.hpp). Pure functions over facts, each
// unit-tested.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/agent_api/api_types.hpp"
#include "common/check/check.hpp"
#include "common/parse/wsl_list_parser.hpp"
#include "common/wslconfig/wslconfig_document.hpp"
#include "win/agent_client/agent_link.hpp"
#include "win/host/host_facts.hpp"
#include "win/wsl/wsl_failure.hpp"

namespace tfwsl::doctor {

// What wsl.exe told us, parsed.
struct WslFacts {
  bool ran = false;              // wsl.exe -l -v could be started
  std::string run_error;         // why not
  wsl::WslFailure list_failure;  // -l -v failed: why
  std::vector<parse::WslDistro> distros;
  std::optional<std::string> wsl_version, kernel_version, windows_version;  // --version
  wsl::WslFailure version_failure;     // --version failed: why (cli_too_old for an inbox wsl.exe)
  std::optional<int> default_version;  // --status or the Lxss registry key
  std::string default_version_source;
};

CheckResult check_wsl_installed(const WslFacts& wsl);
CheckResult check_wsl_version(const WslFacts& wsl);
CheckResult check_wsl_default_version(const WslFacts& wsl);
// `wanted`: --distro, or empty for the default one. Fills `chosen` with the distro to use.
CheckResult check_wsl_distro(const WslFacts& wsl, const std::string& wanted, std::string& chosen);

using agent_client::AgentLink;
// The networking mode WSL runs with, for the texts: "mirrored" shares localhost with Windows.
struct NetworkingNote {
  std::string mode;    // "nat", "mirrored", ...
  std::string source;  // ".wslconfig", "policy DefaultNetworkingMode (...)", "WSL's default"
};
// `forwarded`: 127.0.0.1 is WSL's forwarding to the distro (Windows); on the native Linux build the
// agent listens on this machine's own loopback and nothing is forwarded.
CheckResult check_localhost_forwarding(AgentLink link, const std::string& problem, bool forwarded,
                                       const NetworkingNote& networking = {});
// `through_wsl`: the agent runs in a WSL distro (Windows), where restarting WSL is the usual fix.
// `fix`: the fix of a failed link when the cause is known (no tfwsl-agent beside tfwsl: reinstall it).
CheckResult check_agent(AgentLink link, const std::string& description, const std::string& error, bool through_wsl,
                        const std::string& fix = {});

// Windows driver (nvidia-smi.exe / registry) vs NVML inside the distro.
CheckResult check_driver_parity(const host::HostFacts& host, const std::optional<agent_api::GpuResponse>& gpu);

struct WslconfigFacts {
  bool present = false;
  std::string path;
  std::string read_error;  // unreadable (not: absent)
  std::string bytes;       // the file as read

  // The file parsed, once: where it is read (parsed_at_the_edge), or on first use by a caller that
  // built these facts itself; every check of a doctor run reads this one document.
  const wslconfig::Document& document() const;
  void parsed_at_the_edge();
  // The cache document() fills (public so that the facts stay an aggregate tests can spell).
  mutable std::shared_ptr<const wslconfig::Document> parsed;
};
// wslconfig.parse and wslconfig.memory; `memory_bytes` is set when memory= is valid.
std::vector<CheckResult> check_wslconfig(const WslconfigFacts& file, std::optional<std::uint64_t> host_ram_bytes,
                                         std::optional<std::uint64_t>& memory_bytes);

// A report in the check table's order (check_table.hpp) with every id present: missing ids become
// `skip` with `why`.
Report complete_report(std::vector<CheckResult> checks, const std::string& why_missing);

}  // namespace tfwsl::doctor
