// Issue 38, item 9: profile discovery judged a tfwsl.yaml by the file a link ends at, so another
// user's link to a root-owned file passed as root's. With two real unprivileged users (skipped
// without root): B plants the link in a folder everyone may write, above A's project; neither A
// nor root takes it, and both are told why.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <string>

#include "common/profile/profile_locate.hpp"
#include "linux/provision/as_user.hpp"
#include "tests/support/test_environment.hpp"
#include "tests/unit/agent/scratch_user.hpp"

using namespace tfwsl;
namespace fs = std::filesystem;

namespace {

// The profile discovery would pick from `start`, with no HOME (the climb goes up to /).
ProfileChoice discover_profile_from(const fs::path& start) {
  ProfileSearch search;
  search.start = start;
  search.getenv = [](const std::string&) -> std::optional<std::string> { return std::nullopt; };
  return choose_profile(search);
}

Status link_refused_from(const fs::path& start, const fs::path& link, const std::string& owner_uid) {
  const auto choice = discover_profile_from(start);
  if (choice.name_or_path == link.string()) return make_error(ErrorCode::internal, "took " + link.string());
  for (const auto& why : choice.ignored)
    if (why.find(link.string() + ": owned by uid " + owner_uid) == 0) return {};
  return make_error(ErrorCode::internal, "did not say why " + link.string() + " was ignored");
}

}  // namespace

TEST_CASE("another user's link to a root-owned tfwsl.yaml is that user's: neither the user nor root takes it",
          "[profile][locate]") {
  test::ScratchUser victim;
  test::ScratchUser planter;
  const fs::path shared = victim.root_folder("shared", 01777);  // as /tmp
  const fs::path root_file = victim.root_folder("root-only", 0755) / "tfwsl.yaml";
  test::write_file(root_file, "name: roots\n");
  const fs::path work = shared / "work";
  fs::create_directory(work);
  victim.give(work);
  const fs::path link = shared / "tfwsl.yaml";
  fs::create_symlink(root_file, link);
  CHECK(discover_profile_from(work).name_or_path == link.string());  // root's own link to root's file: taken
  planter.give(link);
  const std::string planter_uid = std::to_string(planter.user().uid);
  const auto as_root = link_refused_from(work, link, planter_uid);
  CHECK(as_root);
  if (!as_root) FAIL_CHECK(as_root.error().message);
  const auto as_victim =
      provision::run_as_user(victim.user(), [&] { return link_refused_from(work, link, planter_uid); });
  CHECK(as_victim);
  if (!as_victim) FAIL_CHECK(as_victim.error().message);
}
