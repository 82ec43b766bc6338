#pragma once
// What `tfwsl --version` reads of this machine to tell how tfwsl was installed: the executable's
// path, whether it runs where it was built, and on Windows the folders winget and Scoop install
// into, from the environment. The rule that reads them is win/host/install_method.hpp.

#include "win/host/install_method.hpp"

namespace tfwsl::cli {

InstallPlaces read_install_places();

}  // namespace tfwsl::cli
