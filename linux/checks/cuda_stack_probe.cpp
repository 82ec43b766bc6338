#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <system_error>

#include "common/process/process_runner.hpp"
#include "common/util/ascii.hpp"
#include "linux/checks/file_text.hpp"
#include "linux/checks/library_probe_child.hpp"
#include "linux/checks/probes.hpp"

namespace tfwsl::linux_checks {

namespace {

// A program of the distro's packages: in /usr/bin, /usr/local/bin or /bin under the probe root, or on
// PATH when the root is this machine's. Empty when absent.
std::string find_system_program(const ProbeEnvironment& env, const std::string& name) {
  std::error_code ec;
  for (const char* folder : {"/usr/bin/", "/usr/local/bin/", "/bin/"})
    if (std::filesystem::exists(env.at(folder + name), ec)) return folder + name;
  if (env.root == "/")
    if (auto found = resolve_program(name)) return found->string();
  return {};
}

// Docker with NVIDIA's container runtime: how NVIDIA's TensorFlow container runs where no pip wheel
// does (a Blackwell GPU). Only the programs are looked for: asking the daemon could hang.
void probe_containers(const ProbeEnvironment& env, StackFacts& f) {
  f.docker = find_system_program(env, "docker");
  f.nvidia_container_runtime = find_system_program(env, "nvidia-container-runtime");
  if (f.nvidia_container_runtime.empty()) f.nvidia_container_runtime = find_system_program(env, "nvidia-ctk");
}

// apt's own version from dpkg's status file: the paragraph of Package: apt, its Version: line.
std::string apt_version(const ProbeEnvironment& env) {
  const auto status = read_text_file(env.at("/var/lib/dpkg/status"), 64u << 20);
  if (!status) return {};
  const auto start = status->find("Package: apt\n");
  if (start == std::string::npos || (start != 0 && (*status)[start - 1] != '\n')) return {};
  const auto end = status->find("\n\n", start);
  const std::string paragraph = status->substr(start, end == std::string::npos ? std::string::npos : end - start);
  const auto version = paragraph.find("\nVersion: ");
  if (version == std::string::npos) return {};
  const auto from = version + 10;
  return paragraph.substr(from, paragraph.find('\n', from) - from);
}

// NVIDIA's CUDA repository in apt's sources, and whether apt's lists hold an index of it: apt 3
// refuses its SHA1-bound key since 2026-02-01 (profiles/apt-signatures.yaml), and a refused update
// stores nothing for it. Only the files are read: apt itself is not started.
void probe_apt(const ProbeEnvironment& env, StackFacts& f) {
  constexpr std::string_view k_cuda_repository = "developer.download.nvidia.com/compute/cuda/repos/";
  f.apt_version = apt_version(env);
  std::vector<std::string> sources = {"/etc/apt/sources.list"};
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(env.at("/etc/apt/sources.list.d"), ec)) {
    const auto name = entry.path().filename().string();
    if (name.ends_with(".list") || name.ends_with(".sources")) sources.push_back("/etc/apt/sources.list.d/" + name);
    if (sources.size() > 256) break;
  }
  std::sort(sources.begin() + 1, sources.end());
  for (const auto& file : sources)
    if (auto text = read_text_file(env.at(file), 1u << 20); text && text->find(k_cuda_repository) != std::string::npos)
      f.cuda_repository_sources.push_back(file);
  for (const auto& entry : std::filesystem::directory_iterator(env.at("/var/lib/apt/lists"), ec)) {
    const auto name = entry.path().filename().string();
    if (name.find("developer.download.nvidia.com_compute_cuda_repos_") != std::string::npos &&
        name.find("Packages") != std::string::npos)
      f.cuda_repository_lists = true;
  }
}

void probe_toolkits(const ProbeEnvironment& env, StackFacts& f) {
  std::error_code ec;
  auto local = env.at("/usr/local");
  if (std::filesystem::is_directory(local, ec)) {
    for (const auto& entry : std::filesystem::directory_iterator(local, ec)) {
      auto name = entry.path().filename().string();
      if (name.rfind("cuda-", 0) != 0 || !entry.is_directory(ec)) continue;
      CudaToolkit t{"/usr/local/" + name, ""};
      auto text = read_text_file(entry.path() / "version.json");
      if (text) {
        auto j = nlohmann::json::parse(*text, nullptr, false);
        if (!j.is_discarded() && j.contains("cuda") && j["cuda"].is_object() && j["cuda"].contains("version") &&
            j["cuda"]["version"].is_string())
          t.version = j["cuda"]["version"].get<std::string>();
      }
      if (t.version.empty()) t.version = name.substr(5);  // no version.json (CUDA < 11.1): trust the folder name
      f.toolkits.push_back(t);
    }
  }
  std::sort(f.toolkits.begin(), f.toolkits.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
  auto find_tool = [&](const std::string& tool) -> std::string {
    if (std::filesystem::exists(env.at("/usr/local/cuda/bin/" + tool), ec)) return "/usr/local/cuda/bin/" + tool;
    for (const auto& t : f.toolkits)
      if (std::filesystem::exists(env.at(t.path + "/bin/" + tool), ec)) return t.path + "/bin/" + tool;
    if (env.root == "/") {
      auto found = resolve_program(tool);
      if (found) return found->string();
    }
    return {};
  };
  f.nvcc = find_tool("nvcc");
  f.ptxas = find_tool("ptxas");
}

// In the library child: loading cuDNN runs its code, which must not hang the agent.
void probe_cudnn(const ProbeEnvironment& env, StackFacts& f) {
  auto answer = run_library_probe(env, LibraryPart::cudnn);
  auto read = answer ? read_cudnn_answer(*answer, f) : Status(tl::unexpected(answer.error()));
  if (!read) f.cudnn_error = read.error().message + (read.error().detail.empty() ? "" : ": " + read.error().detail);
}

void probe_python(const ProbeEnvironment& env, StackFacts& f) {
  ProcessRequest request;
  request.argv = {env.python, "--version"};
  request.timeout = env.probe_timeout;
  auto outcome = env.runner->run(request);
  if (!outcome) {
    f.python_error = "no Python interpreter '" + env.python + "': " + outcome.error().message;
    return;
  }
  bool late = outcome->timed_out;
  if (late || (outcome->exit_code != 0 && outcome->out.empty() && outcome->err.empty())) {
    f.python_error = env.python + " --version " + (late ? "timed out" : "failed");
    return;
  }
  auto text = trim(outcome->out.empty() ? outcome->err : outcome->out);  // Python 2 prints to stderr
  if (text.rfind("Python ", 0) == 0)
    f.python_version = trim(text.substr(7));
  else
    f.python_error = env.python + " --version printed '" + std::string(text.substr(0, 80)) + "'";
  auto path = resolve_program(env.python);
  f.python_path = path ? path->string() : env.python;
}

}  // namespace

StackFacts probe_cuda_stack(const ProbeEnvironment& env) {
  StackFacts f;
  probe_toolkits(env, f);
  probe_cudnn(env, f);
  probe_python(env, f);
  probe_containers(env, f);
  probe_apt(env, f);
  return f;
}

nlohmann::json stack_to_json(const StackFacts& s, const DriverFacts& d, const TfFacts& tf) {
  nlohmann::json toolkits = nlohmann::json::array();
  for (const auto& t : s.toolkits) toolkits.push_back({{"path", t.path}, {"version", t.version}});
  return {
      {"cuda_toolkits", toolkits},
      {"nvcc", s.nvcc},
      {"ptxas", s.ptxas},
      {"cudnn",
       {{"found", s.cudnn_found},
        {"library", s.cudnn_library},
        {"version", s.cudnn_version ? nlohmann::json(*s.cudnn_version) : nlohmann::json()},
        {"error", s.cudnn_error}}},
      {"linux_driver", {{"packages", d.packages}, {"libcuda_copies", d.libcuda_copies}, {"dpkg_error", d.dpkg_error}}},
      {"python", {{"path", s.python_path}, {"version", s.python_version}, {"error", s.python_error}}},
      {"tensorflow",
       {{"ran", tf.ran},
        {"installed", tf.installed},
        {"version", tf.version},
        {"build", tf.build},
        {"gpus", tf.gpus},
        {"matmul_device", tf.matmul_device},
        {"error", tf.error},
        {"stderr_tail", tf.stderr_tail}}}};
}

}  // namespace tfwsl::linux_checks
