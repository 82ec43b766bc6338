// How migrate says to run the project (MIGRATION.md and its closing lines) with a project folder
// named `R&D $(touch PWNED)` (issue 22, item 6): the bash line is run by a real bash in a stand-in
// home (a venv python that prints its folder and argv) and must run the project, not touch; the
// PowerShell and cmd.exe lines carry the folder as one quoted word.
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/test_environment.hpp"
#include "tests/unit/migrate/fake_project_files.hpp"
#include "win/migrate/apply_plan.hpp"

using namespace tfwsl;
using namespace tfwsl::migrate;

namespace {

const std::string k_hostile = "R&D $(touch PWNED)";

MigratePlan hostile_plan() {
  static const auto profiles = shipped_wsl_profiles();
  migrate::test::FakeProjectFiles fs;
  fs.files["requirements.txt"] = "tensorflow-gpu==2.10.0\n";
  fs.files["train.py"] = "import tensorflow as tf\n";
  fs.drives = std::set<char>{'c'};
  auto plan = build_plan({fs, k_hostile, "~/projects", "~/datasets", true, builtin_migrate_facts(), profiles});
  REQUIRE(plan);
  return *plan;
}

}  // namespace

TEST_CASE("the run lines quote a hostile project folder for PowerShell and cmd.exe", "[migrate][quoting]") {
  const auto run = how_to_run(with_home(hostile_plan(), "/home/tf"));
  CHECK(run.wsl ==
        "wsl -d Ubuntu-22.04 --cd '/home/tf/projects/R&D $(touch PWNED)' --exec bash -lc '~/.venvs/tf-2.15/bin/python "
        "-m train'");
  CHECK(run.wsl_cmd ==
        "wsl -d Ubuntu-22.04 --cd ^\"/home/tf/projects/R^&D $^(touch PWNED^)^\" --exec bash -lc "
        "^\"~/.venvs/tf-2.15/bin/python -m train^\"");
  CHECK(run.vscode == "code --remote wsl+Ubuntu-22.04 '/home/tf/projects/R&D $(touch PWNED)'");
  CHECK(run.in_wsl == "cd '/home/tf/projects/R&D $(touch PWNED)' && ~/.venvs/tf-2.15/bin/python -m train");
  const std::string report = migration_report(with_home(hostile_plan(), "/home/tf"), {});
  CHECK(report.find("    " + run.wsl + "\n") != std::string::npos);
  CHECK(report.find("    " + run.wsl_cmd + "\n") != std::string::npos);
  CHECK(report.find("    " + run.in_wsl + "\n") != std::string::npos);
  CHECK(report.find("--cd /home/tf/projects/R&D $(touch PWNED) ") == std::string::npos);
}

#ifndef _WIN32
TEST_CASE("the bash line, pasted into bash, runs the project's python in its folder and nothing else",
          "[migrate][quoting]") {
  tfwsl::test::TempDir home;
  const auto project = home.path() / "projects" / k_hostile;
  std::filesystem::create_directories(project);
  const auto bin = home.path() / ".venvs" / "tf-2.15" / "bin";
  std::filesystem::create_directories(bin);
  {
    std::ofstream python(bin / "python");
    python << "#!/bin/sh\nprintf '%s\\n' \"$PWD\" \"$@\" > \"$HOME/ran\"\n";
  }
  std::filesystem::permissions(bin / "python", std::filesystem::perms::owner_all);
  const auto run = how_to_run(with_home(hostile_plan(), home.path().string()));
  const std::string script = (home.path() / "line.sh").string();
  {
    std::ofstream line(script);
    line << run.in_wsl << "\n";
  }
  const std::string command = "cd / && HOME='" + home.path().string() + "' bash " + script;
  REQUIRE(std::system(command.c_str()) == 0);
  CHECK(tfwsl::test::read_file(home.path() / "ran") == project.string() + "\n-m\ntrain\n");
  CHECK_FALSE(std::filesystem::exists(project / "PWNED"));
  CHECK_FALSE(std::filesystem::exists(home.path() / "projects" / "PWNED"));
  CHECK_FALSE(std::filesystem::exists("/PWNED"));
}
#endif
