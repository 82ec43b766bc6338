#pragma once
// Consent before a command changes the machine (writing .wslconfig, restarting WSL): --dry-run
// shows the change and does nothing; --yes agrees for scripts; on a terminal the user is asked;
// anywhere else, without --yes, nothing happens and the command exits 2 saying to pass --yes.

#include <iosfwd>
#include <string>

namespace tfwsl {

enum class Consent { granted, declined, dry_run, needs_yes };

struct ConsentRequest {
  std::string question;      // "Write C:\\Users\\me\\.wslconfig?"; " [y/N] " is added
  bool yes = false;          // --yes
  bool dry_run = false;      // --dry-run (wins over --yes)
  bool interactive = false;  // stdin and stderr are terminals
};

// Asks on `err` and reads one line from `in` when it must; "y" or "yes" (any case) agrees.
Consent ask_consent(const ConsentRequest& request, std::istream& in, std::ostream& err);

// The message for Consent::needs_yes: "<command>: not asking on a terminal: pass --yes to <what>
// (or --dry-run to see the change first)".
std::string needs_yes_message(const std::string& command, const std::string& what);
// The same without the command's name, for an error its caller prefixes.
std::string needs_yes_reason(const std::string& what);

}  // namespace tfwsl
