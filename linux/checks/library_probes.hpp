#pragma once
// The probes that load a library into the process running them: libcuda (cuInit, the devices),
// NVML (the driver version) and cuDNN (its version). A driver call that hangs cannot be interrupted
// and one that crashes takes its process along, so the agent never runs these itself: its internal
// `probe-libraries` command runs them in a child (library_probe_child.hpp) that the agent kills at
// the probe's limit, and prints library_probe_answer() as JSON for the parent to parse.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "common/agent_api/api_types.hpp"
#include "common/core/error.hpp"
#include "linux/checks/library_loader.hpp"
#include "linux/checks/linux_facts.hpp"

namespace tfwsl::linux_checks {

// What one child run probes: the GPU driver libraries (libcuda and NVML) or cuDNN.
enum class LibraryPart { gpu, cudnn };
std::optional<LibraryPart> parse_library_part(std::string_view name);
const char* library_part_name(LibraryPart part);

// libcuda (its path, cuInit, the driver's CUDA version, the devices) and NVML (driver version,
// device names; nvml_source "nvml" when it answered), in this process, through `loader`.
agent_api::GpuResponse probe_gpu_libraries(LibraryLoader& loader);

// libcudnn.so.9, then .8: cudnn_found, cudnn_library, cudnn_version, cudnn_error of `stack`.
void probe_cudnn_library(LibraryLoader& loader, StackFacts& stack);

// The child's answer for `part`: the GpuResponse's JSON (agent_api::to_json) for gpu, the cuDNN
// fields ({"found","library","version","error"}) for cudnn.
nlohmann::json library_probe_answer(LibraryLoader& loader, LibraryPart part);
// The parent's reading of a cudnn answer into `stack`; invalid_input when it is not that shape.
Status read_cudnn_answer(const nlohmann::json& answer, StackFacts& stack);

}  // namespace tfwsl::linux_checks
