#pragma once
// `tfwsl doctor --bundle FILE`: one tar archive with summary.json (the report), facts.json (both
// sides' facts), report.txt and a README.txt that lists what was redacted, by kind: the Windows
// user's name, the distro user's name, home folders' names and anything token-shaped
// (bundle_redaction.hpp), for attaching to a support request.

#include <string>
#include <vector>

#include "common/core/error.hpp"
#include "win/doctor/doctor.hpp"

namespace tfwsl::cli {

// Before the checks run (they can take minutes): whether `path` may be written. It must be a new
// name or a bundle tfwsl wrote before (its first member is tfwsl-doctor/summary.json), never a link,
// a folder or another file, in a folder that takes a new file (an exclusive probe, removed again).
Status check_bundle_destination(const std::string& path);

// Writes doctor_bundle_archive(result, the USERNAME / USER / LOGNAME of this process) to `path`,
// after the same check: a new file exclusively, an earlier bundle replaced atomically.
Status write_doctor_bundle(const std::string& path, const doctor::DoctorResult& result);

// The ustar archive: tfwsl-doctor/summary.json, facts.json and report.txt, each redacted of the
// Windows user's names (`user_names`), the distro user's (the home of the agent's facts) and every
// home folder's name any member shows; then README.txt, naming the kinds redacted.
std::string doctor_bundle_archive(const doctor::DoctorResult& result, const std::vector<std::string>& user_names);

// One text on its own: each user name, in any ASCII case, where it stands as a whole word or path
// component ("/home/me/x", not "memory"), and each home folder's name, made <user>; every run of
// 32+ hex digits made <redacted>.
std::string redact(std::string text, const std::vector<std::string>& user_names);

}  // namespace tfwsl::cli
