#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "common/core/clock.hpp"
#include "linux/dataset/import_engine.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl::dataset;
namespace fs = std::filesystem;

// Workers stage small files far faster than a slow syncfs commits them. Before the pending batch
// had a bound, every file copied during one slow commit joined the next batch (100,000 tiny files
// held 17 MiB of pending records); now a worker that finds 2,048 pending waits and commits.
TEST_CASE("no batch grows past its bound while a slow commit runs: memory stays bounded", "[engine]") {
  tfwsl::test::TempDir tmp;
  fs::path source = tmp.path() / "source";
  for (int d = 0; d < 6; ++d) {
    fs::create_directories(source / ("d" + std::to_string(d)));
    for (int i = 0; i < 1000; ++i)
      tfwsl::test::write_file(source / ("d" + std::to_string(d)) / ("f" + std::to_string(i)), "x");
  }
  std::atomic<int> syncs{0}, renamed_since_sync{0}, largest_batch{0}, written{0};
  // The first commit holds until workers have copied far past the bound, or have all stopped
  // copying for 300 ms (they wait for it: the bound at work).
  auto slow_first_commit = [&] {
    int last = -1;
    for (int still = 0; still < 30 && written < 4000; ++still) {
      if (written != last) still = 0;
      last = written;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  };
  ImportOptions options;
  options.source = source;
  options.target = tmp.path() / "target";
  options.jobs = 8;
  options.fault_hook = [&](std::string_view step, const std::string&) {
    if (step == "sync_filesystem") {
      renamed_since_sync = 0;
      if (syncs++ == 0) slow_first_commit();
    }
    if (step == "write_chunk") ++written;
    if (step == "rename_into_place") {
      int batch = ++renamed_since_sync;
      int seen = largest_batch;
      while (batch > seen && !largest_batch.compare_exchange_weak(seen, batch)) {
      }
    }
    return 0;
  };
  tfwsl::SteadyClock clock;
  ProgressTracker progress(clock);
  CancelToken cancel;
  auto report = run_import(options, progress, cancel);
  REQUIRE(report);
  CHECK(report->totals.files_copied == 6000);
  CHECK(syncs >= 3);
  CHECK(largest_batch <= 2048 + 8);  // the bound, plus what each worker had in hand
}
