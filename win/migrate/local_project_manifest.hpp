#pragma once
// The project's files on this side as migrate's copy takes them (the same folders left out, links
// not followed), each with the hash the WSL copy's record uses (common/util/content_hash.hpp): what
// a re-run would replace there is listed before consent (apply_plan.hpp, preview_reapply).

#include <filesystem>

#include "win/migrate/migration_ports.hpp"

namespace tfwsl::migrate {

FileManifest local_project_manifest(const std::filesystem::path& root, bool copy_git);

}  // namespace tfwsl::migrate
