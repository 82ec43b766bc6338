// Re-runs of an applied plan (docs/migrate.md, "Re-runs"): the WSL copy is the user's working copy,
// so a changed file there is never replaced; steps an earlier run finished are re-checked.
#include <catch2/catch.hpp>

#include "common/util/content_hash.hpp"
#include "tests/unit/migrate/fake_migration_ports.hpp"
#include "tests/unit/migrate/fake_project_files.hpp"
#include "win/migrate/apply_plan.hpp"
#include "win/migrate/project_update.hpp"

using namespace tfwsl;
using namespace tfwsl::migrate;

namespace {

MigratePlan plan_for(const std::string& requirements) {
  static const auto profiles = shipped_wsl_profiles();
  migrate::test::FakeProjectFiles fs;
  fs.files["requirements.txt"] = requirements;
  fs.files["train.py"] = "import tensorflow as tf\n";
  auto plan = build_plan({fs, "flowers", "~/projects", "~/datasets", false, builtin_migrate_facts(), profiles});
  REQUIRE(plan);
  return *plan;
}

migrate::test::FakeMigrationPorts ports_with_project() {
  migrate::test::FakeMigrationPorts ports;
  ports.windows_project = {
      {"train.py", "import tensorflow as tf\n"}, {"model.py", "M = 1\n"}, {"data/labels.csv", "a,b\n"}};
  return ports;
}

FileDigest digest(const std::string& text) { return {text.size(), content_hash(text)}; }

const std::string k_root = "~/projects/flowers";

}  // namespace

TEST_CASE("a re-run keeps a file edited in WSL, updates what only Windows changed, and says which",
          "[migrate][rerun]") {
  auto ports = ports_with_project();
  REQUIRE(apply_plan(plan_for("tensorflow==2.15.1\n"), ports, {"C:\\work\\flowers", false}));
  ports.linux_files[k_root + "/train.py"] = "import tensorflow as tf\nprint('edited in WSL')\n";
  ports.windows_project["model.py"] = "M = 2\n";
  ports.windows_project["new.py"] = "N = 1\n";
  auto again =
      apply_plan(plan_for("tensorflow==2.15.1\npandas\n"), ports, {"C:\\work\\flowers", false});  // a requirement added
  REQUIRE(again);
  CHECK(ports.linux_files[k_root + "/train.py"] == "import tensorflow as tf\nprint('edited in WSL')\n");
  CHECK(ports.linux_files[k_root + "/model.py"] == "M = 2\n");
  CHECK(ports.linux_files[k_root + "/new.py"] == "N = 1\n");
  const auto copy =
      std::find_if(again->begin(), again->end(), [](const StepResult& s) { return s.step == "copy-project"; });
  REQUIRE(copy != again->end());
  CHECK(copy->ran);
  CHECK(copy->detail.find("kept (changed in WSL): train.py") != std::string::npos);
  CHECK(copy->detail.find("replaced (changed on Windows, unchanged in WSL): model.py") != std::string::npos);

  // Windows changes train.py too: both changed, the WSL copy is kept, also on the run after.
  ports.windows_project["train.py"] = "import tensorflow as tf\nprint('edited on Windows')\n";
  auto third = apply_plan(plan_for("tensorflow==2.15.1\nnumpy\n"), ports, {"C:\\work\\flowers", false});
  REQUIRE(third);
  CHECK(ports.linux_files[k_root + "/train.py"] == "import tensorflow as tf\nprint('edited in WSL')\n");
  const auto copy3 =
      std::find_if(third->begin(), third->end(), [](const StepResult& s) { return s.step == "copy-project"; });
  CHECK(copy3->detail.find("both changed, the WSL copy kept") != std::string::npos);
}

TEST_CASE("the consent lists what a re-run would replace in the WSL copy", "[migrate][rerun]") {
  auto ports = ports_with_project();
  const auto first = plan_for("tensorflow==2.15.1\n");
  FileManifest windows;
  for (const auto& [path, text] : ports.windows_project) windows[path] = digest(text);
  CHECK(preview_reapply(first, ports, windows).value().empty());  // a first run replaces nothing
  REQUIRE(apply_plan(first, ports, {"C:\\work\\flowers", false}));
  ports.linux_files[k_root + "/train.py"] = "edited in WSL\n";
  windows["model.py"] = digest("M = 2\n");
  auto preview = preview_reapply(plan_for("tensorflow==2.15.1\npandas\n"), ports, windows);
  REQUIRE(preview);
  CHECK(preview->find("replaced (changed on Windows, unchanged in WSL): model.py") != std::string::npos);
  CHECK(preview->find("kept (changed in WSL): train.py") != std::string::npos);
}

TEST_CASE("a kept step is re-checked: a venv moved away and a deleted main file are redone", "[migrate][rerun]") {
  auto ports = ports_with_project();
  const auto plan = plan_for("tensorflow==2.15.1\n");
  REQUIRE(apply_plan(plan, ports, {"C:\\work\\flowers", false}));
  ports.venv_problem = "~/.venvs/tf-2.15/bin/python does not run";
  ports.linux_files.erase(k_root + "/train.py");
  ports.unmet = "unmet: pandas (requirements.wsl.txt:2): pandas is not installed";
  ports.calls.clear();
  auto again = apply_plan(plan, ports, {"C:\\work\\flowers", false});
  REQUIRE(again);
  std::map<std::string, StepResult> by_step;
  for (const auto& s : *again) by_step[s.step] = s;
  CHECK(by_step["provision"].ran);
  CHECK(by_step["provision"].detail.find("redone (~/.venvs/tf-2.15/bin/python does not run)") != std::string::npos);
  CHECK(by_step["copy-project"].ran);
  CHECK(by_step["copy-project"].detail.find("missing in the WSL copy: train.py") != std::string::npos);
  CHECK(by_step["copy-project"].detail.find("restored (missing in WSL): train.py") != std::string::npos);
  CHECK(by_step["install"].ran);
  CHECK_FALSE(by_step["write-requirements"].ran);
  CHECK(ports.linux_files.contains(k_root + "/train.py"));
}

TEST_CASE("a kept check that fails again is reported, not kept", "[migrate][rerun]") {
  auto ports = ports_with_project();
  const auto plan = plan_for("tensorflow==2.15.1\n");
  REQUIRE(apply_plan(plan, ports, {"C:\\work\\flowers", false}));
  ports.windows_project.erase("train.py");  // gone on both sides: nothing can restore it
  ports.linux_files.erase(k_root + "/train.py");
  auto again = apply_plan(plan, ports, {"C:\\work\\flowers", false});
  REQUIRE_FALSE(again);
  CHECK(again.error().describe().find("step check") != std::string::npos);
}

TEST_CASE("a generated file the user changed in WSL is kept by a re-run", "[migrate][rerun]") {
  auto ports = ports_with_project();
  REQUIRE(apply_plan(plan_for("tensorflow==2.15.1\n"), ports, {"C:\\work\\flowers", false}));
  ports.linux_files[k_root + "/tfwsl.yaml"] = "extends: builtin:tf-2.15-cuda-12.2\nname: mine\n";
  const std::string report = ports.linux_files[k_root + "/MIGRATION.md"];
  auto again = apply_plan(plan_for("tensorflow==2.15.1\npandas\n"), ports, {"C:\\work\\flowers", false});
  REQUIRE(again);
  CHECK(ports.linux_files[k_root + "/tfwsl.yaml"] == "extends: builtin:tf-2.15-cuda-12.2\nname: mine\n");
  CHECK(again->back().detail.find("kept (changed in WSL, not replaced): tfwsl.yaml") != std::string::npos);
  CHECK(ports.linux_files[k_root + "/MIGRATION.md"] != report);  // ours, unchanged by the user: updated
}

TEST_CASE("plan_project_update: each case of recorded, WSL and Windows", "[migrate][rerun]") {
  const FileManifest recorded = {{"same.py", digest("a")}, {"win.py", digest("a")},
                                 {"wsl.py", digest("a")},  {"both.py", digest("a")},
                                 {"gone.py", digest("a")}, {"deleted-on-windows.py", digest("a")}};
  const FileManifest wsl = {{"same.py", digest("a")},
                            {"win.py", digest("a")},
                            {"wsl.py", digest("b")},
                            {"both.py", digest("b")},
                            {"deleted-on-windows.py", digest("a")},
                            {"mine.py", digest("x")},
                            {"twin.py", digest("t")}};
  const FileManifest windows = {{"same.py", digest("a")}, {"win.py", digest("c")},  {"wsl.py", digest("a")},
                                {"both.py", digest("c")}, {"gone.py", digest("a")}, {"new.py", digest("n")},
                                {"mine.py", digest("y")}, {"twin.py", digest("t")}};
  const auto u = plan_project_update(recorded, wsl, windows);
  std::vector<std::string> placed;
  for (const auto& p : u.place) placed.push_back(p.path + "=" + p.expect);
  CHECK(placed == std::vector<std::string>{"gone.py=absent", "new.py=absent", "win.py=" + digest("a").hash});
  CHECK(u.kept_wsl == std::vector<std::string>{"wsl.py"});
  CHECK(u.both_changed == std::vector<std::string>{"both.py"});
  CHECK(u.not_ours == std::vector<std::string>{"mine.py"});
  CHECK(u.restored == std::vector<std::string>{"gone.py"});
  CHECK(u.record.at("wsl.py") == digest("a"));                 // still what migrate placed: stays the user's
  CHECK(u.record.at("twin.py") == digest("t"));                // the same bytes: migrate's from now on
  CHECK(u.record.at("deleted-on-windows.py") == digest("a"));  // never deleted in WSL
  CHECK_FALSE(u.record.contains("mine.py"));
}
