#include "common/provision/container_plan.hpp"

#include <fmt/format.h>

namespace tfwsl::provision {
namespace {

// Podman and what it needs to run rootless: newuidmap/newgidmap (uidmap) for the user's subordinate
// ids, slirp4netns for a rootless container's network (Podman's rootless tutorial,
// https://github.com/containers/podman/blob/main/docs/tutorials/rootless_tutorial.md). Debian and
// Ubuntu only recommend them, and provisioning installs no recommends.
const std::vector<std::string>& engine_packages() {
  static const std::vector<std::string> k_packages = {"podman", "uidmap", "slirp4netns"};
  return k_packages;
}

PlannedStep container_step(std::string_view id) {
  PlannedStep step;
  step.definition = find_step_definition(id);
  return step;
}

void add_toolkit_repository(ProvisionPlan& plan, const PlanSettings& settings) {
  const std::string key = settings.toolkit_key_url.empty() ? k_toolkit_key_url : settings.toolkit_key_url;
  const std::string repository =
      settings.toolkit_repository_url.empty() ? k_toolkit_repository_url : settings.toolkit_repository_url;
  auto step = container_step("container.toolkit-repository");
  step.values = {{"key_url", key}, {"repository", repository}, {"sources", k_toolkit_sources}};
  step.commands = {{RunsAs::root, toolkit_key_fetch_argv(key)}, {RunsAs::root, apt_update_argv(settings.apt)}};
  step.changes = fmt::format(
      "fetches NVIDIA's key to {}, writes {} (one line, NVIDIA's repository), then refreshes "
      "apt's lists",
      k_toolkit_keyring, k_toolkit_sources);
  plan.distro_steps.push_back(std::move(step));
}

void add_cdi_spec(ProvisionPlan& plan, const PlanSettings& settings) {
  auto step = container_step("container.cdi-spec");
  step.values = {{"spec", k_cdi_spec}, {"device", k_cdi_gpu_device}};
  step.commands = {{RunsAs::root, cdi_generate_argv(settings.inside_wsl)}};
  step.changes = fmt::format("writes {} for the GPU WSL shares (/dev/dxg, the driver store's libraries)", k_cdi_spec);
  plan.distro_steps.push_back(std::move(step));
}

void add_image(ProvisionPlan& plan, const Profile& profile, const PlanSettings& settings) {
  auto step = container_step("container.image");
  step.values = {{"image", plan.image}};
  if (plan.containerfile.empty()) {
    step.values.emplace_back("digest", profile.container_digest.value_or(""));
    step.commands = {{RunsAs::user, image_pull_argv(plan.image)}};
    step.changes = fmt::format("pulls {} into {}'s image store (a stopped pull resumes from the layers it has)",
                               plan.image, settings.user.empty() ? "the user" : settings.user);
  } else {
    const std::string folder = container_build_folder(plan, settings.home);
    step.values.emplace_back("build_folder", folder);
    step.commands = {{RunsAs::user, image_build_argv(plan.image, folder + "/Dockerfile", folder)}};
    step.changes =
        fmt::format("writes the profile's Dockerfile to {} and builds {} from it, as the user", folder, plan.image);
  }
  plan.distro_steps.push_back(std::move(step));
}

void add_verify(ProvisionPlan& plan) {
  auto step = container_step("container.verify");
  step.values = {{"image", plan.image}, {"device", k_cdi_gpu_device}};
  step.changes = "nothing: runs TensorFlow's GPU check in the image, as the user";
  plan.distro_steps.push_back(std::move(step));
}

}  // namespace

std::string container_build_folder(const ProvisionPlan& plan, const std::string& home) {
  return expand_home(fmt::format("~/.cache/tfwsl/build/{}", plan.profile.empty() ? "profile" : plan.profile), home);
}

Status add_container_steps(ProvisionPlan& plan, const Profile& profile, const PlanSettings& settings) {
  if (!profile.container_image.has_value())
    return make_error(ErrorCode::invalid_input, "the profile's route is container and it names no image",
                      "set container.image (and container.digest)");
  plan.containerfile = profile.container_build.value_or({});
  plan.image = plan.containerfile.empty()
                   ? pinned_image_reference(*profile.container_image, profile.container_digest.value_or(""))
                   : *profile.container_image;
  for (const auto& mount : profile.container_mounts.value_or({}))
    plan.mounts.push_back(expand_home(mount, settings.home));
  TFWSL_TRY_STATUS(add_apt_install_step(plan, "container.engine", engine_packages(), settings,
                                        "installs Podman and what it needs to run containers as the user"));
  TFWSL_TRY_STATUS(add_apt_install_step(plan, "apt.prerequisites", prerequisite_packages(), settings,
                                        "installs the packages that are missing"));
  add_toolkit_repository(plan, settings);
  TFWSL_TRY_STATUS(add_apt_install_step(plan, "container.toolkit", {"nvidia-container-toolkit"}, settings,
                                        "installs nvidia-ctk from NVIDIA's repository (no driver)"));
  add_cdi_spec(plan, settings);
  add_image(plan, profile, settings);
  add_verify(plan);
  return {};
}

}  // namespace tfwsl::provision
