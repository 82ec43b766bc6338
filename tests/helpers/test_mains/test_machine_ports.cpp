#include "tests/helpers/test_mains/test_machine_ports.hpp"

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>

#include "common/units/size_parser.hpp"
#include "common/util/atomic_file.hpp"

namespace tfwsl::test {
namespace {

[[noreturn]] void refuse(const std::string& name, const std::string& value, const char* expected) {
  std::cerr << "test program: " << name << "='" << value << "' is not " << expected << "\n";
  std::exit(2);
}

std::optional<std::string> setting(const Console& console, const char* name) {
  auto value = console.environment ? console.environment(name) : std::nullopt;
  if (!value || value->empty()) return std::nullopt;
  return value;
}

std::uint64_t whole_number(const std::string& name, const std::string& value) {
  std::uint64_t n = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec != std::errc() || end != value.data() + value.size()) refuse(name, value, "a whole number");
  return n;
}

ReplaceFault replace_fault(const std::string& value) {
  if (value == "half-written") return ReplaceFault::half_written;
  if (value == "before-swap") return ReplaceFault::before_swap;
  refuse("TFWSL_TEST_REPLACE_FAULT", value, "half-written or before-swap");
}

}  // namespace

void configure_cli_test_ports(Console& console) {
  if (auto ram = setting(console, "TFWSL_TEST_HOST_RAM")) {
    auto bytes = parse_wsl_size(*ram);
    if (!bytes) refuse("TFWSL_TEST_HOST_RAM", *ram, "a size such as 16GB");
    console.machine.host_ram_bytes = [n = *bytes] { return n; };
  }
  if (auto cpus = setting(console, "TFWSL_TEST_HOST_PROCESSORS")) {
    const auto n = static_cast<unsigned>(whole_number("TFWSL_TEST_HOST_PROCESSORS", *cpus));
    console.machine.host_processors = [n] { return n; };
  }
  if (auto free = setting(console, "TFWSL_TEST_HOST_FREE_BYTES")) {
    const auto n = whole_number("TFWSL_TEST_HOST_FREE_BYTES", *free);
    console.machine.host_free_bytes = [n](const std::string&) { return n; };
  }
  if (auto root = setting(console, "TFWSL_TEST_DRIVE_ROOT")) console.machine.drive_root = [r = *root] { return r; };
  if (auto stage = setting(console, "TFWSL_TEST_REPLACE_FAULT")) set_replace_stop_stage(replace_fault(*stage));
}

}  // namespace tfwsl::test
