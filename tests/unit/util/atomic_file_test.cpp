// The atomic-replace port: creates or replaces, leaves no temporary file, never overwrites a
// backup, never opens a name someone planted, keeps the permission bits, and refuses a read-only
// target. (The stop port ends the process: tests/integration/wslconfig runs the test program, tfwsl-test, in a child.)
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <string>

#ifdef _WIN32
#include <process.h>
#else
#include <unistd.h>
#endif

#include "common/util/atomic_file.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl;
namespace fs = std::filesystem;

namespace {

int current_pid() {
#ifdef _WIN32
  return _getpid();
#else
  return static_cast<int>(::getpid());
#endif
}

std::size_t temporaries_in(const fs::path& folder, const fs::path& target) {
  std::size_t n = 0;
  const std::string prefix = temporary_name_prefix(target);
  for (const auto& entry : fs::directory_iterator(folder))
    n += entry.path().filename().string().rfind(prefix, 0) == 0 &&
         entry.path().filename().string().size() > prefix.size() + 8;
  return n;
}

}  // namespace

TEST_CASE("replace_file_atomically creates, then replaces, and cleans up", "[atomic_file]") {
  test::TempDir dir;
  const auto target = dir.path() / ".wslconfig";
  REQUIRE(replace_file_atomically(target, "[wsl2]\nmemory=8GB\n"));
  CHECK(test::read_file(target) == "[wsl2]\nmemory=8GB\n");
  REQUIRE(replace_file_atomically(target, "[wsl2]\nmemory=16GB\n"));
  CHECK(test::read_file(target) == "[wsl2]\nmemory=16GB\n");
  CHECK(temporaries_in(dir.path(), target) == 0);
  std::size_t entries = 0;
  for (const auto& entry : fs::directory_iterator(dir.path())) entries += entry.is_regular_file();
  CHECK(entries == 1);
}

TEST_CASE("a replace into a missing folder fails and says where", "[atomic_file]") {
  test::TempDir dir;
  auto result = replace_file_atomically(dir.path() / "absent" / ".wslconfig", "x");
  REQUIRE_FALSE(result);
  CHECK(result.error().code == ErrorCode::io);
}

TEST_CASE("the temporary name is unpredictable: a random suffix, never the process id", "[atomic_file]") {
  const fs::path target = fs::path("folder") / ".wslconfig";
  std::set<std::string> names;
  for (int i = 0; i < 50; ++i) names.insert(random_temporary_path(target).filename().string());
  CHECK(names.size() == 50);
  const std::string one = *names.begin();
  CHECK(one.rfind("..wslconfig.tfwsl-tmp-", 0) == 0);
  CHECK(one.size() == std::string("..wslconfig.tfwsl-tmp-").size() + 16);
}

// The old code opened ".NAME.tfwsl-tmp-<pid>" with O_CREAT | O_TRUNC: whatever was planted under that
// name was truncated, filled with the new bytes and renamed over the target.
TEST_CASE("a file planted under the old temporary name is left alone", "[atomic_file]") {
  test::TempDir dir;
  const auto target = dir.path() / ".wslconfig";
  test::write_file(target, "old\n");
  const auto planted = dir.path() / ("..wslconfig.tfwsl-tmp-" + std::to_string(current_pid()));
  test::write_file(planted, "someone else's file\n");
  REQUIRE(replace_file_atomically(target, "new\n"));
  CHECK(test::read_file(target) == "new\n");
  REQUIRE(fs::exists(planted));
  CHECK(test::read_file(planted) == "someone else's file\n");
}

#ifndef _WIN32
TEST_CASE("a link planted under the old temporary name does not redirect the write", "[atomic_file]") {
  test::TempDir dir;
  const auto target = dir.path() / ".wslconfig";
  const auto victim = dir.path() / "victim";
  test::write_file(target, "old\n");
  test::write_file(victim, "precious\n");
  const auto planted = dir.path() / ("..wslconfig.tfwsl-tmp-" + std::to_string(current_pid()));
  fs::create_symlink(victim, planted);
  REQUIRE(replace_file_atomically(target, "new\n"));
  CHECK(test::read_file(victim) == "precious\n");
  CHECK(test::read_file(target) == "new\n");
  CHECK_FALSE(fs::is_symlink(target));
  CHECK(fs::is_symlink(planted));
}

TEST_CASE("a replaced file keeps its permission bits, a new one gets rw-r--r--", "[atomic_file]") {
  test::TempDir dir;
  const auto target = dir.path() / ".wslconfig";
  test::write_file(target, "old\n");
  fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace);
  REQUIRE(replace_file_atomically(target, "new\n"));
  CHECK((fs::status(target).permissions() & fs::perms::all) == (fs::perms::owner_read | fs::perms::owner_write));
  const auto fresh = dir.path() / "fresh";
  REQUIRE(replace_file_atomically(fresh, "x"));
  CHECK((fs::status(fresh).permissions() & fs::perms::all) == k_new_file_perms);
  const auto backup = dir.path() / "backup";
  REQUIRE(write_new_file(backup, "b", fs::perms::owner_read | fs::perms::owner_write));
  CHECK((fs::status(backup).permissions() & fs::perms::all) == (fs::perms::owner_read | fs::perms::owner_write));
}

TEST_CASE("write_new_file does not follow a link, even a dangling one", "[atomic_file]") {
  test::TempDir dir;
  const auto link = dir.path() / "backup";
  fs::create_symlink(dir.path() / "elsewhere", link);
  auto made = write_new_file(link, "x");
  REQUIRE_FALSE(made);
  CHECK(made.error().code == ErrorCode::conflict);
  CHECK_FALSE(fs::exists(dir.path() / "elsewhere"));
}
#endif

TEST_CASE("a read-only target is refused, named, and left as it was", "[atomic_file]") {
  test::TempDir dir;
  const auto target = dir.path() / ".wslconfig";
  test::write_file(target, "old\n");
  fs::permissions(target, fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                  fs::perm_options::remove);
  CHECK(is_write_protected(target));
  auto result = replace_file_atomically(target, "new\n");
  fs::permissions(target, fs::perms::owner_write, fs::perm_options::add);  // so TempDir can remove it
  REQUIRE_FALSE(result);
  CHECK(result.error().code == ErrorCode::permission);
  CHECK(result.error().message.find("read-only") != std::string::npos);
  CHECK(result.error().message.find(".wslconfig") != std::string::npos);
  CHECK(test::read_file(target) == "old\n");
  CHECK(temporaries_in(dir.path(), target) == 0);
}

TEST_CASE("write_new_file never overwrites, and says the name is taken", "[atomic_file]") {
  test::TempDir dir;
  const auto backup = dir.path() / "backup";
  REQUIRE(write_new_file(backup, "old"));
  auto again = write_new_file(backup, "new");
  REQUIRE_FALSE(again);
  CHECK(again.error().code == ErrorCode::conflict);
  CHECK(test::read_file(backup) == "old");
}

TEST_CASE("the stop port is off unless the program names a stage", "[atomic_file]") {
  CHECK(replace_stop_stage() == ReplaceFault::none);
}
