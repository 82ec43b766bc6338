#pragma once
// The real MigrationPorts of `tfwsl migrate` (win/migrate/migration_ports.hpp): provisioning as
// `tfwsl provision` does it (checked first, applied only when a step would change), the copies
// through the dataset engine as `tfwsl data push` makes them, pip and the GPU check through
// `tfwsl-agent venv` in the distro as its default user, the distro's files through its sh, and the
// translated requirements beside the user's files on this side.

#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "win/migrate/migration_ports.hpp"
#include "win/tasks/distro_commands.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

struct MigratePortSettings {
  std::string distro;  // the target profile's distro
  std::string agent;   // --agent (the native build's tfwsl-agent)
  bool windows = true;
  unsigned jobs = 16;             // files in flight in the copies
  std::filesystem::path project;  // the Windows project folder: translated files go beside the originals
  std::function<void(const std::string&)> progress = [](const std::string&) {};  // a copy's progress words
  std::function<bool()> interrupted = [] { return false; };
};

std::unique_ptr<migrate::MigrationPorts> make_system_migration_ports(MigratePortSettings settings, Machine& machine);

// What a failed `tfwsl-agent venv install --json` says, in one line for the install step's error:
// its error, what is still unmet (FILE:LINE and why), pip's last lines, the log's path.
std::string pip_failure_words(const nlohmann::json& answer, const std::string& venv);

}  // namespace tfwsl::cli
