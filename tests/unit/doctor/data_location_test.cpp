// tfwsl doctor --data PATH: data.location from the path's form (a Windows drive is drvfs/9p from WSL).
#include "win/doctor/data_location.hpp"

#include <catch2/catch.hpp>

using namespace tfwsl;
using namespace tfwsl::doctor;

TEST_CASE("data_place: Windows drives, the distro's own filesystem, and what cannot be told") {
  CHECK(data_place("C:\\Users\\me\\datasets\\flowers") == DataPlace::windows_drive);
  CHECK(data_place("d:/data") == DataPlace::windows_drive);
  CHECK(data_place("/mnt/c/Users/me/data") == DataPlace::windows_drive);
  CHECK(data_place("/mnt/d") == DataPlace::windows_drive);
  CHECK(data_place("/windir/c/data", "/windir/") == DataPlace::windows_drive);
  CHECK(data_place("\\\\wsl.localhost\\Ubuntu-22.04\\home\\me\\data") == DataPlace::distro);
  CHECK(data_place("\\\\wsl$\\Ubuntu\\home\\me") == DataPlace::distro);
  CHECK(data_place("/home/me/datasets/flowers") == DataPlace::distro);
  CHECK(data_place("/mnt/wsl/shared") == DataPlace::distro);  // not a drive letter
  CHECK(data_place("datasets") == DataPlace::unknown);
}

TEST_CASE("data.location: a Windows drive warns with tfwsl data push as the fix") {
  const auto r = check_data_paths({"/home/me/code", "C:\\data\\flowers"});
  CHECK(r.status == CheckStatus::warn);
  CHECK(r.summary.find("C:\\data\\flowers") != std::string::npos);
  CHECK(r.fix.find("tfwsl data push C:\\data\\flowers") != std::string::npos);
  CHECK(r.fix_command == std::vector<std::string>{"data", "push", "C:\\data\\flowers"});
  CHECK(check_data_paths({"/home/me/data"}).status == CheckStatus::ok);
  CHECK(check_data_paths({}).status == CheckStatus::skip);
  CHECK(check_data_paths({"relative/dir"}).status == CheckStatus::warn);
}
