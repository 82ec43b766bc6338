#include "win/tasks/profile_file_write.hpp"

#include <filesystem>

#include "common/core/exit_codes.hpp"
#include "common/text/utf_convert.hpp"
#include "common/util/atomic_file.hpp"
#include "win/render/change_consent.hpp"

namespace tfwsl::cli {
namespace {

namespace fs = std::filesystem;

// Whether an existing file may be replaced: --yes, or "y" on a terminal.
bool may_replace(const ConsentedWrite& w, Console& console, std::istream& answers) {
  const ConsentRequest request{w.path + " exists. Replace it?", w.yes, false,
                               console.in_is_terminal && console.err_is_terminal};
  switch (ask_consent(request, answers, console.err)) {
    case Consent::granted:
      return true;
    case Consent::needs_yes:
      console.err << needs_yes_message(w.command, "replace " + w.path) << "\n";
      return false;
    default:
      console.err << w.command << ": " << w.path << " kept as it was\n";
      return false;
  }
}

}  // namespace

int write_with_consent(const ConsentedWrite& w, Console& console, std::istream& answers) {
  const fs::path target = path_from_utf8(w.path);
  std::error_code ec;
  const bool exists = fs::exists(target, ec);
  if (w.dry_run) {
    console.out << w.text;
    console.err << w.command << ": dry run: would " << (exists ? "replace " : "write ") << w.path << " ("
                << w.text.size() << " bytes); nothing written\n";
    return exit_code::k_ok;
  }
  if (exists && fs::is_directory(target, ec)) {
    console.err << w.command << ": " << w.path << " is a folder; name a file, e.g. "
                << path_to_utf8(target / "tfwsl.yaml") << "\n";
    return exit_code::k_failure;
  }
  if (exists && !may_replace(w, console, answers)) return exit_code::k_failure;
  if (auto written = replace_file_atomically(target, w.text); !written) {
    console.err << w.command << ": " << written.error().describe() << "\n";
    return exit_code::k_failure;
  }
  console.err << w.command << ": wrote " << w.path << "\n";
  return exit_code::k_ok;
}

}  // namespace tfwsl::cli
