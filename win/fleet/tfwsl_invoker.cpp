#include "win/fleet/tfwsl_invoker.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "common/process/process_runner.hpp"

namespace tfwsl::cli {
namespace {

// Windows takes a command line of at most 32,767 characters (CreateProcessW); Linux one argument of
// at most 128 KiB (MAX_ARG_STRLEN). The smaller, less room for the program's own path and quoting:
// what a typed command can carry, so the resources accept what the commands accept when typed.
constexpr std::size_t k_max_command_line = 32000;

// The argument that makes the command line too long, named before anything runs.
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

Result<Invocation> InProcessTfwslInvoker::run(const std::vector<std::string>& args) {
  TFWSL_TRY_STATUS(check_command_line(args));
  return m_run(args);
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
