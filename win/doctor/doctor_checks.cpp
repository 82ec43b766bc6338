#include "win/doctor/doctor_checks.hpp"

#include <algorithm>
#include <map>

#include "common/check/check_table.hpp"
#include "common/compat/compat_db.hpp"
#include "common/units/size_parser.hpp"
#include "common/util/byte_size_text.hpp"
#include "common/util/shell_quote.hpp"
#include "common/version/driver_version.hpp"
#include "common/wslconfig/wslconfig_document.hpp"
#include "common/wslconfig/wslconfig_lint.hpp"
#include "win/host/host_checks.hpp"
#include "win/wsl/wsl_client.hpp"

namespace tfwsl::doctor {

const wslconfig::Document& WslconfigFacts::document() const {
  if (!parsed) parsed = std::make_shared<const wslconfig::Document>(wslconfig::Document::parse(present ? bytes : ""));
  return *parsed;
}

void WslconfigFacts::parsed_at_the_edge() { (void)document(); }
namespace {

// A memory= WSL cannot use (above the RAM, unreadable): tfwsl sets WSL's own default, half the
// RAM in whole GB, and restarts WSL to check it took effect.
void suggest_memory_fix(CheckResult& memory_check, std::uint64_t host_ram_bytes) {
  const std::uint64_t half_gb = std::max<std::uint64_t>(1, host_ram_bytes / 2 / (1ull << 30));
  const std::string setting = "memory=" + std::to_string(half_gb) + "GB";
  memory_check.fix = "tfwsl wslconfig set " + setting +
                     " --apply (half of the RAM, WSL's default; it restarts WSL and "
                     "checks the VM got it)";
  memory_check.fix_command = {"wslconfig", "set", setting, "--apply"};
}

}  // namespace

CheckResult check_wsl_installed(const WslFacts& wsl) {
  if (!wsl.ran) {
    // The driver's message carries its own fix (not installed, or a hung service): printed once,
    // on the fix line; the install fix only where the message names none.
    auto [why, fix] = wsl::split_fix(wsl.run_error);
    if (fix.empty()) fix = "install WSL in an administrator terminal: wsl.exe --install, then restart Windows";
    return make_check("wsl.installed", CheckStatus::fail, "wsl.exe could not be run: " + why, fix);
  }
  using K = wsl::WslFailureKind;
  if (wsl.list_failure.kind == K::wsl_not_installed || wsl.list_failure.kind == K::virtualization_disabled) {
    CheckResult r = make_check("wsl.installed", CheckStatus::fail, wsl.list_failure.message, wsl.list_failure.fix);
    if (!wsl.list_failure.code.empty()) r.details.push_back("error code: " + wsl.list_failure.code);
    return r;
  }
  return make_check("wsl.installed", CheckStatus::ok, "WSL is installed");
}

// WSL's own container CLI (wslc) comes with WSL itself from a release on (compat.yaml): said, and
// in the values ("wslc": true) so a script sees it; the container route does not use it yet.
void note_container_cli(const std::string& wsl_version, CheckResult& r) {
  const Version from = builtin_compat_db().wsl_container_cli_from();
  const auto have = Version::parse(wsl_version);
  const bool here = !from.release.empty() && have && *have >= from;
  if (!here) return;
  r.values["wslc"] = true;
  r.details.push_back("wslc, WSL's own container CLI (WSL " + from.to_string() +
                      " and later, pre-releases), is here; tfwsl's container route runs Podman in the distro and "
                      "does not use it yet (docs/provisioning.md)");
}

CheckResult check_wsl_version(const WslFacts& wsl) {
  if (!wsl.ran) return make_check("wsl.version", CheckStatus::skip, "wsl.exe could not be run");
  if (wsl.version_failure.kind == wsl::WslFailureKind::cli_too_old) {
    CheckResult r = make_check("wsl.version", CheckStatus::warn,
                               "an old inbox WSL: wsl.exe does not know --version (no Store WSL updates, older kernel)",
                               "update to the Store WSL: wsl.exe --update, then wsl --shutdown");
    r.details.push_back("wsl.exe --version answered with its usage text / 'invalid command line option'");
    return r;
  }
  if (!wsl.wsl_version) {
    std::string why = wsl.version_failure.message.empty() ? "no version in its output" : wsl.version_failure.message;
    return make_check("wsl.version", CheckStatus::warn, "wsl.exe --version gave no WSL version: " + why,
                      "run 'wsl --version' in a terminal; update with 'wsl --update'");
  }
  CheckResult r = make_check("wsl.version", CheckStatus::ok, "WSL " + *wsl.wsl_version + " (Store)");
  r.values["wsl"] = *wsl.wsl_version;
  if (wsl.kernel_version) r.values["kernel"] = *wsl.kernel_version;
  if (wsl.kernel_version) r.details.push_back("kernel: " + *wsl.kernel_version);
  if (wsl.windows_version) r.details.push_back("Windows: " + *wsl.windows_version);
  note_container_cli(*wsl.wsl_version, r);
  return r;
}

CheckResult check_wsl_default_version(const WslFacts& wsl) {
  if (!wsl.default_version) {
    if (wsl.wsl_version) {
      return make_check("wsl.default-version", CheckStatus::ok, "new distributions get WSL 2 (the Store WSL default)");
    }
    return make_check("wsl.default-version", CheckStatus::skip, "the default WSL version could not be read");
  }
  CheckResult r;
  if (*wsl.default_version == 2) {
    r = make_check("wsl.default-version", CheckStatus::ok, "new distributions get WSL 2");
  } else {
    r = make_check("wsl.default-version", CheckStatus::warn,
                   "new distributions get WSL " + std::to_string(*wsl.default_version) + ": no GPU there",
                   "make WSL 2 the default: wsl --set-default-version 2");
  }
  r.details.push_back("from " + wsl.default_version_source);
  return r;
}

CheckResult check_wsl_distro(const WslFacts& wsl, const std::string& wanted, std::string& chosen) {
  chosen.clear();
  if (!wsl.ran) return make_check("wsl.distro", CheckStatus::skip, "wsl.exe could not be run");
  if (wsl.list_failure.kind == wsl::WslFailureKind::no_distro ||
      (wsl.list_failure.kind == wsl::WslFailureKind::none && wsl.distros.empty())) {
    CheckResult r = make_check("wsl.distro", CheckStatus::fail, "no Linux distribution is installed",
                               "tfwsl provision installs the profile's distribution (WSL 2) and what it needs inside, "
                               "checked step by step; then open the distribution once to create your user");
    r.fix_command = {"provision"};
    return r;
  }
  if (wsl.list_failure.kind != wsl::WslFailureKind::none) {
    return make_check("wsl.distro", CheckStatus::fail, "wsl.exe -l -v failed: " + wsl.list_failure.message,
                      wsl.list_failure.fix);
  }
  const parse::WslDistro* pick = nullptr;
  for (const auto& d : wsl.distros) {
    if (wanted.empty() ? d.is_default : d.name == wanted) pick = &d;
  }
  CheckResult r;
  r.id = "wsl.distro";
  for (const auto& d : wsl.distros) {
    r.details.push_back((d.is_default ? "* " : "  ") + d.name + " " + d.state.value_or("?") + " WSL " +
                        (d.version ? std::to_string(*d.version) : "?") +
                        (parse::is_docker_desktop_distro(d.name) ? " (Docker Desktop's own)" : ""));
  }
  if (!pick) {
    r.status = CheckStatus::fail;
    r.summary = wanted.empty() ? "no default distribution is set" : "no distribution named '" + wanted + "'";
    std::vector<std::string> names;
    for (const auto& d : wsl.distros)
      if (!parse::is_docker_desktop_distro(d.name)) names.push_back(d.name);
    std::string listed;
    for (const auto& n : names) listed += (listed.empty() ? "" : ", ") + n;
    const std::string example = names.empty() ? std::string("Ubuntu-22.04") : names.front();
    r.fix = wanted.empty() ? "choose one: " + powershell_command({"wsl", "--set-default", example}) +
                                 (names.size() > 1 ? " (or another of " + listed + ")" : "")
                           : "pick one of the installed distributions with --distro: " + listed;
    return r;
  }
  chosen = pick->name;
  if (pick->version && *pick->version == 1) {
    r.status = CheckStatus::fail;
    r.summary = pick->name + " runs as WSL 1: the GPU is only available in WSL 2";
    r.fix = "convert it: " + powershell_command({"wsl", "--set-version", pick->name, "2"}) +
            " (and wsl --set-default-version 2 for new ones)";
    return r;
  }
  r.status = CheckStatus::ok;
  r.summary = pick->name + " (WSL " + (pick->version ? std::to_string(*pick->version) : "?") + ", " +
              pick->state.value_or("state unknown") + ")";
  return r;
}

CheckResult check_localhost_forwarding(AgentLink link, const std::string& problem, bool forwarded,
                                       const NetworkingNote& networking) {
  const bool mirrored = networking.mode == "mirrored";
  switch (link) {
    case AgentLink::http:
      if (!forwarded) {
        return make_check("wsl.localhost-forwarding", CheckStatus::skip,
                          "not on Windows: nothing is forwarded (the agent answered on this machine's 127.0.0.1)");
      }
      if (mirrored) {
        CheckResult r =
            make_check("wsl.localhost-forwarding", CheckStatus::ok,
                       "Windows reaches the agent on 127.0.0.1: with mirrored networking (" + networking.source +
                           ") Windows and WSL share localhost, so the agent's port is the same on both sides");
        r.details.push_back("networking mode: mirrored (" + networking.source + ")");
        return r;
      }
      return make_check("wsl.localhost-forwarding", CheckStatus::ok, "Windows reaches the agent on 127.0.0.1");
    case AgentLink::none:
      return make_check("wsl.localhost-forwarding", CheckStatus::skip,
                        "the agent did not start, so forwarding was not tried");
    case AgentLink::stdio_fallback: {
      if (forwarded && mirrored) {
        // Mirrored mode shares loopback instead of forwarding it; a connection there can hang
        // instead of being refused (github.com/microsoft/WSL/issues/10855, /41102).
        CheckResult r =
            make_check("wsl.localhost-forwarding", CheckStatus::warn,
                       "with mirrored networking (" + networking.source +
                           ") 127.0.0.1 did not reach the "
                           "agent: it was reached over wsl.exe's pipes instead (stdio fallback), which works the same",
                       "nothing to do for tfwsl; if other localhost services fail too, try networkingMode=nat under "
                       "[wsl2] in .wslconfig (a known mirrored-mode loopback problem), then wsl --shutdown");
        r.details.push_back(problem);
        r.details.push_back("networking mode: mirrored (" + networking.source + ")");
        return r;
      }
      CheckResult r =
          forwarded ? make_check("wsl.localhost-forwarding", CheckStatus::warn,
                                 "WSL does not forward 127.0.0.1 to the distro: the agent was reached over wsl.exe's "
                                 "pipes instead (stdio fallback)",
                                 "run 'wsl --shutdown' and try again; if it persists turn off Fast Startup, and with "
                                 "networkingMode=mirrored make sure localhost is not blocked by a firewall rule")
                    : make_check("wsl.localhost-forwarding", CheckStatus::warn,
                                 "the agent's port on 127.0.0.1 did not answer: it was reached over its pipes instead "
                                 "(stdio fallback)",
                                 "check for a firewall rule on the loopback interface (iptables -L INPUT -v)");
      r.details.push_back(problem);
      return r;
    }
    case AgentLink::stdio_impostor: {
      CheckResult r =
          make_check("wsl.localhost-forwarding", CheckStatus::fail,
                     "another program answers on the agent's localhost port: the token was not sent there, "
                     "the stdio fallback was used",
                     forwarded ? "find the program listening on that port (netstat -ano | findstr LISTENING) "
                                 "and stop it"
                               : "find the program listening on that port (ss -ltnp) and stop it");
      r.details.push_back(problem);
      return r;
    }
  }
  return make_check("wsl.localhost-forwarding", CheckStatus::skip, "");
}

CheckResult check_agent(AgentLink link, const std::string& description, const std::string& error, bool through_wsl,
                        const std::string& fix) {
  if (link == AgentLink::none) {
    const std::string generic = through_wsl
                                    ? "run 'tfwsl doctor -v' for the details; 'wsl --shutdown' then retry often helps"
                                    : "run 'tfwsl doctor -v' for the details and follow the message above";
    CheckResult r = make_check("wsl.agent", CheckStatus::fail, "the agent could not be reached: " + error,
                               fix.empty() ? generic : fix);
    std::string unknown;
    for (const auto& id : check_ids(CheckSource::agent)) unknown += (unknown.empty() ? "" : ", ") + id;
    r.details.push_back("unknown without the agent: " + unknown + ", gpu.driver-parity");
    return r;
  }
  return make_check("wsl.agent", CheckStatus::ok, description);
}

namespace {

int branch_of(int major, int width) { return width > 0 ? major / width * width : major; }

// The Linux-side number of a Windows driver (570.194 for 573.76, both R570): the same branch, not
// above the Windows major, and numbered as only Linux numbers (a three-digit minor, or three fields
// under a lower major). A two-field number of the branch with a two-digit minor is a Windows driver
// (570.65 is an older Windows R570 than 572.61: WSL still has the old one loaded), and three fields
// under the Windows major itself (546.80.01 for 546.80) is a Linux driver installed in the distro.
bool same_driver_by_branch(const DriverVersion& windows, const DriverVersion& wsl, int width) {
  if (width <= 0 || windows.is_linux_numbering()) return false;
  if (branch_of(windows.major, width) != branch_of(wsl.major, width) || wsl.major > windows.major) return false;
  if (wsl.is_linux_numbering()) return wsl.major < windows.major;
  return wsl.minor >= 100;
}

}  // namespace

CheckResult check_driver_parity(const host::HostFacts& host, const std::optional<agent_api::GpuResponse>& gpu) {
  if (!host.is_windows) {
    return make_check("gpu.driver-parity", CheckStatus::skip,
                      "not on Windows: the Windows driver cannot be read from here");
  }
  if (host.gpus.empty()) return make_check("gpu.driver-parity", CheckStatus::skip, "no Windows NVIDIA driver found");
  if (!gpu) return make_check("gpu.driver-parity", CheckStatus::skip, "unknown: the agent could not be reached");
  const std::string& windows = host.gpus.front().driver_version;
  CheckResult r;
  r.id = "gpu.driver-parity";
  r.details.push_back("Windows driver: " + windows + " (" + host.gpus.front().source + ")");
  if (gpu->nvml_driver_version.empty()) {
    r.status = CheckStatus::warn;
    r.summary = "the distro reports no driver version (NVML and nvidia-smi did not answer)";
    r.details.push_back("inside WSL: " + gpu->nvml_error);
    r.fix = "run 'wsl --shutdown' so WSL picks up the Windows driver, then check /usr/lib/wsl/lib inside the distro";
    return r;
  }
  r.details.push_back("inside WSL (" + gpu->nvml_source + "): " + gpu->nvml_driver_version);
  r.values = {{"windows_driver", windows}, {"wsl_driver", gpu->nvml_driver_version}};
  auto a = parse_driver_version(windows);
  auto b = parse_driver_version(gpu->nvml_driver_version);
  // A Linux-numbered version inside WSL never equals a Windows driver: that is a Linux driver.
  bool equal = a && b && a->major == b->major && a->minor == b->minor && !b->is_linux_numbering();
  if (equal) {
    r.status = CheckStatus::ok;
    r.summary = "Windows and WSL see the same driver, " + windows;
  } else if (a && b && same_driver_by_branch(*a, *b, builtin_compat_db().nvidia_driver_branch_width())) {
    r.status = CheckStatus::ok;
    r.summary = "Windows and WSL see the same driver: " + windows + " on Windows is " + gpu->nvml_driver_version +
                " on the Linux side (the same R" +
                std::to_string(branch_of(a->major, builtin_compat_db().nvidia_driver_branch_width())) +
                " branch, numbered for Linux)";
    r.details.push_back(
        "the numbers differ by design: WSL's driver libraries carry the Linux release of the Windows "
        "driver's branch; parity is judged by branch, not by the strings");
  } else {
    r.status = CheckStatus::warn;
    r.summary = "Windows has driver " + windows + " but NVML inside WSL reports " + gpu->nvml_driver_version;
    r.fix =
        "run 'wsl --shutdown' so WSL loads the current Windows driver; if it persists, remove any Linux NVIDIA "
        "driver, nvidia-utils-* or cuda-drivers package from the distro";
  }
  return r;
}

std::vector<CheckResult> check_wslconfig(const WslconfigFacts& file, std::optional<std::uint64_t> host_ram_bytes,
                                         std::optional<std::uint64_t>& memory_bytes) {
  memory_bytes.reset();
  if (!file.read_error.empty()) {
    return {make_check("wslconfig.parse", CheckStatus::warn, file.path + " could not be read: " + file.read_error,
                       "check the file's permissions"),
            make_check("wslconfig.memory", CheckStatus::skip, ".wslconfig unreadable")};
  }
  if (!file.present) {
    return {make_check("wslconfig.parse", CheckStatus::ok, "no .wslconfig: WSL's defaults apply"),
            make_check("wslconfig.memory", CheckStatus::ok, "no memory= set: WSL gives the VM half of the RAM")};
  }
  const wslconfig::Document& doc = file.document();
  wslconfig::LintOptions options;
  options.physical_memory_bytes = host_ram_bytes;
  auto findings = wslconfig::lint(doc, options);
  CheckResult parse_check = make_check("wslconfig.parse", CheckStatus::ok, file.path + " is well-formed");
  CheckResult memory_check =
      make_check("wslconfig.memory", CheckStatus::ok, "memory not set: WSL's default (half of the RAM)");
  auto worst = [](CheckResult& c, const wslconfig::Finding& f) {
    CheckStatus s = f.severity == wslconfig::Severity::error     ? CheckStatus::fail
                    : f.severity == wslconfig::Severity::warning ? CheckStatus::warn
                                                                 : CheckStatus::ok;
    std::string where = f.line ? "line " + std::to_string(f.line) + ": " : "";
    c.details.push_back(where + f.summary);
    if (static_cast<int>(s) > static_cast<int>(c.status)) {
      c.status = s;
      c.summary = where + f.summary;
      c.fix = f.fix;
    }
  };
  for (const auto& f : findings) {
    bool about_memory = f.id.find("memory") != std::string::npos ||
                        (f.id == "wslconfig.bad-size" && doc.line_of("wsl2", "memory") == f.line);
    worst(about_memory ? memory_check : parse_check, f);
  }
  if (auto value = doc.get("wsl2", "memory")) {
    if (auto bytes = parse_wsl_size(*value)) {
      memory_bytes = *bytes;
      // Read by doctor --compliance (wslconfig_memory_set): the file's own verdict, present even
      // when WSL cannot be reached and mem.effective is skipped.
      memory_check.values = {{"memory", *value}, {"configured_bytes", *bytes}};
      if (memory_check.status == CheckStatus::ok) memory_check.summary = "memory=" + *value;
    }
  }
  if (memory_check.is_problem() && host_ram_bytes) suggest_memory_fix(memory_check, *host_ram_bytes);
  return {parse_check, memory_check};
}

Report complete_report(std::vector<CheckResult> checks, const std::string& why_missing) {
  std::map<std::string, CheckResult> by_id;
  std::vector<CheckResult> extra;
  for (auto& c : checks) {
    if (!find_check_row(c.id))
      extra.push_back(c);
    else
      by_id[c.id] = std::move(c);
  }
  Report report;
  for (const auto& id : check_ids()) {
    auto it = by_id.find(id);
    if (it != by_id.end()) {
      report.checks.push_back(std::move(it->second));
    } else {
      CheckResult r;
      r.id = id;
      r.status = CheckStatus::skip;
      r.summary = why_missing;
      report.checks.push_back(std::move(r));
    }
  }
  // The container route's rows, when its checks ran (a route: container profile), in table order.
  for (const auto& id : check_ids(CheckSource::container))
    if (auto it = by_id.find(id); it != by_id.end()) report.checks.push_back(std::move(it->second));
  for (auto& c : extra) report.checks.push_back(std::move(c));
  return report;
}

}  // namespace tfwsl::doctor
