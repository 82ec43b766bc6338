#include "linux/provision/container_step_checks.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <system_error>

#include "linux/checks/file_text.hpp"
#include "linux/provision/as_user_runner.hpp"
#include "linux/provision/cdi_spec.hpp"
#include "linux/provision/container_probe.hpp"
#include "linux/provision/distro_path.hpp"

namespace tfwsl::provision {
namespace {

std::string value_of(const PlannedStep& step, std::string_view key) {
  const std::string* v = step.value(key);
  return v ? *v : std::string();
}

StepCheck check_repository(const CheckContext& c) {
  std::error_code ec;
  const auto key = distro_path_at(c.root, k_toolkit_keyring);
  if (!std::filesystem::is_regular_file(key, ec) || std::filesystem::file_size(key, ec) == 0)
    return {false, std::string(k_toolkit_keyring) + " is missing"};
  const auto sources = linux_checks::read_text_file(distro_path_at(c.root, k_toolkit_sources), 1 << 16);
  if (!sources) return {false, std::string(k_toolkit_sources) + " is missing"};
  // Any entry signed by that key counts: a mirror of NVIDIA's repository is the user's choice.
  if (sources->find(fmt::format("deb [signed-by={}] ", k_toolkit_keyring)) == std::string::npos)
    return {false, fmt::format("{} has no entry signed by {}", k_toolkit_sources, k_toolkit_keyring)};
  return {true, fmt::format("{} and {} are in place", k_toolkit_keyring, k_toolkit_sources)};
}

StepCheck check_spec(const CheckContext& c) {
  const auto state = read_cdi_spec_state(c.root, k_cdi_spec);
  return {state.verdict == CdiSpecVerdict::current, std::string(k_cdi_spec) + ": " + state.message};
}

// Podman as the user, or why it cannot run here.
Result<ProcessOutcome> podman_as_user(CheckContext& c, std::vector<std::string> argv,
                                      std::chrono::milliseconds timeout) {
  if (observes_other_root(c.root))
    return make_error(ErrorCode::unsupported, "Podman is not asked about another root (" + c.root.string() + ")");
  TFWSL_TRY(user, container_user(c.user));
  AsUserRunner runner(*c.processes, user, {}, c.root);
  ProcessRequest request;
  request.argv = std::move(argv);
  request.timeout = timeout;
  return runner.run(request);
}

std::string first_line(const std::string& text) {
  const auto end = text.find('\n');
  return text.substr(0, std::min<std::size_t>(end == std::string::npos ? text.size() : end, 300));
}

StepCheck check_image(const PlannedStep& step, CheckContext& c) {
  const std::string image = value_of(step, "image");
  auto inspected = podman_as_user(c, image_digest_argv(image), std::chrono::seconds(60));
  if (!inspected) return {false, inspected.error().message};
  if (inspected->exit_code != 0) return {false, fmt::format("{} is not in the user's image store", image)};
  return {true, fmt::format("{} is in the user's image store (digest {})", image, first_line(inspected->out))};
}

StepCheck check_verify(const PlannedStep& step, CheckContext& c) {
  ContainerRun run;
  run.image = value_of(step, "image");
  run.env = c.plan->env;
  run.command = {"python3", "-c", container_probe_script()};
  auto ran = podman_as_user(c, container_run_argv(run), c.tf_timeout);
  if (!ran) return {false, ran.error().message};
  auto probe = parse_container_probe(ran->out);
  if (!probe)
    return {false, fmt::format("the container did not run (podman exited {}): {}", ran->exit_code,
                               first_line(ran->err.empty() ? probe.error().message : ran->err))};
  if (probe->gpus.empty())
    return {false, fmt::format("TensorFlow {} in the image sees no GPU{}", probe->tensorflow,
                               probe->error.empty() ? "" : ": " + probe->error)};
  if (!probe->op_on_gpu)
    return {false, fmt::format("TensorFlow {} sees {} but an op on GPU:0 failed: {}", probe->tensorflow,
                               fmt::join(probe->gpus, ", "), probe->error)};
  return {true, fmt::format("TensorFlow {} in the image ran an op on GPU:0 ({})", probe->tensorflow,
                            fmt::join(probe->gpus, ", "))};
}

}  // namespace

Result<const DistroUser*> container_user(const DistroUser* user) {
  if (!user || user->uid == 0)
    return make_error(ErrorCode::permission, "the container route runs Podman as the distro's user, never as root",
                      "give the distro a default user who is not root (the distro.user step says how)");
  return user;
}

std::optional<StepCheck> check_container_step(const PlannedStep& step, CheckContext& c) {
  const std::string_view id = step.definition->id;
  if (id == "container.toolkit-repository") return check_repository(c);
  if (id == "container.cdi-spec") return check_spec(c);
  if (id == "container.image") return check_image(step, c);
  if (id == "container.verify") return check_verify(step, c);
  return std::nullopt;
}

}  // namespace tfwsl::provision
