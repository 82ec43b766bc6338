#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <memory>

#include "common/process/process_runner.hpp"
#include "common/provision/command_progress.hpp"
#include "common/util/atomic_file.hpp"
#include "linux/provision/as_user.hpp"
#include "linux/provision/container_step_checks.hpp"
#include "linux/provision/distro_step_checks.hpp"
#include "linux/provision/dpkg_state.hpp"
#include "linux/provision/fixup_env.hpp"
#include "linux/provision/state_folder.hpp"
#include "linux/provision/step_apply.hpp"
#include "linux/provision/venv_contents.hpp"
#include "linux/provision/venv_writer.hpp"

namespace tfwsl::provision {
namespace {

bool is_container_step(const PlannedStep& step) { return step.definition->id.rfind("container.", 0) == 0; }

bool touches_dpkg(const std::vector<std::string>& argv) {
  return !argv.empty() && (argv[0] == "apt-get" || argv[0] == "dpkg");
}

bool is_apt_update(const std::vector<std::string>& argv) {
  return !argv.empty() && argv.front() == "apt-get" && argv.back() == "update";
}

void note_in_log(const std::filesystem::path& log, const std::string& text) { append_state_line(log, text); }

// apt's and pip's lines, read back from the step log as they come, become progress events; pip's
// total is the plan's known size of the step's downloads.
void follow_progress(StepCommand& run, const PlannedStep& step, const ApplyContext& c) {
  if (!c.progress) return;
  const auto expected = step.download ? step.download->bytes : std::nullopt;
  std::shared_ptr<CommandProgress> reader = command_progress_for(run.step, run.argv, expected);
  if (!reader) return;
  run.on_output = [&c, reader](std::string_view line) {
    if (auto event = reader->line(line)) c.progress(*event);
  };
}

Status run_command(const PlannedStep& step, const PlannedCommand& command, const ApplyContext& c) {
  StepCommand run;
  run.step = std::string(step.definition->id);
  run.argv = command.argv;
  run.timeout = c.command_timeout;
  follow_progress(run, step, c);
  if (command.as == RunsAs::user && is_container_step(step)) {
    // Podman rootless: the user's own image store, never root's.
    TFWSL_TRY(user, container_user(c.user));
    run.as_user = user;
  } else if (command.as == RunsAs::user) {
    // The user's commands (venv, pip) write the venv: as the user, or as root in a root-only venv.
    TFWSL_TRY(writer, venv_writer(c.plan->venv, *c.user));
    run.as_user = writer == VenvWriter::user ? c.user : nullptr;
    if (!run.as_user && ::geteuid() != 0)
      return make_error(ErrorCode::permission, fmt::format("{} writes the root-owned venv {} and needs root",
                                                           describe_command(command.argv), c.plan->venv));
  } else {
    if (::geteuid() != 0)
      return make_error(ErrorCode::permission, fmt::format("{} needs root", describe_command(command.argv)),
                        "run tfwsl-agent provision as root (tfwsl does it through wsl.exe -u root)");
    run.env = apt_environment();
  }
  std::optional<std::string> sources;
  if (c.apt_refresh && is_apt_update(command.argv)) {
    sources = apt_sources_fingerprint(c.root);
    if (c.apt_refresh->refreshed_sources == sources) {
      note_in_log(c.logs.step_log, "not run: " + describe_command(command.argv) +
                                       " (apt's sources are unchanged since this run's refresh)");
      return {};
    }
  }
  if (touches_dpkg(command.argv)) TFWSL_TRY_STATUS(wait_for_dpkg_lock(c.root, c.lock_wait));
  auto code = run_step_command(run, c.logs);
  if (!code) return tl::unexpected(code.error());
  if (*code != 0)
    return make_error(ErrorCode::process,
                      fmt::format("{} exited with status {}", describe_command(command.argv), *code),
                      "see " + c.logs.step_log.string());
  if (sources) c.apt_refresh->refreshed_sources = std::move(sources);
  return {};
}

// Work in the venv: as the user when it lies in their home, as root in a venv only root may write.
Status as_venv_writer(const ApplyContext& c, const std::function<Status()>& work) {
  TFWSL_TRY(writer, venv_writer(c.plan->venv, *c.user));
  if (writer == VenvWriter::root) return work();
  return run_as_user(*c.user, work);
}

// A file in the user's home, written by the user (run_as_user): the folders, a temporary file and
// the swap are the user's own, so a link they planted can only lead where they may write.
Status write_user_file(const std::filesystem::path& file, const std::string& text, const DistroUser& user) {
  return run_as_user(user, [&]() -> Status {
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
    if (ec) return make_error(ErrorCode::io, "cannot create " + file.parent_path().string(), ec.message());
    return replace_file_atomically(file, text);
  });
}

Status write_env_file(const ApplyContext& c) {
  return write_user_file(c.plan->env_file, env_file_text(*c.plan), *c.user);
}

// Something (or something unreadable) is at `path`: only a name known to be free gets a link.
bool name_taken(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::symlink_status(path, ec).type() != std::filesystem::file_type::not_found;
}

// TensorFlow's pip guide: link the pip CUDA libraries next to TensorFlow and ptxas into the venv's
// bin (https://www.tensorflow.org/install/pip, "Linux", step 4's note for the libraries not found).
// Runs as the venv's writer (as_venv_writer): whatever the user swapped in there is theirs.
Status link_cuda_libraries(const ApplyContext& c) {
  std::error_code ec;
  for (const auto& site : venv_site_packages(c.plan->venv)) {
    const auto tf_dir = site / "tensorflow";
    for (const auto& package : std::filesystem::directory_iterator(site / "nvidia", ec)) {
      for (const auto& lib : std::filesystem::directory_iterator(package.path() / "lib", ec)) {
        if (lib.path().filename().string().find(".so") == std::string::npos) continue;
        const auto link = tf_dir / lib.path().filename();
        if (name_taken(link)) continue;
        std::filesystem::create_symlink(lib.path(), link, ec);
      }
    }
    const auto ptxas = site / "nvidia/cuda_nvcc/bin/ptxas";
    const auto target = std::filesystem::path(c.plan->venv) / "bin/ptxas";
    if (std::filesystem::exists(ptxas, ec) && !name_taken(target)) std::filesystem::create_symlink(ptxas, target, ec);
  }
  return {};
}

// TensorFlow's pip guide (its "Ubuntu 22.04" note up to TF 2.13, site/en/install/pip.md in
// github.com/tensorflow/docs) sets XLA_FLAGS=--xla_gpu_cuda_data_dir=... when XLA logs "Can't find
// libdevice directory" (the flag: xla/debug_options_flags.cc in github.com/openxla/xla): a CUDA
// folder holding nvvm/libdevice; the pip CUDA compiler wheel (nvidia/cuda_nvcc) is one. The
// fix-ups' file is read and written as the user.
Status set_xla_data_dir(const ApplyContext& c) {
  std::error_code ec;
  for (const auto& site : venv_site_packages(c.plan->venv)) {
    const auto nvcc = site / "nvidia/cuda_nvcc";
    if (!std::filesystem::exists(nvcc / "nvvm/libdevice", ec)) continue;
    const auto file = fixups_env_path(*c.plan);
    return run_as_user(*c.user, [&]() -> Status {
      auto vars = read_env_exports(file);
      vars["XLA_FLAGS"] = xla_data_dir_flag(nvcc.string());
      std::error_code made;
      std::filesystem::create_directories(std::filesystem::path(file).parent_path(), made);
      return replace_file_atomically(file, env_exports_text(vars));
    });
  }
  return make_error(ErrorCode::not_found, "XLA needs libdevice and the venv has no nvidia/cuda_nvcc/nvvm/libdevice",
                    "install tensorflow[and-cuda], which brings nvidia-cuda-nvcc-cu12");
}

// NVIDIA's install guide: the key, then the one sources line (written by the agent, not by sed),
// then apt's lists. The keyring folder is root's, as are /etc/apt's.
Status apply_toolkit_repository(const PlannedStep& step, const ApplyContext& c) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(k_toolkit_keyring).parent_path(), ec);
  TFWSL_TRY_STATUS(run_command(step, step.commands.at(0), c));
  const std::string* repository = step.value("repository");
  TFWSL_TRY_STATUS(replace_file_atomically(k_toolkit_sources, toolkit_sources_text(repository ? *repository : "")));
  return run_command(step, step.commands.at(1), c);
}

// A local build: the profile's Dockerfile in the user's cache folder, written as the user, then
// `podman build` as the user.
Status apply_image(const PlannedStep& step, const ApplyContext& c) {
  if (const std::string* folder = step.value("build_folder")) {
    TFWSL_TRY(user, container_user(c.user));
    std::string dockerfile;
    for (const auto& line : c.plan->containerfile) dockerfile += line + "\n";
    TFWSL_TRY_STATUS(write_user_file(std::filesystem::path(*folder) / "Dockerfile", dockerfile, *user));
  }
  for (const auto& command : step.commands) TFWSL_TRY_STATUS(run_command(step, command, c));
  return {};
}

Status apply_fixups(const ApplyContext& c) {
  if (!c.tf || tf_needs_library_links(*c.tf))
    TFWSL_TRY_STATUS(as_venv_writer(c, [&] { return link_cuda_libraries(c); }));
  if (c.tf && tf_needs_xla_data_dir(*c.tf)) TFWSL_TRY_STATUS(set_xla_data_dir(c));
  return {};
}

// The venv's missing parent folders, made by its writer: the user's own inside the home, root's
// (never given to the user) in a folder only root may write.
Status make_venv_parent(const ApplyContext& c) {
  const auto parent = std::filesystem::path(c.plan->venv).parent_path();
  return as_venv_writer(c, [&]() -> Status {
    std::error_code ec;
    std::filesystem::create_directories(parent, ec);
    if (ec) return make_error(ErrorCode::io, "cannot create " + parent.string(), ec.message());
    return {};
  });
}

// The steps whose commands or own work write the venv (as its writer, venv_writer).
bool writes_venv(const PlannedStep& step) {
  const std::string_view id = step.definition->id;
  if (is_container_step(step)) return false;
  if (id == "python.venv" || id == "tensorflow.fixups") return true;
  return std::any_of(step.commands.begin(), step.commands.end(),
                     [](const PlannedCommand& c) { return c.as == RunsAs::user; });
}

}  // namespace

Status step_refusal(const PlannedStep& step, const ProvisionPlan& plan, const DistroUser& user) {
  const bool as_user = std::any_of(step.commands.begin(), step.commands.end(),
                                   [](const PlannedCommand& c) { return c.as == RunsAs::user; });
  if (is_container_step(step) && (as_user || step.definition->id == "container.verify"))
    return container_user(&user).has_value() ? Status{} : Status(tl::unexpected(container_user(&user).error()));
  if (!writes_venv(step)) return {};
  TFWSL_TRY(writer, venv_writer(plan.venv, user));
  (void)writer;
  return {};
}

void note_refusals(ProvisionPlan& plan, const DistroUser& user) {
  for (auto& step : plan.distro_steps)
    if (const Status refused = step_refusal(step, plan, user); !refused)
      step.changes = "refused: " + step_failure_text(refused.error());
}

std::string step_failure_text(const Error& error) {
  return error.message + (error.detail.empty() ? "" : " (" + error.detail + ")");
}

Status apply_distro_step(const PlannedStep& step, const ApplyContext& c) {
  if (!c.user) return make_error(ErrorCode::internal, "a distro step applied without its user");
  TFWSL_TRY_STATUS(step_refusal(step, *c.plan, *c.user));
  const std::string_view id = step.definition->id;
  if (id == "env.file") return write_env_file(c);
  if (id == "tensorflow.fixups") return apply_fixups(c);
  if (id == "container.toolkit-repository") return apply_toolkit_repository(step, c);
  if (id == "container.image") return apply_image(step, c);
  if (id == "cuda.repository") {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(k_keyring_deb).parent_path(), ec);
  }
  if (id == "python.venv") TFWSL_TRY_STATUS(make_venv_parent(c));
  for (const auto& command : step.commands) TFWSL_TRY_STATUS(run_command(step, command, c));
  return {};
}

}  // namespace tfwsl::provision
