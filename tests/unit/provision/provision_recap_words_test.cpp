// What tfwsl migrate says when provisioning stops: the failed steps with their logs, in the message.
#include "win/tasks/provision_recap_words.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace tfwsl;

namespace {

nlohmann::json recap_with_failed_step() {
  return nlohmann::json::parse(R"({
    "host_steps": [{"id": "wsl.current", "result": "ok", "message": "WSL 2.1.5"}],
    "steps": [
      {"id": "apt.prerequisites", "result": "ok", "message": "installed"},
      {"id": "cuda.toolkit", "result": "failed", "message": "apt-get install exited 100",
       "log": "/var/lib/tfwsl/provision/logs/20261204-cuda.toolkit.log"},
      {"id": "python.venv", "result": "changed", "message": "made"}
    ],
    "counts": {"ok": 2, "changed": 1, "failed": 1, "skipped": 0}
  })");
}

}  // namespace

TEST_CASE("migrate's provisioning failure names each failed step's log", "[provision]") {
  const std::string rows = cli::recap_rows(recap_with_failed_step(), "failed");
  CHECK(rows ==
        "cuda.toolkit: apt-get install exited 100 (log: /var/lib/tfwsl/provision/logs/20261204-cuda.toolkit.log)");
  CHECK(cli::recap_rows(recap_with_failed_step(), "changed") == "python.venv: made");
}

TEST_CASE("migrate's provisioning failure prints where the step logs are, not only in the log's detail",
          "[provision]") {
  const Error applied = cli::provisioning_stopped(recap_with_failed_step(), false);
  const std::string shown = applied.describe();
  CHECK(shown.find("provisioning failed: cuda.toolkit") != std::string::npos);
  CHECK(shown.find("20261204-cuda.toolkit.log") != std::string::npos);
  CHECK(shown.find("each step's log is in /var/lib/tfwsl/provision/logs in the distro") != std::string::npos);
  CHECK(shown.find("tfwsl provision --check") != std::string::npos);
  const Error checked = cli::provisioning_stopped(recap_with_failed_step(), true);
  CHECK(checked.describe().find("then run migrate again") != std::string::npos);
}
