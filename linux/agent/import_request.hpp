#pragma once
// POST /v1/datasets' body -> a checked import request: the fields' values, the path strings checked
// before any syscall sees them, and the paths resolved and held to the agent's roots. Errors speak
// in the client's terms: they name the paths as given, never what they resolved to (the agent's
// working directory behind /proc/self/cwd, a symlink's target); the resolved paths go to the debug log.

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/core/error.hpp"
#include "linux/dataset/import_types.hpp"

namespace tfwsl::agent {

// A Linux path is at most PATH_MAX (4096) bytes with its terminating NUL.
inline constexpr std::size_t k_max_path_bytes = 4095;

struct ImportRequest {
  dataset::ImportOptions options;  // paths resolved: what the engine opens
  std::string source_given, target_given;
  std::string target_key;  // the resolved target, normal, no trailing '/': the conflict key
};

// invalid_input (400) for a missing or malformed field; the message names the field.
Status check_path_field(const nlohmann::json& body, const char* field);

// The whole body: invalid_input for bad fields, not_found for a missing source, permission for a
// path outside `roots` (or no roots at all).
Result<ImportRequest> parse_import_request(const nlohmann::json& body, const std::vector<std::filesystem::path>& roots);

}  // namespace tfwsl::agent
