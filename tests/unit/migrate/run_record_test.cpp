// What `tfwsl run` reads of a migrated project (win/migrate/wsl_copy_record.hpp) and how it makes the
// Windows paths of a command line Linux ones (win/migrate/run_arguments.hpp): the record migrate
// writes in the WSL copy, read back; crafted records refused by name; each translation rule, and
// the refusal of a path no rule reaches.
#include <catch2/catch.hpp>
#include <string>

#include "tests/unit/migrate/fake_migration_ports.hpp"
#include "tests/unit/migrate/fake_project_files.hpp"
#include "win/migrate/apply_plan.hpp"
#include "win/migrate/project_files.hpp"
#include "win/migrate/run_arguments.hpp"
#include "win/migrate/wsl_copy_record.hpp"

using namespace tfwsl;
using namespace tfwsl::migrate;

namespace {

class FakePorts final : public migrate::test::FakeMigrationPorts {
 public:
  FakePorts() {
    windows_project = {{"train.py", "import tensorflow as tf\nimport keras\nmodel.fit_generator(x)\n"},
                       {"requirements.txt", "tensorflow-gpu==2.10.0\nkeras==2.10.0\n"}};
  }
};

MigratePlan keras2_plan() {
  static const auto profiles = shipped_wsl_profiles();
  migrate::test::FakeProjectFiles fs;
  fs.files["requirements.txt"] = "tensorflow-gpu==2.10.0\nkeras==2.10.0\n";
  fs.files["train.py"] = "import tensorflow as tf\nimport keras\nDATA = r'D:\\data\\flowers'\n";
  fs.windows["d:\\data\\flowers"] = {true, 10, 100};
  fs.drives = std::set<char>{'c', 'd'};
  auto plan = build_plan({fs, "flowers", "~/projects", "~/datasets", true, builtin_migrate_facts(), profiles,
                          "C:\\work\\flowers", "tf-2.16-cuda-12.3"});
  REQUIRE(plan);
  return *plan;
}

PathPlace sample_place() {
  return {"C:\\Work\\Flowers",
          "/home/me/projects/flowers",
          {{"D:\\data\\flowers", "/home/me/datasets/flowers"}},
          "/mnt/",
          "Ubuntu-22.04"};
}

std::string one(const std::string& word) {
  auto out = linux_path_of(word, sample_place());
  REQUIRE(out);
  return out->value_or("(unchanged)");
}

}  // namespace

TEST_CASE("migrate's last step writes the run record in the WSL copy, and it reads back", "[migrate][run]") {
  const auto plan = keras2_plan();
  FakePorts ports;
  auto steps = apply_plan(plan, ports, {"C:\\work\\flowers", false});
  REQUIRE(steps);
  const auto& text = ports.linux_files["~/projects/flowers/.tfwsl/wsl-copy.json"];
  REQUIRE_FALSE(text.empty());
  auto record = parse_wsl_copy_record(text, "wsl-copy.json");
  REQUIRE(record);
  CHECK(record->distro == plan.decision.target->distro);
  CHECK(record->linux_path == "/home/tf/projects/flowers");
  CHECK(record->venv.rfind("/home/tf/.venvs/", 0) == 0);
  CHECK(record->windows_path == "C:\\work\\flowers");
  CHECK(record->path_map.at("D:\\data\\flowers") == "/home/tf/datasets/flowers");
  CHECK(record->env.at("TF_USE_LEGACY_KERAS") == "1");
  CHECK(record->gpu.ok);
  CHECK(record->gpu.checked_at > 0);
}

TEST_CASE("a record that is not migrate's is refused by name, never half read", "[migrate][run]") {
  const std::string good =
      R"({"schema":"tfwsl.wsl-copy","distro":"U","linux_path":"/p","venv":"/v","env":{"A":"1"},"gpu":{"ok":"yes"}})";
  auto read = parse_wsl_copy_record(good, "r.json");
  REQUIRE(read);
  CHECK_FALSE(read->gpu.ok);  // a wrong type is no verdict, not a crash
  for (const std::string bad : {std::string("not json"), std::string("[1]"),
                                std::string(R"({"schema":"other","distro":"U","linux_path":"/p","venv":"/v"})"),
                                std::string(R"({"schema":"tfwsl.wsl-copy","distro":"U","linux_path":"p","venv":"/v"})"),
                                std::string(R"({"schema":"tfwsl.wsl-copy","distro":"U","linux_path":"/p"})"),
                                std::string(R"({"schema":"tfwsl.wsl-copy","distro":"U","linux_path":"/p","venv":"/v",)"
                                            R"("env":{"A B; rm -rf ~":"1"}})"),
                                std::string(R"({"schema":"tfwsl.wsl-copy","distro":"U","linux_path":"/p","venv":"/v",)"
                                            R"("env":{"LD_PRELOAD":"/p/evil.so"}})"),
                                std::string(R"({"schema":"tfwsl.wsl-copy","distro":"U","linux_path":"/p","venv":"/v",)"
                                            R"("env":{"PYTHONSTARTUP":"/p/x.py"}})"),
                                std::string(200, '[') + std::string(200, ']')}) {
    auto r = parse_wsl_copy_record(bad, "C:\\p\\.tfwsl\\wsl-copy.json");
    REQUIRE_FALSE(r);
    CHECK(r.error().message.find("wsl-copy.json") != std::string::npos);
  }
}

TEST_CASE("Windows paths in a run's arguments become the Linux paths the command sees", "[migrate][run]") {
  CHECK(one("D:\\data\\flowers\\a.jpg") == "/home/me/datasets/flowers/a.jpg");             // the path map
  CHECK(one("d:/DATA/flowers") == "/home/me/datasets/flowers");                            // case and separators
  CHECK(one("C:\\work\\flowers\\cfg\\x.yaml") == "/home/me/projects/flowers/cfg/x.yaml");  // the project: its copy
  CHECK(one("C:\\work\\flowers-old\\x") == "/mnt/c/work/flowers-old/x");  // a sibling is not the project
  CHECK(one("E:\\raw data\\x.csv") == "/mnt/e/raw data/x.csv");           // any drive, through the mount
  CHECK(one("\\\\wsl$\\Ubuntu-22.04\\home\\me\\x") == "/home/me/x");      // the distro's own share
  CHECK(one("\\\\wsl.localhost\\ubuntu-22.04\\etc") == "/etc");
  CHECK(one("relative\\x") == "(unchanged)");
  CHECK(one("/already/linux") == "(unchanged)");
  CHECK(one("C:") == "(unchanged)");
  CHECK(one("--flag") == "(unchanged)");
}

TEST_CASE("a Windows path no rule reaches is refused by name, --opt=VALUE is translated after =", "[migrate][run]") {
  auto out = translate_arguments({"python", "train.py", "--data=D:\\data\\flowers", "--out", "E:\\o"}, sample_place());
  REQUIRE(out);
  CHECK(out->argv ==
        std::vector<std::string>{"python", "train.py", "--data=/home/me/datasets/flowers", "--out", "/mnt/e/o"});
  REQUIRE(out->translated.size() == 2);
  CHECK(out->translated[0].from == "--data=D:\\data\\flowers");
  for (const std::string word : {"\\\\fileserver\\share\\x", "\\\\wsl$\\Debian\\home", "\\\\?\\C:\\x"}) {
    auto refused = translate_arguments({"python", word}, sample_place());
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message.find(word) != std::string::npos);
  }
}

TEST_CASE("a subfolder of the project on Windows runs in the same subfolder of the copy", "[migrate][run]") {
  const PathPlace place = sample_place();
  CHECK(copy_folder_for("C:\\Work\\Flowers\\scripts\\eval", place) == "/home/me/projects/flowers/scripts/eval");
  CHECK(copy_folder_for("C:\\Work\\Flowers", place) == "/home/me/projects/flowers");
  CHECK(copy_folder_for("/home/me/projects/flowers/a", place) == "/home/me/projects/flowers/a");
  CHECK(copy_folder_for("D:\\elsewhere", place) == "/home/me/projects/flowers");
  PathPlace native = place;  // natively the original is a /mnt/c folder
  native.windows_root = "/mnt/c/Work/Flowers";
  CHECK(copy_folder_for("/mnt/c/Work/Flowers/scripts", native) == "/home/me/projects/flowers/scripts");
  CHECK(*linux_path_of("C:\\Work\\Flowers\\x", native).value() == "/home/me/projects/flowers/x");
}

TEST_CASE("the project scan leaves tfwsl's own .tfwsl out: the record's Windows paths are no datasets",
          "[migrate][run]") {
  CHECK(is_skipped_folder(".tfwsl"));
  CHECK_FALSE(is_skipped_folder("tfwsl"));
}
