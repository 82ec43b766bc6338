// The dataset job on the wire (common/agent_api/job_wire): what the agent writes the push client
// reads back, field for field; an unknown state or phase, or a field of the wrong type, is an error
// naming it, never a guess.
#include "common/agent_api/job_wire.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace tfwsl::agent_api;

namespace {

JobProgress full_progress() {
  JobProgress p;
  p.phase = ImportPhase::copying;
  p.files_total = 5000;
  p.bytes_total = 512ull << 20;
  p.files_done = 1204;
  p.bytes_done = 120ull << 20;
  p.files_copied = 1200;
  p.files_skipped = 3;
  p.files_moved = 2;
  p.problems = 1;
  p.elapsed_seconds = 12.5;
  p.bytes_per_second = 85.3 * (1 << 20);
  p.eta_seconds = 5;
  p.current_file = "a/b.jpg";
  return p;
}

}  // namespace

TEST_CASE("job wire: the progress round-trips every field", "[agent_api][jobs]") {
  const nlohmann::json written = to_json(full_progress());
  auto back = parse_job_progress(written);
  REQUIRE(back);
  CHECK(to_json(*back) == written);
  CHECK(written["phase"] == "copying");
  CHECK(back->current_file == "a/b.jpg");
  // No ETA yet is null on the wire and nothing when read.
  JobProgress fresh;
  CHECK(to_json(fresh)["eta_seconds"].is_null());
  auto fresh_back = parse_job_progress(to_json(fresh));
  REQUIRE(fresh_back);
  CHECK_FALSE(fresh_back->eta_seconds);
}

TEST_CASE("job wire: states and phases by their one table, unknown ones refused", "[agent_api][jobs]") {
  for (auto status : {JobStatus::running, JobStatus::succeeded, JobStatus::failed, JobStatus::cancelled})
    CHECK(parse_job_status(to_string(status)) == status);
  for (auto phase :
       {ImportPhase::starting, ImportPhase::scanning, ImportPhase::copying, ImportPhase::finishing, ImportPhase::done})
    CHECK(parse_import_phase(to_string(phase)) == phase);
  auto job = nlohmann::json{{"id", "7"}, {"state", "succeeded"}, {"progress", to_json(full_progress())}};
  auto read = parse_job_state(job);
  REQUIRE(read);
  CHECK(read->status == JobStatus::succeeded);
  CHECK(read->finished());
  job["state"] = "paused";
  CHECK_FALSE(parse_job_state(job));
  job["state"] = "running";
  job["progress"]["phase"] = "defragmenting";
  auto phase = parse_job_state(job);
  REQUIRE_FALSE(phase);
  CHECK(phase.error().message.find("progress.phase") != std::string::npos);
  job["progress"]["phase"] = "copying";
  job["progress"]["files_done"] = "many";
  auto typed = parse_job_state(job);
  REQUIRE_FALSE(typed);
  CHECK(typed.error().message.find("progress.files_done") != std::string::npos);
  // An older agent's answer without a field: its default.
  job["progress"].erase("files_done");
  job["progress"].erase("current_file");
  auto older = parse_job_state(job);
  REQUIRE(older);
  CHECK(older->progress.files_done == 0);
}

TEST_CASE("job wire: a finished import's result round-trips, and a malformed one is refused", "[agent_api][jobs]") {
  ImportResult result;
  result.totals = full_progress();
  result.problems.push_back({"a/b.jpg", "unreadable", "Permission denied"});
  result.problems_not_listed = 3;
  result.windows_unfriendly_names = {"aux.txt", "name."};
  const nlohmann::json written = to_json(result);
  auto back = parse_import_result(written);
  REQUIRE(back);
  CHECK(to_json(*back) == written);
  auto job = nlohmann::json{{"id", "7"}, {"state", "succeeded"}, {"result", written}};
  auto read = parse_job_state(job);
  REQUIRE(read);
  REQUIRE(read->result);
  CHECK(read->result->problems.at(0).kind == "unreadable");
  job["result"]["problems"][0] = "unreadable";
  CHECK_FALSE(parse_job_state(job));
}
