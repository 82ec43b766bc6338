// --apply against a recording wsl.exe: shutdown, the wait on `--list --running` (on a manual clock:
// no test sleeps), the distro's MemTotal/SwapTotal/nproc compared with what the file asks for.
#include "win/wsl/wslconfig_apply.hpp"

#include <catch2/catch.hpp>

#include "tests/support/recording_process_runner.hpp"
#include "tests/support/utf16_bytes.hpp"

using namespace tfwsl;
using namespace tfwsl::wslconfig;

namespace {

constexpr std::uint64_t k_apply_gib = 1ULL << 30;
const std::string k_apply_wsl_exe = "wsl.exe";

ProcessOutcome wsl_answer(int code, std::string out) {
  ProcessOutcome o;
  o.exit_code = code;
  o.out = std::move(out);
  return o;
}

std::string fake_meminfo(std::uint64_t mem_kb, std::uint64_t swap_kb) {
  return "MemTotal:       " + std::to_string(mem_kb) +
         " kB\nMemFree:         1000 kB\nSwapTotal:      " + std::to_string(swap_kb) + " kB\n";
}

struct ApplyWorld {
  test::RecordingProcessRunner runner;
  ManualClock clock;
  int still_running_polls = 2;  // `--list --running` lists Ubuntu this many times after the shutdown
  std::vector<std::chrono::milliseconds> slept;

  explicit ApplyWorld(std::string meminfo_text, std::string nproc = "8\n") {
    runner.on({k_apply_wsl_exe, "--shutdown"}, wsl_answer(0, ""));
    runner.on({k_apply_wsl_exe, "--list", "--running"}, [this](const ProcessRequest&) -> Result<ProcessOutcome> {
      if (still_running_polls-- > 0) return wsl_answer(0, test::ascii_as_utf16le("Ubuntu\r\n"));
      return wsl_answer(-1, test::ascii_as_utf16le("There are no running distributions.\r\n"));
    });
    runner.on({k_apply_wsl_exe, "-d", "Ubuntu", "--exec", "cat", "/proc/meminfo"}, wsl_answer(0, meminfo_text));
    runner.on({k_apply_wsl_exe, "-d", "Ubuntu", "--exec", "nproc"}, wsl_answer(0, nproc));
  }

  Result<ApplyOutcome> apply(const std::string& wslconfig) {
    wsl::WslSettings settings;
    settings.exe = k_apply_wsl_exe;
    wsl::WslClient wsl(runner, settings);
    ApplySettings apply;
    apply.distro = "Ubuntu";
    apply.stop_timeout = std::chrono::seconds(10);
    apply.poll_interval = std::chrono::milliseconds(500);
    const auto expected = effective_values(Document::parse(wslconfig), HostShape{32 * k_apply_gib, 8});
    return apply_and_verify(
        wsl, clock, [this](std::chrono::milliseconds d) { slept.push_back(d), clock.advance(d); }, expected, apply);
  }
};

}  // namespace

TEST_CASE("apply shuts WSL down, waits until nothing runs, and finds the values in effect", "[wslconfig][apply]") {
  // 16 GB configured: the kernel shows a little less as MemTotal; 4 GB swap exactly.
  ApplyWorld world(fake_meminfo(16 * 1024 * 1024 * 97 / 100, 4 * 1024 * 1024));
  auto outcome = world.apply("[wsl2]\nmemory=16GB\nswap=4GB\n");
  REQUIRE(outcome);
  const auto requests = world.runner.requests();
  REQUIRE(requests.size() == 6);
  CHECK(requests[0].argv == std::vector<std::string>{k_apply_wsl_exe, "--shutdown"});
  CHECK(requests[1].argv == std::vector<std::string>{k_apply_wsl_exe, "--list", "--running", "--quiet"});
  CHECK(outcome->running_polls == 3);
  CHECK(outcome->waited_for_stop == std::chrono::milliseconds(1000));
  CHECK(world.slept.size() == 2);
  CHECK(outcome->observed.processors == 8u);
  CHECK(outcome->all_took_effect());
  REQUIRE(outcome->checks.size() == 3);
  CHECK(outcome->checks[0].summary.find("memory=16GB took effect") != std::string::npos);
}

TEST_CASE("a value that did not take effect is named", "[wslconfig][apply]") {
  // Still the 50 % default (16 GB of 32): memory=24GB did not reach the VM.
  ApplyWorld world(fake_meminfo(16 * 1024 * 1024, 8 * 1024 * 1024), "4\n");
  auto outcome = world.apply("[wsl2]\nmemory=24GB\n");
  REQUIRE(outcome);
  CHECK_FALSE(outcome->all_took_effect());
  CHECK(outcome->checks[0].verdict == Verdict::not_in_effect);
  CHECK(outcome->checks[0].summary.find("memory=24GB did not take effect: MemTotal is 16.0 GiB") != std::string::npos);
  CHECK(outcome->checks[1].verdict == Verdict::not_in_effect);  // nproc 4, 8 expected
  CHECK(outcome->checks[2].verdict == Verdict::not_in_effect);  // swap 8 GB, 6 GB expected
}

TEST_CASE("a default that took effect is named by its rule, not as a count of KB", "[wslconfig][apply]") {
  // No memory= line: WSL's default, half of the 32 GiB, is what the VM should have.
  ApplyWorld world(fake_meminfo(16 * 1024 * 1024 * 97 / 100, 4 * 1024 * 1024));
  auto outcome = world.apply("[wsl2]\nswap=4GB\n");
  REQUIRE(outcome);
  CHECK(outcome->checks[0].verdict == Verdict::took_effect);
  CHECK(outcome->checks[0].summary ==
        "memory, WSL's default (half of the 32.0 GiB RAM): 16.0 GiB took effect (MemTotal 15.5 GiB)");
}

TEST_CASE("a WSL that does not stop ends the wait at the timeout", "[wslconfig][apply]") {
  ApplyWorld world(fake_meminfo(1, 1));
  world.still_running_polls = 1000;
  auto outcome = world.apply("[wsl2]\nmemory=16GB\n");
  REQUIRE_FALSE(outcome);
  CHECK(outcome.error().code == ErrorCode::timeout);
  CHECK(outcome.error().message.find("Ubuntu still running 10 s after wsl --shutdown") != std::string::npos);
  CHECK(world.slept.size() == 20);  // 10 s in 500 ms steps, on the manual clock
}

TEST_CASE("the distro's /proc/meminfo and nproc are read", "[wslconfig][apply]") {
  const DistroShape shape = parse_distro_shape(fake_meminfo(8000000, 0), " 12\n");
  CHECK(shape.mem_total_bytes == 8000000ULL * 1024);
  CHECK(shape.swap_total_bytes == 0u);
  CHECK(shape.processors == 12u);
  CHECK_FALSE(parse_distro_shape("garbage", "x").mem_total_bytes);
}
