#pragma once
// A team profile: everything that makes two machines end up the same (distro, WSL limits, CUDA,
// Python, TensorFlow, packages, environment, datasets). Each setting remembers where its value
// came from (file:line:col, "builtin:builtin-defaults.yaml:..." or "<command line>"), so validation
// can point at the line to change and `profile show` can say which file won. Each setting is one
// row of the key table (profile_key_table.cpp), which says how it is read, checked, merged and
// written. See docs/profiles.md.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tfwsl {

struct SourceLocation {
  std::string file;  // "team.yaml", "builtin:tf-2.15-cuda-12.2.yaml", "<command line>"
  int line = 0;      // 1-based; 0 when the source has no lines
  int column = 0;
  std::string to_string() const;  // "team.yaml:3:5" or just "team.yaml"
};

template <class T>
struct Setting {
  std::optional<T> value;
  SourceLocation where;

  bool has_value() const { return value.has_value(); }
  const T& operator*() const { return *value; }
  const T* operator->() const { return &*value; }
  T value_or(T fallback) const { return value ? *value : std::move(fallback); }
};

// How TensorFlow reaches the GPU: a venv inside a WSL2 distro (every TF release), an image run by a
// container engine inside that distro (NVIDIA's NGC TensorFlow: the GPUs no pip wheel runs on), or
// directly on Windows (TF <= 2.10 only; kept to describe existing native-Windows projects).
enum class ProfileRoute { wsl, native_windows, container };
const char* to_string(ProfileRoute route);  // "wsl", "native-windows", "container"

struct DatasetEntry {
  std::string name;
  std::string source;  // a Windows path such as D:\data\imagenet-mini
  SourceLocation where;
};

struct EnvEntry {
  std::string name;
  Setting<std::string> value;
};

struct Profile {
  Setting<std::string> name;
  Setting<ProfileRoute> route;
  Setting<std::string> distro;
  Setting<std::uint64_t> wsl_memory;  // bytes
  Setting<int> wsl_processors;
  Setting<std::uint64_t> wsl_swap;          // bytes
  Setting<std::string> gpu_driver;          // the oldest NVIDIA driver accepted, NVIDIA's numbering: "546.80"
  Setting<std::string> cuda_toolkit;        // "12.2"
  Setting<std::string> cuda_cudnn;          // "8.9"
  Setting<std::string> python_version;      // "3.10"
  Setting<std::string> python_venv;         // "~/.venvs/tf-2.15"
  Setting<std::string> tensorflow_version;  // a specifier: "2.15.*", ">=2.16,<2.18"
  Setting<std::vector<std::string>> tensorflow_extras;  // {"and-cuda"}
  Setting<std::vector<std::string>> apt_packages;
  Setting<std::vector<std::string>> pip_packages;
  std::vector<EnvEntry> env;  // in the order first defined
  Setting<std::vector<DatasetEntry>> datasets;
  // route: container. The image is pulled by digest (the tag says what it is, the digest what is
  // run), or built locally from `container_build` (a Dockerfile, its FROM pinned by digest).
  Setting<std::string> container_engine;               // "podman"
  Setting<std::string> container_image;                // "nvcr.io/nvidia/tensorflow:25.02-tf2-py3"
  Setting<std::string> container_digest;               // "sha256:<64 hex>"
  Setting<std::vector<std::string>> container_build;   // a Dockerfile, a line each
  Setting<std::vector<std::string>> container_mounts;  // "~/.keras:/root/.keras", beside the project's own

  // The files that contributed, the base of the `extends` chain first.
  std::vector<std::string> sources;

  const EnvEntry* find_env(const std::string& name) const;
};

// The apt package of the WSL-Ubuntu CUDA repository for a toolkit: "12.2" -> "cuda-toolkit-12-2"
// (never `cuda` or `cuda-drivers`, which would install a Linux driver inside WSL; see
// https://docs.nvidia.com/cuda/wsl-user-guide/index.html).
std::string cuda_toolkit_apt_package(const std::string& toolkit);

// The one fix for a missing or other toolkit, which the doctor and `profile diff` both give:
// provisioning adds NVIDIA's repository before it installs the package (apt-get alone would fail).
std::string cuda_toolkit_install_fix(const std::string& toolkit);

// What pip installs for the profile's TensorFlow: "tensorflow[and-cuda]==2.15.*" from version "2.15.*"
// and extras [and-cuda]; a specifier (">=2.16,<2.18") is kept as written.
std::string tensorflow_pip_requirement(const Profile& profile);

}  // namespace tfwsl
