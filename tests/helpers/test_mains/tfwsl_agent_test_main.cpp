// tfwsl-agent-test: tfwsl-agent whose dataset engine SIGKILLs it at a chosen step when
// TFWSL_TEST_KILL_AT="STEP:N" says so (STEP: a method of the engine's ImportFiles port, or scan;
// tests/integration/dataset/fault_injection.py), so a kill -9 lands at a chosen point of a chosen
// phase rather than at a moment the machine's speed decides.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <charconv>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>

#include "linux/app/agent_program.hpp"

namespace {

void configure_agent_test_ports(tfwsl::Console& console, tfwsl::agent::AgentMachine& machine) {
  auto spec = console.environment ? console.environment("TFWSL_TEST_KILL_AT") : std::nullopt;
  if (!spec || spec->empty()) return;
  const std::string text = *spec;
  const auto colon = text.rfind(':');
  unsigned long long nth = 0;
  const std::string digits = colon == std::string::npos ? "" : text.substr(colon + 1);
  auto parsed = std::from_chars(digits.data(), digits.data() + digits.size(), nth);
  if (colon == 0 || colon == std::string::npos || digits.empty() || parsed.ec != std::errc() ||
      parsed.ptr != digits.data() + digits.size() || nth == 0) {
    std::cerr << "test agent: TFWSL_TEST_KILL_AT='" << text
              << "' is not STEP:N (N from 1), e.g. rename_into_place:10\n";
    std::exit(2);
  }
  auto calls = std::make_shared<std::atomic<unsigned long long>>(0);
  machine.import_step = [step = text.substr(0, colon), nth, calls](std::string_view at, const std::string&) {
    if (at == step && ++*calls == nth) ::kill(::getpid(), SIGKILL);
    return 0;
  };
}

}  // namespace

int main(int argc, char** argv) { return tfwsl::agent::run_agent_program(argc, argv, configure_agent_test_ports); }
