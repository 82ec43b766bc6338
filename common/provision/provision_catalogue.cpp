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
constexpr std::string_view k_ctk_install =
    "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html";
constexpr std::string_view k_ctk_cdi =
    "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/cdi-support.html";

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
      // The container route (route: container) runs these instead of the venv's steps.
      {"container.engine", S::distro, R::root, "Podman is installed in the distro",
       "Podman reads CDI specs (4.1 and later), needs no daemon, and runs the image as the distro's user, not root",
       "https://podman.io/docs/installation#ubuntu"},
      {"container.toolkit-repository", S::distro, R::root, "NVIDIA's container toolkit repository is configured",
       "nvidia-ctk, which writes the CDI spec for the WSL GPU, comes from NVIDIA's own repository and key",
       k_ctk_install},
      {"container.toolkit", S::distro, R::root, "the NVIDIA Container Toolkit is installed (nvidia-ctk)",
       "nvidia-ctk generates the CDI spec; on WSL it finds /dev/dxg and the driver store's libraries", k_ctk_install},
      {"container.cdi-spec", S::distro, R::root, "a current CDI spec describes the GPU (/etc/cdi/nvidia.yaml)",
       "a Windows driver update moves the driver store and leaves the spec naming files that are gone", k_ctk_cdi},
      {"container.image", S::distro, R::user, "the profile's image is in the user's image store, by digest",
       "the image brings TensorFlow, CUDA and cuDNN built for the GPU; pinned by digest, what was checked is what runs",
       "https://docs.podman.io/en/stable/markdown/podman-pull.1.html"},
      {"container.verify", S::distro, R::agent, "TensorFlow in the image runs an op on GPU:0",
       "the verdict: an image that cannot reach the GPU through the CDI spec is not done", k_ctk_cdi},
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

std::vector<std::string> toolkit_key_fetch_argv(const std::string& url) {
  return {"curl", "-fsSL", "--retry", "3", "-o", k_toolkit_keyring, url};
}

std::string toolkit_sources_text(const std::string& repository_url) {
  return fmt::format(
      "# Written by tfwsl provision (container.toolkit-repository): NVIDIA's container toolkit.\n"
      "deb [signed-by={}] {} /\n",
      k_toolkit_keyring, repository_url);
}

std::vector<std::string> cdi_generate_argv(bool inside_wsl) {
  // WSL is found by loading libdxcore.so, which fails where /usr/lib/wsl/lib is not on the loader's
  // path; NVIDIA's maintainers advise naming the mode (NVIDIA/nvidia-container-toolkit#452).
  if (inside_wsl) return {"nvidia-ctk", "cdi", "generate", "--mode=wsl", std::string("--output=") + k_cdi_spec};
  return {"nvidia-ctk", "cdi", "generate", std::string("--output=") + k_cdi_spec};
}

std::vector<std::string> image_pull_argv(const std::string& pinned_reference) {
  return {"podman", "pull", pinned_reference};
}

std::vector<std::string> image_build_argv(const std::string& tag, const std::string& containerfile,
                                          const std::string& context) {
  return {"podman", "build", "--pull=missing", "--tag", tag, "--file", containerfile, context};
}

std::vector<std::string> image_digest_argv(const std::string& reference) {
  return {"podman", "image", "inspect", "--format", "{{.Digest}}", reference};
}

std::vector<std::string> container_run_argv(const ContainerRun& run) {
  std::vector<std::string> argv = {"podman", "run", "--rm", "--device", k_cdi_gpu_device};
  if (run.interactive) argv.insert(argv.end(), {"--interactive", "--tty"});
  for (const auto& [name, value] : run.env) argv.insert(argv.end(), {"--env", name + "=" + value});
  for (const auto& mount : run.mounts) argv.insert(argv.end(), {"--volume", mount});
  if (!run.workdir.empty()) argv.insert(argv.end(), {"--workdir", run.workdir});
  argv.push_back(run.image);
  argv.insert(argv.end(), run.command.begin(), run.command.end());
  return argv;
}

std::string pinned_image_reference(const std::string& image, const std::string& digest) {
  if (digest.empty()) return image;
  // The tag names the release for people; the engines resolve repository@digest alone.
  std::string repository = image;
  const auto slash = repository.rfind('/');
  const auto colon = repository.rfind(':');
  if (colon != std::string::npos && (slash == std::string::npos || colon > slash)) repository.resize(colon);
  return repository + "@" + digest;
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
