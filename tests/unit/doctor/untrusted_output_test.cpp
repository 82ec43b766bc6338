// Issue 38, item 4: every string from a file, a paste, a process or the agent reaches the terminal
// through visible_text. Each output path below gets such strings (a GPU name with an OSC title and a
// line erase, a path with a CR and a line break, a C1 CSI) and nothing raw may come out: no ESC, CR,
// BEL or other C0 control but the line ends, no C1 control. JSON escapes them as JSON does.
#include <catch2/catch.hpp>
#include <string>

#include "common/check/check.hpp"
#include "common/util/text_lines.hpp"
#include "common/util/visible_text.hpp"
#include "win/profile/profile_drift.hpp"
#include "win/push/push_report.hpp"
#include "win/render/doctor_fleet_output.hpp"
#include "win/render/doctor_header.hpp"
#include "win/render/profile_render.hpp"
#include "win/tasks/provision_recap_words.hpp"

using namespace tfwsl;

namespace {

const std::string k_hostile =
    "RTX\x1b]0;OWNED\x07\x1b[1A\x1b[2K\rline\nforged\xC2\x9b"
    "2J";
const std::string k_shown = "RTX\\x1b]0;OWNED\\x07\\x1b[1A\\x1b[2K\\rline\\nforged\\u009b2J";

void require_no_raw_controls(const std::string& text) {
  INFO(text);
  CHECK(text.find('\r') == std::string::npos);
  for (std::string_view line : lines_of(text)) CHECK_FALSE(needs_visible_text(line));
  CHECK(text.find(k_shown) != std::string::npos);
}

}  // namespace

TEST_CASE("doctor: a GPU name, a distro name and a check's facts from the agent are shown visibly", "[terminal]") {
  doctor::MachineFacts machine;
  machine.distro = "Ubuntu" + k_hostile;
  machine.linux_side.facts.emplace();
  machine.linux_side.facts->gpu.devices.push_back({0, k_hostile, 0, 0, 0});
  RenderOptions options;
  options.verbose = true;
  options.header = cli::doctor_header({"tf-2.15", ProfileOrigin::builtin, "", {}}, machine, true);
  Report report;
  CheckResult gpu =
      make_check("gpu.visible", CheckStatus::fail, "GPU " + k_hostile + " not visible", "fix " + k_hostile);
  gpu.details = {"nvidia-smi: " + k_hostile};
  report.checks = {gpu};
  require_no_raw_controls(render_text(report, options));

  // JSON escapes C0 controls itself (nlohmann): the text is the JSON's, one line, no raw ESC.
  const std::string json = to_json(report).dump(2);
  CHECK(json.find('\x1b') == std::string::npos);
  CHECK(json.find("RTX\\u001b]0;OWNED\\u0007\\u001b[1A\\u001b[2K\\rline\\nforged") != std::string::npos);

  nlohmann::json doctor = {
      {"summary",
       {{"issues", 1}, {"exit_code", 2}, {"fix_first", {{"id", "gpu.visible"}, {"summary", k_hostile}, {"fix", "x"}}}}},
      {"profile", "tf-2.15"}};
  require_no_raw_controls(cli::doctor_summary_line(doctor));
}

TEST_CASE("profile diff: what the machine has and the agent's words are shown visibly", "[terminal]") {
  Profile profile;
  ProfileDiff diff;
  diff.drifts.push_back({"gpu.driver", "546.80", k_hostile, {}, "update " + k_hostile});
  diff.not_compared.push_back({"python.version", k_hostile});
  const std::string text = cli::diff_text(profile, {"tf-2.15", ProfileOrigin::builtin, "/p/" + k_hostile, {}},
                                          {"Ubuntu" + k_hostile, "agent " + k_hostile}, diff);
  require_no_raw_controls(text);
  require_no_raw_controls(cli::show_text(profile, {"tf-2.15", ProfileOrigin::builtin, "/p/" + k_hostile, {}}));
}

TEST_CASE("data push: a source file's name and the agent's problem message are shown visibly", "[terminal]") {
  push::PushOutcome outcome;
  outcome.end = push::PushEnd::with_problems;
  outcome.plan.source_given = "C:\\data\\" + k_hostile;
  outcome.plan.target = "/home/u/datasets/" + k_hostile;
  push::JobState job;
  job.result = tfwsl::agent_api::ImportResult{};
  job.result->problems.push_back({k_hostile, "unreadable", k_hostile});
  outcome.job = job;
  require_no_raw_controls(push::render_push_text(outcome, {}));
  outcome.end = push::PushEnd::planned;
  push::PushRequest request;
  request.exclude = {k_hostile};
  require_no_raw_controls(push::render_push_text(outcome, request));
}

TEST_CASE("provision's recap: a failed step's message from the agent is shown visibly", "[terminal]") {
  const nlohmann::json recap = {
      {"steps", {{{"id", "pip.install"}, {"result", "failed"}, {"message", k_hostile}, {"log", "/l/" + k_hostile}}}},
      {"error", k_hostile}};
  require_no_raw_controls(cli::recap_rows(recap, "failed"));
}
