// The JSON between the `probe-libraries` child and the agent (library_probes.hpp): the GPU part is
// the API's own GpuResponse shape, so the child and /v1/gpu cannot drift apart.
#include <exception>
#include <string>

#include "linux/checks/library_probes.hpp"

namespace tfwsl::linux_checks {

std::optional<LibraryPart> parse_library_part(std::string_view name) {
  if (name == "gpu") return LibraryPart::gpu;
  if (name == "cudnn") return LibraryPart::cudnn;
  return std::nullopt;
}

const char* library_part_name(LibraryPart part) { return part == LibraryPart::gpu ? "gpu" : "cudnn"; }

nlohmann::json library_probe_answer(LibraryLoader& loader, LibraryPart part) {
  if (part == LibraryPart::gpu) return agent_api::to_json(probe_gpu_libraries(loader));
  StackFacts s;
  probe_cudnn_library(loader, s);
  return {{"found", s.cudnn_found},
          {"library", s.cudnn_library},
          {"version", s.cudnn_version ? nlohmann::json(*s.cudnn_version) : nlohmann::json()},
          {"error", s.cudnn_error}};
}

Status read_cudnn_answer(const nlohmann::json& answer, StackFacts& stack) {
  try {
    stack.cudnn_found = answer.at("found").get<bool>();
    stack.cudnn_library = answer.at("library").get<std::string>();
    const auto& version = answer.at("version");
    if (!version.is_null()) stack.cudnn_version = version.get<long>();
    stack.cudnn_error = answer.at("error").get<std::string>();
  } catch (const std::exception& e) {
    return make_error(ErrorCode::invalid_input, "the cuDNN answer has missing fields or wrong types", e.what());
  }
  return {};
}

}  // namespace tfwsl::linux_checks
