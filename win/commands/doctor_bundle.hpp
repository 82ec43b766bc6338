#pragma once
// `tfwsl doctor --bundle FILE`: one tar archive with summary.json (the report), facts.json (both
// sides' facts) and report.txt, with the user's name and anything token-shaped redacted, for
// attaching to a support request.

#include <string>

#include "common/core/error.hpp"
#include "common/doctor/doctor.hpp"

namespace tfwsl::cli {

Status write_doctor_bundle(const std::string& path, const doctor::DoctorResult& result);

// Replaces the user names and 32+ hex-digit runs in text.
std::string redact(std::string text, const std::vector<std::string>& user_names);

}  // namespace tfwsl::cli
