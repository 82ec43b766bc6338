#include "common/cli/status_line.hpp"

#include <catch2/catch.hpp>
#include <sstream>

#include "win/push/progress_text.hpp"

using namespace tfwsl;
using namespace std::chrono_literals;

TEST_CASE("a live status line is rewritten in place and erased at the end", "[status]") {
  std::ostringstream err;
  ManualClock clock;
  StatusLine status(err, "tfwsl doctor", clock, StatusLineSettings{true});
  status.set_step("waiting for wsl.exe");
  CHECK(err.str() == "\r\x1b[Ktfwsl doctor: waiting for wsl.exe (0 s)");  // at once, not a tick later
  clock.advance(3s);
  status.tick();
  CHECK(err.str().find("\r\x1b[Ktfwsl doctor: waiting for wsl.exe (3 s)") != std::string::npos);
  status.stop();
  CHECK(err.str().size() >= 4);
  CHECK(err.str().substr(err.str().size() - 4) == "\r\x1b[K");
  CHECK(err.str().find('\n') == std::string::npos);
}

TEST_CASE("a plain status line comes every 5 s of a step, on its own line, with no escapes", "[status]") {
  std::ostringstream err;
  ManualClock clock;
  StatusLine status(err, "tfwsl doctor", clock, StatusLineSettings{false});
  status.set_step("waiting for the agent's checks");
  status.tick();
  clock.advance(4900ms);
  status.tick();
  CHECK(err.str().empty());  // a quick step leaves a log alone
  clock.advance(100ms);
  status.tick();
  CHECK(err.str() == "tfwsl doctor: waiting for the agent's checks (5 s)\n");
  clock.advance(1s);
  status.tick();
  CHECK(err.str() == "tfwsl doctor: waiting for the agent's checks (5 s)\n");
  clock.advance(4s);
  status.tick();
  CHECK(err.str().find("(10 s)\n") != std::string::npos);
  status.set_step("reading the host facts");
  clock.advance(5s);
  status.tick();
  CHECK(err.str().find("reading the host facts (5 s)\n") != std::string::npos);
  status.stop();
  CHECK(err.str().find('\x1b') == std::string::npos);
}

TEST_CASE("the status line's thread writes on its own and is joined by stop", "[status]") {
  std::ostringstream err;
  SteadyClock clock;
  StatusLineSettings settings{true, 5ms, 5s};
  {
    StatusLine status(err, "tfwsl doctor", clock, settings);
    status.start();
    status.set_step("waiting");
    std::this_thread::sleep_for(60ms);
    status.stop();
    const auto written = err.str();
    std::size_t lines = 0;
    for (std::size_t at = written.find("waiting"); at != std::string::npos; at = written.find("waiting", at + 1))
      ++lines;
    CHECK(lines >= 2);  // set_step's line and at least one tick of the thread
    status.stop();      // twice is harmless: nothing more is written
    CHECK(err.str() == written);
  }
  // Destroyed after stop (the scope's end): the thread is joined, so nothing writes afterwards.
  const auto at_destruction = err.str();
  std::this_thread::sleep_for(20ms);
  CHECK(err.str() == at_destruction);
}

TEST_CASE("a live line longer than the terminal is shortened in its middle: its end (the time, an ETA) stays",
          "[status]") {
  std::ostringstream err;
  ManualClock clock;
  StatusLine status(err, "tfwsl doctor", clock, StatusLineSettings{true});
  status.set_step("waiting for the agent in " + std::string(80, 'x'));
  const std::string line = err.str().substr(4);  // after \r ESC [ K
  CHECK(line.size() == 79);
  CHECK(line.rfind("tfwsl doctor: waiting", 0) == 0);
  CHECK(line.find("...") != std::string::npos);
  CHECK(line.substr(line.size() - 7) == "x (0 s)");
  status.stop();
}

TEST_CASE("a push's live line at 60 columns keeps its ETA", "[status]") {
  std::ostringstream err;
  ManualClock clock;
  StatusLineSettings settings{true};
  settings.columns = 60;
  StatusLine status(err, "tfwsl data push", clock, settings);
  status.update_step("copying 1200/5000 files, 3.1 GiB/12.0 GiB, 85.0 MiB/s, ETA 1:47");
  status.tick();
  const std::string written = err.str();
  const std::string line = written.substr(written.rfind("\x1b[K") + 3);
  CHECK(line.size() == 59);
  CHECK(line.find("ETA 1:47 (0 s)") != std::string::npos);
  status.stop();
}

TEST_CASE("nothing is written before a step is set", "[status]") {
  std::ostringstream err;
  ManualClock clock;
  StatusLine status(err, "tfwsl doctor", clock, StatusLineSettings{true});
  status.tick();
  status.stop();
  CHECK(err.str().empty());
}

TEST_CASE("a step whose words change often (a progress count) still gets a plain line every 5 s", "[status]") {
  std::ostringstream err;
  ManualClock clock;
  StatusLine status(err, "tfwsl data push", clock, StatusLineSettings{false});
  status.update_step("copying 0/10 files");
  for (int i = 1; i <= 20; ++i) {  // every 250 ms, as the push polls its job
    clock.advance(250ms);
    status.update_step("copying " + std::to_string(i) + "/20 files");
    status.tick();
  }
  CHECK(err.str() == "tfwsl data push: copying 20/20 files (5 s)\n");
  status.stop();
}

TEST_CASE("golden: a push's live line at 80 columns, its middle shortened and its ETA kept", "[status][golden]") {
  std::ostringstream err;
  ManualClock clock;
  StatusLine status(err, "tfwsl data push", clock, StatusLineSettings{true});
  push::JobProgress p;
  p.phase = tfwsl::agent_api::ImportPhase::copying;
  p.files_done = 123456;
  p.files_total = 654321;
  p.bytes_done = 31ull << 30;
  p.bytes_total = 120ull << 30;
  p.bytes_per_second = 85.0 * (1 << 20);
  p.eta_seconds = 1067;
  p.files_skipped = 1200;
  p.problems = 2;
  status.update_step(push::progress_text(p));
  clock.advance(754s);
  status.tick();
  const std::string written = err.str();
  const std::string line = written.substr(written.rfind("\x1b[K") + 3);
  // Whole fields go, from the end's side, never half a number ("copying 512/3000 file...B/46.9 MiB"
  // hid what was done: issue 43, item 9); the count, the percentage and the ETA stay.
  CHECK(line == "tfwsl data push: copying 25%: 123456/654321 files, ..., ETA 17:47 (754 s)");
  CHECK(line.size() <= 79);
  status.stop();
}

// A resume that copies in less than one tick showed no progress at all (windows.data.push failed on
// a loaded machine): new words are written at once on a live line, unchanged ones wait.
TEST_CASE("on a live line a progress update shows at once, without waiting for the tick", "[status]") {
  std::ostringstream err;
  ManualClock clock;
  StatusLine status(err, "tfwsl data push", clock, StatusLineSettings{true});
  status.update_step("done 3006/3006 files");
  CHECK(err.str().find("tfwsl data push: done 3006/3006 files (0 s)") != std::string::npos);
  const auto written = err.str().size();
  status.update_step("done 3006/3006 files");
  CHECK(err.str().size() == written);
  status.stop();
}
