// first_linked_folder: a folder on the way that is a link (on Windows any reparse point: a
// junction, a symbolic link) is found, so a writer refuses the path instead of writing where the
// link leads (issue 22's sweep, C7: migrate's translated files in reqs/ of a project whose reqs is
// a link landed outside the project).
#include "common/util/linked_folder.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/support/test_environment.hpp"

using namespace tfwsl;
namespace fs = std::filesystem;

TEST_CASE("plain folders, and folders not made yet, pass", "[linked_folder]") {
  test::TempDir dir;
  fs::create_directories(dir.path() / "a" / "b");
  CHECK_FALSE(first_linked_folder(dir.path(), "a/b/file.txt"));
  CHECK_FALSE(first_linked_folder(dir.path(), "file.txt"));
  CHECK_FALSE(first_linked_folder(dir.path(), "a/new/deeper/file.txt"));
}

TEST_CASE("a file where a folder should be is named", "[linked_folder]") {
  test::TempDir dir;
  test::write_file(dir.path() / "plain", "a file");
  CHECK(first_linked_folder(dir.path(), "plain/file.txt") == dir.path() / "plain");
}

// Not under Wine: it makes a Windows folder link as a Unix link and then reports it as a plain
// folder (no reparse attribute), so only a real Windows can show the Windows side of this case.
#ifndef _WIN32
TEST_CASE("a linked folder on the way is named", "[linked_folder]") {
  test::TempDir dir;
  fs::create_directories(dir.path() / "project" / "deep");
  fs::create_directories(dir.path() / "outside");
  fs::create_directory_symlink(dir.path() / "outside", dir.path() / "project" / "reqs");
  auto linked = first_linked_folder(dir.path() / "project", "reqs/base.wsl.txt");
  REQUIRE(linked);
  CHECK(*linked == dir.path() / "project" / "reqs");
  fs::create_directory_symlink(dir.path() / "outside", dir.path() / "project" / "deep" / "inner");
  CHECK(first_linked_folder(dir.path() / "project", "deep/inner/x/file.txt") ==
        dir.path() / "project" / "deep" / "inner");
  // The link itself as the last component is the writer's business (it replaces the link as itself).
  CHECK_FALSE(first_linked_folder(dir.path() / "project", "reqs"));
}
#endif
