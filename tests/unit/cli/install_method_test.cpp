// How this copy was installed, from where tfwsl.exe lies (win/host/install_method.hpp): winget's
// package folders and links, Scoop's apps folder (per user and --global, default roots and the ones
// SCOOP and SCOOP_GLOBAL name), a zip unpacked anywhere else, and a build from source.
#include "win/host/install_method.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace tfwsl::cli;

namespace {

// A user's Windows environment as winget and Scoop see it.
InstallPlaces windows_at(const std::string& executable) {
  InstallPlaces p;
  p.executable = executable;
  p.local_app_data = R"(C:\Users\José\AppData\Local)";
  p.program_files = R"(C:\Program Files)";
  p.user_profile = R"(C:\Users\José)";
  p.program_data = R"(C:\ProgramData)";
  return p;
}

}  // namespace

TEST_CASE("winget: the package folder under either scope's root, a custom root, and the links") {
  const char* k_user =
      R"(C:\Users\José\AppData\Local\Microsoft\WinGet\Packages\tfwsl.tfwsl_Microsoft.Winget.Source_8wekyb3d8bbwe\tfwsl.exe)";
  CHECK(classify_install(windows_at(k_user)) == InstallMethod::winget);
  CHECK(classify_install(windows_at(
            R"(C:\Program Files\WinGet\Packages\tfwsl.tfwsl_Microsoft.Winget.Source_8wekyb3d8bbwe\tfwsl.exe)")) ==
        InstallMethod::winget);
  // portablePackageUserRoot moved the root; the package folder is still named after the identifier.
  CHECK(classify_install(windows_at(R"(D:\Portable\TFWSL.TFWSL_Microsoft.Winget.Source_8wekyb3d8bbwe\tfwsl.exe)")) ==
        InstallMethod::winget);
  CHECK(classify_install(windows_at(R"(c:/users/josé/appdata/local/microsoft/winget/links/tfwsl.exe)")) ==
        InstallMethod::winget);
  CHECK(classify_install(windows_at(R"(C:\Program Files\WinGet\Links\tfwsl.exe)")) == InstallMethod::winget);
  CHECK(classify_install(windows_at(std::string(R"(\\?\)") + k_user)) == InstallMethod::winget);
  // Another package's folder, or one merely named like the identifier, is not tfwsl's.
  CHECK(classify_install(
            windows_at(R"(C:\Users\José\AppData\Local\Microsoft\WinGet\Packages\Other.Tool_src\tfwsl.exe)")) ==
        InstallMethod::zip);
  CHECK(classify_install(windows_at(R"(C:\Tools\tfwsl.tfwsl\tfwsl.exe)")) == InstallMethod::zip);
}

TEST_CASE("Scoop: <root>/apps/tfwsl/<version or current>, per user or global, default or set roots") {
  CHECK(classify_install(windows_at(R"(C:\Users\José\scoop\apps\tfwsl\current\tfwsl.exe)")) == InstallMethod::scoop);
  CHECK(classify_install(windows_at(R"(C:\Users\José\scoop\apps\tfwsl\0.2.0\tfwsl.exe)")) == InstallMethod::scoop);
  CHECK(classify_install(windows_at(R"(C:\ProgramData\scoop\apps\tfwsl\current\tfwsl.exe)")) ==
        InstallMethod::scoop_global);
  auto moved = windows_at(R"(D:\Apps\Scoop\apps\tfwsl\current\tfwsl.exe)");
  CHECK(classify_install(moved) == InstallMethod::zip);
  moved.scoop = R"(D:\Apps\Scoop\)";
  CHECK(classify_install(moved) == InstallMethod::scoop);
  auto global = windows_at(R"(E:\GlobalApps\apps\tfwsl\current\tfwsl.exe)");
  global.scoop_global = R"(E:\GlobalApps)";
  CHECK(classify_install(global) == InstallMethod::scoop_global);
  // Deeper than the version folder, or another app's folder: not Scoop's tfwsl.
  CHECK(classify_install(windows_at(R"(C:\Users\José\scoop\apps\tfwsl\current\bin\tfwsl.exe)")) == InstallMethod::zip);
  CHECK(classify_install(windows_at(R"(C:\Users\José\scoop\apps\tools\current\tfwsl.exe)")) == InstallMethod::zip);
}

TEST_CASE("a zip unpacked anywhere else, a build tree or the native Linux build is from source") {
  CHECK(classify_install(windows_at(R"(C:\Users\José\AppData\Local\Programs\tfwsl\tfwsl.exe)")) == InstallMethod::zip);
  auto unset = windows_at(R"(C:\Tools\tfwsl\tfwsl.exe)");
  unset.local_app_data = unset.program_files = unset.user_profile = unset.program_data = "";
  CHECK(classify_install(unset) == InstallMethod::zip);
  auto built = windows_at(R"(Z:\work\tfwsl\build\windows\win\tfwsl.exe)");
  built.in_build_tree = true;
  CHECK(classify_install(built) == InstallMethod::source);
  InstallPlaces linux_build;
  linux_build.executable = "/usr/local/bin/tfwsl";
  linux_build.windows = false;
  CHECK(classify_install(linux_build) == InstallMethod::source);
}

TEST_CASE("the words: how it was installed, then the command or page that upgrades it, last") {
  const std::string winget = install_and_upgrade_words(windows_at(
      R"(C:\Users\José\AppData\Local\Microsoft\WinGet\Packages\tfwsl.tfwsl_Microsoft.Winget.Source_8wekyb3d8bbwe\tfwsl.exe)"));
  CHECK(winget.starts_with("Installed with winget (C:\\Users\\José\\AppData"));
  CHECK(winget.ends_with("\nTo upgrade: winget upgrade --id tfwsl.tfwsl"));
  CHECK(install_and_upgrade_words(windows_at(R"(C:\Users\José\scoop\apps\tfwsl\current\tfwsl.exe)"))
            .ends_with("\nTo upgrade: scoop update tfwsl"));
  CHECK(install_and_upgrade_words(windows_at(R"(C:\ProgramData\scoop\apps\tfwsl\current\tfwsl.exe)"))
            .ends_with("\nTo upgrade: scoop update tfwsl --global"));
  const std::string zip = install_and_upgrade_words(windows_at(R"(C:\Tools\tfwsl\tfwsl.exe)"));
  CHECK(zip ==
        "Installed by hand from the release zip (C:\\Tools\\tfwsl\\tfwsl.exe).\n"
        "To upgrade, unzip the newest release's zip over that folder: https://github.com/tfwsl/tfwsl/releases/latest");
  // A path is the OS's text: a control character in it is shown, not obeyed.
  CHECK(install_and_upgrade_words(windows_at("C:\\Tools\\t\x1b[2Jx\\tfwsl.exe")).find('\x1b') == std::string::npos);
}
