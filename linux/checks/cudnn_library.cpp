// cuDNN probed in this process (library_probes.hpp): run only by the agent's internal
// `probe-libraries cudnn` child, since loading a library runs its code.
#include <cstddef>
#include <string>

#include "linux/checks/library_probes.hpp"

namespace tfwsl::linux_checks {

void probe_cudnn_library(LibraryLoader& loader, StackFacts& f) {
  using CudnnGetVersion = std::size_t (*)();
  for (const char* soname : {"libcudnn.so.9", "libcudnn.so.8"}) {
    auto opened = loader.open(soname);
    if (!opened) {
      f.cudnn_error += (f.cudnn_error.empty() ? "" : "; ") + opened.error().detail;
      continue;
    }
    f.cudnn_found = true;
    f.cudnn_library = (*opened)->real_path().empty() ? soname : (*opened)->real_path();
    if (auto get = reinterpret_cast<CudnnGetVersion>((*opened)->symbol("cudnnGetVersion")))
      f.cudnn_version = static_cast<long>(get());
    f.cudnn_error.clear();
    return;
  }
}

}  // namespace tfwsl::linux_checks
