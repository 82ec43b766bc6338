#pragma once
// The fixed catalogue of `tfwsl provision`: every step there is, in the order it runs, with why it
// is there and the public source that says so (docs/provisioning.md is this table in prose), and
// the argv of every action a step may run. The agent builds each command it starts from these
// builders and the plan's values; it never runs a command that arrives from outside.

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tfwsl::provision {

enum class StepScope { host, distro };
const char* to_string(StepScope scope);  // "host", "distro"

// Who runs a step's commands: the Windows user through wsl.exe, root in the distro (apt, dpkg),
// the distro's user (venv, pip: never pip as root), or the agent itself (files it writes, checks
// it reads; no child process).
enum class RunsAs { host, root, user, agent };
const char* to_string(RunsAs who);  // "host", "root", "user", "agent"

struct StepDefinition {
  std::string_view id;  // "cuda.toolkit"
  StepScope scope;
  RunsAs runs_as;
  std::string_view title;  // what it makes true, for the plan and the recap
  std::string_view why;
  std::string_view source;  // a public URL
  bool check_only = false;  // observes and reports (with the command to run), never changes anything
};

// Every step, host steps first, each scope in the order it runs.
const std::vector<StepDefinition>& provision_catalogue();
const StepDefinition* find_step_definition(std::string_view id);

// ---- the argv of the actions (data: tests/unit/provision hold them to their exact form) ----

struct AptSettings {
  int lock_timeout_s = 120;  // -o DPkg::Lock::Timeout: apt waits this long for the dpkg lock
};

// DEBIAN_FRONTEND=noninteractive and a C locale: no debconf dialog, no prompt, stable messages.
std::map<std::string, std::string> apt_environment();
std::vector<std::string> apt_update_argv(const AptSettings& settings);
// `packages` are names checked by check_apt_package, or one local .deb path (the cuda-keyring).
// Conffile questions are answered with the defaults: keep the local file (--force-confdef
// --force-confold, dpkg(1)).
std::vector<std::string> apt_install_argv(const std::vector<std::string>& packages, const AptSettings& settings);
// What that install would download, asked before it runs (read-only, needs no root or lock: one
// `'URI' FILE SIZE HASH` line per archive, download_sizes.hpp's apt_print_uris_bytes).
std::vector<std::string> apt_print_uris_argv(const std::vector<std::string>& packages);
// The catalogued repair of an interrupted dpkg, as dpkg itself prints it.
std::vector<std::string> dpkg_repair_argv();
std::vector<std::string> keyring_fetch_argv(const std::string& url, const std::string& destination);
std::vector<std::string> venv_create_argv(const std::string& python, const std::string& venv);
// pip of the venv, never the system's: `find_links` empty installs from PyPI, else only from that
// folder (--no-index --find-links).
std::vector<std::string> pip_install_argv(const std::string& venv, const std::vector<std::string>& requirements,
                                          const std::string& find_links);

// Where the keyring .deb is kept before apt installs it.
inline constexpr const char* k_keyring_deb = "/var/cache/tfwsl/cuda-keyring.deb";
// NVIDIA's cuda-keyring for the WSL-Ubuntu repository, or for an Ubuntu release on native Linux
// ("22.04" -> repos/ubuntu2204).
std::string nvidia_keyring_url(bool inside_wsl, const std::string& ubuntu_release);

// ---- the container route ----

// NVIDIA's container toolkit repository: its key (armored: apt reads a .asc keyring as it is) and
// its sources entry, which the agent writes itself (NVIDIA's install guide fetches a .list file and
// edits it with sed; the one line it yields is this).
inline constexpr const char* k_toolkit_keyring = "/usr/share/keyrings/nvidia-container-toolkit-keyring.asc";
inline constexpr const char* k_toolkit_sources = "/etc/apt/sources.list.d/nvidia-container-toolkit.list";
inline constexpr const char* k_toolkit_key_url = "https://nvidia.github.io/libnvidia-container/gpgkey";
inline constexpr const char* k_toolkit_repository_url =
    "https://nvidia.github.io/libnvidia-container/stable/deb/$(ARCH)";
std::vector<std::string> toolkit_key_fetch_argv(const std::string& url);
std::string toolkit_sources_text(const std::string& repository_url);

// The CDI spec nvidia-ctk writes for the WSL GPU, and the device name it defines there.
inline constexpr const char* k_cdi_spec = "/etc/cdi/nvidia.yaml";
inline constexpr const char* k_cdi_gpu_device = "nvidia.com/gpu=all";
std::vector<std::string> cdi_generate_argv(bool inside_wsl);

// Podman, as the distro's user (rootless): the image pulled by repository@digest, or built.
std::vector<std::string> image_pull_argv(const std::string& pinned_reference);
std::vector<std::string> image_build_argv(const std::string& tag, const std::string& containerfile,
                                          const std::string& context);
std::vector<std::string> image_digest_argv(const std::string& reference);
// "nvcr.io/nvidia/tensorflow:25.02-tf2-py3" + "sha256:..." -> "nvcr.io/nvidia/tensorflow@sha256:...";
// no digest: the reference as it is (a local build's tag).
std::string pinned_image_reference(const std::string& image, const std::string& digest);

struct ContainerRun {
  std::string image;  // pinned_image_reference
  std::vector<std::pair<std::string, std::string>> env;
  std::vector<std::string> mounts;  // HOST:CONTAINER[:ro], host paths resolved
  std::string workdir;
  bool interactive = false;
  std::vector<std::string> command;
};
// podman run --rm --device nvidia.com/gpu=all [--env K=V]... [--volume M]... IMAGE COMMAND...
std::vector<std::string> container_run_argv(const ContainerRun& run);

// Host actions (wsl.exe and DISM, https://learn.microsoft.com/windows/wsl/install).
std::vector<std::string> wsl_update_argv();
std::vector<std::string> enable_vmp_argv();
std::vector<std::string> wsl_install_argv(const std::string& distro);
std::vector<std::string> wsl_set_version_argv(const std::string& distro);
std::vector<std::string> wsl_create_user_argv(const std::string& distro, const std::string& user);

}  // namespace tfwsl::provision
