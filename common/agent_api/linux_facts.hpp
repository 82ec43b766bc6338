#pragma once
// What the agent's probes found inside the distro, as plain data: the answer of GET /v1/facts
// (docs/agent-api.md) and the input of the judge (common/judge), which turns facts into verdicts
// with the policy the user named. Each probe fills one part and never fails: an absent thing is a
// value with the reason ("no /dev/dxg", "libcuda.so.1 not found: <dlerror>").
//
// The JSON is versioned with the API (k_api_version, handshake.hpp): a field is added, renamed or
// retyped only with a new API version. Decoding is strict about the fields it knows (each must be
// there, with its type; an optional one may be null) and tolerant of fields it does not know.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/agent_api/api_types.hpp"
#include "common/core/error.hpp"

namespace tfwsl::agent_api {

struct WslFacts {
  WslKind kind = WslKind::not_wsl;
  std::string kernel;  // /proc/sys/kernel/osrelease
  bool dxg = false;    // /dev/dxg exists
  std::string dxg_error;
  bool wsl_lib_dir = false;  // /usr/lib/wsl/lib exists
  std::vector<std::string> wsl_lib_files;
  bool ld_wsl_conf = false;  // /etc/ld.so.conf.d/ld.wsl.conf exists and names /usr/lib/wsl/lib
  std::string ld_wsl_conf_text;
  std::string automount_root = "/mnt/";  // /etc/wsl.conf [automount] root
  bool gpu_disabled = false;             // /etc/wsl.conf [gpu] enabled=false: WSL hides the GPU from this distro
  std::string distro;                    // WSL_DISTRO_NAME or os-release PRETTY_NAME
};

struct DriverFacts {
  std::vector<std::string> packages;        // installed Linux driver packages (dpkg)
  std::string dpkg_error;                   // dpkg-query missing or failed
  std::vector<std::string> libcuda_copies;  // libcuda.so* outside /usr/lib/wsl
};

struct CudaToolkit {
  std::string path;
  std::string version;
};

struct StackFacts {
  std::vector<CudaToolkit> toolkits;
  std::string nvcc, ptxas;               // paths, empty when absent
  std::string docker;                    // the docker program, empty when absent
  std::string nvidia_container_runtime;  // nvidia-container-runtime or nvidia-ctk: Docker's --gpus inside WSL
  // apt and NVIDIA's CUDA repository: apt 3 (sqv) refuses that repository's SHA1-bound key, and
  // then its `apt-get update` fails and leaves no index of it in apt's lists.
  std::string apt_version;                           // dpkg's version of apt ("3.1.16"); empty: not found
  std::vector<std::string> cuda_repository_sources;  // apt sources files naming NVIDIA's CUDA repository
  bool cuda_repository_lists = false;                // apt's lists hold an index of it (an update took)
  bool cudnn_found = false;
  std::string cudnn_library;
  std::optional<long> cudnn_version;  // cudnnGetVersion(): 8906 -> 8.9.6, 91900 -> 9.19.0
  std::string cudnn_error;
  std::string python_path;
  std::string python_version;  // "3.10.12", empty when no interpreter
  std::string python_error;
};

struct TfFacts {
  bool ran = false;  // the probe script produced JSON
  bool installed = false;
  std::string version;
  nlohmann::json build = nlohmann::json::object();  // cuda_version, cudnn_version, cuda_compute_capabilities
  std::vector<std::string> gpus;
  std::string matmul_device;             // where the matmul ran; empty if it did not
  std::string error;                     // why the probe failed (timeout, crash, import error)
  std::vector<std::string> stderr_tail;  // the last lines of TF's log, for people
  std::string stderr_text;               // the log's last 64 KiB, for the diagnosis
};

struct SystemFacts {
  std::optional<std::uint64_t> mem_total_kb;
  std::optional<std::uint64_t> disk_free_bytes;
  std::string disk_error;
  struct DataPath {
    std::string path;
    std::string mount_point;
    std::string fs_type;
    bool slow = false;
  };
  std::vector<DataPath> data_paths;
};

struct LinuxFacts {
  WslFacts wsl;
  GpuResponse gpu;
  DriverFacts driver;
  StackFacts stack;
  TfFacts tf;
  SystemFacts system;
  std::vector<std::string> timed_out;  // probes that ran past their limit
};

nlohmann::json to_json(const LinuxFacts& facts);
// Never throws: a missing or wrong-typed field is an ErrorCode::parse error naming it
// ("stack.cudnn_version: expected an integer or null").
Result<LinuxFacts> parse_linux_facts(const nlohmann::json& j);

}  // namespace tfwsl::agent_api
