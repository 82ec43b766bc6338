// linux/venv/venv_requirements: requirements files against a venv's files (no process started).
#include "linux/venv/venv_requirements.hpp"

#include <sys/stat.h>

#include <catch2/catch.hpp>

#include "tests/support/test_environment.hpp"

using namespace tfwsl;
using namespace tfwsl::test;

namespace {

void write_venv_file(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  write_file(path, text);
}

// A venv as `python -m venv` leaves it, with numpy 1.26.4 and PyYAML 6.0.1 installed.
void make_venv(const std::filesystem::path& venv) {
  write_venv_file(venv / "pyvenv.cfg", "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.7\n");
  write_venv_file(venv / "bin/python", "");
  const auto site = venv / "lib/python3.11/site-packages";
  write_venv_file(site / "numpy-1.26.4.dist-info/METADATA", "Name: numpy\nVersion: 1.26.4\n");
  write_venv_file(site / "PyYAML-6.0.1.dist-info/METADATA", "Name: PyYAML\nVersion: 6.0.1\n");
}

std::vector<std::string> unmet_names(const venv::RequirementsCheck& check) {
  std::vector<std::string> out;
  for (const auto& u : check.unmet) out.push_back(u.requirement);
  return out;
}

}  // namespace

TEST_CASE("venv requirements: met, unmet, markers and constraints", "[venv]") {
  TempDir dir;
  const auto venv = dir.path() / "venv";
  make_venv(venv);
  const auto req = dir.path() / "requirements.txt";
  write_venv_file(req,
                  "numpy>=1.26\npyyaml==6.*\n"
                  "pywin32; sys_platform == 'win32'\n"  // not for Linux: met
                  "tomli; python_version < '3.11'\n"    // not for this venv's 3.11.7: met
                  "numpy; platform_release >= '5'\n"    // cannot be evaluated: pip decides
                  "-c constraints.txt\n");
  write_venv_file(dir.path() / "constraints.txt", "pyyaml<6\nnotrequired==1.0\n");
  auto check = venv::check_venv_requirements(venv, {req.string()}, {});
  REQUIRE(check);
  CHECK(check->requirements == 5);  // the constraints are not counted
  CHECK(unmet_names(*check) == std::vector<std::string>{"pyyaml==6.*", "numpy; platform_release >= '5'"});
  CHECK(check->unmet[0].reason == "pyyaml 6.0.1 does not match <6");  // the constraint's verdict
  CHECK(check->unmet[0].source == req.string() + ":2");
  CHECK(check->unmet[1].reason.find("platform_release") != std::string::npos);
  CHECK_FALSE(check->unmet[0].pip_decides);
  CHECK(check->unmet[1].pip_decides);  // pip runs for it; once pip succeeded, only the decided ones count
  CHECK(unmet_names(venv::RequirementsCheck{5, check->decided_unmet(), {}}) == std::vector<std::string>{"pyyaml==6.*"});
  CHECK(check->files == std::vector<std::string>{req.string(), (dir.path() / "constraints.txt").string()});
}

TEST_CASE("venv requirements: --package specs, URLs and editables", "[venv]") {
  TempDir dir;
  const auto venv = dir.path() / "venv";
  make_venv(venv);
  auto check = venv::check_venv_requirements(
      venv, {}, {"numpy", "numpy @ https://example.invalid/numpy.whl", "pyyaml[extra]>=6"});
  REQUIRE(check);
  CHECK(check->requirements == 3);
  CHECK(unmet_names(*check) == std::vector<std::string>{"numpy @ https://example.invalid/numpy.whl"});
  CHECK(check->unmet[0].source == "--package");
  CHECK(check->unmet[0].pip_decides);
  CHECK_FALSE(venv::check_venv_requirements(venv, {}, {"-r other.txt"}));
}

TEST_CASE("venv requirements: a venv with the system's site-packages leaves what it lacks to pip", "[venv]") {
  TempDir dir;
  const auto venv = dir.path() / "venv";
  make_venv(venv);
  auto own = venv::check_venv_requirements(venv, {}, {"absentpkg"});
  REQUIRE(own);
  REQUIRE(own->unmet.size() == 1);
  CHECK_FALSE(own->unmet[0].pip_decides);
  write_venv_file(venv / "pyvenv.cfg", "home = /usr/bin\ninclude-system-site-packages = true\nversion = 3.11.7\n");
  auto shared = venv::check_venv_requirements(venv, {}, {"absentpkg", "numpy<1"});
  REQUIRE(shared);
  REQUIRE(shared->unmet.size() == 2);
  CHECK(shared->unmet[0].pip_decides);
  CHECK(shared->unmet[0].reason.find("system site-packages") != std::string::npos);
  CHECK_FALSE(shared->unmet[1].pip_decides);  // the venv's own numpy 1.26.4 is what Python imports first
}

TEST_CASE("venv requirements: bad inputs are named", "[venv]") {
  TempDir dir;
  const auto venv = dir.path() / "venv";
  make_venv(venv);
  CHECK(venv::require_venv(venv));
  auto not_venv = venv::require_venv(dir.path());
  REQUIRE_FALSE(not_venv);
  CHECK(not_venv.error().message == dir.path().string() + " is not a venv: run tfwsl provision first");
  auto missing = venv::check_venv_requirements(venv, {(dir.path() / "absent.txt").string()}, {});
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message == "requirements file " + (dir.path() / "absent.txt").string() + " does not exist");
  auto folder = venv::check_venv_requirements(venv, {dir.path().string()}, {});
  REQUIRE_FALSE(folder);
  CHECK(folder.error().message.find("is a folder") != std::string::npos);
}

TEST_CASE("venv requirements: a FIFO or a device named as a requirements file is refused, never read", "[venv]") {
  TempDir dir;
  const auto venv = dir.path() / "venv";
  make_venv(venv);
  const auto fifo = dir.path() / "requirements.txt";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);  // the old read waited here for a writer for ever
  auto from_fifo = venv::check_venv_requirements(venv, {fifo.string()}, {});
  REQUIRE_FALSE(from_fifo);
  CHECK(from_fifo.error().message ==
        "requirements file " + fifo.string() + " is a FIFO (named pipe), not a regular file");
  auto from_device = venv::check_venv_requirements(venv, {"/dev/zero"}, {});  // never ends
  REQUIRE_FALSE(from_device);
  CHECK(from_device.error().message == "requirements file /dev/zero is a device, not a regular file");
}
