#include "win/tasks/notebook_start.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <random>
#include <sstream>

#include "common/core/exit_codes.hpp"
#include "common/util/ascii.hpp"
#include "common/util/visible_text.hpp"
#include "win/tasks/agent_consent.hpp"
#include "win/tasks/distro_commands.hpp"

namespace tfwsl::cli {
namespace {

// Prints the modules the venv cannot import, one word each.
constexpr const char* k_module_probe =
    "import importlib.util as u\n"
    "print(' '.join(m for m in ('ipykernel', 'jupyterlab') if u.find_spec(m) is None))\n";

constexpr std::chrono::seconds k_probe_timeout{60};
constexpr std::chrono::seconds k_register_timeout{120};

std::string random_token() {
  std::random_device source;  // the system's generator
  std::string token;
  for (int i = 0; i < 4; ++i) token += fmt::format("{:08x}", source());
  return token;
}

std::string display_name(const migrate::WslCopyRecord& record) {
  return fmt::format("{} (tfwsl, {})", migrate::project_folder_name(record), record.profile);
}

std::vector<std::string> register_command(const migrate::WslCopyRecord& record) {
  std::vector<std::string> argv{record.venv + "/bin/python",
                                "-m",
                                "ipykernel",
                                "install",
                                "--user",
                                "--name",
                                kernel_name(record),
                                "--display-name",
                                display_name(record)};
  for (const auto& [key, value] : record.env) argv.insert(argv.end(), {"--env", key, value});
  return argv;
}

std::vector<std::string> lab_command(const RunPlace& place, unsigned port) {
  // The token comes in JUPYTER_TOKEN, not on the command line other users of the distro can read.
  return {"jupyter",
          "lab",
          "--no-browser",
          "--ServerApp.ip=127.0.0.1",
          fmt::format("--ServerApp.port={}", port),
          "--ServerApp.port_retries=0",
          "--ServerApp.root_dir=" + place.record.linux_path};
}

void print_plan(const RunPlace& place, const std::vector<std::string>& missing, const NotebookRequest& request,
                Console& console) {
  const auto& r = place.record;
  if (!missing.empty())
    console.out << "install  " << fmt::format("{}", fmt::join(missing, " ")) << " into " << visible_text(r.venv)
                << " (pip, from the package index)\n";
  console.out << "kernel   " << visible_text(kernel_name(r)) << " (\"" << visible_text(display_name(r))
              << "\"): " << visible_text(r.venv)
              << "/bin/python for the distro user (~/.local/share/jupyter/kernels), by "
              << "ipykernel's installer\n";
  if (request.start)
    console.out << "start    JupyterLab in " << visible_text(r.linux_path) << " on http://localhost:" << request.port
                << "/lab (loopback, a new token)\n";
}

}  // namespace

std::string kernel_name(const migrate::WslCopyRecord& record) {
  std::string name = "tfwsl-";
  for (char c : migrate::project_folder_name(record) + "-" + record.profile) {
    const char lower = ascii_lower(c);
    name += ascii_is_alnum(lower) || lower == '.' || lower == '_' || lower == '-' ? lower : '-';
  }
  return name;
}

std::vector<std::string> missing_notebook_modules(const std::string& probe_output, bool start) {
  std::vector<std::string> missing;
  std::istringstream words(probe_output);
  for (std::string word; words >> word;)
    if (word == "ipykernel" || (start && word == "jupyterlab")) missing.push_back(word);
  return missing;
}

int start_notebook(const NotebookRequest& request, Console& console, Machine& machine) {
  const std::string verb = "tfwsl notebook";
  auto place = find_run_place(request.place, machine);
  if (!place) {
    console.err << verb << ": " << place.error().describe() << "\n";
    return exit_code::k_run_refused;
  }
  auto commands = make_distro_commands(place->record.distro, machine);
  auto probe = commands->run({place->record.venv + "/bin/python", "-c", k_module_probe}, std::nullopt, k_probe_timeout);
  if (!probe || probe->exit_code != 0) {
    console.err << verb << ": the environment is not healthy: " << visible_text(place->record.venv)
                << "/bin/python does not run; fix: run tfwsl migrate on the project again\n";
    return exit_code::k_run_refused;
  }
  const auto missing = missing_notebook_modules(probe->out, request.start);
  print_plan(*place, missing, request, console);
  if (request.dry_run) return exit_code::k_ok;
  auto consent =
      confirm_change(console, request.yes,
                     missing.empty() ? "Register the kernel?" : "Install what the venv lacks and register the kernel?",
                     "register the Jupyter kernel");
  if (!consent) {
    console.err << verb << ": " << consent.error().describe() << "\n";
    return exit_code::k_failure;
  }
  if (!missing.empty()) {
    RunRequest install = request.place;
    install.command = {"python", "-m", "pip", "install"};
    install.command.insert(install.command.end(), missing.begin(), missing.end());
    auto installing = find_run_place(install, machine);
    const int installed = installing ? run_attached(*installing, machine, console, verb) : exit_code::k_run_refused;
    if (installed != 0) {
      console.err << verb << ": pip could not install " << fmt::format("{}", fmt::join(missing, " ")) << " (exit "
                  << installed << "); nothing else was changed\n";
      return exit_code::k_failure;
    }
  }
  auto registered = commands->run(register_command(place->record), std::nullopt, k_register_timeout);
  if (!registered || registered->exit_code != 0) {
    console.err << verb << ": registering the kernel failed: "
                << (registered ? visible_text(registered->err) : registered.error().describe()) << "\n";
    return exit_code::k_failure;
  }
  console.out << "kernel " << visible_text(kernel_name(place->record)) << " registered: Jupyter and VS Code in "
              << visible_text(place->record.distro) << " offer it\n";
  if (!request.start) return exit_code::k_ok;
  const std::string token = random_token();
  RunRequest lab = request.place;
  lab.extra_env["JUPYTER_TOKEN"] = token;
  lab.command = lab_command(*place, request.port);
  auto started = find_run_place(lab, machine);
  if (!started) {
    console.err << verb << ": " << started.error().describe() << "\n";
    return exit_code::k_run_refused;
  }
  console.out << fmt::format(
      "JupyterLab: http://localhost:{}/lab?token={} (from the Windows browser too; Ctrl-C stops it)\n", request.port,
      token);
  console.out.flush();
  return run_attached(*started, machine, console, verb);
}

}  // namespace tfwsl::cli
