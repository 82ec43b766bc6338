#pragma once
// nvidia-smi as users run it: the default table (inside WSL, where "Driver Version" is the Windows
// driver, and on Windows, where the first row shows WDDM or TCC), the `-q` report, the CSV of
// `--query-gpu=name,driver_version,driver_model.current,memory.total --format=csv[,noheader]`, and
// its failures (no driver, GPU access blocked, not found in any cmd/PowerShell language, a crash).
// Tolerant of truncated tables: a GPU row counts in `gpus` only when it is shown in full.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tfwsl::parse {

struct NvidiaGpu {
  std::string name;
  std::optional<long long> memory_mib;  // total memory
  std::string driver_model;             // "WDDM" or "TCC" (Windows), empty when not shown
  bool name_truncated = false;          // nvidia-smi cut the name ("NVIDIA GeForce ..."); name is what is left
  // Both rows (or the CSV record) were shown in full and name is not empty: a row whose name is
  // only the cut marker ("   1  ...   On |") counts as a GPU but never as complete.
  bool complete = false;
};

struct NvidiaSmiFailures {
  bool cannot_communicate = false;    // "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver"
  bool driver_not_loaded = false;     // "Driver Not Loaded"
  bool access_blocked = false;        // "GPU access blocked by the operating system"
  bool library_mismatch = false;      // "Driver/library version mismatch"
  bool nvml_init_failed = false;      // "Failed to initialize NVML: ..."
  bool not_found = false;             // command not found / not recognized (any cmd/PowerShell language)
  bool no_devices = false;            // "No devices were found"
  bool crashed = false;               // "Segmentation fault" while printing
  bool nvml_library_missing = false;  // "couldn't find libnvidia-ml.so library in your system"
  bool device_handle_error = false;   // "Unable to determine the device handle for GPU ...": GPU lost or unusable
  bool any() const;
};

struct NvidiaSmiResult {
  bool table_header = false;                  // the "NVIDIA-SMI x  Driver Version: y" line was seen
  bool csv = false;                           // a --query-gpu CSV record was seen
  bool gpu_list = false;                      // `nvidia-smi -L` lines ("GPU 0: name (UUID: ...)") were seen
  bool query_report = false;                  // `nvidia-smi -q` ("NVSMI LOG", "Attached GPUs : 1")
  std::optional<std::string> smi_version;     // "NVIDIA-SMI 555.52.01" (inside WSL: a Linux number)
  std::optional<std::string> driver_version;  // "Driver Version" (inside WSL: the Windows driver)
  std::optional<std::string> cuda_version;    // nothing when absent or "ERR!"
  bool cuda_version_error = false;            // "CUDA Version: ERR!"
  std::vector<NvidiaGpu> gpus;                // every GPU row seen, complete or not
  NvidiaSmiFailures failures;

  bool any_tcc() const;
};

NvidiaSmiResult parse_nvidia_smi(std::string_view text);

// The contract's facts: driver_version, cuda_version (null for ERR!), gpus [{name, memory_mib}] of
// the rows shown in full; plus gpu_count (all rows), driver_models, failures, cuda_version_error.
nlohmann::json to_json(const NvidiaSmiResult& result);

}  // namespace tfwsl::parse
