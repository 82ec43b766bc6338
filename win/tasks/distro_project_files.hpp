#pragma once
// The files of a project's WSL copy through `tfwsl-agent project` in the distro (as its default
// user): written, read and listed beneath the project folder without following any link, the bytes
// of a write on stdin (no shell text is built from a path or a file's bytes).

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "win/migrate/migration_ports.hpp"
#include "win/tasks/distro_commands.hpp"

namespace tfwsl::cli {

class DistroProjectFiles {
 public:
  DistroProjectFiles(DistroCommands& commands, std::string agent) : m_commands(commands), m_agent(std::move(agent)) {}

  Status write(const std::string& root, const std::string& relative, const std::string& text,
               const std::string& expect);
  Result<std::optional<std::string>> read(const std::string& root, const std::string& relative);
  Result<std::optional<migrate::FileManifest>> manifest(const std::string& root);
  Result<migrate::PlaceOutcome> place(const std::string& staging, const std::string& root,
                                      const std::vector<migrate::PlaceRequest>& files);

 private:
  Result<nlohmann::json> ask(std::vector<std::string> argv, std::optional<std::string> input);

  DistroCommands& m_commands;
  std::string m_agent;
};

}  // namespace tfwsl::cli
