#include "common/provision/apt_package_name.hpp"

#include <fmt/format.h>

#include <string>

#include "common/profile/profile_validator.hpp"

namespace tfwsl::provision {

Status check_apt_package(std::string_view name, bool inside_wsl) {
  if (auto problem = apt_package_name_problem(name)) return make_error(ErrorCode::invalid_input, *problem);
  if (is_linux_driver_package(name))
    return make_error(
        ErrorCode::invalid_input,
        fmt::format("apt package '{}' installs a Linux NVIDIA driver{}; tfwsl never installs it "
                    "(the CUDA toolkit comes as cuda-toolkit-X-Y)",
                    name, inside_wsl ? " inside WSL, which replaces the driver Windows shares with WSL" : ""));
  return {};
}

}  // namespace tfwsl::provision
