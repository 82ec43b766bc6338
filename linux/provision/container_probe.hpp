#pragma once
// TensorFlow's GPU check inside the profile's image (container.verify, the doctor's last container
// check): a constant Python text run by the image's python3 that lists the GPUs and runs one op on
// GPU:0 with soft placement off (TensorFlow otherwise runs a GPU:0 op on the CPU without a word),
// then prints one marked JSON line. The marker tells it from what the image's entrypoint prints
// first (NGC images print a banner).

#include <string>
#include <string_view>
#include <vector>

#include "common/core/error.hpp"

namespace tfwsl::provision {

struct ContainerProbe {
  std::string tensorflow;  // tf.__version__
  std::vector<std::string> gpus;
  bool op_on_gpu = false;
  std::string error;  // the op's or the import's error, one line
};

const std::string& container_probe_script();
// The last marked line of the probe's stdout; parse error when there is none (the container never
// ran the probe: the engine's own error is on stderr).
Result<ContainerProbe> parse_container_probe(std::string_view out);

}  // namespace tfwsl::provision
