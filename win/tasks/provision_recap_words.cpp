#include "win/tasks/provision_recap_words.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

#include "common/provision/provision_state_paths.hpp"
#include "common/util/visible_text.hpp"

namespace tfwsl::cli {

std::string recap_rows(const nlohmann::json& recap, const std::string& result) {
  std::vector<std::string> rows;
  for (const char* list : {"host_steps", "steps"})
    for (const auto& s : recap.value(list, nlohmann::json::array())) {
      if (s.value("result", "") != result) continue;
      std::string row = s.value("id", "") + ": " + s.value("message", "");
      if (result == "failed" && s.contains("log") && s["log"].is_string())
        row += " (log: " + s["log"].get<std::string>() + ")";
      rows.push_back(std::move(row));
    }
  if (result == "failed" && recap.contains("error") && recap["error"].is_string())
    rows.push_back(recap["error"].get<std::string>());
  return visible_text(fmt::format("{}", fmt::join(rows, "; ")));  // the agent's words, for a terminal
}

// The fix is part of the message: migrate prints Error::describe(), which leaves the detail to the log.
Error provisioning_stopped(const nlohmann::json& recap, bool checked) {
  const std::string fix = checked ? "fix what it names (tfwsl provision --check shows the same), then run migrate again"
                                  : "tfwsl provision --check shows the state";
  return Error{ErrorCode::process,
               fmt::format("{}: {}; fix: {}; each step's log is in {} in the distro",
                           checked ? "provisioning cannot go on" : "provisioning failed", recap_rows(recap, "failed"),
                           fix, provision::k_default_step_logs_dir),
               {},
               {}};
}

}  // namespace tfwsl::cli
