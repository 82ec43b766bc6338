#pragma once
// The journal of provisioning runs: one JSON line per event (run-start, step-start, step-end,
// run-end), flushed to disk as it happens, so a run killed at any point leaves what it was doing.
// The next run reads it first and reports the interrupted step; since every step checks before it
// applies, resuming is running the plan again.

#include <filesystem>
#include <optional>
#include <string>

namespace tfwsl::provision {

struct Interruption {
  std::string run;   // the run's id
  std::string step;  // the step that had started and not ended ("" between steps)
};

class ProvisionJournal {
 public:
  explicit ProvisionJournal(std::filesystem::path file) : m_file(std::move(file)) {}

  // The last run, when it started and never ended.
  std::optional<Interruption> last_interruption() const;

  void run_started(const std::string& run);
  void step_started(const std::string& step);
  void step_ended(const std::string& step, const std::string& result);
  void run_ended();

 private:
  void append(const std::string& event, const std::string& step, const std::string& result);

  std::filesystem::path m_file;
  std::string m_run;
};

}  // namespace tfwsl::provision
