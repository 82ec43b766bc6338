#include "win/commands/profile_file_write.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>

#include "common/core/error.hpp"
#include "common/core/exit_codes.hpp"
#include "common/text/utf_convert.hpp"
#include "common/util/ascii.hpp"

namespace tfwsl::cli {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> line_of_stdin() {
  std::string line;
  if (!std::getline(std::cin, line)) return std::nullopt;
  return line;
}

// Whether an existing file may be replaced: --yes, or "y" on a terminal.
bool may_replace(const ConsentedWrite& w, Console& console) {
  if (w.yes) return true;
  if (!console.in_is_terminal) {
    console.err << w.command << ": " << w.path << " exists; not replaced: pass --yes to replace it (--dry-run shows what "
                << "would be written)\n";
    return false;
  }
  console.err << w.path << " exists. Replace it? [y/N] " << std::flush;
  const auto answer = w.read_answer ? w.read_answer() : line_of_stdin();
  const std::string a = ascii_lower(answer.value_or(""));
  if (a == "y" || a == "yes") return true;
  console.err << w.command << ": " << w.path << " kept as it was\n";
  return false;
}

// The text beside the target, then renamed over it (one rename replaces a file on POSIX, and
// MoveFileExW with MOVEFILE_REPLACE_EXISTING under libstdc++'s rename on Windows).
Result<void> write_replacing(const fs::path& target, const std::string& text) {
  fs::path temp = target;
  temp += ".tfwsl-tmp";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) {
      std::error_code ignored;
      fs::remove(temp, ignored);
      return make_error(ErrorCode::io, "cannot write " + path_to_utf8(temp) + "; check that the folder exists and is writable");
    }
  }
  std::error_code ec;
  fs::rename(temp, target, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    return make_error(ErrorCode::io, "cannot replace " + path_to_utf8(target) + ": " + ec.message());
  }
  return {};
}

}  // namespace

int write_with_consent(const ConsentedWrite& w, Console& console) {
  const fs::path target = path_from_utf8(w.path);
  std::error_code ec;
  const bool exists = fs::exists(target, ec);
  if (w.dry_run) {
    console.out << w.text;
    console.err << w.command << ": dry run: would " << (exists ? "replace " : "write ") << w.path << " (" << w.text.size()
                << " bytes); nothing written\n";
    return exit_code::k_ok;
  }
  if (exists && fs::is_directory(target, ec)) {
    console.err << w.command << ": " << w.path << " is a folder; name a file, e.g. " << path_to_utf8(target / "tfwsl.yaml") << "\n";
    return exit_code::k_failure;
  }
  if (exists && !may_replace(w, console)) return exit_code::k_failure;
  if (auto written = write_replacing(target, w.text); !written) {
    console.err << w.command << ": " << written.error().describe() << "\n";
    return exit_code::k_failure;
  }
  console.err << w.command << ": wrote " << w.path << "\n";
  return exit_code::k_ok;
}

}  // namespace tfwsl::cli
