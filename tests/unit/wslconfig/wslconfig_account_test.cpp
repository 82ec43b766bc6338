// Issue 38, item 6: run as SYSTEM (as fleet engines run Tfwsl/WslConfig), the default .wslconfig is
// SYSTEM's own, which WSL never reads: set said done and test "in desired state" while the user's
// WSL was untouched. The default is refused for SYSTEM and for a service account WSL never ran for,
// saying to run as the user; a named file (--file, DSC's "file") is judged by the privileged rule.
#include <catch2/catch.hpp>

#include "common/wslconfig/wslconfig_location.hpp"

using namespace tfwsl;
using tfwsl::wslconfig::ProfileAccount;

TEST_CASE("whose .wslconfig the default is: SYSTEM and unregistered service accounts are refused (table)") {
  struct Row {
    ProfileAccount account;
    bool refused;
  };
  const std::string system_profile = "C:\\Windows\\system32\\config\\systemprofile";
  const Row rows[] = {
      {{"S-1-5-18", system_profile, false}, true},
      {{"S-1-5-18", system_profile, true}, true},  // SYSTEM: WSL never reads its file, registered or not
      {{"", "C:\\WINDOWS\\System32\\Config\\SystemProfile\\", false}, true},  // the profile alone says SYSTEM
      {{"S-1-5-19", "C:\\Windows\\ServiceProfiles\\LocalService", false}, true},
      {{"S-1-5-20", "C:\\Windows\\ServiceProfiles\\NetworkService", false}, true},
      {{"S-1-5-80-1-2-3-4-5", "C:\\Windows\\ServiceProfiles\\MySvc", false}, true},
      {{"S-1-5-80-1-2-3-4-5", "C:\\Windows\\ServiceProfiles\\MySvc", true}, false},  // WSL runs for it: its own
      {{"S-1-5-21-1-2-3-1001", "C:\\Users\\me", false}, false},                      // a user before their first distro
      {{"S-1-5-21-1-2-3-1001", "C:\\Users\\me", true}, false},
      {{"1000", "", false}, false},  // Linux: a uid, no SYSTEM
  };
  for (const Row& row : rows) {
    CAPTURE(row.account.sid, row.account.profile, row.account.has_wsl_registration);
    const auto why = wslconfig::not_a_users_wslconfig(row.account);
    CHECK(why.has_value() == row.refused);
    if (why) CHECK(why->find("run this as that user") != std::string::npos);
  }
}
