#pragma once
// TensorFlow / XLA / TSL logs as users paste them (glog "2024-01-01 10:00:00.1: W path.cc:12] msg"
// and absl "E0000 00:00:1738697930.202924 7665 file.cc:522] msg" prefixes, Python sessions around
// them, docker-compose "service | " prefixes). Facts only; which messages mean what lives in the
// signature base (profiles/signatures.yaml).

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tfwsl::parse {

struct TfLogResult {
  // GPUs TF showed: "Num GPUs Available: N", a printed list of PhysicalDevice(... GPU ...), "Adding
  // visible gpu devices: 0, 1", "Created device .../device:GPU:N", "Found device N with properties"
  // (TF <= 2.3); 0 for an empty list printed after "Skipping registering GPU devices" or where the
  // paste asks for the device list ("[]", "[ ]", "GPU []"). Nothing when the log does not show a count.
  std::optional<int> gpu_count;
  std::optional<std::string> cudnn_runtime;       // "Loaded runtime CuDNN library: 9.1.0 ..."
  std::optional<std::string> cudnn_compiled;      // "... but source was compiled with: 9.3.0"
  std::vector<std::string> missing_libraries;     // "libcudnn.so.8" from "...: cannot open shared object file"
  std::optional<std::string> tf_version;          // "TensorFlow version: 2.9.1" or a wheel path
  std::optional<std::string> compute_capability;  // the highest "compute capability: 8.9" shown
};

// `asks_devices`: the paste's commands (a REPL's, a shell's `python3 -c ...`, which the cleaner takes
// out of the text) call list_physical_devices, so an empty list printed is the device list.
TfLogResult parse_tf_log(std::string_view text, bool asks_devices = false);

// Confidence in [0, 1] that the text is a TensorFlow (or CUDA library loading) log.
double looks_like_tf_log(std::string_view text);

// {"gpu_count": 2, "cudnn_runtime": "9.1.0", "cudnn_compiled": "9.3.0", "missing_libraries": [...]}
nlohmann::json to_json(const TfLogResult& result);

}  // namespace tfwsl::parse
