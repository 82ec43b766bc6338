#include "linux/commands/probe_libraries_command.hpp"

#include <filesystem>
#include <memory>
#include <ostream>
#include <string>

#include "common/agent_api/json_wire.hpp"
#include "common/core/exit_codes.hpp"
#include "linux/checks/library_loader.hpp"
#include "linux/checks/library_probes.hpp"

namespace tfwsl::agent {

namespace {

struct ProbeLibrariesArguments {
  std::string part;
  std::string root = "/";
};

// Under a probe root only that machine's loader path is searched (RootedLoader); else ld.so's own.
std::shared_ptr<linux_checks::LibraryLoader> loader_for(const std::filesystem::path& root) {
  if (root == "/") return std::make_shared<linux_checks::DlopenLoader>();
  return std::make_shared<linux_checks::RootedLoader>(root);
}

}  // namespace

void register_probe_libraries_command(CLI::App& app, CommandTable& commands, Console& console) {
  auto args = std::make_shared<ProbeLibrariesArguments>();
  auto* cmd = app.add_subcommand("probe-libraries",
                                 "Internal: load the GPU libraries (gpu) or cuDNN (cudnn) and print what they say as "
                                 "JSON; the agent's probes run it as a child they can kill");
  cmd->group("");  // hidden: the agent's own child, not a command for people
  cmd->add_option("part", args->part, "gpu or cudnn")->required()->check(CLI::IsMember({"gpu", "cudnn"}));
  cmd->add_option("--root", args->root, "The probe root whose loader path is searched")->capture_default_str();
  commands.add(cmd, [args, &console]() {
    auto loader = loader_for(args->root);
    auto part = linux_checks::parse_library_part(args->part);
    // A driver's device name is text we do not control: never an exception for bad UTF-8.
    console.out << agent_api::wire_text(linux_checks::library_probe_answer(*loader, *part)) << "\n";
    console.out.flush();
    return exit_code::k_ok;
  });
}

}  // namespace tfwsl::agent
