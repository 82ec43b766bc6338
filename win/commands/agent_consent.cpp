#include "win/commands/agent_consent.hpp"

#include "common/util/ascii.hpp"

namespace tfwsl::cli {

Status ask_consent(Console& console, bool yes, const std::string& question, std::istream& in) {
  if (yes) return {};
  if (!console.in_is_terminal)
    return make_error(ErrorCode::invalid_input, "nobody to ask (stdin is not a terminal): " + question +
                                                    " Add --yes to go on, or --dry-run to see what would happen");
  console.err << question << " [y/N] " << std::flush;
  std::string answer;
  if (!std::getline(in, answer)) return make_error(ErrorCode::cancelled, "no answer: nothing was changed");
  auto word = ascii_lower(std::string(trim(answer)));
  if (word == "y" || word == "yes") return {};
  return make_error(ErrorCode::cancelled, "not confirmed: nothing was changed");
}

}  // namespace tfwsl::cli
