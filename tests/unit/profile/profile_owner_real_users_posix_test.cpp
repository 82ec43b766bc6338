// Issue 38, item 7, with the real port and real users: a second user plants a tfwsl.yaml above
// another user's project (a folder everyone may write, as folders made under C:\ are on Windows).
// Only a file the user, or root, owns is used, judged by the entry itself (lstat) and, for a link,
// by the file it names too: the second user's link to root's own tfwsl.yaml is theirs, not root's.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "common/profile/profile_locate.hpp"
#include "tests/support/test_environment.hpp"
#include "tests/unit/agent/scratch_user.hpp"

using namespace tfwsl;
namespace fs = std::filesystem;

namespace {

// choose_profile from `start` as `user` (effective ids only: the test, root, takes them back).
ProfileChoice choose_as(const test::ScratchUser& user, const fs::path& start) {
  ProfileSearch search;
  search.start = start;
  search.getenv = [](const std::string&) -> std::optional<std::string> { return std::nullopt; };
  REQUIRE(::setegid(user.user().gid) == 0);
  REQUIRE(::seteuid(user.user().uid) == 0);
  ProfileChoice choice = choose_profile(search);
  REQUIRE(::seteuid(0) == 0);
  REQUIRE(::setegid(0) == 0);
  return choice;
}

bool mentions(const std::vector<std::string>& lines, const std::string& text) {
  for (const auto& line : lines)
    if (line.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("a tfwsl.yaml a second real user planted above the project is skipped and named", "[profile][locate]") {
  test::ScratchUser me;
  test::ScratchUser other;
  const fs::path shared = me.root_folder("shared", 01777);
  const fs::path project = shared / "proj";
  fs::create_directory(project);
  me.give(project);
  const fs::path planted = shared / "tfwsl.yaml";
  test::write_file(planted, "name: planted\npackages: { pip: [evilpkg] }\n");
  other.give(planted);
  auto choice = choose_as(me, project);
  CHECK(choice.name_or_path != planted.string());
  CHECK(mentions(choice.ignored, planted.string() + ": owned by uid " + std::to_string(other.user().uid)));
  me.give(planted);  // the user's own is used
  CHECK(choose_as(me, project).name_or_path == planted.string());
}

TEST_CASE("a second real user's link to root's tfwsl.yaml above the project is theirs: skipped", "[profile][locate]") {
  test::ScratchUser me;
  test::ScratchUser other;
  const fs::path shared = me.root_folder("shared", 01777);
  const fs::path project = shared / "proj";
  fs::create_directory(project);
  me.give(project);
  const fs::path roots = me.root_folder("roots", 0755) / "tfwsl.yaml";
  test::write_file(roots, "name: root-owned\n");
  const fs::path link = shared / "tfwsl.yaml";
  fs::create_symlink(roots, link);
  other.give(link);
  auto choice = choose_as(me, project);
  CHECK(choice.name_or_path != link.string());
  CHECK(mentions(choice.ignored, link.string() + ": owned by uid " + std::to_string(other.user().uid)));
  // The user's own link to another user's file is skipped too: the file is theirs.
  fs::remove(link);
  const fs::path theirs = me.root_folder("theirs", 0755) / "tfwsl.yaml";
  test::write_file(theirs, "name: theirs\n");
  other.give(theirs);
  fs::create_symlink(theirs, link);
  me.give(link);
  CHECK(choose_as(me, project).name_or_path != link.string());
}
