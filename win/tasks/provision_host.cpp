#include "win/tasks/provision_host.hpp"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "common/parse/wsl_list_parser.hpp"
#include "common/wslconfig/wslconfig_document.hpp"
#include "win/tasks/wslconfig_file.hpp"

namespace tfwsl::cli {
namespace {

struct HostOutcome {
  std::string result;  // ok, changed, failed, skipped
  std::string message;
};

std::optional<parse::WslDistro> find_distro(wsl::WslClient& wsl, const std::string& name) {
  auto reply = wsl.list_verbose();
  if (!reply) return std::nullopt;
  for (const auto& d : parse::parse_wsl_list(reply->text).distros)
    if (d.name == name) return d;
  return std::nullopt;
}

HostOutcome distro_installed(const provision::PlannedStep& step, wsl::WslClient& wsl, bool check_only,
                             const std::string& distro) {
  if (find_distro(wsl, distro)) return {"ok", distro + " is installed"};
  if (check_only) return {"changed", "would change: " + step.changes};
  auto reply = wsl.install(distro);
  if (!reply || reply->exit_code != 0)
    return {"failed", fmt::format("wsl.exe --install -d {} --no-launch failed: {}", distro,
                                  reply ? reply->err_text + reply->text : reply.error().describe())};
  return {"changed", "installed " + distro};
}

HostOutcome distro_wsl2(const provision::PlannedStep& step, wsl::WslClient& wsl, ProcessRunner& runner, bool check_only,
                        const std::string& distro) {
  auto found = find_distro(wsl, distro);
  if (!found) return {check_only ? "skipped" : "failed", distro + " is not installed"};
  if (found->version.value_or(2) == 2) return {"ok", distro + " runs as WSL 2"};
  if (check_only) return {"changed", "would change: " + step.changes};
  ProcessRequest request;
  request.argv = step.commands.at(0).argv;
  request.argv[0] = wsl.settings().exe;
  request.env = wsl::WslClient::child_environment();
  request.timeout = wsl.settings().install_timeout;
  auto outcome = runner.run(request);
  wsl.count_start();
  if (!outcome || outcome->exit_code != 0) return {"failed", "wsl.exe --set-version failed"};
  return {"changed", "converted " + distro + " to WSL 2"};
}

// The profile's [wsl2] values and gpuSupport set in `doc` (every other line kept); what changed.
std::vector<std::string> apply_profile_values(const provision::PlannedStep& step, wslconfig::Document& doc) {
  std::vector<std::string> edits;
  if (step.definition->id == "wslconfig.gpu") {
    auto gpu = doc.get("wsl2", "gpuSupport");
    if (gpu && (*gpu == "false" || *gpu == "False")) {
      doc.unset("wsl2", "gpuSupport");
      edits.push_back("removed gpuSupport=false");
    }
    return edits;
  }
  for (const auto& [key, value] : step.values) {
    const std::string name = key.substr(key.find('.') + 1);
    if (doc.get("wsl2", name) != value) {
      doc.set("wsl2", name, value);
      edits.push_back(name + "=" + value);
    }
  }
  return edits;
}

// Written as `tfwsl wslconfig set` writes (win/tasks/wslconfig_file.hpp): a read-only file
// refused, the lock beside it, the file read again under the lock (another run's change is kept),
// a backup, the atomic replace through a link to its target, and the read-back.
Result<std::string> write_profile_values(const provision::PlannedStep& step, const WslconfigFile& previewed) {
  TFWSL_TRY_STATUS(check_writable(previewed));
  TFWSL_TRY(lock, lock_wslconfig_file(previewed));
  TFWSL_TRY(file, read_wslconfig_file(previewed.path));
  auto doc = wslconfig::Document::parse(file.bytes);
  if (apply_profile_values(step, doc).empty()) return std::string();
  TFWSL_TRY(written, write_wslconfig_file(file, doc.serialize()));
  return written.backup ? " (the old file is in " + *written.backup + ")" : std::string();
}

HostOutcome wslconfig_step(const provision::PlannedStep& step, const std::string& path, bool check_only) {
  if (path.empty()) return {"skipped", "no %USERPROFILE%"};
  auto file = read_wslconfig_file(path);
  if (!file) return {"failed", file.error().describe()};
  auto doc = wslconfig::Document::parse(file->bytes);
  const std::vector<std::string> edits = apply_profile_values(step, doc);
  if (edits.empty()) return {"ok", path + " already has the profile's values"};
  std::string list;
  for (const auto& e : edits) list += (list.empty() ? "" : ", ") + e;
  if (check_only) return {"changed", "would set in " + path + ": " + list};
  auto written = write_profile_values(step, *file);
  if (!written) return {"failed", written.error().describe()};
  return {"changed", "set in " + path + ": " + list + " (takes effect after wsl --shutdown)" + *written};
}

HostOutcome check_wsl(const provision::PlannedStep& step, wsl::WslClient& wsl) {
  auto reply = step.definition->id == "wsl.current" ? wsl.version() : wsl.status();
  if (reply && reply->exit_code == 0) return {"ok", std::string(step.definition->title)};
  return {"failed", fmt::format("{} does not hold; run: {}", step.definition->title,
                                step.commands.empty() ? "" : describe_command(step.commands[0].argv))};
}

HostOutcome check_user(const provision::PlannedStep& step, wsl::WslClient& wsl, const std::string& distro) {
  auto reply = wsl.exec({distro, "", ""}, {"id", "-un"});
  if (!reply) return {"failed", reply.error().describe()};
  std::string user = reply->text;
  while (!user.empty() && (user.back() == '\n' || user.back() == '\r')) user.pop_back();
  if (!user.empty() && user != "root") return {"ok", "the default user is " + user};
  return {"failed",
          fmt::format("{} logs in as root; create a user: {}", distro, describe_command(step.commands.at(0).argv))};
}

}  // namespace

nlohmann::json run_host_steps(const provision::ProvisionPlan& plan, wsl::WslClient& wsl, ProcessRunner& runner,
                              const HostStepSettings& settings) {
  nlohmann::json steps = nlohmann::json::array();
  nlohmann::json out = nlohmann::json::object();
  for (const auto& step : plan.host_steps) {
    const std::string id(step.definition->id);
    HostOutcome o;
    if (out.contains("failed"))
      o = {"skipped", "not run: " + out["failed"].get<std::string>() + " failed"};
    else if (id == "wsl.current" || id == "wsl.vmp")
      o = check_wsl(step, wsl);
    else if (id == "distro.installed")
      o = distro_installed(step, wsl, settings.check_only, plan.distro);
    else if (id == "distro.wsl2")
      o = distro_wsl2(step, wsl, runner, settings.check_only, plan.distro);
    else if (id == "wslconfig.values" || id == "wslconfig.gpu")
      o = wslconfig_step(step, settings.wslconfig_path, settings.check_only);
    else if (id == "distro.user")
      o = check_user(step, wsl, plan.distro);
    if (o.result == "failed" && !out.contains("failed")) out["failed"] = id;
    if (id == "distro.user" && o.result == "ok")
      out["default_user"] = o.message.substr(std::string("the default user is ").size());
    steps.push_back(
        {{"id", id}, {"title", std::string(step.definition->title)}, {"result", o.result}, {"message", o.message}});
  }
  out["steps"] = steps;
  return out;
}

}  // namespace tfwsl::cli
