#include "common/build_info/build_info.hpp"

namespace tfwsl::build_info {

std::string_view version() { return TFWSL_VERSION; }

std::string commit() {
  std::string out = detail::k_commit;
  if (detail::k_modified) out += "-dirty";
  return out;
}

std::string version_line(std::string_view program) {
  return std::string(program) + " " + std::string(version()) + " (" + commit() + ")";
}

std::string_view project_url() { return TFWSL_PROJECT_URL; }

std::string_view winget_id() { return TFWSL_WINGET_ID; }

std::string bug_report_words() {
  // The command last, alone: it runs as printed (no full stop glued to the file name).
  return "Report a bug at " + std::string(project_url()) +
         "/issues, with the bundle this writes attached: tfwsl doctor --bundle tfwsl-doctor.tar";
}

}  // namespace tfwsl::build_info
