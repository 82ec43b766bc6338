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

// The real host, with each figure a setting names standing in for the real one.
class SettingsHost final : public cli::HostPort {
 public:
  explicit SettingsHost(cli::SystemHost& real) : m_real(real) {}
  const host::SystemInfo& system() override {
    if (!m_system) {
      m_system = m_real.system();
      if (ram) m_system->ram_bytes = *ram;
    }
    return *m_system;
  }
  unsigned logical_processors() override { return processors ? *processors : m_real.logical_processors(); }
  Result<std::uint64_t> free_bytes(const std::string& path) override {
    if (free) return *free;
    return m_real.free_bytes(path);
  }
  std::string drive_root() override { return drive ? *drive : m_real.drive_root(); }

  std::optional<std::uint64_t> ram;
  std::optional<unsigned> processors;
  std::optional<std::uint64_t> free;
  std::optional<std::string> drive;

 private:
  cli::SystemHost& m_real;
  std::optional<host::SystemInfo> m_system;
};

}  // namespace

std::unique_ptr<cli::HostPort> configure_cli_test_ports(Console& console, cli::SystemHost& real) {
  auto host = std::make_unique<SettingsHost>(real);
  if (auto ram = setting(console, "TFWSL_TEST_HOST_RAM")) {
    auto bytes = parse_wsl_size(*ram);
    if (!bytes) refuse("TFWSL_TEST_HOST_RAM", *ram, "a size such as 16GB");
    host->ram = *bytes;
  }
  if (auto cpus = setting(console, "TFWSL_TEST_HOST_PROCESSORS"))
    host->processors = static_cast<unsigned>(whole_number("TFWSL_TEST_HOST_PROCESSORS", *cpus));
  if (auto free = setting(console, "TFWSL_TEST_HOST_FREE_BYTES"))
    host->free = whole_number("TFWSL_TEST_HOST_FREE_BYTES", *free);
  if (auto root = setting(console, "TFWSL_TEST_DRIVE_ROOT")) host->drive = *root;
  if (auto stage = setting(console, "TFWSL_TEST_REPLACE_FAULT")) set_replace_stop_stage(replace_fault(*stage));
  if (!host->ram && !host->processors && !host->free && !host->drive) return nullptr;
  return host;
}

}  // namespace tfwsl::test
