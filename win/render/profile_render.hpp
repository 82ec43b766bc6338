#pragma once
// What the profile commands print: the text for people and the --json objects
// (docs/schema/profile-validate, profile-show, profile-diff .schema.json).

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/profile/profile_issue.hpp"
#include "common/profile/profile_locate.hpp"
#include "win/profile/profile_drift.hpp"

namespace tfwsl::cli {

// 0 no issue, 1 warnings only, 2 an error (docs/cli.md's table).
int issues_exit_code(const std::vector<ProfileIssue>& issues);

// The issues in the order of the files (as they first appear) and of their lines and columns: the
// loader finds them in passes (keys, then values), a person reads a file top to bottom.
std::vector<ProfileIssue> in_line_order(const std::vector<ProfileIssue>& issues);

nlohmann::json issues_json(const std::vector<ProfileIssue>& issues);
// One `file:line:col: error|warning: message; fix: ...` line each, in line order.
std::string issues_text(const std::vector<ProfileIssue>& issues);

// {name, from, origin, sources}
nlohmann::json profile_identity_json(const Profile& profile, const ProfileChoice& choice);

nlohmann::json show_json(const Profile& profile, const ProfileChoice& choice, const std::vector<ProfileIssue>& issues);
std::string show_text(const Profile& profile, const ProfileChoice& choice);

struct DiffMachine {
  std::string distro;  // empty natively
  std::string agent;   // the agent's description, or why there is none
};
// `incomplete_because`: why the diff is not the whole answer (exit 2: the distro's facts could not
// be read, the profile has errors); empty when it is. JSON: "complete" and "incomplete_because".
nlohmann::json diff_json(const Profile& profile, const ProfileChoice& choice, const DiffMachine& machine,
                         const ProfileDiff& diff, const std::string& incomplete_because);
std::string diff_text(const Profile& profile, const ProfileChoice& choice, const DiffMachine& machine,
                      const ProfileDiff& diff);

}  // namespace tfwsl::cli
