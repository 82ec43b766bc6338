#include <catch2/catch.hpp>

#include "tests/unit/migrate/fake_project_files.hpp"
#include "win/migrate/migrate_plan.hpp"

using namespace tfwsl;
using namespace tfwsl::migrate;

namespace {

Translation translation_of(const std::string& name, const std::string& text) {
  static const auto profiles = shipped_wsl_profiles();
  migrate::test::FakeProjectFiles fs;
  fs.files[name] = text;
  auto plan = build_plan({fs, "p", "~/projects", "~/datasets", true, builtin_migrate_facts(), profiles});
  REQUIRE(plan);
  return plan->translation;
}

}  // namespace

TEST_CASE("requirements.txt: TensorFlow translated, drops commented, comments, markers and order kept",
          "[migrate][translate]") {
  const auto t = translation_of("requirements.txt",
                                "# GPU\n"
                                "-r base.txt\n"
                                "Tensorflow_GPU==2.10.0 ; python_version >= \"3.7\"  # gpu\n"
                                "tensorflow-directml-plugin\n"
                                "tensorflow-io-gcs-filesystem\n"
                                "tensorflow-io-gcs-filesystem==0.31.0\n"
                                "pywin32==306\n"
                                "pywin32==306; sys_platform == \"win32\"\n"
                                "pandas  # data\n");
  REQUIRE(t.files.size() == 1);
  CHECK(t.files[0].target == "requirements.wsl.txt");
  CHECK(t.files[0].text ==
        "# GPU\n"
        "-r base.txt\n"  // not in the project: no sibling to point at
        "tensorflow[and-cuda]==2.15.* ; python_version >= \"3.7\"  # gpu\n"
        "# dropped by tfwsl migrate: tensorflow-directml-plugin\n"
        "tensorflow-io-gcs-filesystem\n"
        "# dropped by tfwsl migrate: tensorflow-io-gcs-filesystem==0.31.0\n"
        "# dropped by tfwsl migrate: pywin32==306\n"
        "pywin32==306; sys_platform == \"win32\"\n"
        "pandas  # data\n");
  REQUIRE(t.translated.size() == 1);
  CHECK(t.translated[0].from == "tensorflow_gpu==2.10.0");
  CHECK(t.translated[0].line == 3);
  std::vector<std::string> dropped;
  for (const auto& d : t.dropped) dropped.push_back(d.package);
  CHECK(dropped == std::vector<std::string>{"tensorflow-directml-plugin", "tensorflow-io-gcs-filesystem", "pywin32"});
  CHECK(t.kept == std::vector<std::string>{"tensorflow-io-gcs-filesystem", "pywin32", "pandas"});
  CHECK(t.diff.find("-tensorflow-directml-plugin\n+# dropped by tfwsl migrate: tensorflow-directml-plugin\n") !=
        std::string::npos);
}

TEST_CASE("environment.yml: conda CUDA dropped, conda TensorFlow turned into the pip requirement",
          "[migrate][translate]") {
  const auto t = translation_of("environment.yml",
                                "name: x\n"
                                "dependencies:\n"
                                "  - python=3.10\n"
                                "  - cudatoolkit=11.2  # cuda\n"
                                "  - cudnn=8.1.0\n"
                                "  - pip\n"
                                "  - pip:\n"
                                "    - cudnn-helper\n"
                                "    - tensorflow-gpu==2.10.0\n");
  CHECK(t.files[0].target == "environment.wsl.yml");
  CHECK(t.files[0].text ==
        "name: x\n"
        "dependencies:\n"
        "  - python=3.10\n"
        "  # dropped by tfwsl migrate: - cudatoolkit=11.2  # cuda\n"
        "  # dropped by tfwsl migrate: - cudnn=8.1.0\n"
        "  - pip\n"
        "  - pip:\n"
        "    - cudnn-helper\n"
        "    - tensorflow[and-cuda]==2.15.*\n");
}

TEST_CASE("pyproject (PEP 621 and Poetry), setup.py: quoted and keyed entries rewritten in place",
          "[migrate][translate]") {
  auto pep621 = translation_of(
      "pyproject.toml", "[project]\nname = \"x\"\ndependencies = [\"tensorflow-cpu>=2.10\", \"pywin32\", \"numpy\"]\n");
  CHECK(pep621.files[0].text ==
        "[project]\nname = \"x\"\ndependencies = [\"tensorflow[and-cuda]==2.15.*\", \"numpy\"]\n");
  auto poetry =
      translation_of("pyproject.toml", "[tool.poetry.dependencies]\npython = \"^3.10\"\ntensorflow-gpu = \"^2.10\"\n");
  CHECK(
      poetry.files[0].text ==
      "[tool.poetry.dependencies]\npython = \"^3.10\"\ntensorflow = {version = \"2.15.*\", extras = [\"and-cuda\"]}\n");
  auto setup =
      translation_of("setup.py", "setup(\n  name='x',\n  install_requires=[\n    'tensorflow-gpu>=2.4',\n  ],\n)\n");
  CHECK(setup.files[0].text ==
        "setup(\n  name='x',\n  install_requires=[\n    'tensorflow[and-cuda]==2.15.*',\n  ],\n)\n");
  CHECK(setup.kept.empty());
}

TEST_CASE("a TensorFlow line that already fits the target stays as written", "[migrate][translate]") {
  auto t = translation_of("requirements.txt",
                          "tensorflow[and-cuda]>=2.15,<2.16\ntf-nightly[and-cuda]==2.16.0.dev20231103\n");
  CHECK(t.translated.empty());
  CHECK_FALSE(t.files[0].changed);
  CHECK(t.kept == std::vector<std::string>{"tensorflow", "tf-nightly"});
}

TEST_CASE("translated names: the sibling beside the original", "[migrate][translate]") {
  CHECK(translated_path("requirements.txt") == "requirements.wsl.txt");
  CHECK(translated_path("reqs/gpu.in.txt") == "reqs/gpu.in.wsl.txt");
  CHECK(translated_path("Pipfile") == "Pipfile.wsl");
  CHECK(translated_path(".env") == ".env.wsl");
}

TEST_CASE("the built-in migrate facts load, a broken file says where", "[migrate][facts]") {
  const auto& facts = builtin_migrate_facts();
  CHECK(facts.preferred_series.to_string() == "2.15");
  CHECK(facts.keras3_from.to_string() == "2.16");
  REQUIRE(facts.find_drop("cudnn"));
  CHECK(facts.find_drop("cudnn")->conda_only);
  CHECK(facts.find_rename("tensorflow-gpu")->to == "tensorflow");
  CHECK(facts.estimate_seconds(0, 0) == 0);
  CHECK(facts.estimate_seconds(1, 1) == 1);
  auto broken = load_migrate_facts("preferred_series: '2.15'\nkeras3_from: x\n", "m.yaml");
  REQUIRE_FALSE(broken);
  CHECK(broken.error().message.find("m.yaml:") == 0);
}

TEST_CASE("include lines (-r, -c) point at the translated sibling only when the project has the file",
          "[migrate][translate]") {
  static const auto profiles = shipped_wsl_profiles();
  migrate::test::FakeProjectFiles fs;
  fs.files["reqs/requirements-gpu.txt"] = "-r ../base.txt\n-r common.txt\n-c missing.txt\ntensorflow==2.15.1\n";
  fs.files["base.txt"] = "numpy\n";
  fs.files["reqs/common.txt"] = "pandas\n";
  auto plan = build_plan({fs, "p", "~/projects", "~/datasets", false, builtin_migrate_facts(), profiles});
  REQUIRE(plan);
  REQUIRE(plan->translation.files.size() == 3);
  CHECK(plan->translation.files[0].source == "reqs/requirements-gpu.txt");
  CHECK(plan->translation.files[0].text ==
        "-r ../base.wsl.txt\n-r common.wsl.txt\n-c missing.txt\ntensorflow[and-cuda]==2.15.*\n");
}

TEST_CASE("a conda TensorFlow is not rewritten as a conda spec: it moves to pip", "[migrate][translate]") {
  const auto t = translation_of("environment.yml",
                                "dependencies:\n"
                                "  - tensorflow-gpu=2.6.0=cuda112py38hbe5352d_2\n"
                                "  - numpy\n");
  CHECK(
      t.files[0].text ==
      "dependencies:\n"
      "  # moved to pip by tfwsl migrate (tensorflow[and-cuda]==2.15.*): - tensorflow-gpu=2.6.0=cuda112py38hbe5352d_2\n"
      "  - numpy\n");
  REQUIRE(t.translated.size() == 1);
  CHECK(t.translated[0].to == "tensorflow[and-cuda]==2.15.*");
  CHECK(t.added == std::vector<std::string>{"tensorflow[and-cuda]==2.15.*"});
}

TEST_CASE("a quoted requirement keeps its marker", "[migrate][translate]") {
  auto t = translation_of("pyproject.toml",
                          "[project]\ndependencies = [\n  \"tensorflow-gpu>=2.4 ; python_version >= '3.8'\",\n]\n");
  CHECK(t.files[0].text ==
        "[project]\ndependencies = [\n  \"tensorflow[and-cuda]==2.15.* ; python_version >= '3.8'\",\n]\n");
}

TEST_CASE("a dropped quoted requirement with a marker leaves nothing behind", "[migrate][translate]") {
  auto t = translation_of("pyproject.toml",
                          "[project]\ndependencies = [\"pywin32>=306; python_version >= '3.8'\", \"numpy\"]\n");
  CHECK(t.files[0].text == "[project]\ndependencies = [\"numpy\"]\n");
}

TEST_CASE("a Windows build folder of a conda freeze becomes the package from the index", "[migrate][translate]") {
  const auto t = translation_of("requirements.txt",
                                "absl-py @ file:///C:/b/abs_5babsu7q8f/croot/absl-py_1666362946999/work\n"
                                "tensorflow @ file:///C:/ci/tensorflow-base_1669229219876/work\n"
                                "mylib @ file:///home/me/mylib\n"
                                "numpy==1.23.5\n");
  REQUIRE(t.files.size() == 1);
  CHECK(t.files[0].text ==
        "absl-py\n"
        "tensorflow[and-cuda]==2.15.*\n"
        "mylib @ file:///home/me/mylib\n"  // not a Windows path: the user's to judge
        "numpy==1.23.5\n");
  REQUIRE(t.translated.size() == 2);
  CHECK(t.translated[0].from == "absl-py @ file:///C:/b/abs_5babsu7q8f/croot/absl-py_1666362946999/work");
}

TEST_CASE("the DirectML plugin as the only TensorFlow requirement becomes the target's TensorFlow",
          "[migrate][translate]") {
  // The plugin brought tensorflow-cpu 2.10: dropped alone, the venv's requirements would name no TensorFlow.
  const auto only = translation_of("requirements.txt", "tensorflow-directml-plugin\nnumpy\n");
  REQUIRE(only.files.size() == 1);
  CHECK(only.files[0].text == "tensorflow[and-cuda]==2.15.*\nnumpy\n");
  // Beside TensorFlow's own line it is dropped, as before.
  const auto beside = translation_of("requirements.txt", "tensorflow-cpu==2.10.0\ntensorflow-directml-plugin\n");
  REQUIRE(beside.files.size() == 1);
  CHECK(beside.files[0].text ==
        "tensorflow[and-cuda]==2.15.*\n# dropped by tfwsl migrate: tensorflow-directml-plugin\n");
}
