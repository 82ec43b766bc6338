#include "win/push/push_plan.hpp"

#include <spdlog/spdlog.h>

#include "common/agent_api/exclude_names.hpp"

namespace tfwsl::push {
namespace {

bool is_inside(const std::string& path, const std::string& folder) {
  if (folder.empty()) return false;
  if (folder == "/") return true;
  return path == folder || (path.rfind(folder, 0) == 0 && path[folder.size()] == '/');
}

std::string joined(std::string base, const std::string& name) {
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  return base == "/" ? "/" + name : base + "/" + name;
}

Status check_name(const std::string& name, const PushRequest& request) {
  if (name.empty())
    return make_error(ErrorCode::invalid_input,
                      "'" + request.source + "' has no folder name to push under: add --name NAME");
  if (name == "." || name == ".." || name.find_first_of("/\\") != std::string::npos)
    return make_error(ErrorCode::invalid_input, "--name '" + name + "' must be one folder name, without '/' or '\\'");
  return {};
}

// SRC as the distro sees it: resolved by the agent (tfwsl.exe), or as given (native build).
Status locate_source(PushAgent& agent, const PushRequest& request, PushPlan& plan) {
  if (!request.windows) {
    if (request.source.empty() || request.source.front() != '/')
      return make_error(ErrorCode::invalid_input, "'" + request.source + "' must be an absolute path on this machine");
    plan.source_linux = request.source;
    while (plan.source_linux.size() > 1 && plan.source_linux.back() == '/') plan.source_linux.pop_back();
    return {};
  }
  auto resolved = agent.resolve(request.source);
  if (!resolved) {
    auto e = resolved.error();
    e.message = "cannot push '" + request.source + "': " + e.message;
    return tl::unexpected(e);
  }
  plan.source_linux = resolved->linux_path;
  plan.mount_type = resolved->mount_type;
  plan.slow_mount = resolved->slow_mount;
  return {};
}

Status name_target(const PushRequest& request, PushPlan& plan) {
  plan.name = request.name.empty() ? default_push_name(request.source) : request.name;
  TFWSL_TRY_STATUS(check_name(plan.name, request));
  std::string base = request.to;
  if (base == "~" || base.rfind("~/", 0) == 0) base = plan.home + base.substr(1);
  if (base.empty()) {
    if (plan.home.empty())
      return make_error(ErrorCode::not_found, "the agent does not know its home folder: give the target with --to DIR");
    base = joined(plan.home, "datasets");
  }
  if (base.front() != '/')
    return make_error(ErrorCode::invalid_input,
                      "--to '" + request.to + "' must be a Linux path (/home/me/data or ~/data)");
  plan.target = joined(base, plan.name);
  // The agent's root on the target side must exist when it starts: the home folder when the target is
  // under it (the engine creates ~/datasets/NAME), otherwise --to itself.
  plan.target_root = is_inside(plan.target, plan.home) ? plan.home : base;
  return {};
}

void judge_host_room(const PushEnvironment& env, const PushRequest& request, PushPlan& plan) {
  const std::uint64_t needed = host_bytes_needed(plan.tree.bytes);
  if (!env.registry || !env.host_free) {
    plan.host_room =
        judge_room(needed, std::nullopt, "the host drive", "not Windows: the distro has no ext4.vhdx here", "");
    return;
  }
  auto vhdx = find_vhdx(*env.registry, request.distro);
  if (!vhdx) {
    spdlog::info("{}", vhdx.error().describe());  // the plan says it; a warning would print it twice
    plan.host_room = judge_room(needed, std::nullopt, "the host drive",
                                "the distro's ext4.vhdx was not found (" + vhdx.error().message + ")", "");
    return;
  }
  plan.vhdx = *vhdx;
  const std::string where = "the Windows drive holding " + vhdx->vhdx_path;
  auto free = env.host_free->free_bytes(vhdx->base_path);
  if (!free) {
    plan.host_room = judge_room(needed, std::nullopt, where, free.error().message, "");
    return;
  }
  plan.host_room =
      judge_room(needed, *free, where, "",
                 "free space on that drive first (a full host disk can corrupt the distro's virtual disk), "
                 "or move the distro (wsl --manage " +
                     (vhdx->distro.empty() ? std::string("DISTRO") : vhdx->distro) + " --move D:\\WSL)");
}

void judge_distro_room(PushAgent& agent, PushPlan& plan) {
  std::string why;
  auto free = agent.distro_free_bytes(why);
  std::optional<std::uint64_t> bytes = free ? *free : std::nullopt;
  if (!free) why = free.error().message;
  plan.distro_room = judge_room(distro_bytes_needed(plan.tree.bytes), bytes, "the distro's filesystem",
                                "the agent could not measure it (" + why + ")",
                                "free space in the distro, or enlarge its virtual disk (wsl --manage DISTRO --resize)");
}

}  // namespace

std::string default_push_name(const std::string& source) {
  std::string s = source;
  while (!s.empty() && (s.back() == '\\' || s.back() == '/')) s.pop_back();
  auto cut = s.find_last_of("\\/");
  std::string name = cut == std::string::npos ? s : s.substr(cut + 1);
  if (name.size() == 2 && name[1] == ':') return {};  // "C:": a drive root
  return name;
}

std::string windows_view_of(const std::string& distro, const std::string& linux_path) {
  if (distro.empty()) return {};
  std::string out = "\\\\wsl.localhost\\" + distro;
  for (char c : linux_path) out += c == '/' ? '\\' : c;
  return out;
}

Status plan_push(PushEnvironment& env, const PushRequest& request, PushPlan& plan) {
  plan.source_given = request.source;
  TFWSL_TRY_STATUS(agent_api::check_exclude_names(request.exclude, "--exclude"));
  TFWSL_TRY(agent, env.connect({}));
  plan.agent = agent->describe();
  TFWSL_TRY_STATUS(locate_source(*agent, request, plan));
  TFWSL_TRY(info, agent->info());
  plan.home = info.home;
  plan.in_wsl = info.wsl != agent_api::WslKind::not_wsl;
  plan.distro_name = plan.in_wsl ? info.distro : "";
  TFWSL_TRY_STATUS(name_target(request, plan));
  TFWSL_TRY(tree, env.measure(request.source, request.exclude));
  plan.tree = tree;
  judge_host_room(env, request, plan);
  // How Windows names the distro (\\wsl.localhost\<name>): the registry's DistributionName, else
  // --distro; the agent's name is WSL_DISTRO_NAME, or only the os-release PRETTY_NAME without it.
  // The agent's own name would be the os-release's ("Ubuntu 22.04.3 LTS"): no \\wsl.localhost\ path.
  if (plan.vhdx && !plan.vhdx->distro.empty())
    plan.distro_name = plan.vhdx->distro;
  else if (!request.distro.empty() && plan.in_wsl)
    plan.distro_name = request.distro;
  else if (plan.in_wsl && env.default_distro)
    if (std::string listed = env.default_distro(); !listed.empty()) plan.distro_name = listed;
  judge_distro_room(*agent, plan);
  if (!plan.host_room.enough) return make_error(ErrorCode::no_space, plan.host_room.reason);
  if (!plan.distro_room.enough) return make_error(ErrorCode::no_space, plan.distro_room.reason);
  return {};
}

}  // namespace tfwsl::push
