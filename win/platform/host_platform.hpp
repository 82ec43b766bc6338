#pragma once
// The host ports' real implementations: the Windows registry and what Windows says about itself
// (host_platform_windows.cpp); on the native Linux build an empty registry and is_windows = false,
// so the host checks report "skip" (host_platform_posix.cpp).

#include <memory>

#include "win/host/host_probe.hpp"
#include "win/host/registry.hpp"

namespace tfwsl::cli {

std::unique_ptr<host::Registry> make_system_registry();
host::SystemInfo read_system_info();

}  // namespace tfwsl::cli
