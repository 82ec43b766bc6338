// linux/provision/passwd_file: the users of a distro under a probe root, from its own etc/passwd.
#include "linux/provision/passwd_file.hpp"

#include <catch2/catch.hpp>
#include <fstream>

#include "linux/provision/distro_path.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl;
using namespace tfwsl::provision;

namespace {

void write_passwd(const std::filesystem::path& root, const std::string& text) {
  std::filesystem::create_directories(root / "etc");
  std::ofstream(root / "etc/passwd", std::ios::binary) << text;
}

}  // namespace

TEST_CASE("a probe root's user comes from its etc/passwd: uid, gid and home, comments and bad lines skipped") {
  test::TempDir root;
  write_passwd(root.path(),
               "root:x:0:0:root:/root:/bin/bash\n# a comment\nbroken:x:12\nbaduid:x:abc:1:b:/home/b:/bin/sh\n"
               "tfuser:x:4242:4243:TF user,,,:/home/tfuser:/bin/bash\r\n");
  auto user = find_distro_user_in(root.path(), "tfuser");
  REQUIRE(user);
  CHECK(user->name == "tfuser");
  CHECK(user->uid == 4242);
  CHECK(user->gid == 4243);
  CHECK(user->home == "/home/tfuser");
  CHECK_FALSE(find_distro_user_in(root.path(), "baduid"));
  CHECK_FALSE(find_distro_user_in(root.path(), "broken"));
  CHECK_FALSE(find_distro_user_in(root.path(), "tf"));  // a prefix is not the name
  auto missing = find_distro_user_in(root.path(), "nobody-here");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().code == ErrorCode::not_found);
}

TEST_CASE("a probe root's first ordinary user is its first with uid 1000..59999, and none without a passwd file") {
  test::TempDir root;
  CHECK_FALSE(first_ordinary_user_in(root.path()));
  write_passwd(root.path(),
               "root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534::/nonexistent:/usr/sbin/nologin\n"
               "daemon:x:1:1::/usr/sbin:/usr/sbin/nologin\nme:x:1001:1001::/home/me:/bin/bash\n");
  CHECK(first_ordinary_user_in(root.path()) == std::optional<std::string>("me"));
}

TEST_CASE("a distro path is read as itself under \"/\" and under the probe root otherwise") {
  CHECK(distro_path_at("/", "/home/me/.venvs/tf") == std::filesystem::path("/home/me/.venvs/tf"));
  CHECK(distro_path_at("/tmp/world", "/home/me/.venvs/tf") == std::filesystem::path("/tmp/world/home/me/.venvs/tf"));
  CHECK_FALSE(observes_other_root("/"));
  CHECK(observes_other_root("/tmp/world"));
}
