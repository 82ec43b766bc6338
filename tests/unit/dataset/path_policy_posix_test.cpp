#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

#include "linux/dataset/path_policy.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl::dataset;
namespace fs = std::filesystem;

TEST_CASE("import paths: refused before any I/O when they cannot work", "[path_policy]") {
  tfwsl::test::TempDir tmp;
  fs::path src = tmp.path() / "src";
  fs::create_directories(src / "inner");
  fs::create_symlink(src, tmp.path() / "src-link");

  auto ok = resolve_import_paths(tmp.path() / "src-link", tmp.path() / "new" / "target");
  REQUIRE(ok);
  CHECK(ok->source == fs::canonical(src));
  CHECK(ok->target == fs::canonical(tmp.path()) / "new" / "target");

  auto missing = resolve_import_paths(tmp.path() / "nope", tmp.path() / "t");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().code == tfwsl::ErrorCode::not_found);

  auto inside = resolve_import_paths(src, tmp.path() / "src-link" / "inner" / "t");
  REQUIRE_FALSE(inside);
  CHECK(inside.error().message.find("inside") != std::string::npos);

  auto same = resolve_import_paths(src, tmp.path() / "src-link");
  REQUIRE_FALSE(same);
  CHECK(same.error().message.find("same folder") != std::string::npos);

  tfwsl::test::write_file(tmp.path() / "file", "x");
  CHECK_FALSE(resolve_import_paths(tmp.path() / "file", tmp.path() / "t"));
  CHECK_FALSE(resolve_import_paths(src, tmp.path() / "file"));
  CHECK_FALSE(resolve_import_paths("", tmp.path() / "t"));
}

TEST_CASE("import paths must lie under the agent's roots", "[path_policy]") {
  tfwsl::test::TempDir tmp;
  fs::create_directories(tmp.path() / "data" / "set");
  fs::create_directories(tmp.path() / "database");
  fs::path root = fs::canonical(tmp.path()) / "data";
  CHECK(check_under_roots(root / "set", {tmp.path() / "data"}, "source"));
  CHECK(check_under_roots(root, {tmp.path() / "data"}, "source"));
  auto sibling = check_under_roots(fs::canonical(tmp.path()) / "database", {tmp.path() / "data"}, "target");
  REQUIRE_FALSE(sibling);  // a shared prefix of characters is not containment
  CHECK(sibling.error().message.find(root.string()) != std::string::npos);
  auto none = check_under_roots(root, {}, "source");
  REQUIRE_FALSE(none);
  CHECK(none.error().message.find("--root") != std::string::npos);
  CHECK(is_same_or_inside("/a/b/c", "/a/b"));
  CHECK_FALSE(is_same_or_inside("/a/bc", "/a/b"));
}

namespace {

// R/srcD holding a file and a folder of the same name as itself: imported into R, srcD/zz.txt
// would land on srcD's own zz.txt (the --move data loss of the overlap rule's gap).
struct OverlapTree {
  tfwsl::test::TempDir tmp;
  fs::path root = fs::canonical(tmp.path()) / "data";
  fs::path src = root / "srcD";
  OverlapTree() {
    fs::create_directories(src / "srcD");
    tfwsl::test::write_file(src / "zz.txt", "ORIGINAL precious");
    tfwsl::test::write_file(src / "srcD" / "zz.txt", "other");
  }
};

void check_overlap_refused(const fs::path& source, const fs::path& target) {
  INFO("source " << source << ", target " << target);
  auto r = resolve_import_paths(source, target);
  REQUIRE_FALSE(r);
  CHECK(r.error().code == tfwsl::ErrorCode::invalid_input);
  const auto& m = r.error().message;
  CHECK((m.find("inside") != std::string::npos || m.find("same folder") != std::string::npos));
}

}  // namespace

TEST_CASE("import paths: a source inside the target is refused", "[path_policy][overlap]") {
  OverlapTree t;
  check_overlap_refused(t.src, t.root);
  check_overlap_refused(t.src / "srcD", t.root);  // deeper
  auto r = resolve_import_paths(t.src, t.root);
  REQUIRE_FALSE(r);
  CHECK(r.error().message.find("source") != std::string::npos);
  CHECK(r.error().message.find("inside") != std::string::npos);
  // Siblings that share a prefix of characters do not overlap.
  fs::create_directories(t.root / "srcDx");
  CHECK(resolve_import_paths(t.src, t.root / "srcDx"));
  CHECK(resolve_import_paths(t.root / "srcDx", t.src / "new"));  // target inside an unrelated folder
}

TEST_CASE("import paths: overlap is refused through symlinks, .. and /proc aliases", "[path_policy][overlap]") {
  OverlapTree t;
  fs::create_symlink(t.root, t.root / "link-to-root");
  fs::create_symlink(t.src, t.root / "link-to-src");
  check_overlap_refused(t.root / "link-to-root" / "srcD", t.root);  // source inside target, via a symlink
  check_overlap_refused(t.src, t.root / "link-to-root");
  check_overlap_refused(t.src, t.root / "link-to-src");           // same folder
  check_overlap_refused(t.root / "link-to-src", t.src / "srcD");  // target inside source
  check_overlap_refused(t.src, t.src / "srcD" / ".." / "..");     // ".." climbing to the parent
  check_overlap_refused(t.src, t.src / "nothing-yet" / ".." / "..");
  // A /proc magic link: another name of the same folder that no string comparison would see.
  int fd = ::open(t.root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  fs::path alias = "/proc/self/fd/" + std::to_string(fd);
  check_overlap_refused(alias / "srcD", t.root);
  check_overlap_refused(t.src, alias);
  check_overlap_refused(alias, t.src / "srcD" / "t");
  ::close(fd);
  if (::access("/proc/self/cwd", F_OK) == 0) {
    auto cwd = fs::current_path();
    fs::current_path(t.root);
    check_overlap_refused("/proc/self/cwd/srcD", t.root);
    check_overlap_refused(t.src, "/proc/self/cwd");
    fs::current_path(cwd);
  }
}

TEST_CASE("import paths: overlap is refused through a bind mount (same inode, two paths)", "[path_policy][overlap]") {
  OverlapTree t;
  fs::path bound = t.root.parent_path() / "bound";  // beside the tree: no string says it is the same
  fs::create_directories(bound);
  // A private mount namespace of this test process: nothing leaks to the machine's mount table.
  if (::geteuid() != 0 || ::unshare(CLONE_NEWNS) != 0 ||
      ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
      ::mount(t.root.c_str(), bound.c_str(), nullptr, MS_BIND, nullptr) != 0) {
    tfwsl::test::skip(std::string("bind mounts need root and mount(2) here (") + std::strerror(errno) + ")");
  }
  struct Unmount {
    fs::path where;
    ~Unmount() { ::umount2(where.c_str(), MNT_DETACH); }
  } unmount{bound};
  check_overlap_refused(bound / "srcD", t.root);  // source inside the target
  check_overlap_refused(t.src, bound);
  check_overlap_refused(bound / "srcD", t.src / "x");  // target inside the source
  check_overlap_refused(t.src, bound / "srcD" / "srcD");
  check_overlap_refused(bound / "srcD", t.src);  // the same folder
}
