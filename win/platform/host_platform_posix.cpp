#include "win/platform/host_platform.hpp"

namespace tfwsl::cli {

std::unique_ptr<host::Registry> make_system_registry() { return std::make_unique<host::MapRegistry>(); }

host::SystemInfo read_system_info() { return host::SystemInfo{}; }

}  // namespace tfwsl::cli
