// FileLock: one holder at a time between open files (so between processes: the concurrent runs
// themselves are tests/integration/wslconfig/wslconfig_safety.py), released when it goes.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <optional>

#include "common/util/file_lock.hpp"
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
  CHECK(FileLock::acquire(path, 200ms));
  CHECK(fs::is_regular_file(path));
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
