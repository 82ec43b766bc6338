#pragma once
// The record of an applied plan, <project>/.tfwsl/migrate-state.json in the WSL copy (written
// through the agent, never through a link): the plan's digest and its finished steps, which a
// changed plan starts over, and what migrate placed and wrote there (path, size, hash), which it
// keeps across plans: the proof a re-run needs before it replaces a file in the WSL copy.

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "common/core/error.hpp"
#include "win/migrate/migration_ports.hpp"

namespace tfwsl::migrate {

inline constexpr const char* k_record_file = ".tfwsl/migrate-state.json";

struct ApplyRecord {
  std::string digest;
  std::vector<std::string> done;
  FileManifest placed;                         // by copy-project
  std::map<std::string, std::string> written;  // by write-files: relative path -> hash
  bool has(const std::string& step) const { return std::find(done.begin(), done.end(), step) != done.end(); }
};

// The record in root; an empty one when there is none (or it cannot be read as one).
Result<ApplyRecord> read_apply_record(MigrationPorts& ports, const std::string& root);
Status write_apply_record(MigrationPorts& ports, const std::string& root, const ApplyRecord& record);

}  // namespace tfwsl::migrate
