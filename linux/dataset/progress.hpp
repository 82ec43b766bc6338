#pragma once
// Progress of an import: counters the workers bump without locks, and snapshots with rate and ETA
// computed against a Clock port (so the arithmetic is testable without sleeping). A snapshot renders
// as JSON (the agent's job endpoint, --json: agent_api::to_json) or as one human line (the terminal).

#include <atomic>
#include <cstdint>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "common/agent_api/job_wire.hpp"
#include "common/core/clock.hpp"

namespace tfwsl::dataset {

// The phase and the snapshot are the job wire's (common/agent_api/job_wire): the agent writes them
// with its to_json, the push client reads them with its parse_job_progress.
using agent_api::ImportPhase;
using ProgressSnapshot = agent_api::JobProgress;

// "copying 1204/5000 files, 120.5 MiB/512.0 MiB, 85.3 MiB/s, ETA 0:05, now: a/b.jpg"
std::string render_progress_line(const ProgressSnapshot& snapshot);

// Sizes and times: format_bytes and format_clock (common/util).

class ProgressTracker {
 public:
  explicit ProgressTracker(const Clock& clock);

  void set_phase(ImportPhase phase);
  void add_found(std::uint64_t files, std::uint64_t bytes);
  void add_copied_bytes(std::uint64_t bytes);       // as chunks land, for a live rate
  void file_copied(std::uint64_t remaining_bytes);  // bytes of the file not yet counted by chunks
  void file_skipped(std::uint64_t bytes);
  void file_failed(std::uint64_t bytes);  // a per-file problem: counted as done
  void file_moved();
  void problem();
  void uncount_copied_bytes(std::uint64_t bytes);  // a copy thrown away (it will be redone)
  void set_current_file(const std::string& display_name);

  ProgressSnapshot snapshot() const;

 private:
  const Clock& m_clock;
  std::chrono::steady_clock::time_point m_started;
  std::atomic<int> m_phase{static_cast<int>(ImportPhase::starting)};
  std::atomic<std::uint64_t> m_files_total{0}, m_bytes_total{0}, m_files_done{0}, m_bytes_done{0}, m_bytes_copied{0},
      m_files_copied{0}, m_files_skipped{0}, m_files_moved{0}, m_problems{0};
  mutable std::mutex m_mutex;  // guards the two fields below
  std::optional<std::chrono::steady_clock::time_point> m_copy_started;
  std::string m_current_file;
};

}  // namespace tfwsl::dataset
