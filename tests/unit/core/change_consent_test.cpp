// Consent before a change: --dry-run, --yes, a question on a terminal, and a refusal elsewhere.
#include "win/render/change_consent.hpp"

#include <catch2/catch.hpp>
#include <sstream>

using namespace tfwsl;

namespace {

Consent decide(bool yes, bool dry_run, bool interactive, const std::string& typed, std::string* asked = nullptr) {
  std::istringstream in(typed);
  std::ostringstream err;
  const Consent c = ask_consent({"Write it?", yes, dry_run, interactive}, in, err);
  if (asked) *asked = err.str();
  return c;
}

}  // namespace

TEST_CASE("dry run wins, --yes agrees, a pipe without --yes is refused", "[consent]") {
  CHECK(decide(true, true, true, "y\n") == Consent::dry_run);
  CHECK(decide(true, false, false, "") == Consent::granted);
  CHECK(decide(false, false, false, "y\n") == Consent::needs_yes);
  CHECK(needs_yes_message("tfwsl wslconfig set", "write X").find("pass --yes to write X") != std::string::npos);
}

TEST_CASE("on a terminal the user is asked and only yes agrees", "[consent]") {
  std::string asked;
  CHECK(decide(false, false, true, "y\n", &asked) == Consent::granted);
  CHECK(asked == "Write it? [y/N] ");
  CHECK(decide(false, false, true, " YES \n") == Consent::granted);
  CHECK(decide(false, false, true, "\n") == Consent::declined);
  CHECK(decide(false, false, true, "no\n") == Consent::declined);
  CHECK(decide(false, false, true, "") == Consent::declined);  // end of input
}
