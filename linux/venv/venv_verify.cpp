#include "linux/venv/venv_verify.hpp"

#include <fmt/format.h>

#include <memory>

#include "common/judge/assess.hpp"
#include "common/judge/check_policy.hpp"
#include "common/text/utf_convert.hpp"
#include "common/util/ascii.hpp"
#include "common/util/text_lines.hpp"
#include "linux/checks/probes.hpp"

namespace tfwsl::venv {
namespace {

// The probe's children with the user's --env variables and no bytecode written.
class VerifyEnvRunner final : public ProcessRunner {
 public:
  VerifyEnvRunner(ProcessRunner& inner, std::map<std::string, std::string> env)
      : m_inner(inner), m_env(std::move(env)) {}
  Result<ProcessOutcome> run(const ProcessRequest& request) override {
    ProcessRequest r = request;
    for (const auto& [k, v] : m_env) r.env[k] = v;
    r.env["PYTHONDONTWRITEBYTECODE"] = "1";
    return m_inner.run(r);
  }

 private:
  ProcessRunner& m_inner;
  std::map<std::string, std::string> m_env;
};

bool is_identifier(std::string_view part) {
  if (part.empty() || ascii_is_digit(part.front())) return false;
  for (char c : part)
    if (!(ascii_is_alnum(c) || c == '_')) return false;
  return true;
}

// A script runs as an import would run it: its top level, with __name__ not "__main__" (a
// guarded training loop does not start). Its path is an argument, never part of the code.
constexpr const char* k_run_script =
    "import runpy, sys; sys.path.insert(0, '.'); runpy.run_path(sys.argv[1], run_name='__tfwsl_check__')";

ImportCheck check_import(const VerifySettings& s, ProcessRunner& runner) {
  const std::string& what = s.module.empty() ? s.script : s.module;
  ImportCheck out{what, false, {}};
  ProcessRequest request;
  request.argv = {(s.venv / "bin/python").string(), "-c", "import " + s.module};
  if (s.module.empty()) request.argv = {(s.venv / "bin/python").string(), "-c", k_run_script, s.script};
  request.working_directory = s.project;
  request.timeout = s.timeout;
  auto outcome = runner.run(request);
  if (!outcome) {
    out.output = {outcome.error().describe()};
    return out;
  }
  out.output = last_nonblank_lines(valid_utf8(outcome->out + "\n" + outcome->err), 12, 400);
  if (outcome->timed_out)
    out.output.push_back(fmt::format("import {} ran past {} s and was stopped", what, s.timeout.count()));
  out.ok = !outcome->timed_out && outcome->exit_code == 0;
  return out;
}

}  // namespace

Result<std::pair<std::string, std::string>> parse_env_assignment(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || !is_identifier(std::string_view(text).substr(0, eq)))
    return make_error(ErrorCode::invalid_input,
                      fmt::format("--env '{}' is not NAME=VALUE (e.g. TF_CPP_MIN_LOG_LEVEL=1)", text));
  return std::pair{text.substr(0, eq), text.substr(eq + 1)};
}

bool is_module_name(const std::string& name) {
  std::size_t start = 0;
  while (true) {
    const auto dot = name.find('.', start);
    if (!is_identifier(
            std::string_view(name).substr(start, dot == std::string::npos ? std::string::npos : dot - start)))
      return false;
    if (dot == std::string::npos) return true;
    start = dot + 1;
  }
}

bool is_project_script(const std::string& path) {
  if (path.empty() || path.front() == '/' || !path.ends_with(".py") || path.find('\0') != std::string::npos)
    return false;
  std::size_t start = 0;
  while (true) {
    const auto slash = path.find('/', start);
    const std::string part = path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (part.empty() || part == "." || part == "..") return false;
    if (slash == std::string::npos) return true;
    start = slash + 1;
  }
}

Result<VerifyResult> verify_venv(const VerifySettings& s) {
  std::error_code ec;
  if (!std::filesystem::is_directory(s.project, ec))
    return make_error(ErrorCode::not_found, fmt::format("project folder {} does not exist", s.project.string()));
  if (!s.module.empty() && !is_module_name(s.module))
    return make_error(ErrorCode::invalid_input,
                      fmt::format("--module '{}' is not a Python module name (e.g. train or pkg.main): "
                                  "give a script by its path with --script {}.py",
                                  s.module, s.module));
  if (!s.script.empty() && !is_project_script(s.script))
    return make_error(ErrorCode::invalid_input,
                      fmt::format("--script '{}' is not a .py file inside the project (relative, no '..')", s.script));
  if (!s.module.empty() && !s.script.empty())
    return make_error(ErrorCode::invalid_input, "give --module or --script, not both");
  auto policy = judge::check_policy_for_profile("");
  if (!policy) return tl::unexpected(policy.error());
  // The project's own requirements chose the TensorFlow release (venv install checked them): any
  // release is fine here, what matters is that it is a CUDA build that runs on the GPU.
  policy->tensorflow_version.clear();
  policy->tensorflow_requirement.clear();  // the fixes then say tensorflow[and-cuda], not the default profile's pin
  policy->venv = s.venv.string();
  auto runner = std::make_shared<VerifyEnvRunner>(*s.processes, s.env);
  linux_checks::ProbeEnvironment env;
  env.runner = runner;
  env.python = (s.venv / "bin/python").string();
  env.tf_timeout = s.timeout;
  VerifyResult out;
  agent_api::LinuxFacts facts;
  facts.tf = out.tf = linux_checks::probe_tensorflow(env);
  out.ok = true;
  for (auto& check : judge::assess(facts, *policy).checks) {
    if (!check.id.starts_with("tf.")) continue;
    if (check.is_problem()) out.ok = false;
    out.checks.push_back(std::move(check));
  }
  if (!s.module.empty() || !s.script.empty()) {
    out.import = check_import(s, *runner);
    out.ok = out.ok && out.import->ok;
  }
  return out;
}

}  // namespace tfwsl::venv
