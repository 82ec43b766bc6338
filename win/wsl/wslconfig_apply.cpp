#include "win/wsl/wslconfig_apply.hpp"

#include <fmt/format.h>

#include "common/check/memory_band.hpp"
#include "common/parse/line_tools.hpp"
#include "common/parse/wsl_list_parser.hpp"
#include "common/util/ascii.hpp"
#include "common/util/byte_size_text.hpp"
#include "common/util/text_lines.hpp"

namespace tfwsl::wslconfig {
namespace {

// "MemTotal:       16303456 kB" -> bytes.
std::optional<std::uint64_t> meminfo_field(std::string_view meminfo, std::string_view name) {
  for (std::string_view line : lines_of(meminfo)) {
    if (!line.starts_with(name) || line.size() <= name.size() || line[name.size()] != ':') continue;
    std::string_view rest = trim(line.substr(name.size() + 1));
    std::size_t digits = 0;
    while (digits < rest.size() && ascii_is_digit(rest[digits])) ++digits;
    if (digits == 0 || digits > 15) return std::nullopt;
    const std::uint64_t value = std::stoull(std::string(rest.substr(0, digits)));
    return trim(rest.substr(digits)) == "kB" ? value * 1024 : value;
  }
  return std::nullopt;
}

std::string size_text(std::optional<std::uint64_t> bytes) {
  return bytes ? format_bytes(*bytes) : std::string("unknown");
}

// What was expected, as a person knows it: the file's own spelling ("memory=12GB"), or WSL's default
// with its rule ("memory, WSL's default (half of the 23.5 GiB RAM): 11.8 GiB"), never a count of KB.
std::string expected_text(const std::string& key, const EffectiveValue& expected) {
  if (expected.source == ValueSource::file) return key + "=" + expected.value;
  const std::string rule = expected.default_rule.empty() ? "" : " (" + expected.default_rule + ")";
  return fmt::format("{}, WSL's default{}: {}", key, rule, size_text(expected.bytes));
}

SettingCheck compare_size(const std::string& key, const EffectiveValue* expected, std::optional<std::uint64_t> observed,
                          double low, double high, const char* field) {
  SettingCheck check{key, expected ? expected->bytes : std::nullopt, observed, Verdict::unknown, {}};
  if (!check.expected || !observed) {
    check.summary =
        fmt::format("{}: cannot tell (expected {}, {} {})", key, size_text(check.expected), field, size_text(observed));
    return check;
  }
  const double want = double(*check.expected);
  const double got = double(*observed);
  const bool ok = want == 0 ? got == 0 : (got >= want * low && got <= want * high);
  check.verdict = ok ? Verdict::took_effect : Verdict::not_in_effect;
  check.summary =
      ok ? fmt::format("{} took effect ({} {})", expected_text(key, *expected), field, size_text(observed))
         : fmt::format("{} did not take effect: {} is {}", expected_text(key, *expected), field, size_text(observed));
  return check;
}

SettingCheck compare_processors(const EffectiveValue* expected, std::optional<std::uint64_t> observed) {
  SettingCheck check{"processors", expected ? expected->count : std::nullopt, observed, Verdict::unknown, {}};
  if (!check.expected || !observed) {
    check.summary =
        "processors: cannot tell (nproc " + (observed ? std::to_string(*observed) : std::string("unknown")) + ")";
    return check;
  }
  check.verdict = *check.expected == *observed ? Verdict::took_effect : Verdict::not_in_effect;
  check.summary = check.verdict == Verdict::took_effect
                      ? fmt::format("processors={} took effect (nproc {})", *check.expected, *observed)
                      : fmt::format("processors={} did not take effect: nproc is {}", *check.expected, *observed);
  return check;
}

// Polls `wsl --list --running` until it lists nothing or the timeout passes.
Status wait_until_stopped(wsl::WslClient& wsl, const Clock& clock, const Sleeper& sleep, const ApplySettings& settings,
                          ApplyOutcome& outcome) {
  const auto start = clock.now();
  for (;;) {
    TFWSL_TRY(reply, wsl.list_running());
    ++outcome.running_polls;
    if (reply.failure.kind == wsl::WslFailureKind::wsl_not_installed)
      return tl::unexpected(wsl::to_error(reply.failure));
    const auto running = parse::parse_wsl_quiet_list(reply.text).distros;
    const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(clock.now() - start);
    if (running.empty()) {
      outcome.waited_for_stop = waited;
      return {};
    }
    if (waited >= settings.stop_timeout)
      return make_error(ErrorCode::timeout,
                        fmt::format("{} still running {} s after wsl --shutdown; the new .wslconfig is written but "
                                    "not in effect: close what keeps WSL running, then run wsl --shutdown again",
                                    running.front().name, settings.stop_timeout.count() / 1000));
    sleep(settings.poll_interval);
  }
}

Result<std::string> exec_text(wsl::WslClient& wsl, const ApplySettings& settings, std::vector<std::string> argv) {
  wsl::ExecTarget target;
  target.distro = settings.distro;
  const std::string shown = argv[0];
  TFWSL_TRY(reply, wsl.exec(target, argv));
  if (reply.failure.kind != wsl::WslFailureKind::none) return tl::unexpected(wsl::to_error(reply.failure));
  if (reply.exit_code != 0)
    return make_error(ErrorCode::process, fmt::format("{} in the distro exited {}: {}", shown, reply.exit_code,
                                                      parse::valid_utf8(reply.err_text)));
  return reply.text;
}

}  // namespace

const char* to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::took_effect:
      return "took-effect";
    case Verdict::not_in_effect:
      return "not-in-effect";
    case Verdict::unknown:
      return "unknown";
  }
  return "unknown";
}

DistroShape parse_distro_shape(std::string_view meminfo, std::string_view nproc) {
  DistroShape shape;
  shape.mem_total_bytes = meminfo_field(meminfo, "MemTotal");
  shape.swap_total_bytes = meminfo_field(meminfo, "SwapTotal");
  const std::string_view count = trim(nproc);
  if (!count.empty() && count.size() < 6 && ascii_all_digits(count)) shape.processors = std::stoull(std::string(count));
  return shape;
}

std::vector<SettingCheck> compare_shape(const std::vector<EffectiveValue>& expected, const DistroShape& observed) {
  return {compare_size("memory", find_effective(expected, "memory"), observed.mem_total_bytes, k_memtotal_low_ratio,
                       k_memtotal_high_ratio, "MemTotal"),
          compare_processors(find_effective(expected, "processors"), observed.processors),
          compare_size("swap", find_effective(expected, "swap"), observed.swap_total_bytes, 0.98, 1.02, "SwapTotal")};
}

bool ApplyOutcome::all_took_effect() const {
  for (const SettingCheck& c : checks)
    if (c.verdict != Verdict::took_effect) return false;
  return true;
}

Result<ApplyOutcome> apply_and_verify(wsl::WslClient& wsl, const Clock& clock, const Sleeper& sleep,
                                      const std::vector<EffectiveValue>& expected, const ApplySettings& settings,
                                      const std::function<void(const std::string&)>& progress) {
  auto say = [&](const std::string& step) {
    if (progress) progress(step);
  };
  ApplyOutcome outcome;
  say("wsl --shutdown");
  TFWSL_TRY(stopped, wsl.shutdown());
  if (stopped.failure.kind != wsl::WslFailureKind::none) return tl::unexpected(wsl::to_error(stopped.failure));
  say("waiting until no distribution runs (wsl --list --running)");
  TFWSL_TRY_STATUS(wait_until_stopped(wsl, clock, sleep, settings, outcome));
  say("starting " + (settings.distro.empty() ? std::string("the default distribution") : settings.distro));
  TFWSL_TRY(meminfo, exec_text(wsl, settings, {"cat", "/proc/meminfo"}));
  TFWSL_TRY(nproc, exec_text(wsl, settings, {"nproc"}));
  outcome.observed = parse_distro_shape(meminfo, nproc);
  outcome.checks = compare_shape(expected, outcome.observed);
  return outcome;
}

}  // namespace tfwsl::wslconfig
