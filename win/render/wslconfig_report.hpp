#pragma once
// What `tfwsl wslconfig` prints: the text for people and the tfwsl.wslconfig JSON
// (docs/schema/wslconfig.schema.json) for scripts, from one report.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/wslconfig/wslconfig_edit.hpp"
#include "common/wslconfig/wslconfig_effective.hpp"
#include "common/wslconfig/wslconfig_lint.hpp"
#include "win/doctor/wslconfig_overrides.hpp"
#include "win/wsl/wslconfig_apply.hpp"

namespace tfwsl::cli {

struct WslconfigReport {
  std::string command;  // "show", "set", "unset"
  std::string path;
  std::optional<std::string> link_target;  // path is a link: the file it points to, which is read and written
  bool exists = false;
  std::string encoding;  // of the file as read
  wslconfig::HostShape host;
  std::vector<wslconfig::EffectiveValue> values;  // after the change, for set/unset
  std::vector<wslconfig::Finding> findings;       // likewise
  // show: the settings whose value WSL does not use, and why (a computer policy, a setting WSL ignores).
  std::vector<doctor::Override> overrides;
  std::vector<wslconfig::Change> changes;
  std::string diff;
  bool dry_run = false;
  bool written = false;
  bool reread = false;  // another run changed the file after the preview: the change was made to what it held then
  std::optional<std::string> backup;
  std::optional<wslconfig::ApplyOutcome> apply;
};

nlohmann::json to_json(const WslconfigReport& report);

// show: the values (file or default) and the findings. set/unset: the diff, what was written and
// the backup, and with --apply each setting's verdict.
std::string render_text(const WslconfigReport& report);
// set/unset in two parts: the diff (shown before asking) and what happened after.
std::string render_change_preview(const WslconfigReport& report);
std::string render_change_outcome(const WslconfigReport& report);

// 0 no findings, 1 warnings only, 2 an error finding (show's exit status).
int exit_code_for_findings(const std::vector<wslconfig::Finding>& findings);

}  // namespace tfwsl::cli
