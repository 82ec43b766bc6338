#pragma once
// The port through which `tfwsl dsc` runs tfwsl's own commands (`wslconfig show|set --json`,
// `provision --check|--yes --json`): a fleet resource is a thin mapping onto the CLI's published
// JSON contract (docs/fleet.md), so it gets every rule those commands have (backup, lock, consent
// with --yes, the one judge) without a second implementation. Real: the commands run in this
// process, on the same machine, their output captured (the registry hands the way in); fake:
// canned answers (tests/unit/fleet/dsc_resources_test.cpp).

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/core/error.hpp"

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

// Runs a tfwsl command line in this process with its stdout and stderr captured (win/app's run_cli
// on string streams, no terminal).
using RunTfwslCaptured = std::function<Invocation(const std::vector<std::string>& args)>;

// The commands in this process. The arguments are held to what one command line may carry, so
// `tfwsl dsc` takes exactly the values `tfwsl wslconfig set` takes when typed.
class InProcessTfwslInvoker final : public TfwslInvoker {
 public:
  explicit InProcessTfwslInvoker(RunTfwslCaptured run) : m_run(std::move(run)) {}
  Result<Invocation> run(const std::vector<std::string>& args) override;

 private:
  RunTfwslCaptured m_run;
};

// The --json document a command printed. A child that printed none (a usage error, a crash) is an
// error naming the command line, its exit status and its last message.
Result<nlohmann::json> json_document(const Invocation& reply, const std::vector<std::string>& args);

}  // namespace tfwsl::cli
