// A Windows drive path as the distro sees it, through the automount root (wsl.conf [automount]
// root), and the root read back from wslpath's answer.
#include "common/wsl/drive_path.hpp"

#include <catch2/catch.hpp>

using namespace tfwsl::wsl;

TEST_CASE("drive paths map through the automount root, default or custom") {
  CHECK(drive_path_in_distro("C:\\Users\\me\\tfwsl\\tfwsl-agent", "/mnt/") == "/mnt/c/Users/me/tfwsl/tfwsl-agent");
  CHECK(drive_path_in_distro("D:/data/x", "/windir/") == "/windir/d/data/x");
  CHECK(drive_path_in_distro("E:\\", "/") == "/e/");
  CHECK(drive_path_in_distro("z:\\tmp", "/win") == "/win/z/tmp");  // a root without its final '/'
  CHECK(drive_path_in_distro("\\\\?\\C:\\long\\path", "/mnt/") == "/mnt/c/long/path");
  CHECK(drive_path_in_distro("C:\\Program Files\\tfwsl", "/mnt/") == "/mnt/c/Program Files/tfwsl");
}

TEST_CASE("paths without a drive letter, and roots that are not absolute, do not map") {
  CHECK_FALSE(drive_path_in_distro("\\\\server\\share\\x", "/mnt/"));
  CHECK_FALSE(drive_path_in_distro("C:relative", "/mnt/"));
  CHECK_FALSE(drive_path_in_distro("tfwsl-agent", "/mnt/"));
  CHECK_FALSE(drive_path_in_distro("", "/mnt/"));
  CHECK_FALSE(drive_path_in_distro("C:\\x", "mnt/"));
  CHECK_FALSE(drive_path_in_distro("C:\\x", ""));
  CHECK(drive_letter_of("Q:\\x") == 'q');
  CHECK_FALSE(drive_letter_of("\\\\server\\share"));
}

TEST_CASE("the automount root comes back from wslpath -u on a drive root") {
  CHECK(automount_root_from_wslpath("/mnt/c/\n", 'c') == "/mnt/");
  CHECK(automount_root_from_wslpath("/mnt/c\n", 'C') == "/mnt/");
  CHECK(automount_root_from_wslpath("/windir/z/\r\n", 'z') == "/windir/");
  CHECK(automount_root_from_wslpath("/c/", 'c') == "/");
  CHECK_FALSE(automount_root_from_wslpath("", 'c'));
  CHECK_FALSE(automount_root_from_wslpath("/mnt/d/\n", 'c'));
  CHECK_FALSE(automount_root_from_wslpath("wslpath: Z:\\: No such file or directory\n", 'z'));
  CHECK_FALSE(automount_root_from_wslpath("mnt/c/", 'c'));
  CHECK_FALSE(automount_root_from_wslpath("/mnt/c/\n/mnt/c/\n", 'c'));
}

TEST_CASE("a drive mount under the automount root is named as Windows names it", "[wsl][drive_path]") {
  using tfwsl::wsl::windows_path_of_drive_mount;
  CHECK(windows_path_of_drive_mount("/mnt/c/data/x", "/mnt/") == "C:\\data\\x");
  CHECK(windows_path_of_drive_mount("/mnt/d", "/mnt/") == "D:\\");
  CHECK(windows_path_of_drive_mount("/mnt/d/", "/mnt") == "D:\\");
  CHECK(windows_path_of_drive_mount("/windir/e/sets", "/windir/") == "E:\\sets");  // wsl.conf root = /windir/
  CHECK(windows_path_of_drive_mount("/d/x", "/") == "D:\\x");
  CHECK_FALSE(windows_path_of_drive_mount("/mnt/c/data", "/windir/"));  // not this distro's drives
  CHECK_FALSE(windows_path_of_drive_mount("/mnt/cd/data", "/mnt/"));
  CHECK_FALSE(windows_path_of_drive_mount("/mnt/", "/mnt/"));
  CHECK_FALSE(windows_path_of_drive_mount("/home/me/data", "/mnt/"));
  CHECK_FALSE(windows_path_of_drive_mount("/mnt/c", "relative/"));
}
