#pragma once
// The port through which `tfwsl dsc` runs tfwsl's own commands (`wslconfig show|set --json`,
// `provision --check|--yes --json`): a fleet resource is a thin mapping onto the CLI's published
// JSON contract (docs/fleet.md), so it gets every rule those commands have (backup, lock, consent
// with --yes, the one judge) without a second implementation. Real: this executable as a child
// process; fake: canned answers (tests/unit/cli/dsc_resources_test.cpp).

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/core/error.hpp"
#include "common/process/process_runner.hpp"

namespace tfwsl::cli {

struct Invocation {
  int exit_code = -1;
  std::string out;  // UTF-8: tfwsl's stdout (the --json document)
  std::string err;  // UTF-8: its messages
};

class TfwslInvoker {
 public:
  virtual ~TfwslInvoker() = default;
  // Runs `tfwsl ARGS...`; an error only when it could not be started or ran past its limit.
  virtual Result<Invocation> run(const std::vector<std::string>& args) = 0;
};

// This very executable (own_executable_path), through the process-runner port.
class ChildTfwslInvoker final : public TfwslInvoker {
 public:
  ChildTfwslInvoker(ProcessRunner& runner, std::string executable);
  Result<Invocation> run(const std::vector<std::string>& args) override;

 private:
  ProcessRunner& m_runner;
  std::string m_executable;
};

// The --json document a command printed. A child that printed none (a usage error, a crash) is an
// error naming the command line, its exit status and its last message.
Result<nlohmann::json> json_document(const Invocation& reply, const std::vector<std::string>& args);

}  // namespace tfwsl::cli
