#pragma once
// The compatibility data: TensorFlow releases and the Python, CUDA, cuDNN and GPU they need, the
// native-Windows GPU table, CUDA toolkit -> minimum driver, and Ubuntu -> python3. The data lives
// in profiles/compat.yaml (each entry names its source), is built into the binaries, and can be
// replaced by a file of the same shape (load_compat_db).

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/error.hpp"
#include "common/version/driver_version.hpp"
#include "common/version/version.hpp"
#include "common/version/version_spec.hpp"

namespace tfwsl {

struct VersionRange {  // both ends included: Python "3.9-3.12"
  Version min;
  Version max;
  bool contains(const Version& v) const;  // compares major.minor only: 3.12.3 is in 3.9-3.12
  std::string to_string() const;          // "3.9-3.12"
};

struct TfRelease {
  Version release;        // the minor series: 2.15
  Version first_version;  // 2.16.1 for 2.16 (there is no 2.16.0)
  VersionRange python;
  Version cuda;   // tested CUDA: 12.2
  Version cudnn;  // tested cuDNN: 8.9
  Version min_compute_capability;
  bool and_cuda_extra = false;          // `tensorflow[and-cuda]` exists
  bool tensorflow_gpu_package = false;  // `tensorflow-gpu` still installs this release
};

struct NativeWindowsGpuRelease {
  Version release;
  VersionRange python;
  Version cuda;
  Version cudnn;
};

struct CudaDriverMinimum {
  Version cuda;                          // 12.2.2
  DriverVersion linux;                   // 535.104.05
  std::optional<DriverVersion> windows;  // 537.13; none for 13.1+ (driver no longer bundled)
};

struct MinorVersionFloor {
  int cuda_major = 0;
  DriverVersion linux;
  DriverVersion windows;
};

struct UbuntuPython {
  Version ubuntu;        // 24.04
  std::string codename;  // noble
  Version python3;       // 3.12
};

// Where a requirement's allowed TensorFlow releases fall relative to native-Windows GPU support.
enum class NativeGpuFit {
  native_ok,  // every allowed release is <= 2.10: GPU works on native Windows
  needs_wsl,  // every allowed release is >= 2.11: GPU needs WSL2
  mixed,      // some of each
  none,       // the spec allows no known release
};
const char* to_string(NativeGpuFit fit);

class CompatDb {
 public:
  // Parses and checks the YAML; errors list every problem as "source:line:col: ...".
  static Result<CompatDb> from_yaml(std::string_view text, std::string_view source_name);

  // Newest first, as in compat.yaml: 2.21 .. 2.9.
  const std::vector<TfRelease>& tf_releases() const { return m_tf; }
  // The series containing `version` (2.15.1 -> 2.15), or nothing when unknown.
  const TfRelease* find_tf_release(const Version& version) const;
  // The series with at least one version the spec allows (oldest first). A series counts when any
  // x.y.z from its first_version up to x.y.99 is allowed, so "!=2.15.0" still allows 2.15 (2.15.1).
  std::vector<const TfRelease*> allowed_tf_releases(const VersionSpec& spec) const;
  // The releases that support this Python (3.12 -> 2.16..2.21), oldest first.
  std::vector<const TfRelease*> tf_releases_for_python(const Version& python) const;

  Version and_cuda_extra_from() const { return m_and_cuda_from; }
  Version tensorflow_gpu_removed_in() const { return m_tf_gpu_removed_in; }

  const std::vector<NativeWindowsGpuRelease>& native_windows_gpu() const { return m_native; }
  const NativeWindowsGpuRelease* find_native_windows_gpu(const Version& version) const;
  Version last_native_windows_gpu_release() const { return m_last_native; }
  NativeGpuFit native_gpu_fit(const VersionSpec& spec) const;

  const std::vector<CudaDriverMinimum>& cuda_drivers() const { return m_drivers; }
  // "12.2" means the GA release (12.2.0), "12.2.2" Update 2. Unknown toolkits are not_found
  // errors naming the known releases of that series.
  Result<CudaDriverMinimum> driver_minimum_for_cuda(const Version& toolkit) const;
  std::optional<MinorVersionFloor> minor_version_floor(int cuda_major) const;

  const std::vector<UbuntuPython>& ubuntu_pythons() const { return m_ubuntu; }
  std::optional<Version> ubuntu_default_python(const Version& ubuntu_release) const;
  // WSL distro names: "Ubuntu-24.04" -> 24.04, "Ubuntu" -> the release plain Ubuntu installs now.
  std::optional<Version> ubuntu_release_of_distro(std::string_view distro) const;
  Version wsl_default_ubuntu() const { return m_wsl_default_ubuntu; }

  // The oldest Windows build whose WSL 2 has GPU paravirtualization (19044); 0 when the data omits it.
  int wsl_gpu_min_windows_build() const { return m_wsl_gpu_min_windows_build; }

  // The lowest compute capability the stock wheels fail on (12.0, Blackwell); empty when the data has none.
  Version stock_wheels_fail_from_compute_capability() const { return m_stock_wheels_fail_from_cc; }
  // NVIDIA's TensorFlow container built for it ("nvcr.io/nvidia/tensorflow:25.02-tf2-py3"); may be empty.
  const std::string& nvidia_tensorflow_container() const { return m_nvidia_tf_container; }
  // Driver major numbers one NVIDIA branch spans (5: R570 is 570-574); 0 when the data has none.
  int nvidia_driver_branch_width() const { return m_driver_branch_width; }
  // The first WSL release with its own container CLI, wslc (2.9.3, pre-releases); empty when the data has none.
  Version wsl_container_cli_from() const { return m_wsl_container_cli_from; }

 private:
  std::vector<TfRelease> m_tf;
  Version m_and_cuda_from;
  Version m_tf_gpu_removed_in;
  std::vector<NativeWindowsGpuRelease> m_native;
  Version m_last_native;
  std::vector<CudaDriverMinimum> m_drivers;
  std::vector<MinorVersionFloor> m_floors;
  std::vector<UbuntuPython> m_ubuntu;
  Version m_wsl_default_ubuntu;
  int m_wsl_gpu_min_windows_build = 0;
  Version m_stock_wheels_fail_from_cc;
  std::string m_nvidia_tf_container;
  int m_driver_branch_width = 0;
  Version m_wsl_container_cli_from;
};

// The data built into the binary (profiles/compat.yaml). Built-in data that fails to load is a
// build defect: this aborts with the reason rather than run on wrong facts (a unit test loads it).
const CompatDb& builtin_compat_db();

// A replacement file with the same shape as profiles/compat.yaml.
Result<CompatDb> load_compat_db(const std::filesystem::path& path);

}  // namespace tfwsl
