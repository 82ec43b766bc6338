#include "win/commands/wslconfig_file.hpp"

#include "win/commands/wslconfig_backups.hpp"

#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "common/text/utf_convert.hpp"
#include "common/util/atomic_file.hpp"

namespace tfwsl::cli {
namespace {

Result<std::string> read_bytes(const std::filesystem::path& path, const std::string& shown) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(ErrorCode::io, "cannot open " + shown + ": check that it is readable");
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) return make_error(ErrorCode::io, "reading " + shown + " failed");
  return s.str();
}

}  // namespace

Result<WslconfigFile> read_wslconfig_file(const std::string& path) {
  WslconfigFile file{path, false, {}};
  const std::filesystem::path p = path_from_utf8(path);
  std::error_code ec;
  if (std::filesystem::is_directory(p, ec))
    return make_error(ErrorCode::invalid_input, path + " is a folder: name the .wslconfig file in it");
  if (!std::filesystem::exists(p, ec)) return file;
  TFWSL_TRY(bytes, read_bytes(p, path));
  file.exists = true;
  file.bytes = std::move(bytes);
  return file;
}

std::string backup_path_for(const std::string& path, std::chrono::system_clock::time_point when) {
  const std::time_t t = std::chrono::system_clock::to_time_t(when);
  const std::string base = fmt::format("{}.tfwsl-backup-{:%Y%m%d-%H%M%S}", path, fmt::gmtime(t));
  std::string candidate = base;
  std::error_code ec;
  for (int n = 2; std::filesystem::exists(path_from_utf8(candidate), ec) && n < 1000; ++n)
    candidate = base + "-" + std::to_string(n);
  return candidate;
}

Result<WriteOutcome> write_wslconfig_file(const WslconfigFile& file, const std::string& new_bytes) {
  const std::filesystem::path target = path_from_utf8(file.path);
  const std::filesystem::path folder = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  std::error_code ec;
  if (!std::filesystem::is_directory(folder, ec))
    return make_error(ErrorCode::not_found, "cannot write " + file.path + ": the folder " + path_to_utf8(folder) +
                                                " does not exist");
  WriteOutcome outcome;
  if (file.exists) {
    const std::string backup = backup_path_for(file.path, std::chrono::system_clock::now());
    if (auto saved = write_new_file(path_from_utf8(backup), file.bytes); !saved)
      return make_error(ErrorCode::io, "nothing changed: the backup could not be written: " + saved.error().describe());
    outcome.backup = backup;
    prune_wslconfig_backups(file.path);  // the last five are kept; only tfwsl's own backup names go
  }
  const std::string kept = outcome.backup ? "; the previous file is kept as " + *outcome.backup : "";
  if (auto replaced = replace_file_atomically(target, new_bytes); !replaced)
    return make_error(ErrorCode::io, replaced.error().describe() + " (the file is unchanged" + kept + ")");
  TFWSL_TRY(read_back, read_bytes(target, file.path));
  if (read_back != new_bytes)
    return make_error(ErrorCode::io, file.path + " does not read back as written (something else changed it?)" + kept);
  return outcome;
}

}  // namespace tfwsl::cli
