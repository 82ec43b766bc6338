// resolve_windows_path under a custom /etc/wsl.conf [automount] root: the drive mapping is
// common/wsl's drive_path_in_distro, so the agent and the Windows side agree on where C: is.
#include "linux/agent/path_resolver.hpp"

#include <catch2/catch.hpp>

using namespace tfwsl;
using namespace tfwsl::agent;

TEST_CASE("paths: a custom automount root = /windir/ maps drives and names the mount to make", "[paths]") {
  PathContext c{"/windir/", "", {{"/", "ext4"}, {"/windir/e", "9p"}}};
  auto data = resolve_windows_path("E:\\data\\set", c);
  REQUIRE(data);
  CHECK(data->linux_path == "/windir/e/data/set");
  CHECK(data->slow_mount);
  CHECK(resolve_windows_path("e:\\", c)->linux_path == "/windir/e");
  auto unmounted = resolve_windows_path("Z:\\x", c);
  REQUIRE_FALSE(unmounted);
  CHECK(unmounted.error().message.find("Z: is not mounted at /windir/z") != std::string::npos);
}

TEST_CASE("paths: an automount root written without its trailing slash (root = /windir) is the same root", "[paths]") {
  PathContext c{"/windir", "", {{"/windir/e", "9p"}}};
  auto data = resolve_windows_path("E:\\data", c);
  REQUIRE(data);
  CHECK(data->linux_path == "/windir/e/data");
}

TEST_CASE("paths: automount root = / puts the drives at the top (/c)", "[paths]") {
  PathContext c{"/", "", {{"/c", "9p"}}};
  CHECK(resolve_windows_path("C:\\Users\\me", c)->linux_path == "/c/Users/me");
  CHECK(resolve_windows_path("\\\\?\\C:\\x", c)->linux_path == "/c/x");
}

TEST_CASE("paths: a drive letter outside ASCII is no drive", "[paths]") {
  PathContext c{"/mnt/", "", {}};
  auto r = resolve_windows_path("\xC3\xA9:\\x", c);
  REQUIRE_FALSE(r);
  CHECK(r.error().code == ErrorCode::invalid_input);
}
