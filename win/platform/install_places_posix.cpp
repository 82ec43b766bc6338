#include "win/platform/install_places.hpp"
#include "win/platform/local_agent_binary.hpp"
#include "win/platform/own_executable.hpp"

namespace tfwsl::cli {

// The native Linux build: no package manager ships it, so the Windows folders stay empty.
InstallPlaces read_install_places() {
  InstallPlaces places;
  places.executable = own_executable_path();
  places.windows = false;
  places.in_build_tree = running_from_build_tree();
  return places;
}

}  // namespace tfwsl::cli
