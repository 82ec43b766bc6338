// Root changing a user's .wslconfig (docs/safety-sweep.md E11; common/util/privileged_target.hpp):
// with a real unprivileged user, the user's link into a root-only folder is refused by name for
// `set` and `restore` (the root-only file keeps its bytes, no backup or lock lands beside it, a
// link named like a backup is never listed or copied), what root writes stays the user's (owner
// and mode), and the user's own run through their own link is unchanged.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/captured_run.hpp"
#include "tests/support/cli_machine_run.hpp"
#include "tests/support/test_environment.hpp"
#include "tests/unit/agent/scratch_user.hpp"
#include "win/app/cli_app.hpp"

using namespace tfwsl;
namespace fs = std::filesystem;

namespace {

constexpr const char* k_precious = "precious: root's only\n";

struct Planted {
  test::ScratchUser scratch;
  fs::path home = scratch.user().home;
  fs::path root_only = scratch.root_folder("root-only", 0700);
  fs::path secret = root_only / "secret";

  Planted() {
    test::write_file(secret, k_precious);
    ::chmod(secret.c_str(), 0600);
  }
  // A link in the user's home, made by the user (its owner is theirs).
  void user_link(const fs::path& link, const fs::path& to) const {
    fs::create_symlink(to, link);
    scratch.give(link);
  }
  void user_file(const fs::path& file, const std::string& bytes, unsigned mode) const {
    test::write_file(file, bytes);
    ::chmod(file.c_str(), mode);
    scratch.give(file);
  }
  std::vector<std::string> root_only_names() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(root_only)) names.push_back(entry.path().filename().string());
    return names;
  }
};

struct stat stat_of(const fs::path& path) {
  struct stat st {};
  REQUIRE(::lstat(path.c_str(), &st) == 0);
  return st;
}

// Runs tfwsl as the scratch user: effective ids only, so the test (root) takes them back after.
int run_as_user(const test::ScratchUser& scratch, const std::vector<std::string>& args) {
  REQUIRE(::setegid(scratch.user().gid) == 0);
  REQUIRE(::seteuid(scratch.user().uid) == 0);
  const auto run = test::run_captured(test::tfwsl_cli, args);
  REQUIRE(::seteuid(0) == 0);
  REQUIRE(::setegid(0) == 0);
  return run.code;
}

}  // namespace

TEST_CASE("root's wslconfig set refuses the user's .wslconfig that links into a root-only folder") {
  Planted p;
  const fs::path wslconfig = p.home / ".wslconfig";
  p.user_link(wslconfig, p.secret);
  const auto r =
      test::run_captured(test::tfwsl_cli, {"wslconfig", "set", "memory=4GB", "--file", wslconfig.string(), "--yes"});
  CHECK(r.code != 0);
  CHECK(test::unwrapped(r.err).find(wslconfig.string() + " is a link") != std::string::npos);
  CHECK(test::read_file(p.secret) == k_precious);
  CHECK(p.root_only_names() == std::vector<std::string>{"secret"});  // no backup, no lock beside it
  CHECK(fs::is_symlink(wslconfig));
}

TEST_CASE("root's wslconfig set refuses another user's link on the way to the file") {
  Planted p;
  const fs::path way = p.home / "way";
  p.user_link(way, p.root_only);  // a folder link: the file's folder is root's, the link the user's
  const auto r = test::run_captured(test::tfwsl_cli,
                                    {"wslconfig", "set", "memory=4GB", "--file", (way / "secret").string(), "--yes"});
  CHECK(r.code != 0);
  CHECK(test::unwrapped(r.err).find(way.string() + " on the way is a link owned by uid " +
                                    std::to_string(p.scratch.user().uid)) != std::string::npos);
  CHECK(test::read_file(p.secret) == k_precious);
  CHECK(p.root_only_names() == std::vector<std::string>{"secret"});
}

TEST_CASE("root's wslconfig restore never lists or copies a link named like a backup") {
  Planted p;
  const fs::path wslconfig = p.home / ".wslconfig";
  p.user_file(wslconfig, "[wsl2]\nmemory=8GB\n", 0644);
  p.user_link(p.home / ".wslconfig.tfwsl-backup-20991231-235959", p.secret);
  auto r = test::run_captured(test::tfwsl_cli, {"wslconfig", "restore", "--file", wslconfig.string()});
  CHECK(r.code == 0);
  CHECK(r.out.find("20991231") == std::string::npos);
  r = test::run_captured(test::tfwsl_cli, {"wslconfig", "restore", "1", "--file", wslconfig.string(), "--yes"});
  CHECK(r.code != 0);
  CHECK(test::read_file(wslconfig) == "[wsl2]\nmemory=8GB\n");
  r = test::run_captured(
      test::tfwsl_cli, {"wslconfig", "restore", (p.home / ".wslconfig.tfwsl-backup-20991231-235959").string(), "--file",
                        wslconfig.string(), "--yes"});
  CHECK(r.code != 0);
  CHECK(test::read_file(wslconfig).find("precious") == std::string::npos);
}

TEST_CASE("root's wslconfig set keeps the user's .wslconfig and its backup the user's, mode kept, no lock left") {
  Planted p;
  const fs::path wslconfig = p.home / ".wslconfig";
  p.user_file(wslconfig, "[wsl2]\nmemory=8GB\n", 0640);
  auto r =
      test::run_captured(test::tfwsl_cli, {"wslconfig", "set", "memory=4GB", "--file", wslconfig.string(), "--yes"});
  REQUIRE(r.code == 0);
  CHECK(test::read_file(wslconfig).find("memory=4GB") != std::string::npos);
  const auto uid = p.scratch.user().uid;
  CHECK(stat_of(wslconfig).st_uid == uid);
  CHECK(stat_of(wslconfig).st_gid == p.scratch.user().gid);
  CHECK((stat_of(wslconfig).st_mode & 07777) == 0640);
  CHECK_FALSE(fs::exists(fs::symlink_status(p.home / ".wslconfig.tfwsl-lock")));
  int backups = 0;
  for (const auto& entry : fs::directory_iterator(p.home))
    if (entry.path().filename().string().rfind(".wslconfig.tfwsl-backup-", 0) == 0) {
      ++backups;
      CHECK(stat_of(entry.path()).st_uid == uid);
    }
  CHECK(backups == 1);
  // A new file in a folder of the user's is the folder owner's.
  const fs::path fresh = p.home / "fresh.wslconfig";
  r = test::run_captured(test::tfwsl_cli, {"wslconfig", "set", "memory=4GB", "--file", fresh.string(), "--yes"});
  REQUIRE(r.code == 0);
  CHECK(stat_of(fresh).st_uid == uid);
}

TEST_CASE("the user's own wslconfig set through their own link is unchanged") {
  Planted p;
  const fs::path dotfiles = p.home / "dotfiles";
  fs::create_directory(dotfiles);
  p.scratch.give(dotfiles);
  p.user_file(dotfiles / ".wslconfig", "[wsl2]\nmemory=8GB\n", 0644);
  const fs::path wslconfig = p.home / ".wslconfig";
  p.user_link(wslconfig, dotfiles / ".wslconfig");
  CHECK(run_as_user(p.scratch, {"wslconfig", "set", "memory=4GB", "--file", wslconfig.string(), "--yes"}) == 0);
  CHECK(fs::is_symlink(wslconfig));
  CHECK(test::read_file(dotfiles / ".wslconfig").find("memory=4GB") != std::string::npos);
}
