#include "common/provision/provision_catalogue.hpp"

#include <fmt/format.h>

namespace tfwsl::provision {

const char* to_string(StepScope scope) { return scope == StepScope::host ? "host" : "distro"; }

const char* to_string(RunsAs who) {
  switch (who) {
    case RunsAs::host:
      return "host";
    case RunsAs::root:
      return "root";
    case RunsAs::user:
      return "user";
    case RunsAs::agent:
      return "agent";
  }
  return "agent";
}

namespace {

constexpr std::string_view k_wsl_install = "https://learn.microsoft.com/windows/wsl/install";
constexpr std::string_view k_wsl_config = "https://learn.microsoft.com/windows/wsl/wsl-config#wslconfig";
constexpr std::string_view k_cuda_wsl = "https://docs.nvidia.com/cuda/wsl-user-guide/index.html";
constexpr std::string_view k_tf_pip = "https://www.tensorflow.org/install/pip";

std::vector<StepDefinition> make_catalogue() {
  using S = StepScope;
  using R = RunsAs;
  return {
      {"wsl.current", S::host, R::host, "WSL is installed and current",
       "an old inbox WSL lacks GPU support and `wsl --install --no-launch`; `wsl --update` brings the Store package",
       k_wsl_install, true},
      {"wsl.vmp", S::host, R::host, "Virtual Machine Platform is enabled",
       "WSL 2 runs in a lightweight VM that needs it",
       "https://learn.microsoft.com/windows/wsl/install-manual#step-3---enable-virtual-machine-feature", true},
      {"distro.installed", S::host, R::host, "the profile's distro is installed",
       "a pinned release (Ubuntu-22.04), never plain 'Ubuntu', which follows the newest release and its Python",
       "https://learn.microsoft.com/windows/wsl/basic-commands#install"},
      {"distro.wsl2", S::host, R::host, "the distro runs as WSL 2", "CUDA reaches the GPU only in WSL 2, never WSL 1",
       k_cuda_wsl},
      {"wslconfig.values", S::host, R::host, "%UserProfile%\\.wslconfig has the profile's limits",
       "memory, processors and swap of the WSL VM are set there, for every distro", k_wsl_config},
      {"wslconfig.gpu", S::host, R::host, ".wslconfig does not turn the GPU off",
       "gpuSupport=false hides /dev/dxg from every distro", k_wsl_config},
      {"distro.user", S::host, R::host, "the distro has a default user who is not root",
       "pip and the venv belong to that user; `--no-launch` skips the first-start user creation",
       "https://learn.microsoft.com/windows/wsl/setup/environment#set-up-your-linux-username-and-password", true},
      {"dpkg.health", S::distro, R::root, "dpkg is not interrupted",
       "an interrupted dpkg (a killed apt) refuses further installs until `dpkg --configure -a` finishes its work",
       "https://manpages.debian.org/bookworm/dpkg/dpkg.1.en.html"},
      {"driver.none-in-wsl", S::distro, R::agent, "no Linux NVIDIA driver is installed inside WSL",
       "the Windows driver is shared into WSL as libcuda; a Linux driver package replaces it and breaks CUDA",
       k_cuda_wsl, true},
      {"driver.linux", S::distro, R::agent, "a Linux NVIDIA driver is present (native Linux; never installed by tfwsl)",
       "on native Linux the kernel driver is the machine's own, matched to its kernel",
       "https://docs.nvidia.com/cuda/cuda-installation-guide-linux/index.html", true},
      {"apt.prerequisites", S::distro, R::root, "the tools to fetch NVIDIA's keyring are installed",
       "the keyring .deb is downloaded over HTTPS before apt knows NVIDIA's repository", k_cuda_wsl},
      {"cuda.repository", S::distro, R::root, "NVIDIA's CUDA repository is configured through cuda-keyring",
       "the WSL-Ubuntu repository holds toolkits without a driver; cuda-keyring installs its key and its sources entry",
       "https://developer.nvidia.com/cuda-downloads?target_os=Linux&target_arch=x86_64&Distribution=WSL-Ubuntu"},
      {"cuda.toolkit", S::distro, R::root, "the profile's CUDA toolkit is installed",
       "cuda-toolkit-X-Y only: `cuda`, `cuda-12-x` and `cuda-drivers` pull in a Linux driver", k_cuda_wsl},
      {"apt.packages", S::distro, R::root, "the profile's apt packages are installed (python3-venv among them)",
       "Ubuntu splits venv out of python3; without it `python3 -m venv` fails",
       "https://docs.python.org/3/library/venv.html"},
      {"python.venv", S::distro, R::user, "the profile's venv exists, with the profile's Python",
       "pip never as root nor into the system Python (PEP 668 forbids it on newer Ubuntu)",
       "https://peps.python.org/pep-0668/"},
      {"tensorflow.install", S::distro, R::user, "the profile's TensorFlow and pip packages are in the venv",
       "tensorflow[and-cuda] brings the CUDA and cuDNN libraries as wheels matched to the release", k_tf_pip},
      {"tensorflow.fixups", S::distro, R::agent, "TensorFlow finds the pip CUDA libraries, ptxas and libdevice",
       "TensorFlow's own install guide links them when a release does not find them; applied only when the probe shows "
       "the need",
       k_tf_pip},
      {"env.file", S::distro, R::agent, "the profile's environment file is written",
       "variables such as TF_FORCE_GPU_ALLOW_GROWTH are read when TensorFlow starts",
       "https://www.tensorflow.org/guide/gpu#limiting_gpu_memory_growth"},
      {"tensorflow.verify", S::distro, R::agent, "TensorFlow sees the GPU (the agent's check, judged by the one judge)",
       "the verdict: an install that cannot run a GPU op is not done", k_tf_pip},
  };
}

}  // namespace

const std::vector<StepDefinition>& provision_catalogue() {
  static const std::vector<StepDefinition> k_catalogue = make_catalogue();
  return k_catalogue;
}

const StepDefinition* find_step_definition(std::string_view id) {
  for (const auto& step : provision_catalogue())
    if (step.id == id) return &step;
  return nullptr;
}

std::map<std::string, std::string> apt_environment() {
  return {{"DEBIAN_FRONTEND", "noninteractive"}, {"LC_ALL", "C"}, {"APT_LISTCHANGES_FRONTEND", "none"}};
}

std::vector<std::string> apt_update_argv(const AptSettings& settings) {
  return {"apt-get", "-q", "-o", fmt::format("DPkg::Lock::Timeout={}", settings.lock_timeout_s), "update"};
}

std::vector<std::string> apt_install_argv(const std::vector<std::string>& packages, const AptSettings& settings) {
  std::vector<std::string> argv = {"apt-get", "-q",
                                   "-y",      "--no-install-recommends",
                                   "-o",      fmt::format("DPkg::Lock::Timeout={}", settings.lock_timeout_s),
                                   "-o",      "Dpkg::Options::=--force-confdef",
                                   "-o",      "Dpkg::Options::=--force-confold",
                                   "install"};
  argv.insert(argv.end(), packages.begin(), packages.end());
  return argv;
}

std::vector<std::string> apt_print_uris_argv(const std::vector<std::string>& packages) {
  std::vector<std::string> argv = {"apt-get", "-qq", "--print-uris", "-y", "--no-install-recommends", "install"};
  argv.insert(argv.end(), packages.begin(), packages.end());
  return argv;
}

std::vector<std::string> dpkg_repair_argv() {
  return {"dpkg", "--force-confdef", "--force-confold", "--configure", "-a"};
}

std::vector<std::string> keyring_fetch_argv(const std::string& url, const std::string& destination) {
  return {"curl", "-fsSL", "--retry", "3", "-o", destination, url};
}

std::vector<std::string> venv_create_argv(const std::string& python, const std::string& venv) {
  return {python, "-m", "venv", venv};
}

std::vector<std::string> pip_install_argv(const std::string& venv, const std::vector<std::string>& requirements,
                                          const std::string& find_links) {
  std::vector<std::string> argv = {venv + "/bin/python",          "-m",        "pip", "install",
                                   "--disable-pip-version-check", "--no-input"};
  if (!find_links.empty()) {
    argv.push_back("--no-index");
    argv.push_back("--find-links");
    argv.push_back(find_links);
  }
  argv.insert(argv.end(), requirements.begin(), requirements.end());
  return argv;
}

std::string nvidia_keyring_url(bool inside_wsl, const std::string& ubuntu_release) {
  std::string repo = "wsl-ubuntu";
  if (!inside_wsl) {
    repo = "ubuntu";
    for (char c : ubuntu_release)
      if (c != '.') repo += c;
  }
  return fmt::format("https://developer.download.nvidia.com/compute/cuda/repos/{}/x86_64/cuda-keyring_1.1-1_all.deb",
                     repo);
}

std::vector<std::string> wsl_update_argv() { return {"wsl.exe", "--update"}; }

std::vector<std::string> enable_vmp_argv() {
  return {"dism.exe", "/online", "/enable-feature", "/featurename:VirtualMachinePlatform", "/all", "/norestart"};
}

std::vector<std::string> wsl_install_argv(const std::string& distro) {
  return {"wsl.exe", "--install", "-d", distro, "--no-launch"};
}

std::vector<std::string> wsl_set_version_argv(const std::string& distro) {
  return {"wsl.exe", "--set-version", distro, "2"};
}

std::vector<std::string> wsl_create_user_argv(const std::string& distro, const std::string& user) {
  return {"wsl.exe", "-d", distro, "-u", "root", "--", "useradd", "-m", "-s", "/bin/bash", "-G", "sudo", user};
}

}  // namespace tfwsl::provision
