#include "win/render/change_consent.hpp"

#include <istream>
#include <ostream>

#include "common/util/ascii.hpp"

namespace tfwsl {

Consent ask_consent(const ConsentRequest& request, std::istream& in, std::ostream& err) {
  if (request.dry_run) return Consent::dry_run;
  if (request.yes) return Consent::granted;
  if (!request.interactive) return Consent::needs_yes;
  err << request.question << " [y/N] " << std::flush;
  std::string answer;
  if (!std::getline(in, answer)) {
    err << "\n";
    return Consent::declined;
  }
  const std::string_view word = trim(answer);
  return iequals(word, "y") || iequals(word, "yes") ? Consent::granted : Consent::declined;
}

std::string needs_yes_reason(const std::string& what) {
  return "standard input is not a terminal, so nobody can be asked: pass --yes to " + what +
         " (or --dry-run to see the change first)";
}

std::string needs_yes_message(const std::string& command, const std::string& what) {
  return command + ": " + needs_yes_reason(what);
}

}  // namespace tfwsl
