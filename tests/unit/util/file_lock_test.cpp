// FileLock: one holder at a time between open files (so between processes: the concurrent runs
// themselves are tests/integration/wslconfig/wslconfig_safety.py), released when it goes, and the
// lock file removed with it.
#include "common/util/file_lock.hpp"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <optional>
#include <thread>
#include <vector>

#include "tests/support/test_environment.hpp"

using namespace tfwsl;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

TEST_CASE("a held lock makes the next one wait, then say who holds it", "[file_lock]") {
  test::TempDir dir;
  const auto path = dir.path() / ".wslconfig.tfwsl-lock";
  std::optional<FileLock> first;
  {
    auto lock = FileLock::acquire(path, 1000ms);
    REQUIRE(lock);
    first.emplace(std::move(*lock));
  }
  const auto started = std::chrono::steady_clock::now();
  auto second = FileLock::acquire(path, 200ms);
  REQUIRE_FALSE(second);
  CHECK(second.error().code == ErrorCode::busy);
  CHECK(second.error().message.find(".wslconfig.tfwsl-lock") != std::string::npos);
  CHECK(std::chrono::steady_clock::now() - started >= 200ms);
  first.reset();
  auto third = FileLock::acquire(path, 200ms);
  CHECK(third);
  CHECK(fs::is_regular_file(path));
}

TEST_CASE("a released lock leaves no lock file behind", "[file_lock]") {
  test::TempDir dir;
  const auto path = dir.path() / ".wslconfig.tfwsl-lock";
  {
    auto lock = FileLock::acquire(path, 1000ms);
    REQUIRE(lock);
    CHECK(fs::is_regular_file(path));
  }
  CHECK_FALSE(fs::exists(fs::symlink_status(path)));
}

// The lock file goes with its holder, so a waiter may lock a file that is no longer named: it must
// see that and take the new one, or two would hold "the" lock at once. Four openers hammer it.
TEST_CASE("removing the lock file never lets two hold the lock at once", "[file_lock]") {
  test::TempDir dir;
  const auto path = dir.path() / ".wslconfig.tfwsl-lock";
  std::atomic<int> inside{0};
  std::atomic<int> most{0};
  std::atomic<int> failures{0};
  std::vector<std::thread> openers;
  for (int t = 0; t < 4; ++t)
    openers.emplace_back([&] {
      for (int round = 0; round < 150; ++round) {
        auto lock = FileLock::acquire(path, 10000ms);
        if (!lock) {
          ++failures;
          continue;
        }
        const int now = ++inside;
        int seen = most.load();
        while (now > seen && !most.compare_exchange_weak(seen, now)) {
        }
        std::this_thread::yield();
        --inside;
      }
    });
  for (auto& opener : openers) opener.join();
  CHECK(failures == 0);
  CHECK(most == 1);
  CHECK_FALSE(fs::exists(fs::symlink_status(path)));
}

#ifndef _WIN32
TEST_CASE("a link planted as the lock file is refused, not followed", "[file_lock]") {
  test::TempDir dir;
  const auto path = dir.path() / ".wslconfig.tfwsl-lock";
  fs::create_symlink(dir.path() / "elsewhere", path);
  auto lock = FileLock::acquire(path, 100ms);
  REQUIRE_FALSE(lock);
  CHECK(lock.error().message.find("link") != std::string::npos);
  CHECK_FALSE(fs::exists(dir.path() / "elsewhere"));
}
#endif
