#include <pwd.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>

#include "common/agent_api/api_types.hpp"
#include "common/agent_api/challenge.hpp"
#include "common/agent_api/handshake.hpp"
#include "common/agent_api/linux_facts.hpp"
#include "common/build_info/build_info.hpp"
#include "common/check/check_fold.hpp"
#include "common/check/check_table.hpp"
#include "common/judge/assess.hpp"
#include "linux/agent/path_resolver.hpp"
#include "linux/agent/routes.hpp"
#include "linux/checks/probes.hpp"

namespace tfwsl::agent {

using agent_api::ApiError;

namespace {

ApiResponse challenge(const AgentContext& context, const ApiRequest& request) {
  if (!request.body.contains("nonce") || !request.body["nonce"].is_string())
    return error_response(ApiError::invalid_input, "the body needs a string field 'nonce'");
  auto nonce = request.body["nonce"].get<std::string>();
  if (!agent_api::is_valid_nonce(nonce))
    return error_response(ApiError::invalid_input, "nonce must be 32 to 128 hex digits");
  return ok({{"proof", agent_api::challenge_proof(context.token, nonce)}});
}

// Where `tfwsl data push` puts datasets by default (~/datasets): $HOME as a login shell sets it,
// else the passwd entry (wsl.exe --exec may start the agent without a login environment).
std::string home_folder() {
  if (const char* home = std::getenv("HOME"); home && home[0] == '/') return home;
  if (const passwd* entry = ::getpwuid(::getuid()); entry && entry->pw_dir) return entry->pw_dir;
  return {};
}

ApiResponse info(AgentContext& context) {
  auto wsl = linux_checks::probe_wsl(context.probe_env);
  agent_api::InfoResponse i;
  i.agent = context.version;
  i.commit = build_info::commit();
  i.api = agent_api::k_api_version;
  i.distro = wsl.distro;
  i.kernel = wsl.kernel;
  if (i.kernel.empty()) {
    struct utsname u {};
    if (uname(&u) == 0) i.kernel = u.release;
  }
  i.wsl = wsl.kind;
  i.uid = static_cast<std::uint32_t>(getuid());
  i.pid = static_cast<long>(getpid());
  i.uptime_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - context.started).count();
  i.home = home_folder();
  return ok(agent_api::to_json(i));
}

bool wants_refresh(const ApiRequest& request) {
  auto it = request.query.find("refresh");
  return it != request.query.end() && (it->second == "1" || it->second == "true");
}

ApiResponse unavailable(const FactsCache::Unavailable& why) { return error_response(why.error, why.message); }

// When the facts behind an answer were probed, and whether this call probed them.
void add_freshness(nlohmann::json& body, const FactsCache::Entry& entry) {
  body["probed_at_ms"] =
      std::chrono::duration_cast<std::chrono::milliseconds>(entry.probed_at.time_since_epoch()).count();
  body["age_ms"] = entry.age.count();
  body["cached"] = entry.cached;
  body["refresh"] = refresh_name(entry.refresh);
}

// What the probes observed, unjudged: the CLI judges them with the profile its user named.
ApiResponse facts(AgentContext& context, const ApiRequest& request) {
  auto entry = context.facts.get(context.probe_env, wants_refresh(request));
  if (!entry) return unavailable(entry.error());
  auto body = agent_api::to_json(entry->facts);
  add_freshness(body, *entry);
  return ok(body);
}

// A convenience for shells and scripts: the same facts, judged here by the common judge with the
// policy of `serve --profile`.
ApiResponse checks(AgentContext& context, const ApiRequest& request) {
  auto entry = context.facts.get(context.probe_env, wants_refresh(request));
  if (!entry) return unavailable(entry.error());
  auto report = judge::assess(entry->facts, context.policy);
  fold_report(report, check_dependencies());  // as `tfwsl-agent check`: root causes, not echoes
  auto body = to_json(report);
  add_freshness(body, *entry);
  body["timed_out"] = entry->facts.timed_out;
  return ok(body);
}

ApiResponse paths_resolve(AgentContext& context, const ApiRequest& request) {
  if (!request.body.contains("windows_path") || !request.body["windows_path"].is_string())
    return error_response(ApiError::invalid_input, "the body needs a string field 'windows_path'");
  auto wsl = linux_checks::probe_wsl(context.probe_env);
  PathContext paths{wsl.automount_root, wsl.distro, linux_checks::read_mounts(context.probe_env)};
  if (const char* name = std::getenv("WSL_DISTRO_NAME"); name && *name && context.probe_env.root == "/")
    paths.distro = name;
  auto resolved = resolve_windows_path(request.body["windows_path"].get<std::string>(), paths);
  if (!resolved) {
    auto message =
        resolved.error().message + (resolved.error().detail.empty() ? "" : ". Fix: " + resolved.error().detail);
    return error_response(
        resolved.error().code == ErrorCode::invalid_input ? ApiError::invalid_input : ApiError::unprocessable, message);
  }
  return ok(agent_api::to_json(*resolved));
}

}  // namespace

void register_core_routes(Router& router, AgentContext& context) {
  AgentContext* c = &context;
  router.add(
      {"POST", agent_api::route::k_challenge, {"nonce"}, [c](const ApiRequest& r) { return challenge(*c, r); }, false});
  router.add({"GET", agent_api::route::k_info, {}, [c](const ApiRequest&) { return info(*c); }});
  router.add({"GET", agent_api::route::k_facts, {}, [c](const ApiRequest& r) { return facts(*c, r); }});
  router.add({"GET", agent_api::route::k_checks, {}, [c](const ApiRequest& r) { return checks(*c, r); }});
  router.add({"GET", agent_api::route::k_gpu, {}, [c](const ApiRequest& r) {
                auto entry = c->facts.get(c->probe_env, wants_refresh(r));
                if (!entry) return unavailable(entry.error());
                return ok(agent_api::to_json(entry->facts.gpu));
              }});
  router.add({"GET", agent_api::route::k_stack, {}, [c](const ApiRequest& r) {
                auto entry = c->facts.get(c->probe_env, wants_refresh(r));
                if (!entry) return unavailable(entry.error());
                return ok(linux_checks::stack_to_json(entry->facts.stack, entry->facts.driver, entry->facts.tf));
              }});
  router.add({"POST", agent_api::route::k_paths_resolve, {"windows_path"}, [c](const ApiRequest& r) {
                return paths_resolve(*c, r);
              }});
}

void register_all_routes(Router& router, AgentContext& context) {
  register_core_routes(router, context);
  register_dataset_routes(router, context);
}

}  // namespace tfwsl::agent
