#pragma once
// `tfwsl doctor --bundle FILE`: one tar archive with summary.json (the report), facts.json (both
// sides' facts) and report.txt, with the user's name and anything token-shaped redacted, for
// attaching to a support request.

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

// The ustar archive: tfwsl-doctor/summary.json, facts.json and report.txt, each redacted.
std::string doctor_bundle_archive(const doctor::DoctorResult& result, const std::vector<std::string>& user_names);

// Replaces each user name where it stands as a whole word or path component ("/home/me/x", not
// "memory") with <user>, and every run of 32+ hex digits with <redacted>.
std::string redact(std::string text, const std::vector<std::string>& user_names);

}  // namespace tfwsl::cli
