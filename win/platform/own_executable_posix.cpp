#include <filesystem>

#include "win/platform/own_executable.hpp"

namespace tfwsl::cli {

std::string own_executable_path() {
  std::error_code ec;
  return std::filesystem::read_symlink("/proc/self/exe", ec).string();
}

}  // namespace tfwsl::cli
