#pragma once
// The machine the agent works on, as ports: built once by its main (linux/app/agent_program.hpp) or
// by the test agent, and passed from the command registry to each verb. No verb, probe or step
// builds a process runner of its own (layering.one-machine): each takes the machine's, or wraps it.

#include <functional>
#include <memory>
#include <stop_token>

#include "common/process/process_runner.hpp"
#include "linux/dataset/import_types.hpp"

namespace tfwsl::agent {

struct AgentMachine {
  ProcessRunner& processes;  // every program the agent starts
  // A runner whose children are killed once `stop` is requested (serve's probes, at shutdown).
  std::function<std::shared_ptr<ProcessRunner>(std::stop_token stop)> stoppable_processes;
  // Told of each step of the dataset engine with its file: nothing is told in the shipped agent; the
  // test agent kills itself at a chosen step (tests/integration/dataset/fault_injection.py).
  dataset::FaultHook import_step;

  // `processes` for a holder that shares ownership (a probe environment); the machine outlives it.
  std::shared_ptr<ProcessRunner> shared_processes() const { return {std::shared_ptr<ProcessRunner>(), &processes}; }
};

}  // namespace tfwsl::agent
