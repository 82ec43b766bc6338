#pragma once
// `tfwsl uninstall`'s words: the list of what tfwsl made (to remove) and what it leaves alone, as
// text or as the tfwsl.uninstall JSON (docs/schema/uninstall.schema.json), and the outcome of each
// removal. Every path and reason from a distro is shown with its control characters made visible.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "win/agent_service/leftovers.hpp"

namespace tfwsl::cli {

struct UninstallEntry {
  agent_service::Leftover item;
  std::optional<std::string> error;  // removal tried and failed: why
  bool done = false;                 // removal tried and succeeded
};

struct UninstallReport {
  std::vector<UninstallEntry> entries;
  bool dry_run = false;
  bool applied = false;  // removal ran (consent given)
  std::size_t to_remove() const;
  std::size_t failed() const;
};

// The list before anything is asked: what goes, then what stays and why, wrapped to `width`.
void print_uninstall_plan(std::ostream& out, const UninstallReport& report, std::size_t width);

// One removal done: "removed PATH" ("stopped the running agent (pid N)").
void print_uninstall_step(std::ostream& out, const UninstallEntry& entry);

// The last lines after the removal: how many went, each failure, and where the original .wslconfig is.
void print_uninstall_outcome(std::ostream& out, const UninstallReport& report);

nlohmann::json uninstall_json(const UninstallReport& report);

}  // namespace tfwsl::cli
