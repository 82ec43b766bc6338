#pragma once
// The JSON shapes of the agent API v1, shared by the agent (server) and the CLI (client), with the
// routes and headers. docs/agent-api.md shows each with an example. Parsers are lenient about extra
// fields in responses (a newer agent may add some) and strict about types.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/core/error.hpp"

namespace tfwsl::agent_api {

namespace route {
inline constexpr const char* k_challenge = "/v1/challenge";          // POST, no token (challenge.hpp)
inline constexpr const char* k_info = "/v1/info";                    // GET
inline constexpr const char* k_facts = "/v1/facts";                  // GET, ?refresh=1 (linux_facts.hpp)
inline constexpr const char* k_checks = "/v1/checks";                // GET, ?refresh=1
inline constexpr const char* k_gpu = "/v1/gpu";                      // GET
inline constexpr const char* k_stack = "/v1/stack";                  // GET
inline constexpr const char* k_paths_resolve = "/v1/paths/resolve";  // POST
inline constexpr const char* k_datasets = "/v1/datasets";            // POST (dataset jobs)
inline constexpr const char* k_jobs = "/v1/jobs/";                   // GET /v1/jobs/<id>, POST /v1/jobs/<id>/cancel
}  // namespace route

// The largest request body the agent reads (Content-Length above it: 413).
inline constexpr std::size_t k_max_request_body = 64 * 1024;

enum class WslKind { not_wsl, wsl1, wsl2 };
const char* to_string(WslKind kind);  // "not-wsl", "wsl1", "wsl2"
bool parse_wsl_kind(const std::string& text, WslKind& out);

struct InfoResponse {
  std::string agent;   // version
  std::string commit;  // the commit it was built from (build_info::commit()); "" from an agent before 0.2.0
  int api = 0;         // k_api_version of the agent (handshake.hpp)
  std::string distro;  // WSL_DISTRO_NAME, else /etc/os-release PRETTY_NAME
  std::string kernel;  // uname -r
  WslKind wsl = WslKind::not_wsl;
  std::uint32_t uid = 0;
  double uptime_s = 0;  // seconds the agent has been running
  long pid = 0;
  std::string home;  // the agent user's home folder ($HOME, else the passwd entry); "" when unknown
};
nlohmann::json to_json(const InfoResponse& info);
Result<InfoResponse> parse_info(const nlohmann::json& j);

struct GpuDevice {
  int index = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;  // compute capability, 0.0 when unknown
  std::uint64_t memory_bytes = 0;  // total memory, 0 when unknown
};
struct GpuResponse {
  bool libcuda_loaded = false;
  std::string libcuda_path;                // real path of the libcuda.so.1 the loader resolved
  std::string libcuda_error;               // why it is absent / failed (empty when fine)
  std::optional<int> cuda_driver_version;  // cuDriverGetVersion: 12020 -> CUDA 12.2
  std::vector<GpuDevice> devices;          // from libcuda
  std::string nvml_driver_version;         // NVML (or nvidia-smi): compare with the Windows driver
  std::vector<std::string> nvml_device_names;
  std::string nvml_source;  // "nvml", "nvidia-smi" or "" when neither answered
  std::string nvml_error;
};
nlohmann::json to_json(const GpuResponse& gpu);
Result<GpuResponse> parse_gpu(const nlohmann::json& j);

struct PathResolveRequest {
  std::string windows_path;  // "C:\\data\\x", "\\\\wsl$\\Ubuntu\\home\\me", "\\\\wsl.localhost\\..."
};
struct PathResolveResponse {
  std::string linux_path;
  bool slow_mount = false;  // drvfs/9p: reading it from Linux is slow
  std::string mount_type;   // "drvfs", "9p", "ext4", ...
};
nlohmann::json to_json(const PathResolveRequest& request);
nlohmann::json to_json(const PathResolveResponse& response);
Result<PathResolveResponse> parse_path_resolve_response(const nlohmann::json& j);

}  // namespace tfwsl::agent_api
