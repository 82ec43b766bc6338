#include "linux/dataset/progress.hpp"

#include <catch2/catch.hpp>

#include "linux/dataset/import_types.hpp"

using namespace tfwsl::dataset;
using namespace std::chrono_literals;

TEST_CASE("rate and ETA come from the bytes copied over the copy phase", "[progress]") {
  tfwsl::ManualClock clock;
  ProgressTracker tracker(clock);
  tracker.set_phase(ImportPhase::scanning);
  tracker.add_found(10, 1000);
  clock.advance(5s);  // scanning time does not count toward the rate
  tracker.set_phase(ImportPhase::copying);
  CHECK_FALSE(tracker.snapshot().eta_seconds);
  tracker.add_copied_bytes(150);
  tracker.file_copied(50);
  tracker.file_skipped(300);
  clock.advance(2s);
  auto s = tracker.snapshot();
  CHECK(s.files_done == 2);
  CHECK(s.bytes_done == 500);
  CHECK(s.bytes_per_second == Approx(100.0));
  REQUIRE(s.eta_seconds);
  CHECK(*s.eta_seconds == Approx(5.0));  // 500 bytes left at 100 B/s
  CHECK(s.elapsed_seconds == Approx(7.0));

  tracker.uncount_copied_bytes(100);  // a copy thrown away
  CHECK(tracker.snapshot().bytes_done == 400);
  tracker.set_phase(ImportPhase::done);
  CHECK(*tracker.snapshot().eta_seconds == 0.0);
}

TEST_CASE("progress renders as a line and as JSON", "[progress]") {
  ProgressSnapshot s;
  s.phase = ImportPhase::copying;
  s.files_total = 5000;
  s.files_done = 1204;
  s.bytes_total = 512ull << 20;
  s.bytes_done = 120ull << 20;
  s.bytes_per_second = 85.3 * (1 << 20);
  s.eta_seconds = 65;
  s.current_file = "a/b.jpg";
  CHECK(render_progress_line(s) == "copying 1204/5000 files, 120.0 MiB/512.0 MiB, 85.3 MiB/s, ETA 1:05, now: a/b.jpg");
  auto j = to_json(s);
  CHECK(j["phase"] == "copying");
  CHECK(j["eta_seconds"] == 65.0);
  s.eta_seconds.reset();
  CHECK(to_json(s)["eta_seconds"].is_null());
}

TEST_CASE("names Windows cannot show or re-create are recognised", "[progress]") {
  for (std::string name : std::vector<std::string>{"trailing.", "trailing ", "CON", "nul.txt", "COM1", "a:b",
                                                   "back\\slash", "new\nline", "bad\xff"})
    CHECK(is_windows_unfriendly_name(name));
  for (std::string name : std::vector<std::string>{"image.jpg", "CONFIG", "COM10", "caf\xc3\xa9", ".hidden"})
    CHECK_FALSE(is_windows_unfriendly_name(name));
}
