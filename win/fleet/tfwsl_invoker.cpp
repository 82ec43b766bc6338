#include "win/fleet/tfwsl_invoker.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

namespace tfwsl::cli {
namespace {

// Provisioning downloads several GB (CUDA, the TensorFlow wheels): a step may take long on a slow
// line. The limit is there so a hung child cannot hold a fleet engine's run for ever.
constexpr std::chrono::hours k_invocation_limit{2};

// Windows takes a command line of at most 32,767 characters (CreateProcessW); Linux one argument of
// at most 128 KiB (MAX_ARG_STRLEN). The smaller, less room for the program's own path and quoting.
constexpr std::size_t k_max_command_line = 32000;

// The argument that makes the command line too long, named before anything starts: the process
// start would fail with E2BIG (or ERROR_FILENAME_EXCED_RANGE) and say only "could not start".
Status check_command_line(const std::vector<std::string>& args) {
  std::size_t total = 0;
  for (const std::string& arg : args) total += arg.size() + 3;  // a space and quotes
  if (total <= k_max_command_line) return {};
  const auto longest = std::max_element(args.begin(), args.end(),
                                        [](const std::string& a, const std::string& b) { return a.size() < b.size(); });
  return make_error(ErrorCode::invalid_input,
                    fmt::format("the value '{}...' ({} characters) is too long to pass on a command line (at most {} "
                                "characters in all): shorten it",
                                longest->substr(0, 40), longest->size(), k_max_command_line));
}

}  // namespace

ChildTfwslInvoker::ChildTfwslInvoker(ProcessRunner& runner, std::string executable)
    : m_runner(runner), m_executable(std::move(executable)) {}

Result<Invocation> ChildTfwslInvoker::run(const std::vector<std::string>& args) {
  TFWSL_TRY_STATUS(check_command_line(args));
  ProcessRequest request;
  request.argv.push_back(m_executable);
  request.argv.insert(request.argv.end(), args.begin(), args.end());
  request.timeout = k_invocation_limit;
  TFWSL_TRY(outcome, m_runner.run(request));
  if (outcome.timed_out)
    return make_error(ErrorCode::timeout,
                      fmt::format("{} ran past its limit and was stopped", describe_command(request.argv)),
                      outcome.err);
  return Invocation{outcome.exit_code, std::move(outcome.out), std::move(outcome.err)};
}

Result<nlohmann::json> json_document(const Invocation& reply, const std::vector<std::string>& args) {
  auto document = nlohmann::json::parse(reply.out, nullptr, false);
  if (!document.is_discarded() && document.is_object()) return document;
  std::vector<std::string> argv{"tfwsl"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::string said = reply.err;
  while (!said.empty() && (said.back() == '\n' || said.back() == '\r')) said.pop_back();
  if (const auto cut = said.rfind('\n'); cut != std::string::npos) said = said.substr(cut + 1);
  return make_error(ErrorCode::process,
                    fmt::format("{} exited {} without its JSON answer{}{}", describe_command(argv), reply.exit_code,
                                said.empty() ? "" : ": ", said),
                    reply.out.substr(0, 2000));
}

}  // namespace tfwsl::cli
