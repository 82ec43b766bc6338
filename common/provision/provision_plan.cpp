#include "common/provision/provision_plan.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "common/compat/apt_signature_policy.hpp"
#include "common/profile/profile_validator.hpp"
#include "common/provision/apt_package_name.hpp"
#include "common/provision/container_plan.hpp"
#include "common/provision/plan_downloads.hpp"
#include "common/units/size_parser.hpp"
#include "common/util/plural.hpp"

namespace tfwsl::provision {

const std::vector<std::string>& prerequisite_packages() {
  static const std::vector<std::string> k_packages = {"ca-certificates", "curl"};
  return k_packages;
}

namespace {

bool has_and_cuda_extra(const Profile& profile) {
  const auto extras = profile.tensorflow_extras.value_or({});
  return std::find(extras.begin(), extras.end(), "and-cuda") != extras.end();
}

PlannedStep make_step(std::string_view id) {
  PlannedStep step;
  step.definition = find_step_definition(id);
  return step;
}

class PlanBuilder {
 public:
  PlanBuilder(const Profile& p, const CompatDb& db, const PlanSettings& s) : m_p(p), m_db(db), m_s(s) {}

  Result<ProvisionPlan> build() {
    TFWSL_TRY_STATUS(fill_header());
    if (m_s.inside_wsl) add_host_steps();
    add_first_distro_steps();
    if (m_plan.route == ProfileRoute::container)
      TFWSL_TRY_STATUS(add_container_steps(m_plan, m_p, m_s));
    else
      TFWSL_TRY_STATUS(add_venv_steps());
    estimate_downloads_from_data(m_plan, m_p, builtin_download_facts(), m_s);
    return std::move(m_plan);
  }

 private:
  Status fill_header() {
    m_plan.profile = m_p.name.value_or("");
    m_plan.distro = m_p.distro.value_or("");
    m_plan.inside_wsl = m_s.inside_wsl;
    m_plan.user = m_s.user;
    m_plan.route = m_p.route.value_or(ProfileRoute::wsl);
    const auto python = effective_python(m_p, m_db);
    if (!python)
      return make_error(ErrorCode::invalid_input, "the profile names no Python (python.version) and no known distro");
    m_plan.python = fmt::format("python{}.{}", python->major(), python->minor());
    if (!m_p.python_venv.has_value())
      return make_error(ErrorCode::invalid_input, "the profile has no python.venv",
                        "set python.venv, e.g. ~/.venvs/tf");
    m_plan.venv = expand_home(*m_p.python_venv, m_s.home);
    m_plan.tensorflow = tensorflow_pip_requirement(m_p);
    m_plan.env_file = expand_home(
        fmt::format("~/.config/tfwsl/{}.env", m_plan.profile.empty() ? "profile" : m_plan.profile), m_s.home);
    for (const auto& e : m_p.env) m_plan.env.emplace_back(e.name, e.value.value_or(""));
    return {};
  }

  void add_host_steps() {
    const std::string& d = m_plan.distro;
    auto host = [](std::vector<std::string> argv) { return PlannedCommand{RunsAs::host, std::move(argv)}; };
    auto step = make_step("wsl.current");
    step.commands = {host(wsl_update_argv())};
    step.changes = "nothing: when WSL is missing or old, reports the command to run (wsl --update)";
    m_plan.host_steps.push_back(std::move(step));
    step = make_step("wsl.vmp");
    step.commands = {host(enable_vmp_argv())};
    step.changes = "nothing: when it is off, reports the command to run (as an administrator, then a restart)";
    m_plan.host_steps.push_back(std::move(step));
    step = make_step("distro.installed");
    step.commands = {host(wsl_install_argv(d))};
    step.values = {{"distro", d}};
    step.changes = fmt::format("installs {} without starting it", d);
    m_plan.host_steps.push_back(std::move(step));
    step = make_step("distro.wsl2");
    step.commands = {host(wsl_set_version_argv(d))};
    step.values = {{"distro", d}};
    step.changes = fmt::format("converts {} to WSL 2", d);
    m_plan.host_steps.push_back(std::move(step));
    m_plan.host_steps.push_back(wslconfig_values_step());
    step = make_step("wslconfig.gpu");
    step.values = {{"wsl2.gpuSupport", "not false"}};
    step.changes = "removes gpuSupport=false from [wsl2]";
    m_plan.host_steps.push_back(std::move(step));
    step = make_step("distro.user");
    const std::string user = m_s.user.empty() ? "<your Windows user name>" : m_s.user;
    step.commands = {host(wsl_create_user_argv(d, user))};
    step.values = {{"user", user}};
    step.changes = fmt::format(
        "nothing: when {} logs in as root, reports the command that creates {} (then set it as [user] default in "
        "/etc/wsl.conf)",
        d, user);
    m_plan.host_steps.push_back(std::move(step));
  }

  PlannedStep wslconfig_values_step() const {
    auto step = make_step("wslconfig.values");
    if (m_p.wsl_memory.has_value()) step.values.emplace_back("wsl2.memory", format_wsl_size(*m_p.wsl_memory));
    if (m_p.wsl_processors.has_value())
      step.values.emplace_back("wsl2.processors", std::to_string(*m_p.wsl_processors));
    if (m_p.wsl_swap.has_value()) step.values.emplace_back("wsl2.swap", format_wsl_size(*m_p.wsl_swap));
    step.changes = step.values.empty() ? "nothing: the profile sets no wsl limits"
                                       : "sets those keys in [wsl2], keeping every other line as it is";
    return step;
  }

  Status add_apt_step(std::string_view id, std::vector<std::string> packages, std::string changes) {
    return add_apt_install_step(m_plan, id, std::move(packages), m_s, std::move(changes));
  }

  void add_repository_step() {
    std::string url = m_s.keyring_url;
    if (url.empty()) {
      const auto ubuntu = m_db.ubuntu_release_of_distro(m_plan.distro);
      url = nvidia_keyring_url(m_s.inside_wsl,
                               ubuntu ? fmt::format("{}.{:02}", ubuntu->major(), ubuntu->minor()) : "22.04");
    }
    auto step = make_step("cuda.repository");
    step.packages = {"cuda-keyring"};
    step.values = {{"keyring_url", url}};
    step.commands = {{RunsAs::root, keyring_fetch_argv(url, k_keyring_deb)},
                     {RunsAs::root, apt_install_argv({k_keyring_deb}, m_s.apt)},
                     {RunsAs::root, apt_update_argv(m_s.apt)}};
    step.changes = "installs cuda-keyring (NVIDIA's key and sources entry), then refreshes apt's lists";
    m_plan.distro_steps.push_back(std::move(step));
  }

  std::vector<std::string> profile_apt_packages() const {
    std::vector<std::string> packages = m_p.apt_packages.value_or({});
    if (std::find(packages.begin(), packages.end(), "python3-venv") == packages.end())
      packages.insert(packages.begin(), "python3-venv");
    return packages;
  }

  void add_first_distro_steps() {
    auto health = make_step("dpkg.health");
    health.commands = {{RunsAs::root, dpkg_repair_argv()}};
    health.changes = "only when dpkg was interrupted: finishes its work (nothing else runs before)";
    m_plan.distro_steps.push_back(std::move(health));
    auto driver = make_step(m_s.inside_wsl ? "driver.none-in-wsl" : "driver.linux");
    driver.changes = "nothing: a check only";
    m_plan.distro_steps.push_back(std::move(driver));
  }

  Status add_venv_steps() {
    TFWSL_TRY_STATUS(
        add_apt_step("apt.prerequisites", prerequisite_packages(), "installs the packages that are missing"));
    TFWSL_TRY_STATUS(add_cuda_steps());
    TFWSL_TRY_STATUS(add_apt_step("apt.packages", profile_apt_packages(), "installs the packages that are missing"));
    add_user_steps();
    return {};
  }

  // NVIDIA's repository and the toolkit from it, unless the distro's apt refuses that repository's
  // key (apt_signature_policy.hpp): then a profile whose TensorFlow brings CUDA from pip leaves both
  // out, and one that needs the toolkit is refused before anything starts.
  Status add_cuda_steps() {
    if (!m_p.cuda_toolkit.has_value())
      return make_error(ErrorCode::invalid_input, "the profile has no cuda.toolkit", "set cuda.toolkit, e.g. \"12.2\"");
    if (const auto refusal = cuda_repository_refusal(m_plan.distro, builtin_apt_signature_policy())) {
      if (!has_and_cuda_extra(m_p))
        return make_error(ErrorCode::invalid_input, *refusal,
                          "use a distro whose apt still accepts the key (Ubuntu-22.04 or Ubuntu-24.04), or TensorFlow "
                          ">= 2.14 with extras: [and-cuda], which brings CUDA from pip");
      m_plan.notes.push_back(*refusal +
                             "; left out: cuda.repository and cuda.toolkit (tensorflow[and-cuda] brings "
                             "CUDA and cuDNN from pip; the toolkit is only needed to compile CUDA code)");
      return {};
    }
    add_repository_step();
    return add_apt_step("cuda.toolkit", {cuda_toolkit_apt_package(*m_p.cuda_toolkit)},
                        "installs the toolkit from NVIDIA's repository (no driver)");
  }

  void add_user_steps() {
    auto venv = make_step("python.venv");
    venv.commands = {{RunsAs::user, venv_create_argv(m_plan.python, m_plan.venv)}};
    venv.values = {{"venv", m_plan.venv}, {"python", m_plan.python}};
    venv.changes = fmt::format("creates {} with {}", m_plan.venv, m_plan.python);
    m_plan.distro_steps.push_back(std::move(venv));
    auto tf = make_step("tensorflow.install");
    tf.packages = {m_plan.tensorflow};
    for (const auto& r : m_p.pip_packages.value_or({})) tf.packages.push_back(r);
    tf.commands = {{RunsAs::user, pip_install_argv(m_plan.venv, tf.packages, m_s.pip_find_links)}};
    tf.values = {{"venv", m_plan.venv}};
    tf.changes = "pip installs the requirements that are not met, as the user, into the venv";
    m_plan.distro_steps.push_back(std::move(tf));
    auto fixups = make_step("tensorflow.fixups");
    fixups.values = {{"venv", m_plan.venv}};
    fixups.changes =
        "only when the probe after installing shows the need: links the pip CUDA libraries and ptxas, sets XLA_FLAGS";
    m_plan.distro_steps.push_back(std::move(fixups));
    auto env = make_step("env.file");
    env.values = {{"path", m_plan.env_file}};
    env.changes = fmt::format("writes {} ({})", m_plan.env_file, plural(m_plan.env.size(), "variable", "variables"));
    m_plan.distro_steps.push_back(std::move(env));
    auto verify = make_step("tensorflow.verify");
    verify.values = {{"python", m_plan.venv + "/bin/python"}};
    verify.changes = "nothing: runs the agent's TensorFlow check";
    m_plan.distro_steps.push_back(std::move(verify));
  }

  const Profile& m_p;
  const CompatDb& m_db;
  const PlanSettings& m_s;
  ProvisionPlan m_plan;
};

}  // namespace

Status add_apt_install_step(ProvisionPlan& plan, std::string_view id, std::vector<std::string> packages,
                            const PlanSettings& settings, std::string changes) {
  for (const auto& package : packages)
    TFWSL_TRY_STATUS(with_context(check_apt_package(package, settings.inside_wsl), fmt::format("step {}", id)));
  auto step = make_step(id);
  step.commands = {{RunsAs::root, apt_update_argv(settings.apt)},
                   {RunsAs::root, apt_install_argv(packages, settings.apt)}};
  step.packages = std::move(packages);
  step.changes = std::move(changes);
  plan.distro_steps.push_back(std::move(step));
  return {};
}

const std::string* PlannedStep::value(std::string_view key) const {
  for (const auto& [k, v] : values)
    if (k == key) return &v;
  return nullptr;
}

const PlannedStep* ProvisionPlan::find(std::string_view id) const {
  for (const auto* list : {&host_steps, &distro_steps})
    for (const auto& step : *list)
      if (step.definition->id == id) return &step;
  return nullptr;
}

std::string expand_home(const std::string& path, const std::string& home) {
  if (home.empty() || path.empty() || path[0] != '~') return path;
  if (path.size() == 1) return home;
  if (path[1] == '/') return home + path.substr(1);
  return path;
}

Result<ProvisionPlan> build_provision_plan(const Profile& profile, const CompatDb& db, const PlanSettings& settings) {
  const auto issues = validate_profile(profile, db);
  if (has_errors(issues)) return tl::unexpected(issues_to_error(issues, "the profile"));
  return PlanBuilder(profile, db, settings).build();
}

}  // namespace tfwsl::provision
