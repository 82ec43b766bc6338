// What migrate may write and where, decided before anything is written (docs/migrate.md, "Which
// files migrate may replace"): the user's own `*.wsl.*` file is never replaced, the options are
// checked first, the generated YAML is YAML whatever the names, and the check can run any file.
#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>

#include "tests/unit/migrate/fake_project_files.hpp"
#include "win/migrate/apply_plan.hpp"
#include "win/migrate/ownership_mark.hpp"
#include "win/tasks/migrate_ports.hpp"

using namespace tfwsl;
using namespace tfwsl::migrate;

namespace {

Result<MigratePlan> safety_plan_of(migrate::test::FakeProjectFiles& fs, const std::string& name = "flowers",
                                   const std::string& to = "~/projects") {
  static const auto profiles = shipped_wsl_profiles();
  return build_plan({fs, name, to, "~/datasets", true, builtin_migrate_facts(), profiles});
}

migrate::test::FakeProjectFiles tf210_project() {
  migrate::test::FakeProjectFiles fs;
  fs.files["requirements.txt"] = "tensorflow-gpu==2.10.0\npandas\n";
  fs.files["train.py"] = "import tensorflow as tf\n";
  return fs;
}

}  // namespace

TEST_CASE("the ownership mark proves a file is migrate's only while it is unchanged", "[migrate][safety]") {
  const std::string ours = with_ownership_mark("requirements.txt", "tensorflow[and-cuda]==2.15.*\n");
  CHECK(written_by_migrate(ours));
  CHECK(without_ownership_mark(ours) == "tensorflow[and-cuda]==2.15.*\n");
  CHECK_FALSE(written_by_migrate(ours + "scipy\n"));  // edited by the user since
  CHECK_FALSE(written_by_migrate("tensorflow[and-cuda]==2.15.*\n"));
  CHECK_FALSE(written_by_migrate("# Written by tfwsl migrate from x tfwsl-hash:00\n"));
}

TEST_CASE("a requirements.wsl.txt the user wrote is left alone: the plan uses requirements.tfwsl.txt",
          "[migrate][safety]") {
  auto fs = tf210_project();
  fs.files["requirements.wsl.txt"] = "# my own Linux pins\ntensorflow==2.15.1\n";
  auto plan = safety_plan_of(fs);
  REQUIRE(plan);
  REQUIRE(plan->translation.files.size() == 1);
  CHECK(plan->translation.files[0].target == "requirements.tfwsl.txt");
  CHECK(plan->writes[0].action == WriteAction::create);
  CHECK(plan->problems.empty());
  const auto notes = nlohmann::json(plan->scan.notes).dump();
  CHECK(notes.find("requirements.wsl.txt exists and was not written by tfwsl") != std::string::npos);
  CHECK(to_json(*plan)["requirements"]["written"][0]["action"] == "create");
  CHECK(render_text(*plan).find("requirements.txt -> requirements.tfwsl.txt [create]") != std::string::npos);
  // The diff shown names the file that is written, not the user's.
  CHECK(plan->translation.diff.find("+++ requirements.tfwsl.txt\n") != std::string::npos);
  CHECK(plan->translation.diff.find("+++ requirements.wsl.txt") == std::string::npos);
}

TEST_CASE("both names taken by the user's files: the plan refuses, naming them", "[migrate][safety]") {
  auto fs = tf210_project();
  fs.files["requirements.wsl.txt"] = "mine\n";
  fs.files["requirements.tfwsl.txt"] = "mine too\n";
  auto plan = safety_plan_of(fs);
  REQUIRE(plan);
  REQUIRE(plan->problems.size() == 1);
  CHECK(plan->problems[0].find("requirements.wsl.txt exists and was not written by tfwsl migrate") !=
        std::string::npos);
  CHECK(plan->problems[0].find("requirements.tfwsl.txt") != std::string::npos);
  CHECK(exit_code_for(*plan) == 2);
  CHECK(plan->writes[0].action == WriteAction::refuse);
}

TEST_CASE("migrate's own earlier translation is replaced, or kept when it is the same", "[migrate][safety]") {
  auto fs = tf210_project();
  fs.files["requirements.wsl.txt"] = with_ownership_mark("requirements.txt", "tensorflow[and-cuda]==2.15.*\n");
  auto plan = safety_plan_of(fs);
  REQUIRE(plan);
  CHECK(plan->translation.files[0].target == "requirements.wsl.txt");
  CHECK(plan->writes[0].action == WriteAction::replace_ours);
  fs.files["requirements.wsl.txt"] = with_ownership_mark("requirements.txt", plan->translation.files[0].text);
  auto same = safety_plan_of(fs);
  REQUIRE(same);
  CHECK(same->writes[0].action == WriteAction::keep);
}

TEST_CASE("a bad --name or --to is refused before anything is read or written", "[migrate][safety]") {
  for (const std::string name : {"../../escape", "a/b", "..", ".", "", "-rf", "a\\b"}) {
    auto fs = tf210_project();
    auto plan = safety_plan_of(fs, name);
    REQUIRE_FALSE(plan);
    CHECK(plan.error().message.find("must be one folder name") != std::string::npos);
    CHECK(fs.reads == 0);
  }
  for (const std::string to : {"projects", "C:\\work", "~/a/../../b", "~/.."}) {
    auto fs = tf210_project();
    auto plan = safety_plan_of(fs, "flowers", to);
    REQUIRE_FALSE(plan);
    CHECK(plan.error().message.find("--to '" + to + "' must be a Linux folder") != std::string::npos);
  }
}

TEST_CASE("tfwsl.yaml is YAML whatever the names: a round trip of hostile ones", "[migrate][safety]") {
  auto fs = tf210_project();
  auto plan = safety_plan_of(fs);
  REQUIRE(plan);
  const std::vector<std::string> names = {"set #2, v{1}", "a: b",      "- x",     "'quoted'",    "\"dq\"", "[list]",
                                          "&anchor *ref", "yes",       "null",    "~",           "%tag",   "@at",
                                          "`tick`",       "tab\there", "ünïcödé", "line\nbreak", "# hash"};
  plan->datasets.clear();
  for (const auto& n : names)
    plan->datasets.push_back({"D:\\data\\" + n + "'s \\ \"x\"", "~/datasets/" + n, "", 1, 1, 1});
  plan->project_name = "R&D $(touch PWNED)\n# not: a comment";
  const std::string text = project_profile_yaml(*plan);
  const YAML::Node doc = YAML::Load(text);
  CHECK(doc["extends"].as<std::string>() == "builtin:" + plan->decision.target->name);
  REQUIRE(doc["datasets"].size() == names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    CHECK(doc["datasets"][i]["name"].as<std::string>() == names[i]);
    CHECK(doc["datasets"][i]["source"].as<std::string>() == plan->datasets[i].windows_path);
  }
  CHECK(doc.size() == 3);  // extends, name, datasets: the project name's line break made no key
}

TEST_CASE("tfwsl.yaml is whole when the project's name holds a NUL or control characters", "[migrate][safety]") {
  // tests/fuzz/regressions/fuzz_migrate_profile/nul-and-control-characters-in-project-name: the text
  // ended at the comment's NUL (the emitter's c_str()), so no map was written.
  static const auto profiles = shipped_wsl_profiles();
  MigratePlan plan;
  plan.decision.target = profiles.front();
  plan.project_name = std::string("\x01\0\0\0\0\0\0(", 8);
  const YAML::Node doc = YAML::Load(project_profile_yaml(plan));
  REQUIRE(doc.IsMap());
  CHECK(doc["extends"].as<std::string>() == "builtin:" + plan.decision.target->name);
  CHECK(doc.size() == 2);
}

TEST_CASE("a main file whose name no import can name is run by its path", "[migrate][safety]") {
  ProjectScan scan;
  scan.tensorflow_modules = {"train-model.py"};
  CHECK(main_entry(scan).module.empty());
  CHECK(main_entry(scan).script == "train-model.py");
  scan.tensorflow_modules = {"1_train.py"};
  CHECK(main_entry(scan).script == "1_train.py");
  scan.tensorflow_modules = {"my-pkg/model.py"};
  CHECK(main_entry(scan).script == "my-pkg/model.py");
  scan.tensorflow_modules = {"pkg/model.py"};
  CHECK(main_entry(scan).module == "pkg.model");
  auto fs = tf210_project();
  fs.files.erase("train.py");
  fs.files["train-model.py"] = "import tensorflow as tf\n";
  auto plan = safety_plan_of(fs);
  REQUIRE(plan);
  auto home = with_home(*plan, "/home/tf");
  CHECK(how_to_run(home).wsl.find("bin/python train-model.py") != std::string::npos);
}

TEST_CASE("a dataset is copied from where this machine sees it, and the project from its real path",
          "[migrate][safety]") {
  auto fs = tf210_project();
  fs.files["train.py"] = "import tensorflow as tf\nDATA = r'D:\\data\\flowers'\n";
  fs.windows["d:\\data\\flowers"] = {true, 10, 100};
  fs.sources["D:\\data\\flowers"] = "/mnt/d/data/flowers";
  static const auto profiles = shipped_wsl_profiles();
  auto plan = build_plan(
      {fs, "flowers", "~/projects", "~/datasets", true, builtin_migrate_facts(), profiles, "/home/me/work/flowers"});
  REQUIRE(plan);
  REQUIRE(plan->datasets.size() == 1);
  CHECK(plan->datasets[0].source == "/mnt/d/data/flowers");
  CHECK(plan->project_source == "/home/me/work/flowers");
  CHECK(to_json(*plan)["project"]["source"] == "/home/me/work/flowers");
  fs.sources.clear();
  fs.unreachable = true;
  auto unreachable =
      build_plan({fs, "flowers", "~/projects", "~/datasets", true, builtin_migrate_facts(), profiles, "/w"});
  REQUIRE(unreachable);
  CHECK(exit_code_for(*unreachable) == 2);
  CHECK(unreachable->problems.at(0).find("D:\\data\\flowers cannot be reached from here") != std::string::npos);
}

TEST_CASE("a failed pip says what the agent knows: still unmet, pip's last lines, the log", "[migrate][safety]") {
  const auto answer = nlohmann::json::parse(R"({"changed": true, "pip_ran": true, "error": "pip exited with status 1",
    "unmet": [{"requirement": "pillow==10.1.0", "source": "requirements.wsl.txt:4", "reason": "pillow is not installed", "pip_decides": false}],
    "unmet_after": [{"requirement": "pillow==10.1.0", "source": "requirements.wsl.txt:4", "reason": "pillow is not installed", "pip_decides": false}],
    "pip_tail": ["ERROR: Could not find a version that satisfies the requirement pillow==10.1.0",
                 "ERROR: No matching distribution found for pillow==10.1.0"],
    "log": "/home/tf/.cache/tfwsl/pip-20260102T030405Z.log", "pip_exit_code": 1, "requirements": 4})");
  const std::string words = cli::pip_failure_words(answer, "~/.venvs/tf-2.15");
  CHECK(words.find("pip exited with status 1") == 0);
  CHECK(words.find("still unmet: pillow==10.1.0 (requirements.wsl.txt:4): pillow is not installed") !=
        std::string::npos);
  CHECK(words.find("No matching distribution found for pillow==10.1.0") != std::string::npos);
  CHECK(words.find("pip's log: /home/tf/.cache/tfwsl/pip-20260102T030405Z.log") != std::string::npos);
}
