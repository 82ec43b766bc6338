#pragma once
// `tfwsl profile diff`: what a profile says against what a machine has. A pure function of the
// profile and the machine's facts (profile_machine_facts.hpp). Each setting the profile gives is
// either the same on the machine, a drift (with what would change it), or not compared (the
// machine does not show it, and why): never silently skipped.

#include <string>
#include <vector>

#include "common/profile/profile.hpp"
#include "common/profile/profile_machine_facts.hpp"

namespace tfwsl {

struct ProfileDrift {
  std::string key;       // "tensorflow.version"
  std::string wanted;    // the profile's value: "2.15.*"
  std::string found;     // the machine's: "2.16.1", "none installed"
  SourceLocation where;  // the profile line that says it
  std::string fix;       // what would change it
};

struct ProfileUncompared {
  std::string key;
  std::string why;  // "the agent does not look into virtual environments"
};

struct ProfileDiff {
  std::vector<std::string> same;  // keys whose value the machine has
  std::vector<ProfileDrift> drifts;
  std::vector<ProfileUncompared> not_compared;
};

ProfileDiff diff_profile(const Profile& profile, const ProfileMachineFacts& machine);

}  // namespace tfwsl
