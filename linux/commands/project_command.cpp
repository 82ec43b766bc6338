#include "linux/commands/project_command.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <iostream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>

#include "common/cli/json_envelope.hpp"
#include "common/core/exit_codes.hpp"
#include "common/util/nesting_depth.hpp"
#include "linux/project/project_tree.hpp"
#include "linux/venv/venv_requirements.hpp"

namespace tfwsl::agent {
namespace {

constexpr std::size_t k_max_read_bytes = 16u << 20;
// docs/schema/agent-project.schema.json (kept here, not in json_envelope.hpp's list: only this
// command and tfwsl migrate's ports, which read it as plain JSON, use it).
constexpr std::string_view k_agent_project_schema = "tfwsl.agent-project";
// What migrate keeps of its own in the copy, never listed as the project's files.
const std::set<std::string> k_not_project = {".tfwsl", ".tfwsl-import"};

struct ProjectArguments {
  std::string root;
  std::string path;
  std::string expect = "any";
  std::string from;
};

void print_json(Console& console, nlohmann::json body) {
  console.out << with_json_envelope(std::move(body), k_agent_project_schema, json_schema::k_version)
                     .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
              << "\n";
}

int project_failure(Console& console, const std::string& command, const Error& error) {
  print_json(console, {{"error", error.describe()}});
  console.err << "tfwsl-agent project " << command << ": " << error.describe() << "\n";
  return exit_code::k_failure;
}

nlohmann::json manifest_json(const project::TreeManifest& manifest) {
  nlohmann::json files = nlohmann::json::object();
  for (const auto& [path, d] : manifest) {
    files[path] = {{"size", d.size}, {"hash", d.hash}};
    if (d.link) files[path]["link"] = true;
  }
  return files;
}

std::string read_stdin() {
  return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
}

int run_write(const ProjectArguments& a, Console& console) {
  const std::string bytes = read_stdin();
  auto root = project::open_project_root(venv::expand_home(a.root), true);
  if (!root) return project_failure(console, "write", root.error());
  if (auto written = project::write_beneath(root->get(), a.path, bytes, project::Expectation::parse(a.expect));
      !written)
    return project_failure(console, "write", written.error());
  print_json(console, {{"written", a.path}, {"bytes", bytes.size()}});
  return exit_code::k_ok;
}

int run_read(const ProjectArguments& a, Console& console) {
  struct stat st {};
  const std::string root_path = venv::expand_home(a.root);
  if (::stat(root_path.c_str(), &st) != 0) {
    print_json(console, {{"exists", false}});
    return exit_code::k_ok;
  }
  auto root = project::open_project_root(root_path, false);
  if (!root) return project_failure(console, "read", root.error());
  auto text = project::read_beneath(root->get(), a.path, k_max_read_bytes);
  if (!text) return project_failure(console, "read", text.error());
  nlohmann::json body = {{"exists", text->has_value()}};
  if (*text) body["text"] = **text;
  print_json(console, body);
  return exit_code::k_ok;
}

int run_manifest(const ProjectArguments& a, Console& console) {
  struct stat st {};
  const std::string root_path = venv::expand_home(a.root);
  if (::stat(root_path.c_str(), &st) != 0) {
    print_json(console, {{"exists", false}, {"files", nlohmann::json::object()}});
    return exit_code::k_ok;
  }
  auto root = project::open_project_root(root_path, false);
  if (!root) return project_failure(console, "manifest", root.error());
  auto manifest = project::manifest_beneath(root->get(), k_not_project);
  if (!manifest) return project_failure(console, "manifest", manifest.error());
  print_json(console, {{"exists", true}, {"files", manifest_json(*manifest)}});
  return exit_code::k_ok;
}

Result<std::vector<project::PlaceRequest>> place_requests(const std::string& text) {
  TFWSL_TRY_STATUS(check_nesting_depth(text, NestingSyntax::json, "stdin"));
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object() || !j.contains("files") || !j["files"].is_array())
    return make_error(ErrorCode::invalid_input, "stdin is not {\"files\": [{\"path\": ..., \"expect\": ...}]}");
  std::vector<project::PlaceRequest> out;
  for (const auto& f : j["files"]) {
    if (!f.is_object() || !f.contains("path") || !f["path"].is_string())
      return make_error(ErrorCode::invalid_input, "a file to place has no path");
    out.push_back(
        {f["path"].get<std::string>(), project::Expectation::parse(f.value("expect", std::string("absent")))});
  }
  return out;
}

int run_place(const ProjectArguments& a, Console& console) {
  auto requests = place_requests(read_stdin());
  if (!requests) return project_failure(console, "place", requests.error());
  const std::filesystem::path staging_path = venv::expand_home(a.from);
  auto staging = project::open_project_root(staging_path, false);
  if (!staging) return project_failure(console, "place", staging.error());
  auto root = project::open_project_root(venv::expand_home(a.root), true);
  if (!root) return project_failure(console, "place", root.error());
  auto outcome = project::place_beneath(staging->get(), root->get(), *requests);
  if (!outcome) return project_failure(console, "place", outcome.error());
  staging->reset();
  // The staged copy has done its work: what was not placed goes with it.
  dataset::UniqueFd parent(::open(staging_path.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (parent) (void)project::remove_tree(parent.get(), staging_path.filename().string());
  nlohmann::json refused = nlohmann::json::array();
  for (const auto& [path, why] : outcome->refused) refused.push_back({{"path", path}, {"why", why}});
  print_json(console, {{"placed", manifest_json(outcome->placed)}, {"refused", refused}});
  return exit_code::k_ok;
}

CLI::App* add_project_subcommand(CLI::App& project, const std::string& name, const std::string& what,
                                 ProjectArguments& args) {
  auto* cmd = project.add_subcommand(name, what);
  cmd->add_option("--root", args.root, "The project's folder in the distro (~/ is $HOME)")->required();
  return cmd;
}

}  // namespace

void register_project_command(CLI::App& app, CommandTable& commands, Console& console) {
  CLI::App* project = app.add_subcommand("project",
                                         "The files tfwsl migrate keeps in a project's WSL copy, written beneath the "
                                         "project folder without following links (run as the user, not root)");
  project->require_subcommand(1);
  project->footer(help_footer("", {"tfwsl-agent project write --help", "tfwsl-agent project manifest --help"}));
  auto args = std::make_shared<ProjectArguments>();

  auto* write = add_project_subcommand(*project, "write",
                                       "Write stdin to ROOT/PATH: whole or not at all, never through a link", *args);
  write->add_option("--path", args->path, "The file, relative to ROOT (no '..')")->required();
  write->add_option("--expect", args->expect, "What may be there now: any, absent, or the hash migrate recorded")
      ->capture_default_str();
  write->footer(
      help_footer("Exit status: 0 written, 2 refused (a link, a changed file) or failed; the answer is JSON.",
                  {"printf 'x' | tfwsl-agent project write --root ~/projects/p --path tfwsl.yaml --expect absent"}));
  commands.add(write, [args, &console] { return run_write(*args, console); });

  auto* read =
      add_project_subcommand(*project, "read", "Print ROOT/PATH as JSON (exists, text), never through a link", *args);
  read->add_option("--path", args->path, "The file, relative to ROOT (no '..')")->required();
  read->footer(help_footer("", {"tfwsl-agent project read --root ~/projects/p --path .tfwsl/migrate-state.json"}));
  commands.add(read, [args, &console] { return run_read(*args, console); });

  auto* manifest = add_project_subcommand(
      *project, "manifest", "Size and XXH3-128 of every regular file beneath ROOT (links not followed)", *args);
  manifest->footer(help_footer("", {"tfwsl-agent project manifest --root ~/projects/p"}));
  commands.add(manifest, [args, &console] { return run_manifest(*args, console); });

  auto* place =
      add_project_subcommand(*project, "place",
                             "Move staged files into ROOT, each only where ROOT still holds what stdin expects; "
                             "then remove the staged copy",
                             *args);
  place->add_option("--from", args->from, "The staged copy (a folder beside ROOT)")->required();
  place->footer(
      help_footer("stdin: {\"files\": [{\"path\": \"train.py\", \"expect\": \"absent\" or a hash}]}",
                  {"tfwsl-agent project place --root ~/projects/p --from ~/projects/.p.tfwsl-staging < files.json"}));
  commands.add(place, [args, &console] { return run_place(*args, console); });
}

}  // namespace tfwsl::agent
