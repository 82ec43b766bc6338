#include <string>

#include "win/platform/install_places.hpp"
#include "win/platform/local_agent_binary.hpp"
#include "win/platform/own_executable.hpp"
#include "win/wsl/wsl_client.hpp"

namespace tfwsl::cli {
namespace {

std::string variable(const char* name) { return wsl::process_environment_variable(name).value_or(""); }

}  // namespace

InstallPlaces read_install_places() {
  InstallPlaces places;
  places.executable = own_executable_path();
  places.windows = true;
  places.in_build_tree = running_from_build_tree();
  places.local_app_data = variable("LOCALAPPDATA");
  places.program_files = variable("ProgramFiles");
  places.scoop = variable("SCOOP");
  places.user_profile = variable("USERPROFILE");
  places.scoop_global = variable("SCOOP_GLOBAL");
  places.program_data = variable("ProgramData");
  return places;
}

}  // namespace tfwsl::cli
