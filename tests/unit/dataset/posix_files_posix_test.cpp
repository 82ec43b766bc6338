#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <filesystem>

#include "linux/dataset/posix_files.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl::dataset;
namespace fs = std::filesystem;

TEST_CASE("open_beneath: the folder itself for an empty path, a final symlink as itself with O_PATH", "[posix_files]") {
  tfwsl::test::TempDir tmp;
  fs::create_directories(tmp.path() / "d");
  fs::create_symlink("/etc", tmp.path() / "d" / "link");
  UniqueFd root(::open(tmp.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  REQUIRE(root);
  UniqueFd self(open_beneath(root.get(), "", O_RDONLY | O_DIRECTORY));
  REQUIRE(self);
  struct stat a {
  }, b{};
  REQUIRE(::fstat(self.get(), &a) == 0);
  REQUIRE(::fstat(root.get(), &b) == 0);
  CHECK(file_id(a) == file_id(b));
  UniqueFd link(open_beneath(root.get(), "d/link", O_PATH | O_NOFOLLOW));
  REQUIRE(link);
  REQUIRE(::fstat(link.get(), &a) == 0);
  CHECK(S_ISLNK(a.st_mode));
  CHECK(open_beneath(root.get(), "d/link/passwd", O_RDONLY) == -1);
  CHECK(errno == ELOOP);
}

TEST_CASE("open_folder_path: a resolved path is opened, and made, without following a symlink", "[posix_files]") {
  tfwsl::test::TempDir tmp;
  fs::path base = fs::canonical(tmp.path());
  fs::create_directories(base / "real");
  fs::create_directories(base / "outside");
  UniqueFd made(open_folder_path(base / "real" / "new" / "deeper", true));
  REQUIRE(made);
  CHECK(fs::is_directory(base / "real" / "new" / "deeper"));
  struct stat st {};
  REQUIRE(::fstat(made.get(), &st) == 0);
  CHECK(S_ISDIR(st.st_mode));
  // A component swapped for a symlink since the path was resolved: refused, nothing made through it.
  fs::create_symlink(base / "outside", base / "swapped");
  CHECK(open_folder_path(base / "swapped" / "t", true) == -1);
  CHECK(errno == ELOOP);
  CHECK(fs::is_empty(base / "outside"));
  CHECK(open_folder_path(base / "swapped", false) == -1);
  CHECK(open_folder_path(base / "missing", false) == -1);
  CHECK(errno == ENOENT);
  CHECK_FALSE(fs::exists(base / "missing"));
  UniqueFd root(open_folder_path("/", false));
  CHECK(root);
}
