#include "common/provision/progress_relay.hpp"

#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "common/cli/status_line.hpp"
#include "common/core/clock.hpp"
#include "common/provision/progress_event.hpp"

using namespace tfwsl;
using namespace tfwsl::provision;

namespace {

// What the agent writes on stderr with --progress-json: progress lines among its own messages.
std::string agent_stderr() {
  const ProgressEvent checking{"cuda.toolkit", "checking", "", std::nullopt, std::nullopt};
  const ProgressEvent downloading{"cuda.toolkit", "downloading", "libcublas-12-2", 1'200'000'000, 2'800'000'000};
  return progress_json(checking).dump() + "\n" + "tfwsl-agent provision: a warning of its own\n" +
         progress_json(downloading).dump() + "\n";
}

}  // namespace

TEST_CASE("the agent's progress lines reach tfwsl however its stderr is cut", "[provision][progress]") {
  const std::string err = agent_stderr();
  for (std::size_t cut : {std::size_t{1}, std::size_t{7}, std::size_t{64}, err.size()}) {
    std::vector<ProgressEvent> seen;
    ProgressRelay relay([&seen](const ProgressEvent& e) { seen.push_back(e); });
    for (std::size_t at = 0; at < err.size(); at += cut) relay.feed(std::string_view(err).substr(at, cut));
    REQUIRE(seen.size() == 2);
    CHECK(seen[1].item == "libcublas-12-2");
    CHECK(seen[1].done == 1'200'000'000u);
  }
  CHECK(without_progress_lines(err) == "tfwsl-agent provision: a warning of its own\n");
}

TEST_CASE("tfwsl's status line shows the agent's latest progress with its bytes", "[provision][progress]") {
  std::ostringstream out;
  ManualClock clock;
  StatusLineSettings settings;
  settings.live = true;
  settings.columns = 200;  // the whole line: a narrower terminal's cut is status_line_test's
  StatusLine status(out, "tfwsl provision", clock, settings);
  ProgressRelay relay([&status](const ProgressEvent& e) { status.update_step(progress_words(e)); });
  relay.feed(agent_stderr());
  CHECK(out.str().find("\r\x1b[Ktfwsl provision: cuda.toolkit: checking (0 s)") != std::string::npos);
  const std::string last =
      "\r\x1b[Ktfwsl provision: cuda.toolkit: downloading libcublas-12-2, 1.1 GiB of 2.6 GiB (42%) (0 s)";
  CHECK(out.str().substr(out.str().size() - last.size()) == last);
  status.stop();
}
