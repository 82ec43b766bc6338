#include "common/judge/verdict_parts.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "common/util/shell_quote.hpp"

namespace tfwsl::judge::detail {

CheckResult verdict(const std::string& id, CheckStatus status, std::string summary, std::string fix,
                    std::vector<std::string> details) {
  return CheckResult{id, status, std::move(summary), std::move(details), std::move(fix)};
}

std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : separator) + i;
  return out;
}

bool probe_timed_out(const LinuxFacts& f, const char* probe) {
  return std::find(f.timed_out.begin(), f.timed_out.end(), probe) != f.timed_out.end();
}

CheckResult timeout_verdict(const std::string& id, const char* probe) {
  return verdict(id, CheckStatus::fail, fmt::format("the {} probe ran past its time limit", probe),
                 "Something is hanging (often the GPU driver): run 'wsl --shutdown' in Windows and retry; "
                 "'tfwsl-agent --log-level debug check' shows which call hangs.");
}

bool is_wsl(const LinuxFacts& f) { return f.wsl.kind != agent_api::WslKind::not_wsl; }

std::string distro_for_command(const LinuxFacts& f) {
  // WSL_DISTRO_NAME is what wsl.exe calls it; a PRETTY_NAME ("Ubuntu 22.04.4 LTS") is not a name
  // wsl.exe accepts, so a name with a blank is no use in a command.
  // Quoted for PowerShell, where the fixes that name it are typed.
  if (!f.wsl.distro.empty() && f.wsl.distro.find(' ') == std::string::npos) return powershell_quote(f.wsl.distro);
  return "<name from wsl -l -v>";
}

std::optional<Version> minor_series(const std::string& text) {
  auto v = Version::parse(text);
  if (!v) return std::nullopt;
  return v->truncated(2);
}

bool in_series(const std::string& version, const std::string& wanted) {
  auto v = Version::parse(version), w = Version::parse(wanted);
  if (!v || !w) return false;
  for (std::size_t i = 0; i < w->release.size(); ++i)
    if (v->segment(i) != w->segment(i)) return false;
  return true;
}

Version cudnn_version_from(long number) {
  const bool nine_or_later = number >= 90000;
  Version v;
  v.release = {static_cast<int>(number / (nine_or_later ? 10000 : 1000)),
               static_cast<int>(nine_or_later ? number % 10000 / 100 : number % 1000 / 100),
               static_cast<int>(number % 100)};
  return v;
}

std::string venv_phrase(const CheckPolicy& p) {
  if (p.venv.empty()) return "the Python environment TensorFlow should run in";
  return "the profile's venv " + p.venv;
}

}  // namespace tfwsl::judge::detail
