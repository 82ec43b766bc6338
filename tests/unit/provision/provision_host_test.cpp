#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "common/compat/compat_db.hpp"
#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_source.hpp"
#include "common/text/utf_convert.hpp"
#include "tests/support/recording_process_runner.hpp"
#include "tests/support/test_environment.hpp"
#include "win/commands/provision_host.hpp"

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
  runner.on({k_wsl, "--install", "-d", "Ubuntu-22.04", "--no-launch"}, [&version](const ProcessRequest&) -> Result<ProcessOutcome> {
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
