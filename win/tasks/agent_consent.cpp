#include "win/tasks/agent_consent.hpp"

#include "win/render/change_consent.hpp"

namespace tfwsl::cli {

Status confirm_change(Console& console, bool yes, const std::string& question, const std::string& what,
                      std::istream& in) {
  ConsentRequest request{question, yes, false, console.in_is_terminal && console.err_is_terminal};
  switch (ask_consent(request, in, console.err)) {
    case Consent::granted:
    case Consent::dry_run:
      return {};  // the commands handle --dry-run before they ask
    case Consent::needs_yes:
      return make_error(ErrorCode::invalid_input, needs_yes_reason(what));
    case Consent::declined:
      break;
  }
  return make_error(ErrorCode::cancelled, "not confirmed: nothing was changed");
}

}  // namespace tfwsl::cli
