#include "win/render/doctor_fleet_output.hpp"

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "common/check/check_rows.hpp"
#include "common/util/utf8_prefix.hpp"
#include "common/util/visible_text.hpp"

namespace tfwsl::cli {
namespace {

using nlohmann::json;

// A pointer into the doctor's own checks (never into a copy: value() would return one).
const json* doctor_check_named(const json& doctor, std::string_view id) {
  const auto checks = doctor.find("checks");
  if (checks == doctor.end() || !checks->is_array()) return nullptr;
  for (const json& check : *checks)
    if (check.is_object() && check.value("id", "") == id) return &check;
  return nullptr;
}

bool doctor_check_ok(const json& doctor, std::string_view id) {
  const json* check = doctor_check_named(doctor, id);
  return check && check->value("status", "") == "ok";
}

// A value the check quotes (docs/doctor.md "values"), as text; empty when absent.
std::string doctor_check_value(const json& doctor, std::string_view id, const std::string& key) {
  const json* check = doctor_check_named(doctor, id);
  if (!check || !check->contains("values") || !(*check)["values"].contains(key)) return "";
  const json& value = (*check)["values"][key];
  return value.is_string() ? value.get<std::string>() : value.dump();
}

std::string counted(long n, const char* one, const char* many) { return fmt::format("{} {}", n, n == 1 ? one : many); }

}  // namespace

std::string doctor_summary_line(const json& doctor) {
  const json summary = doctor.value("summary", json::object());
  const long issues = summary.value("issues", 0L);
  const std::string profile = doctor.value("profile", "");
  std::string line;
  if (issues == 0) {
    line = fmt::format("tfwsl doctor: ok, {}; profile {}",
                       counted(static_cast<long>(doctor.value("checks", json::array()).size()), "check", "checks"),
                       profile);
    if (const json* gpu = doctor_check_named(doctor, checked_id("tf.gpu")); gpu && gpu->value("status", "") == "ok")
      line += "; " + gpu->value("summary", "");
  } else {
    line = fmt::format("tfwsl doctor: {} (exit {})", counted(issues, "issue", "issues"), summary.value("exit_code", 2));
    const json first = summary.value("fix_first", json());
    if (first.is_object())
      line += fmt::format(", fix first {}: {} -> {}", first.value("id", ""), first.value("summary", ""),
                          first.value("fix", ""));
    std::string others;
    for (const json& id : summary.value("root_causes", json::array()))
      if (!first.is_object() || id != first.value("id", json()))
        others += (others.empty() ? "" : ", ") + id.get<std::string>();
    if (!others.empty()) line += "; also: " + others;
    line += "; profile " + profile;
  }
  // One line, nothing a terminal or a log viewer acts on: the texts quote the agent's facts.
  line = visible_text(line);
  if (line.size() <= k_summary_line_max_bytes) return line;
  constexpr std::string_view ellipsis = "...";
  return std::string(utf8_prefix(line, k_summary_line_max_bytes - ellipsis.size())) + std::string(ellipsis);
}

json doctor_compliance_facts(const json& doctor) {
  const json summary = doctor.value("summary", json::object());
  const json first = summary.value("fix_first", json());
  // tfwsl_installed is always true here; discovery.ps1 reports false when it cannot find tfwsl.
  return {{"tfwsl_installed", true},
          {"tfwsl_version", doctor.value("tfwsl_version", "")},
          {"profile", doctor.value("profile", "")},
          {"doctor_exit_code", summary.value("exit_code", 2)},
          {"issues", summary.value("issues", 0)},
          {"fix_first", first.is_object() ? first.value("id", "") : std::string("none")},
          {"tf_gpu_visible", doctor_check_ok(doctor, checked_id("tf.gpu"))},
          {"tf_version", doctor_check_value(doctor, checked_id("tf.installed"), "version")},
          {"nvidia_driver", doctor_check_value(doctor, checked_id("host.nvidia-driver"), "driver")},
          {"nvidia_driver_meets_profile", doctor_check_ok(doctor, checked_id("host.nvidia-driver"))},
          {"wsl_default_version_2", doctor_check_ok(doctor, checked_id("wsl.default-version"))},
          {"distro_ok", doctor_check_ok(doctor, checked_id("wsl.distro"))},
          // From the .wslconfig check: mem.effective is skipped whenever WSL cannot be reached.
          {"wslconfig_memory_set", !doctor_check_value(doctor, checked_id("wslconfig.memory"), "memory").empty()}};
}

}  // namespace tfwsl::cli
