#include <catch2/catch.hpp>

#include "tests/unit/migrate/fake_project_files.hpp"
#include "win/migrate/migrate_plan.hpp"

using namespace tfwsl;
using namespace tfwsl::migrate;

namespace {

Result<MigratePlan> plan_of(migrate::test::FakeProjectFiles& fs, bool force = false) {
  static const auto profiles = shipped_wsl_profiles();
  return build_plan({fs, "proj", "~/projects", "~/datasets", force, builtin_migrate_facts(), profiles});
}

MigratePlan plan_of_requirements(const std::string& text) {
  migrate::test::FakeProjectFiles fs;
  fs.files["requirements.txt"] = text;
  auto plan = plan_of(fs);
  REQUIRE(plan);
  return *plan;
}

}  // namespace

TEST_CASE("the shipped WSL profiles are the tf-* ones, oldest first, without the native one", "[migrate][decision]") {
  const auto profiles = shipped_wsl_profiles();
  REQUIRE(profiles.size() >= 2);
  CHECK(profiles.front().name == "tf-2.15-cuda-12.2");
  CHECK(profiles.front().python == "3.10");
  for (const auto& p : profiles) CHECK(p.name.starts_with("tf-"));
}

TEST_CASE("the decision table: one row each", "[migrate][decision]") {
  struct Row {
    const char* requirements;
    Decision decision;
    const char* target;  // "" for none
  };
  const Row rows[] = {
      {"tensorflow-gpu==2.10.0\n", Decision::native_ok, "2.15"},
      {"tensorflow<2.11\n", Decision::native_ok, "2.15"},
      {"tensorflow==1.15.5\n", Decision::refuse_tf1, ""},
      {"tensorflow>=1.15,<2.0\n", Decision::refuse_tf1, ""},
      {"tensorflow>=2.4.0,<2.16\n", Decision::needs_wsl, "2.15"},
      {"tensorflow\n", Decision::needs_wsl, "2.15"},
      {"tensorflow[and-cuda]~=2.17.0\n", Decision::needs_wsl, "2.17"},
      {"tensorflow>=2.16\n", Decision::needs_wsl, "2.21"},
      {"tensorflow==2.12.0\n", Decision::ambiguous, ""},
      {"tensorflow>=2.8\ntensorflow<2.8\n", Decision::ambiguous, ""},
      {"tensorflow==2.99\n", Decision::ambiguous, ""},
      {"tensorflow>=2.10\nkeras>=3\n", Decision::needs_wsl, "2.21"},
      {"numpy\n", Decision::needs_wsl, "2.15"},
  };
  for (const auto& row : rows) {
    INFO(row.requirements);
    const auto plan = plan_of_requirements(row.requirements);
    CHECK(plan.decision.decision == row.decision);
    CHECK((plan.decision.target ? plan.decision.target->series.to_string() : std::string()) == row.target);
    CHECK_FALSE(plan.decision.reasons.empty());
    if (row.decision == Decision::ambiguous) CHECK_FALSE(plan.decision.choices.empty());
  }
}

TEST_CASE("exit codes: go ahead 0, native-ok 1 unless --force, refused or ambiguous 2", "[migrate][decision]") {
  CHECK(exit_code_for(plan_of_requirements("tensorflow==2.15.1\n")) == 0);
  CHECK(exit_code_for(plan_of_requirements("tensorflow==2.10.1\n")) == 1);
  CHECK(exit_code_for(plan_of_requirements("tensorflow==1.15\n")) == 2);
  CHECK(exit_code_for(plan_of_requirements("tensorflow==2.13.0\n")) == 2);
  migrate::test::FakeProjectFiles fs;
  fs.files["requirements.txt"] = "tensorflow==2.10.1\n";
  auto forced = plan_of(fs, true);
  REQUIRE(forced);
  CHECK(exit_code_for(*forced) == 0);
}

TEST_CASE("a project without requirement files is an error that changes nothing", "[migrate][decision]") {
  migrate::test::FakeProjectFiles fs;
  fs.files["train.py"] = "import tensorflow\n";
  auto plan = plan_of(fs);
  REQUIRE_FALSE(plan);
  CHECK(plan.error().message.find("no requirement file") != std::string::npos);
}

TEST_CASE("Keras 2 APIs on a Keras 3 target ask for tf-keras, on 2.15 they do not", "[migrate][decision]") {
  migrate::test::FakeProjectFiles fs;
  fs.files["requirements.txt"] = "tensorflow>=2.16,<2.17\n";
  fs.files["m.py"] = "model.fit_generator(g)\n";
  auto plan = plan_of(fs);
  REQUIRE(plan);
  CHECK(plan->decision.legacy_keras);
  CHECK(plan->translation.added == std::vector<std::string>{"tf-keras==2.16.*"});
  CHECK(to_json(*plan)["keras"]["env"]["TF_USE_LEGACY_KERAS"] == "1");
  fs.files["requirements.txt"] = "tensorflow>=2.14,<2.17\n";
  auto on_215 = plan_of(fs);
  REQUIRE(on_215);
  CHECK(on_215->decision.target->series.to_string() == "2.15");
  CHECK_FALSE(on_215->decision.legacy_keras);
  fs.files["requirements.txt"] = "tensorflow>=2.16\nkeras==2.15.0  # old\n";
  auto pinned = plan_of(fs);
  REQUIRE(pinned);
  CHECK(pinned->decision.legacy_keras);
  CHECK(pinned->translation.translated.back().to == "tf-keras==2.21.*");
  CHECK(pinned->translation.files[0].text.find("tf-keras==2.21.*  # old") != std::string::npos);
}

TEST_CASE("datasets: existing folders with sizes and an estimate, nested ones folded, a path map", "[migrate][plan]") {
  migrate::test::FakeProjectFiles fs;
  fs.files["requirements.txt"] = "tensorflow==2.15.*\n";
  fs.files["train.py"] =
      "A = r'D:\\data\\flowers'\nB = 'D:/data/flowers/train'\nC = 'D:\\data\\flowers\\labels.csv'\nZ = 'E:\\gone'\n";
  fs.windows["d:\\data\\flowers"] = {true, 3000, 3'000'000'000};
  fs.windows["d:\\data\\flowers\\train"] = {true, 2000, 2'000'000'000};
  fs.windows["d:\\data\\flowers\\labels.csv"] = {false, 1, 10};
  fs.drives = std::set<char>{'c', 'd', 'e'};
  auto plan = plan_of(fs);
  REQUIRE(plan);
  REQUIRE(plan->datasets.size() == 1);
  const auto& ds = plan->datasets[0];
  CHECK(ds.windows_path == "D:\\data\\flowers");
  CHECK(ds.linux_path == "~/datasets/flowers");
  CHECK(ds.files == 3000);
  // 3000 / 735 files/s + 3 GB / 527 MB/s, rounded up (profiles/migrate.yaml, import_speed).
  CHECK(ds.estimated_seconds == 10);
  const auto map = path_map_json(*plan);
  CHECK(map["D:\\data\\flowers\\train"] == "~/datasets/flowers/train");
  CHECK(map["D:\\data\\flowers\\labels.csv"] == "~/datasets/flowers/labels.csv");
  CHECK_FALSE(map.contains("E:\\gone"));
  CHECK(plan->problems.empty());
  CHECK(exit_code_for(*plan) == 0);
}

TEST_CASE("a path on a drive the distro does not mount is a problem: exit 2", "[migrate][plan]") {
  migrate::test::FakeProjectFiles fs;
  fs.files["requirements.txt"] = "tensorflow==2.15.*\n";
  fs.files["cfg.yaml"] = "data: 'Q:\\sets\\cats'\nmore: 'Q:\\sets\\dogs'\n";
  fs.drives = std::set<char>{'c'};
  auto plan = plan_of(fs);
  REQUIRE(plan);
  REQUIRE(plan->problems.size() == 1);  // one line per drive
  CHECK(plan->problems[0].find("drive Q:") != std::string::npos);
  CHECK(plan->problems[0].find("cfg.yaml:1") != std::string::npos);
  CHECK(exit_code_for(*plan) == 2);
  fs.drives.reset();  // unknown: not judged
  auto unknown = plan_of(fs);
  REQUIRE(unknown);
  CHECK(unknown->problems.empty());
}

// Issue 43, item 5: each decision with a consequence is a line of the text plan, with why.
TEST_CASE("the text plan says when an exact pin becomes the series, and lists the code's mapped paths",
          "[migrate][plan]") {
  migrate::test::FakeProjectFiles fs;
  fs.files["requirements.txt"] = "tensorflow==2.16.1\npandas\n";
  fs.files["train.py"] = "import tensorflow as tf\nA = r'D:\\data\\flowers'\nB = 'D:/data/flowers/train'\n";
  fs.windows["d:\\data\\flowers"] = {true, 30, 3'000'000};
  fs.windows["d:\\data\\flowers\\train"] = {true, 20, 2'000'000};
  fs.drives = std::set<char>{'c', 'd'};
  auto plan = plan_of(fs);
  REQUIRE(plan);
  REQUIRE(plan->decision.target);
  REQUIRE(plan->translation.translated.size() == 1);
  const auto& tr = plan->translation.translated[0];
  CHECK(tr.widened_pin == "==2.16.1");
  const std::string text = render_text(*plan);
  INFO(text);
  CHECK(text.find("  tensorflow==2.16.1 -> " + tr.to + " (requirements.txt:1)\n") != std::string::npos);
  CHECK(text.find("the pin ==2.16.1 becomes the profile's series") != std::string::npos);
  CHECK(text.find("  D:\\data\\flowers (train.py:2) -> ~/datasets/flowers\n") != std::string::npos);
  CHECK(text.find("  D:\\data\\flowers\\train (train.py:3) -> ~/datasets/flowers/train\n") != std::string::npos);
}

TEST_CASE("a series pin or a range is not said to be widened", "[migrate][plan]") {
  for (const char* requirement : {"tensorflow==2.16.*\n", "tensorflow>=2.16,<2.17\n"}) {
    migrate::test::FakeProjectFiles fs;
    fs.files["requirements.txt"] = requirement;
    auto plan = plan_of(fs);
    REQUIRE(plan);
    for (const auto& tr : plan->translation.translated) CHECK(tr.widened_pin.empty());
    CHECK(render_text(*plan).find("the pin") == std::string::npos);
  }
}

TEST_CASE("a constraints file limits versions and installs nothing", "[migrate][decision]") {
  // A CI floor (pip's constraints file, the project's install elsewhere): not the project's pin.
  migrate::test::FakeProjectFiles floor;
  floor.files["requirements.txt"] = "tensorflow>=2.7.0\n";
  floor.files["tests/constraints.txt"] = "tensorflow==2.7.0\n";
  auto plan = plan_of(floor);
  REQUIRE(plan);
  CHECK(plan->decision.decision == Decision::needs_wsl);
  // Reached by -c, and leaving no version the requirements allow: the files disagree.
  migrate::test::FakeProjectFiles conflict;
  conflict.files["requirements.txt"] = "-c pins.txt\ntensorflow>=2.12\n";
  conflict.files["pins.txt"] = "tensorflow<2.11\n";
  auto both = plan_of(conflict);
  REQUIRE(both);
  CHECK(both->decision.decision == Decision::ambiguous);
}

TEST_CASE("a package released in lockstep with TensorFlow pins its series", "[migrate][decision]") {
  const auto text = plan_of_requirements("tensorflow\ntensorflow-text>=2.20.1,<2.21.0\n");
  REQUIRE(text.decision.target);
  CHECK(text.decision.target->series.to_string() == "2.20");
  const auto keras = plan_of_requirements("tensorflow>=2.16\ntf-keras~=2.17.0\n");
  REQUIRE(keras.decision.target);
  CHECK(keras.decision.target->series.to_string() == "2.17");
  // Unpinned, it says nothing about the series.
  const auto any = plan_of_requirements("tensorflow>=2.16\ntensorflow-text\n");
  REQUIRE(any.decision.target);
  CHECK(any.decision.target->series.to_string() == "2.21");
}
