#pragma once
// What the probes found, as plain data. Each probe fills one part and never fails: an absent thing
// is a value with the reason ("no /dev/dxg", "libcuda.so.1 not found: <dlerror>"). The checks
// (linux_checks.cpp) turn facts into verdicts; /v1/gpu and /v1/stack serve the facts as they are.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/agent_api/api_types.hpp"

namespace tfwsl::linux_checks {

struct WslFacts {
  agent_api::WslKind kind = agent_api::WslKind::not_wsl;
  std::string kernel;             // /proc/sys/kernel/osrelease
  bool dxg = false;               // /dev/dxg exists
  std::string dxg_error;
  bool wsl_lib_dir = false;       // /usr/lib/wsl/lib exists
  std::vector<std::string> wsl_lib_files;
  bool ld_wsl_conf = false;       // /etc/ld.so.conf.d/ld.wsl.conf exists and names /usr/lib/wsl/lib
  std::string ld_wsl_conf_text;
  std::string automount_root = "/mnt/";  // /etc/wsl.conf [automount] root
  std::string distro;             // WSL_DISTRO_NAME or os-release PRETTY_NAME
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
  std::string nvcc, ptxas;            // paths, empty when absent
  bool cudnn_found = false;
  std::string cudnn_library;
  std::optional<long> cudnn_version;  // cudnnGetVersion(): 8906 -> 8.9.6
  std::string cudnn_error;
  std::string python_path;
  std::string python_version;         // "3.10.12", empty when no interpreter
  std::string python_error;
};

struct TfFacts {
  bool ran = false;          // the probe script produced JSON
  bool installed = false;
  std::string version;
  nlohmann::json build = nlohmann::json::object();  // cuda_version, cudnn_version, cuda_compute_capabilities
  std::vector<std::string> gpus;
  std::string matmul_device;  // where the matmul ran; empty if it did not
  std::string error;          // why the probe failed (timeout, crash, import error)
  std::vector<std::string> stderr_tail;  // the last lines of TF's log, for people
  std::string stderr_text;               // the log's last 64 KiB, for the diagnosis
  std::string diagnosis;      // what the signature base says the log means (empty until wired)
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
  agent_api::GpuResponse gpu;
  DriverFacts driver;
  StackFacts stack;
  TfFacts tf;
  SystemFacts system;
  std::vector<std::string> timed_out;  // probes that ran past their limit
};

nlohmann::json stack_to_json(const StackFacts& stack, const DriverFacts& driver, const TfFacts& tf);

}  // namespace tfwsl::linux_checks
