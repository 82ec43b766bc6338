#include "win/tasks/provision_host.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "common/compat/compat_db.hpp"
#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_source.hpp"
#include "common/text/utf_convert.hpp"
#include "tests/support/recording_process_runner.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl;

namespace {

const std::string k_wsl = "C:\\Windows\\System32\\wsl.exe";

std::string utf16le(const std::string& utf8) {
  std::string bytes;
  for (char16_t ch : utf8_to_utf16(utf8)) {
    bytes += static_cast<char>(ch & 0xFF);
    bytes += static_cast<char>(ch >> 8);
  }
  return bytes;
}

ProcessOutcome answer(int code, std::string out) {
  ProcessOutcome o;
  o.exit_code = code;
  o.out = std::move(out);
  return o;
}

provision::ProvisionPlan plan_with_memory() {
  ProfileLoadOptions options;
  options.overrides = {"wsl.memory=16GB"};
  auto profile = load_profile(default_profile_name(), options);
  REQUIRE(profile.ok());
  auto plan = provision::build_provision_plan(*profile.profile, builtin_compat_db(), provision::PlanSettings{});
  REQUIRE(plan);
  return *plan;
}

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A wsl.exe without the distro until --install, which then lists it as WSL 1 until --set-version.
void missing_distro_world(test::RecordingProcessRunner& runner, int& version) {
  runner.on({k_wsl, "--version"}, answer(0, utf16le("WSL version: 2.3.26.0\r\n")));
  runner.on({k_wsl, "--status"}, answer(0, utf16le("Default Version: 2\r\n")));
  runner.on({k_wsl, "-l", "-v"}, [&version](const ProcessRequest&) -> Result<ProcessOutcome> {
    std::string table = "  NAME      STATE      VERSION\r\n* Debian    Stopped    2\r\n";
    if (version > 0) table += "  Ubuntu-22.04    Stopped    " + std::to_string(version) + "\r\n";
    return answer(0, utf16le(table));
  });
  runner.on({k_wsl, "--install", "-d", "Ubuntu-22.04", "--no-launch"},
            [&version](const ProcessRequest&) -> Result<ProcessOutcome> {
              version = 1;
              return answer(0, utf16le("Installing: Ubuntu 22.04 LTS\r\n"));
            });
  runner.on({k_wsl, "--set-version", "Ubuntu-22.04", "2"}, [&version](const ProcessRequest&) -> Result<ProcessOutcome> {
    version = 2;
    return answer(0, "");
  });
  runner.on({k_wsl, "-d", "Ubuntu-22.04", "--exec", "id", "-un"}, answer(0, "me\n"));
}

}  // namespace

TEST_CASE("host steps install the distro and set WSL 2 and edit .wslconfig in place and a second run changes nothing") {
  test::TempDir dir;
  const auto wslconfig = dir.path() / ".wslconfig";
  {
    std::ofstream out(wslconfig, std::ios::binary);
    out << "# my settings\r\n[wsl2]\r\nmemory=8GB\r\ngpuSupport=false\r\nswap=0\r\n";
  }
  test::RecordingProcessRunner runner;
  int version = 0;
  missing_distro_world(runner, version);
  wsl::WslSettings settings;
  settings.exe = k_wsl;
  wsl::WslClient wsl(runner, settings);
  cli::HostStepSettings host;
  host.wslconfig_path = path_to_utf8(wslconfig);
  const auto plan = plan_with_memory();

  auto first = cli::run_host_steps(plan, wsl, runner, host);
  INFO(first.dump(2));
  CHECK_FALSE(first.contains("failed"));
  auto result = [&](const nlohmann::json& j, const char* id) {
    for (const auto& s : j["steps"])
      if (s["id"] == id) return s["result"].get<std::string>();
    return std::string("absent");
  };
  CHECK(result(first, "distro.installed") == "changed");
  CHECK(result(first, "distro.wsl2") == "changed");
  CHECK(result(first, "wslconfig.values") == "changed");
  CHECK(result(first, "wslconfig.gpu") == "changed");
  CHECK(result(first, "distro.user") == "ok");
  CHECK(read(wslconfig) == "# my settings\r\n[wsl2]\r\nmemory=16GB\r\nswap=0\r\n");

  const auto calls = runner.requests().size();
  auto second = cli::run_host_steps(plan, wsl, runner, host);
  INFO(second.dump(2));
  for (const auto& s : second["steps"]) CHECK(s["result"] == "ok");
  const auto requests = runner.requests();
  for (std::size_t i = calls; i < requests.size(); ++i) {
    const auto& argv = requests[i].argv;
    CHECK(std::find(argv.begin(), argv.end(), "--install") == argv.end());
    CHECK(std::find(argv.begin(), argv.end(), "--set-version") == argv.end());
  }
}

TEST_CASE("host steps in --check mode say what would change and change nothing") {
  test::TempDir dir;
  test::RecordingProcessRunner runner;
  int version = 0;
  missing_distro_world(runner, version);
  wsl::WslSettings settings;
  settings.exe = k_wsl;
  wsl::WslClient wsl(runner, settings);
  cli::HostStepSettings host;
  host.check_only = true;
  host.wslconfig_path = path_to_utf8(dir.path() / ".wslconfig");
  auto j = cli::run_host_steps(plan_with_memory(), wsl, runner, host);
  INFO(j.dump(2));
  CHECK(version == 0);
  CHECK_FALSE(std::filesystem::exists(dir.path() / ".wslconfig"));
  CHECK(j["steps"][2]["result"] == "changed");
  CHECK_THAT(j["steps"][2]["message"].get<std::string>(), Catch::Contains("would change"));
}

#ifndef _WIN32
// Issue 22's sibling of items 5, 12, 13 and 17: provision's host step writes the .wslconfig as
// `tfwsl wslconfig set` does (it had its own writer: a fixed "<path>.tfwsl-tmp" opened with truncate,
// which followed a link planted there, and a rename that replaced a linked .wslconfig).
namespace {

nlohmann::json wslconfig_run(const std::filesystem::path& wslconfig) {
  test::RecordingProcessRunner runner;
  int version = 2;
  missing_distro_world(runner, version);
  wsl::WslSettings settings;
  settings.exe = k_wsl;
  wsl::WslClient wsl(runner, settings);
  cli::HostStepSettings host;
  host.wslconfig_path = path_to_utf8(wslconfig);
  return cli::run_host_steps(plan_with_memory(), wsl, runner, host);
}

std::string step_field(const nlohmann::json& j, const char* id, const char* field) {
  for (const auto& s : j["steps"])
    if (s["id"] == id) return s[field].get<std::string>();
  return "absent";
}

}  // namespace

TEST_CASE("provision's .wslconfig step writes nothing through a link planted at a temporary name",
          "[provision][safety]") {
  test::TempDir dir;
  const auto wslconfig = dir.path() / ".wslconfig";
  const auto victim = dir.path() / "victim.txt";
  std::ofstream(wslconfig, std::ios::binary) << "[wsl2]\r\nmemory=8GB\r\n";
  std::ofstream(victim, std::ios::binary) << "precious\n";
  std::filesystem::create_symlink(victim, dir.path() / ".wslconfig.tfwsl-tmp");
  auto j = wslconfig_run(wslconfig);
  INFO(j.dump(2));
  CHECK(step_field(j, "wslconfig.values", "result") == "changed");
  CHECK(read(victim) == "precious\n");
  CHECK(read(wslconfig) == "[wsl2]\r\nmemory=16GB\r\n");
  CHECK_THAT(step_field(j, "wslconfig.values", "message"), Catch::Contains(".wslconfig.tfwsl-backup-"));
}

TEST_CASE("provision's .wslconfig step writes through a linked .wslconfig and keeps the link", "[provision][safety]") {
  test::TempDir dir;
  const auto real = dir.path() / "dotfiles-wslconfig";
  const auto wslconfig = dir.path() / ".wslconfig";
  std::ofstream(real, std::ios::binary) << "[wsl2]\r\nmemory=8GB\r\n";
  std::filesystem::create_symlink(real, wslconfig);
  auto j = wslconfig_run(wslconfig);
  INFO(j.dump(2));
  CHECK(std::filesystem::is_symlink(wslconfig));
  CHECK(read(real) == "[wsl2]\r\nmemory=16GB\r\n");
}

TEST_CASE("provision's .wslconfig step refuses what is no .wslconfig, and a read-only one, writing nothing",
          "[provision][safety]") {
  test::TempDir dir;
  const auto wslconfig = dir.path() / ".wslconfig";
  std::ofstream(wslconfig, std::ios::binary) << "[wsl2]\r\n" << std::string(2u << 20, '#') << "\r\n";
  auto big = wslconfig_run(wslconfig);
  CHECK(step_field(big, "wslconfig.values", "result") == "failed");
  CHECK_THAT(step_field(big, "wslconfig.values", "message"), Catch::Contains(path_to_utf8(wslconfig)));
  std::filesystem::remove(wslconfig);
  std::ofstream(wslconfig, std::ios::binary) << "[wsl2]\r\nmemory=8GB\r\n";
  std::filesystem::permissions(wslconfig, std::filesystem::perms::owner_read);
  auto read_only = wslconfig_run(wslconfig);
  // Refused by its mode (as `wslconfig set` refuses it), so also when the tests run as root.
  CHECK(step_field(read_only, "wslconfig.values", "result") == "failed");
  CHECK_THAT(step_field(read_only, "wslconfig.values", "message"), Catch::Contains("read-only"));
  CHECK(read(wslconfig) == "[wsl2]\r\nmemory=8GB\r\n");
  for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
    CHECK(entry.path().filename().string().find("tfwsl-tmp") == std::string::npos);
}
#endif
