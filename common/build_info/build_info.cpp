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

}  // namespace tfwsl::build_info
