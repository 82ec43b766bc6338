// The atomic-replace port: creates or replaces, leaves no temporary file, and never overwrites a
// backup. (The fault hook kills the process: tests/integration/wslconfig runs it in a child.)
#include <catch2/catch.hpp>

#include <filesystem>

#include "common/util/atomic_file.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl;

TEST_CASE("replace_file_atomically creates, then replaces, and cleans up", "[atomic_file]") {
  test::TempDir dir;
  const auto target = dir.path() / ".wslconfig";
  REQUIRE(replace_file_atomically(target, "[wsl2]\nmemory=8GB\n"));
  CHECK(test::read_file(target) == "[wsl2]\nmemory=8GB\n");
  REQUIRE(replace_file_atomically(target, "[wsl2]\nmemory=16GB\n"));
  CHECK(test::read_file(target) == "[wsl2]\nmemory=16GB\n");
  CHECK_FALSE(std::filesystem::exists(temporary_path_for(target)));
  std::size_t entries = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) entries += entry.is_regular_file();
  CHECK(entries == 1);
}

TEST_CASE("a replace into a missing folder fails and says where", "[atomic_file]") {
  test::TempDir dir;
  auto result = replace_file_atomically(dir.path() / "absent" / ".wslconfig", "x");
  REQUIRE_FALSE(result);
  CHECK(result.error().code == ErrorCode::io);
}

TEST_CASE("write_new_file never overwrites", "[atomic_file]") {
  test::TempDir dir;
  const auto backup = dir.path() / "backup";
  REQUIRE(write_new_file(backup, "old"));
  CHECK_FALSE(write_new_file(backup, "new"));
  CHECK(test::read_file(backup) == "old");
}

TEST_CASE("the fault hook is off unless the environment names a stage", "[atomic_file]") {
  CHECK(replace_fault_from_environment() == ReplaceFault::none);
}
