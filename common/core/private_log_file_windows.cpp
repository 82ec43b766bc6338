#include "common/core/private_log_file.hpp"

namespace tfwsl {

// The file is created by the sink in the user's folder and takes that folder's ACL.
LogFileIdentity open_private_log_file(const std::filesystem::path&) { return {}; }
void check_opened_log_file(std::FILE*, const LogFileIdentity&) {}

}  // namespace tfwsl
