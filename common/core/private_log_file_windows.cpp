#include "common/core/private_log_file.hpp"

namespace tfwsl {

// The file is created by the sink in the user's folder and takes that folder's ACL.
void create_private_log_file(const std::filesystem::path&) {}
void restrict_log_file(std::FILE*) {}

}  // namespace tfwsl
