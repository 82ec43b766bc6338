// linux/provision's readers: dpkg's files, its locks, the journal, a venv's dist-info.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>

#include "common/version/version_spec.hpp"
#include "linux/provision/dpkg_state.hpp"
#include "linux/provision/provision_journal.hpp"
#include "linux/provision/venv_contents.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl;
using namespace tfwsl::provision;

namespace {

void write(const std::filesystem::path& p, const std::string& text) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

}  // namespace

TEST_CASE("dpkg status gives the installed packages and a killed run's half-configured package and journal files") {
  test::TempDir root;
  write(root.path() / "var/lib/dpkg/status",
        "Package: curl\nStatus: install ok installed\nVersion: 7\n\n"
        "Package: old\nStatus: deinstall ok config-files\n\n"
        "Package: cuda-toolkit-12-2\nStatus: install ok half-configured\n");
  std::filesystem::create_directories(root.path() / "var/lib/dpkg/updates");
  auto clean = read_dpkg_state(root.path());
  REQUIRE(clean);
  CHECK(clean->has("curl"));
  CHECK_FALSE(clean->has("old"));
  CHECK(clean->unfinished == std::vector<std::string>{"cuda-toolkit-12-2 (half-configured)"});
  CHECK(clean->interrupted());
  write(root.path() / "var/lib/dpkg/updates/0003", "Package: x\n");
  write(root.path() / "var/lib/dpkg/updates/tmp.i", "");
  auto with_updates = read_dpkg_state(root.path());
  REQUIRE(with_updates);
  CHECK(with_updates->pending_updates == std::vector<std::string>{"0003"});
  CHECK_THAT(with_updates->describe_interruption(), Catch::Contains("1 unmerged journal file(s)"));
  CHECK_FALSE(read_dpkg_state(root.path() / "nowhere"));
}

TEST_CASE("the dpkg lock held by another process is named by its PID after the wait") {
  test::TempDir root;
  const auto lock = root.path() / "var/lib/dpkg/lock-frontend";
  write(lock, "");
  CHECK_FALSE(dpkg_lock_holder(root.path()));
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t child = ::fork();
  if (child == 0) {
    const int fd = ::open(lock.c_str(), O_RDWR);
    struct flock l {};
    l.l_type = F_WRLCK;
    l.l_whence = SEEK_SET;
    ::fcntl(fd, F_SETLK, &l);
    (void)!::write(ready[1], "x", 1);
    ::pause();
    ::_exit(0);
  }
  char c = 0;
  REQUIRE(::read(ready[0], &c, 1) == 1);
  auto holder = dpkg_lock_holder(root.path());
  REQUIRE(holder);
  CHECK(holder->pid == child);
  CHECK(holder->lock == "/var/lib/dpkg/lock-frontend");
  const auto started = std::chrono::steady_clock::now();
  auto waited = wait_for_dpkg_lock(root.path(), std::chrono::milliseconds(600));
  CHECK(std::chrono::steady_clock::now() - started >= std::chrono::milliseconds(600));
  REQUIRE_FALSE(waited);
  CHECK(waited.error().code == ErrorCode::conflict);
  CHECK_THAT(waited.error().message, Catch::Contains("dpkg lock busy (held by PID " + std::to_string(child)));
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  CHECK(wait_for_dpkg_lock(root.path(), std::chrono::milliseconds(600)));
  ::close(ready[0]);
  ::close(ready[1]);
}

TEST_CASE("the journal of a run that never ended names the step it was in and a finished run names nothing") {
  test::TempDir dir;
  ProvisionJournal journal(dir.path() / "journal.jsonl");
  CHECK_FALSE(journal.last_interruption());
  journal.run_started("r1");
  journal.step_started("cuda.repository");
  journal.step_ended("cuda.repository", "changed");
  journal.step_started("cuda.toolkit");
  auto interrupted = ProvisionJournal(dir.path() / "journal.jsonl").last_interruption();
  REQUIRE(interrupted);
  CHECK(interrupted->run == "r1");
  CHECK(interrupted->step == "cuda.toolkit");
  std::ofstream(dir.path() / "journal.jsonl", std::ios::app) << "{\"run\":\"r1\",\"ev";  // a line cut by the kill
  CHECK(ProvisionJournal(dir.path() / "journal.jsonl").last_interruption()->step == "cuda.toolkit");
  ProvisionJournal again(dir.path() / "journal.jsonl");
  again.run_started("r2");
  again.run_ended();
  CHECK_FALSE(again.last_interruption());
}

TEST_CASE("a venv's requirements are checked from its dist-info with the extras") {
  test::TempDir venv;
  write(venv.path() / "pyvenv.cfg", "home = /usr/bin\nversion = 3.11.2\n");
  const auto site = venv.path() / "lib/python3.11/site-packages";
  write(site / "tensorflow-2.15.1.dist-info/METADATA",
        "Name: tensorflow\nVersion: 2.15.1\nRequires-Dist: nvidia-cudnn-cu12==8.9.4.25; extra == \"and-cuda\"\n"
        "Requires-Dist: numpy<2.0.0,>=1.23.5\n");
  write(site / "numpy-1.26.4.dist-info/METADATA", "Name: numpy\n");
  CHECK(venv_python_version(venv.path()) == "3.11.2");
  auto installed = venv_distributions(venv.path());
  CHECK(unmet_requirement(installed, "tensorflow==2.15.*").empty());
  CHECK(unmet_requirement(installed, "numpy<2").empty());
  CHECK(unmet_requirement(installed, "tensorflow==2.16.*") == "tensorflow 2.15.1 does not match ==2.16.*");
  CHECK(unmet_requirement(installed, "tensorflow[and-cuda]==2.15.*") ==
        "nvidia-cudnn-cu12 (from tensorflow[and-cuda]) is not installed");
  write(site / "nvidia_cudnn_cu12-8.9.4.25.dist-info/METADATA", "Name: nvidia-cudnn-cu12\n");
  installed = venv_distributions(venv.path());
  CHECK(unmet_requirement(installed, "tensorflow[and-cuda]==2.15.*").empty());
  CHECK(unmet_requirement(installed, "keras") == "keras is not installed");
}

// METADATA's Requires-Dist values are PEP 508 requirements, read by the one requirement reader:
// the marker's blanks and quotes are the packager's choice (setuptools writes extra == "x",
// others extra=='x'), and a name is folded as PEP 503 says.
TEST_CASE("an extra's requirements are read from METADATA however its marker is spaced or quoted") {
  test::TempDir venv;
  write(venv.path() / "pyvenv.cfg", "home = /usr/bin\nversion = 3.11.2\n");
  const auto site = venv.path() / "lib/python3.11/site-packages";
  write(site / "tensorflow-2.15.1.dist-info/METADATA",
        "Name: tensorflow\nVersion: 2.15.1\nRequires-Dist: Nvidia_CuBLAS_cu12==12.2.5.6; extra=='and-cuda'\n"
        "Requires-Dist: nvidia-cudnn-cu12 (==8.9.4.25) ; python_version >= \"3.9\" and extra == \"and-cuda\"\n"
        "Requires-Dist: numpy<2.0.0,>=1.23.5\nRequires-Dist: portpicker ; extra == \"testing\"\n");
  const auto needed = extra_requirements(site / "tensorflow-2.15.1.dist-info", "and-cuda");
  CHECK(needed == std::vector<std::string>{"nvidia-cublas-cu12", "nvidia-cudnn-cu12"});
  const auto state =
      check_installed(venv_distributions(venv.path()), *parse_requirement("tensorflow[and-cuda]==2.15.*"));
  CHECK(state.state == RequirementState::State::extra_missing);
  CHECK(state.reason == "nvidia-cublas-cu12 (from tensorflow[and-cuda]) is not installed");
  CHECK(check_installed({}, *parse_requirement("keras")).state == RequirementState::State::not_installed);
}

TEST_CASE("an installed pre-release meets a requirement its clauses allow, as pip counts it") {
  test::TempDir venv;
  write(venv.path() / "pyvenv.cfg", "home = /usr/bin\nversion = 3.11.2\n");
  write(venv.path() / "lib/python3.11/site-packages/tensorflow-2.16.0rc0.dist-info/METADATA",
        "Name: tensorflow\nVersion: 2.16.0rc0\n");
  const auto installed = venv_distributions(venv.path());
  CHECK(unmet_requirement(installed, "tensorflow>=2.15").empty());
  CHECK(unmet_requirement(installed, "tensorflow<2.16") == "tensorflow 2.16.0rc0 does not match <2.16");
}

// Issue 22's sibling of item 1: root (provision's checks) reads pyvenv.cfg and METADATA in the
// user's venv. A link planted there is not followed (it read any file root can read, and its
// version= line went into the recap), and a FIFO is not waited on (the root agent hung).
TEST_CASE("root reads no venv file through a link and never waits on a FIFO", "[provision][safety]") {
  test::TempDir venv;
  test::TempDir elsewhere;
  write(elsewhere.path() / "root-only.cfg", "version = 9.9.9\n");
  std::filesystem::create_symlink(elsewhere.path() / "root-only.cfg", venv.path() / "pyvenv.cfg");
  CHECK_FALSE(venv_python_version(venv.path()));
  const auto dist_info = venv.path() / "lib/python3.11/site-packages/tensorflow-2.15.1.dist-info";
  std::filesystem::create_directories(dist_info);
  write(elsewhere.path() / "METADATA", "Requires-Dist: nvidia-cudnn-cu12==8.9.4.25; extra == \"and-cuda\"\n");
  std::filesystem::create_symlink(elsewhere.path() / "METADATA", dist_info / "METADATA");
  CHECK(extra_requirements(dist_info, "and-cuda").empty());
  std::filesystem::remove(venv.path() / "pyvenv.cfg");
  REQUIRE(::mkfifo((venv.path() / "pyvenv.cfg").c_str(), 0600) == 0);
  CHECK_FALSE(venv_python_version(venv.path()));  // returns at once: no writer is ever coming
}
