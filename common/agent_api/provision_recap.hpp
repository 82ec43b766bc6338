#pragma once
// `tfwsl-agent provision --json`'s recap on the wire (docs/schema/provision.schema.json "recap"): the
// distro steps with their results, written by the agent (linux/provision) and read by tfwsl
// (win/tasks/provision_run), each field spelled once, in provision_recap.cpp's field tables.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/error.hpp"

namespace tfwsl::agent_api {

enum class StepResult { ok, changed, failed, skipped };
const char* to_string(StepResult result);
std::optional<StepResult> parse_step_result(std::string_view text);

struct StepRecord {
  std::string id;
  std::string title;
  StepResult result = StepResult::skipped;
  std::string message;  // what was found, done, or why it failed
  std::string log;      // the step's log, when it started a process (absent on the wire when empty)
};

// How many steps ended each way: the recap's "counts", written from the steps, never apart from them.
struct RecapCounts {
  std::size_t ok = 0, changed = 0, failed = 0, skipped = 0;
};

struct ProvisionRecap {
  bool check_mode = false;
  std::optional<std::string> interrupted_step;  // the previous run was killed during this step
  std::string run;
  std::string state_dir;
  std::vector<StepRecord> steps;

  std::size_t count(StepResult result) const;
  RecapCounts counts() const;
  // 0: nothing failed (and in --check, nothing to change); 1: --check would change; 2: a failure.
  int exit_code() const;
};

nlohmann::json to_json(const StepRecord& step);
nlohmann::json to_json(const RecapCounts& counts);
nlohmann::json to_json(const ProvisionRecap& recap);  // with its counts

// Errors: parse, naming the field that is missing or of the wrong type.
Result<StepRecord> parse_step_record(const nlohmann::json& j);
Result<RecapCounts> parse_recap_counts(const nlohmann::json& j);
Result<ProvisionRecap> parse_provision_recap(const nlohmann::json& j);

}  // namespace tfwsl::agent_api
