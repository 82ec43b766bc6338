#pragma once
// How this copy of tfwsl was installed, read from where its executable lies, and what upgrades it
// (`tfwsl --version`, docs/cli.md). Pure: the paths come in as strings (Windows paths on Windows,
// read by win/platform/install_places.hpp), so the rule is tested on Linux.
//
// The layouts, as the package managers make them:
//   winget: tfwsl's manifest is a zip holding a portable tfwsl.exe (scripts/release/manifests.py).
//     winget extracts it into <root>\<PackageIdentifier>_<SourceIdentifier>\ (such as
//     tfwsl.tfwsl_Microsoft.Winget.Source_8wekyb3d8bbwe), the root being
//     %LOCALAPPDATA%\Microsoft\WinGet\Packages (user scope), %ProgramFiles%\WinGet\Packages (machine
//     scope) or the portablePackageUserRoot / portablePackageMachineRoot setting, and puts command
//     links in %LOCALAPPDATA%\Microsoft\WinGet\Links or %ProgramFiles%\WinGet\Links
//     (microsoft/winget-cli src/AppInstallerCommonCore/Runtime.cpp: PathName::PortablePackageUserRoot,
//     PortablePackageMachineRootX64, PortableLinksUserLocation, PortableLinksMachineLocation; the
//     folder name: doc/specs/#182 "Portable/Standalone applications"). So a folder named after the
//     identifier and an underscore is winget's, whichever root the settings chose.
//   Scoop: <root>\apps\<app>\<version>\, with <root>\apps\<app>\current a junction to the newest;
//     the root is %SCOOP%, else %USERPROFILE%\scoop, and for --global %SCOOP_GLOBAL%, else
//     %ProgramData%\scoop (ScoopInstaller/Scoop wiki, "Scoop Folder Layout").
//   Anything else on Windows is the release zip unpacked by hand; the native Linux build and a build
//   tree are built from source.

#include <string>

namespace tfwsl::cli {

enum class InstallMethod { winget, scoop, scoop_global, zip, source };

struct InstallPlaces {
  std::string executable;      // the running tfwsl (own_executable_path)
  bool windows = true;         // false: the native Linux build
  bool in_build_tree = false;  // it runs where it was built (agent_client::in_build_tree)
  // The environment's values, empty when unset.
  std::string local_app_data;  // %LOCALAPPDATA%
  std::string program_files;   // %ProgramFiles%
  std::string scoop;           // %SCOOP%
  std::string user_profile;    // %USERPROFILE%
  std::string scoop_global;    // %SCOOP_GLOBAL%
  std::string program_data;    // %ProgramData%
};

InstallMethod classify_install(const InstallPlaces& places);

// The lines `tfwsl --version` prints under its version line: how this copy was installed and, last
// and alone, the command (or the page) that upgrades it.
std::string install_and_upgrade_words(const InstallPlaces& places);

}  // namespace tfwsl::cli
