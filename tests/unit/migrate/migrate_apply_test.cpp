#include <fmt/format.h>
#include <fmt/ranges.h>

#include <catch2/catch.hpp>

#include "tests/unit/migrate/fake_migration_ports.hpp"
#include "tests/unit/migrate/fake_project_files.hpp"
#include "win/migrate/apply_plan.hpp"
#include "win/migrate/ownership_mark.hpp"

using namespace tfwsl;
using namespace tfwsl::migrate;

namespace {

using migrate::test::FakeMigrationPorts;

class FakePorts final : public FakeMigrationPorts {
 public:
  FakePorts() {
    windows_project = {{"train.py", "import tensorflow as tf\n"},
                       {"util/helpers.py", "import tensorflow\n"},
                       {"requirements.txt", "tensorflow-gpu==2.10.0\npandas\n"}};
  }
};

// The sample project; `gpu` as nvidia-smi read it (default: not read).
MigratePlan sample_plan(bool force = true, const host::GpuReading& gpu = {}) {
  static const auto profiles = shipped_wsl_profiles();
  migrate::test::FakeProjectFiles fs;
  fs.files["requirements.txt"] = "tensorflow-gpu==2.10.0\npandas\n";
  fs.files["train.py"] = "import tensorflow as tf\nDATA = r'D:\\data\\flowers'\n";
  fs.files["util/helpers.py"] = "import tensorflow\n";
  fs.windows["d:\\data\\flowers"] = {true, 10, 100};
  fs.drives = std::set<char>{'c', 'd'};
  auto plan =
      build_plan({fs, "flowers", "~/projects", "~/datasets", force, builtin_migrate_facts(), profiles, {}, {}, gpu});
  REQUIRE(plan);
  return *plan;
}

}  // namespace

TEST_CASE("apply runs every step through the ports, in order, and writes the project's files", "[migrate][apply]") {
  const auto plan = sample_plan();
  FakePorts ports;
  auto steps = apply_plan(plan, ports, {"C:\\work\\flowers", false});
  REQUIRE(steps);
  CHECK(ports.calls == std::vector<std::string>{
                           "provision:tf-2.15-cuda-12.2",
                           "write:requirements.wsl.txt",
                           "copy:C:\\work\\flowers->~/projects/.flowers.tfwsl-staging skip "
                           ".venv,venv,__pycache__,.ipynb_checkpoints,.tfwsl,.git,",
                           "place:3",
                           "copy:D:\\data\\flowers->~/datasets/flowers skip ",
                           "install:~/projects/flowers -r requirements.wsl.txt",
                           "check:train",
                       });
  const std::string& written = ports.project_files["requirements.wsl.txt"];
  CHECK(written_by_migrate(written));
  CHECK(without_ownership_mark(written) == "tensorflow[and-cuda]==2.15.*\npandas\n");
  CHECK(ports.linux_files["~/projects/flowers/train.py"] == "import tensorflow as tf\n");
  const auto& yaml = ports.linux_files["~/projects/flowers/tfwsl.yaml"];
  CHECK(yaml.find("extends: builtin:tf-2.15-cuda-12.2\nname: flowers\n") != std::string::npos);
  CHECK(yaml.find("source: 'D:\\data\\flowers'") != std::string::npos);
  CHECK(ports.linux_files["~/projects/flowers/tfwsl-paths.json"].find(
            "\"D:\\\\data\\\\flowers\": \"/home/tf/datasets/flowers\"") != std::string::npos);
  const auto& report = ports.linux_files["~/projects/flowers/MIGRATION.md"];
  CHECK(report.find("wsl -d Ubuntu-22.04 --cd /home/tf/projects/flowers --exec bash -lc '~/.venvs/tf-2.15/bin/python "
                    "-m train'") != std::string::npos);
  CHECK(report.find("code --remote wsl+Ubuntu-22.04 /home/tf/projects/flowers") != std::string::npos);
  CHECK(steps->back().step == "write-files");
}

TEST_CASE("a second run of the same plan changes nothing", "[migrate][apply]") {
  const auto plan = sample_plan();
  FakePorts ports;
  REQUIRE(apply_plan(plan, ports, {"C:\\work\\flowers", false}));
  const auto files = ports.linux_files;
  ports.calls.clear();
  auto again = apply_plan(plan, ports, {"C:\\work\\flowers", false});
  REQUIRE(again);
  CHECK(ports.calls == std::vector<std::string>{"check:train"});  // the GPU check runs again; nothing else
  CHECK(ports.linux_files == files);
  for (const auto& s : *again) CHECK_FALSE(s.ran);
}

TEST_CASE("an interrupted run resumes after its last finished step", "[migrate][apply]") {
  const auto plan = sample_plan();
  FakePorts ports;
  ports.fail_once = "install";
  auto first = apply_plan(plan, ports, {"C:\\work\\flowers", false});
  REQUIRE_FALSE(first);
  CHECK(first.error().describe().find("step install") != std::string::npos);
  CHECK(ports.calls.size() == 5);  // provision, write, the project's copy and its placing, the dataset
  ports.calls.clear();
  auto second = apply_plan(plan, ports, {"C:\\work\\flowers", false});
  REQUIRE(second);
  CHECK(ports.calls == std::vector<std::string>{"install:~/projects/flowers -r requirements.wsl.txt", "check:train"});
  CHECK((*second)[0].detail.find("re-checked") != std::string::npos);
}

TEST_CASE("a changed plan starts the record over, an unforced native-ok plan is refused", "[migrate][apply]") {
  auto plan = sample_plan();
  FakePorts ports;
  REQUIRE(apply_plan(plan, ports, {"C:\\work\\flowers", true}));
  plan.translation.files[0].text += "scipy\n";
  ports.calls.clear();
  REQUIRE(apply_plan(plan, ports, {"C:\\work\\flowers", true}));
  INFO(fmt::format("{}", fmt::join(ports.calls, " | ")));
  // A new plan runs every step again (docs/migrate.md, Re-runs): provision (which checks before it
  // changes anything), write, copy, place, the dataset, install, check.
  REQUIRE(ports.calls.size() == 7);
  CHECK(ports.calls[0] == "provision:tf-2.15-cuda-12.2");
  CHECK(ports.calls[2].find(".git") == std::string::npos);  // copied when asked
  FakePorts untouched;
  auto refused = apply_plan(sample_plan(false), untouched, {"C:\\work\\flowers", false});
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message.find("native-ok") != std::string::npos);
  CHECK(untouched.calls.empty());
  CHECK(untouched.linux_files.empty());
}

TEST_CASE("the main module: main/train/app first, else the first module importing TensorFlow", "[migrate][apply]") {
  ProjectScan scan;
  CHECK(main_module(scan).empty());
  scan.tensorflow_modules = {"pkg/model.py", "train.py"};
  CHECK(main_module(scan) == "train");
  scan.tensorflow_modules = {"pkg/model.py"};
  CHECK(main_module(scan) == "pkg.model");
}

TEST_CASE("a Keras 2 project on a Keras 3 target runs with TF_USE_LEGACY_KERAS=1, said in MIGRATION.md",
          "[migrate][apply]") {
  static const auto profiles = shipped_wsl_profiles();
  migrate::test::FakeProjectFiles fs;
  fs.files["requirements.txt"] = "tensorflow>=2.16,<2.17\n";
  fs.files["train.py"] = "import tensorflow as tf\nmodel.fit_generator(g)\n";
  auto plan = build_plan({fs, "old-keras", "~/projects", "~/datasets", false, builtin_migrate_facts(), profiles});
  REQUIRE(plan);
  REQUIRE(plan->decision.legacy_keras);
  FakePorts ports;
  REQUIRE(apply_plan(*plan, ports, {"C:\\work\\old-keras", false}));
  REQUIRE(ports.calls.size() == 6);
  CHECK(ports.calls[4] == "install:~/projects/old-keras -r requirements.wsl.txt tf-keras==2.16.*");
  CHECK(ports.calls[5] == "check:train TF_USE_LEGACY_KERAS=1");
  const auto& report = ports.linux_files["~/projects/old-keras/MIGRATION.md"];
  CHECK(report.find("bash -lc 'TF_USE_LEGACY_KERAS=1 ~/.venvs/tf-2.16/bin/python -m train'") != std::string::npos);
  CHECK(ports.linux_files["~/projects/old-keras/tfwsl.yaml"].find("TF_USE_LEGACY_KERAS: \"1\"") != std::string::npos);
}

TEST_CASE("the project's profile is named after its folder, in the letters a profile name allows", "[migrate][apply]") {
  auto plan = sample_plan();
  plan.project_name = "My Project (v2)";
  CHECK(project_profile_yaml(plan).find("\nname: My-Project--v2-\n") != std::string::npos);
}

TEST_CASE("the container route applies: the image's profile provisioned, the project and data copied, no venv",
          "[migrate][apply][container]") {
  host::GpuReading blackwell;
  blackwell.checked = true;
  blackwell.gpus.push_back({"NVIDIA GeForce RTX 5090", 12, 0});
  const auto plan = sample_plan(false, blackwell);
  REQUIRE(plan.container);
  CHECK(plan.decision.target->name == "ngc-tf-25.02");
  CHECK(plan.decision.target->distro == "Ubuntu-24.04");
  FakePorts ports;
  auto steps = apply_plan(plan, ports, {"C:\\work\\flowers", false});
  REQUIRE(steps);
  CHECK(ports.calls == std::vector<std::string>{
                           "provision:ngc-tf-25.02",
                           "copy:C:\\work\\flowers->~/projects/.flowers.tfwsl-staging skip "
                           ".venv,venv,__pycache__,.ipynb_checkpoints,.tfwsl,.git,",
                           "place:3",
                           "copy:D:\\data\\flowers->~/datasets/flowers skip ",
                       });
  const auto run = how_to_run_in_container(with_home(plan, "/home/ada"));
  CHECK(run.in_wsl ==
        "podman run --rm --device nvidia.com/gpu=all --env TF_FORCE_GPU_ALLOW_GROWTH=true --volume "
        "/home/ada/projects/flowers:/home/ada/projects/flowers --volume "
        "/home/ada/datasets/flowers:/home/ada/datasets/flowers "
        "--volume /home/ada/.keras:/root/.keras --workdir /home/ada/projects/flowers "
        "nvcr.io/nvidia/tensorflow@sha256:c83b37d26f19ab00d8a13cf974edd079c3d099918ec3110c304a989d6e2f75d5 python -m "
        "train");
  CHECK(run.wsl.rfind("wsl -d Ubuntu-24.04 --exec podman run --rm", 0) == 0);
}
