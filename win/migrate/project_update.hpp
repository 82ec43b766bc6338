#pragma once
// What a copy of the project does to its WSL copy (docs/migrate.md, "Re-runs"): after the first
// migrate the WSL copy is the user's working copy. Migrate records what it placed there (path,
// size, hash); a later copy replaces only a file whose WSL copy is still exactly what migrate
// placed, adds files that are new, restores placed files that are missing, and never replaces a
// file changed in WSL (reported; where the Windows file changed too, both changed and the WSL one
// is kept). Files migrate did not place are never replaced, and nothing is ever deleted.

#include <string>
#include <vector>

#include "win/migrate/migration_ports.hpp"

namespace tfwsl::migrate {

struct ProjectUpdate {
  std::vector<PlaceRequest> place;        // what moves from the staged copy into the WSL copy
  std::vector<std::string> added;         // new on Windows
  std::vector<std::string> replaced;      // changed on Windows, unchanged in WSL
  std::vector<std::string> restored;      // placed before, missing in WSL now
  std::vector<std::string> kept_wsl;      // changed in WSL only: kept
  std::vector<std::string> both_changed;  // changed on both sides: the WSL one kept
  std::vector<std::string> not_ours;      // in WSL, differing, never placed by migrate: kept
  FileManifest record;                    // what migrate has placed, once `place` is done
};

// recorded: what migrate placed before (empty the first time); wsl: the WSL copy now; staged: the
// project as it is on Windows now (its fresh copy beside the WSL one).
ProjectUpdate plan_project_update(const FileManifest& recorded, const FileManifest& wsl, const FileManifest& staged);

// For the step's line and the consent: "2 added, 1 replaced; kept (changed in WSL): train.py".
std::string describe_update(const ProjectUpdate& update);

}  // namespace tfwsl::migrate
