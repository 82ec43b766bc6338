#include <catch2/catch.hpp>

#include "common/parse/toml_requirements.hpp"
#include "tests/unit/migrate/fake_project_files.hpp"
#include "win/migrate/code_scan.hpp"
#include "win/migrate/proc_mounts.hpp"
#include "win/migrate/project_scan.hpp"
#include "win/migrate/tf_decision.hpp"

using namespace tfwsl;
using namespace tfwsl::migrate;

TEST_CASE("Windows paths are found raw, escaped and with forward slashes, URLs are not", "[migrate][scan]") {
  CHECK(windows_paths_in_line(R"(DATA = r"D:\data\flowers")") == std::vector<std::string>{"D:\\data\\flowers"});
  CHECK(windows_paths_in_line(R"(p = "E:\\models\\x\\")") == std::vector<std::string>{"E:\\models\\x"});
  CHECK(windows_paths_in_line(R"({"root": "C:/Users/me/My Data/set"})") ==
        std::vector<std::string>{"C:\\Users\\me\\My Data\\set"});
  CHECK(windows_paths_in_line("data_dir: F:\\imgs  # train") == std::vector<std::string>{"F:\\imgs"});
  CHECK(windows_paths_in_line("url = 'https://example.com/x' and s3://b/k and C:\\").empty());
  CHECK(windows_paths_in_line("a = 'C:\\a\\b', b = 'D:\\c\\d'").size() == 2);
}

TEST_CASE("read_toml_requirements names the line and column where a file stops being TOML", "[migrate][scan]") {
  using parse::read_toml_requirements;
  using parse::RequirementsFormat;
  CHECK_FALSE(
      read_toml_requirements("[project]\nname = \"x\"\ndependencies = [\n  \"numpy\",  # c\n]\n[tool.x]\na = {b = 1}\n",
                             RequirementsFormat::pyproject_pep621)
          .error);
  CHECK_FALSE(
      read_toml_requirements("doc = \"\"\"\nmany [ lines\n\"\"\"\n", RequirementsFormat::pyproject_pep621).error);
  auto unclosed =
      read_toml_requirements("[project]\ndependencies = [\n  \"numpy,\n]\n", RequirementsFormat::pyproject_pep621);
  REQUIRE(unclosed.error);
  CHECK(unclosed.error_line == 3);
  auto stray = read_toml_requirements("[project]\nname = \"x\"\njust words\n", RequirementsFormat::pyproject_pep621);
  REQUIRE(stray.error);
  CHECK(stray.error_line == 3);
  CHECK(stray.error->starts_with("line 3, column "));
  CHECK(read_toml_requirements("a = [1, 2\n", RequirementsFormat::pyproject_pep621).error);
}

TEST_CASE("the scan follows -r and -c, notes a missing include, and reads .python-version", "[migrate][scan]") {
  migrate::test::FakeProjectFiles fs;
  fs.files["requirements.txt"] = "-r reqs/base.txt\n-c ../outside.txt\n--constraint missing.txt\nflask\n";
  fs.files["reqs/base.txt"] = "-r ../requirements.txt\ntensorflow>=2.13\n";
  fs.files[".python-version"] = "3.11.4\n";
  fs.files["train.py"] =
      "import keras\nfrom tensorflow import keras as k\nx = tf.keras.layers.Dense(1)\nm.fit_generator(g)\n";
  fs.files["notes.md"] = "import tensorflow";  // not code
  const auto scan = scan_project(fs, builtin_migrate_facts());
  REQUIRE(scan);
  REQUIRE(scan->requirements.size() == 2);
  CHECK(scan->requirements[1].path == "reqs/base.txt");
  CHECK(scan->requirements[1].included_by == "requirements.txt");
  CHECK(scan->notes.size() == 2);  // ../outside.txt climbs out; missing.txt is not there
  REQUIRE(scan->python);
  CHECK(scan->python->spec == "3.11");
  CHECK(scan->python->file == ".python-version");
  CHECK(scan->imports_tensorflow);
  CHECK(scan->imports_keras);
  CHECK(scan->uses_tf_keras);
  REQUIRE(scan->keras2_apis.size() == 1);
  CHECK(scan->keras2_apis[0].line == 4);
}

TEST_CASE("a missing project and a pyproject.toml that is not TOML are errors", "[migrate][scan]") {
  migrate::test::FakeProjectFiles missing;
  missing.exists = false;
  CHECK(scan_project(missing, builtin_migrate_facts()).error().code == ErrorCode::not_found);
  migrate::test::FakeProjectFiles broken;
  broken.files["pyproject.toml"] = "[project]\ndependencies = [\"tensorflow\n";
  auto scan = scan_project(broken, builtin_migrate_facts());
  REQUIRE_FALSE(scan);
  CHECK(scan.error().code == ErrorCode::parse);
  CHECK(scan.error().message.find("pyproject.toml:2:") == 0);
  CHECK(scan.error().message.find("nothing was changed") != std::string::npos);
}

TEST_CASE("requirement files are known by name, generated siblings are skipped", "[migrate][scan]") {
  CHECK(requirements_format_of("requirements-gpu.txt") == parse::RequirementsFormat::requirements_txt);
  CHECK(requirements_format_of("requirements/requirements_nvidia.txt") == parse::RequirementsFormat::requirements_txt);
  CHECK(requirements_format_of("Pipfile") == parse::RequirementsFormat::pipfile);
  CHECK_FALSE(requirements_format_of("sub/setup.py"));
  CHECK_FALSE(requirements_format_of("Pipfile.lock"));
  migrate::test::FakeProjectFiles fs;
  fs.files["requirements.txt"] = "tensorflow\n";
  fs.files["requirements.wsl.txt"] = "tensorflow[and-cuda]==2.15.*\n";
  auto scan = scan_project(fs, builtin_migrate_facts());
  REQUIRE(scan);
  CHECK(scan->requirements.size() == 1);
}

TEST_CASE("the drive mounts come from /proc/mounts' drive file systems only", "[migrate][scan]") {
  const char* mounts =
      "none /mnt/wsl tmpfs rw 0 0\n"
      "C:\\134 /mnt/c 9p rw,dirsync,aname=drvfs 0 0\n"
      "D: /mnt/d drvfs rw 0 0\n"
      "/dev/sdc / ext4 rw 0 0\n"
      "tmpfs /mnt/x tmpfs rw 0 0\n";
  CHECK(drives_in_proc_mounts(mounts) == std::set<char>{'c', 'd'});
}

TEST_CASE("markers that keep a requirement off Linux", "[migrate][scan]") {
  CHECK(marker_excludes_linux("sys_platform == \"win32\""));
  CHECK(marker_excludes_linux("platform_system=='Windows'"));
  CHECK(marker_excludes_linux("sys_platform == 'darwin' and platform_machine == 'arm64'"));
  CHECK(marker_excludes_linux("sys_platform != 'linux'"));
  CHECK_FALSE(marker_excludes_linux("sys_platform != 'win32'"));
  CHECK_FALSE(marker_excludes_linux("python_version >= '3.8'"));
  CHECK_FALSE(marker_excludes_linux("sys_platform == 'linux'"));
  CHECK_FALSE(marker_excludes_linux(""));
  // Evaluated as pip does, for every shipped profile's Python: a Python no profile has is off too,
  // and a marker that cannot be evaluated here keeps the requirement.
  CHECK(marker_excludes_linux("python_version < '3.9'"));
  CHECK(marker_excludes_linux("python_version < \"3.9\" and sys_platform == \"linux\""));
  CHECK_FALSE(marker_excludes_linux("python_version >= '3.11' or sys_platform == 'win32'"));
  CHECK_FALSE(marker_excludes_linux("platform_release >= '10'"));
  CHECK_FALSE(marker_excludes_linux("sys_platform == 'win32' and"));
}

TEST_CASE("Keras 3's names are matched by their dotted components, never as a prefix of another", "[migrate][scan]") {
  const auto& facts = builtin_migrate_facts();
  ProjectScan kept;
  // Keras 3 keeps these (issue 44, keras-team/keras#19365): not a reason to ask for legacy Keras.
  scan_code("train.py",
            "ds = tf.keras.preprocessing.image_dataset_from_directory(path)\n"
            "img = tf.keras.preprocessing.image.load_img(p)\nx = tf.keras.preprocessing.image.img_to_array(img)\n",
            facts, kept);
  CHECK(kept.keras2_apis.empty());
  ProjectScan dropped;
  scan_code("aug.py", "from tensorflow.keras.preprocessing.image import ImageDataGenerator\n", facts, dropped);
  REQUIRE(dropped.keras2_apis.size() == 1);
  CHECK(dropped.keras2_apis[0].line == 1);
}
