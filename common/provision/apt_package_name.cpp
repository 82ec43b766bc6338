#include "common/provision/apt_package_name.hpp"

#include <regex>
#include <string>

#include <fmt/format.h>

#include "common/profile/profile_validator.hpp"

namespace tfwsl::provision {

bool looks_like_apt_package_name(std::string_view name) {
  static const std::regex k_name(R"(^[a-z0-9][a-z0-9+.\-]{1,99}$)");
  return std::regex_match(std::string(name), k_name);
}

Status check_apt_package(std::string_view name, bool inside_wsl) {
  if (!looks_like_apt_package_name(name))
    return make_error(ErrorCode::invalid_input,
                      fmt::format("'{}' is not an apt package name (lower-case letters, digits, '+', '-', '.')", name));
  if (is_linux_driver_package(name))
    return make_error(ErrorCode::invalid_input,
                      fmt::format("apt package '{}' installs a Linux NVIDIA driver{}; tfwsl never installs it "
                                  "(the CUDA toolkit comes as cuda-toolkit-X-Y)",
                                  name, inside_wsl ? " inside WSL, which replaces the driver Windows shares with WSL" : ""));
  return {};
}

}  // namespace tfwsl::provision
