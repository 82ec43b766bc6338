#include "win/migrate/write_targets.hpp"

#include <fmt/format.h>

#include "win/migrate/ownership_mark.hpp"

namespace tfwsl::migrate {
namespace {

constexpr std::size_t k_max_target_bytes = 16u << 20;

// What may happen at `target` for `body`: nothing there, ours (the same or older), or not ours.
WriteAction action_at(ProjectFiles& files, const std::string& target, const std::string& source,
                      const std::string& body) {
  if (!files.file_exists(target)) return WriteAction::create;
  auto text = files.read(target, k_max_target_bytes);
  if (!text || !written_by_migrate(*text)) return WriteAction::refuse;
  return *text == with_ownership_mark(source, body) ? WriteAction::keep : WriteAction::replace_ours;
}

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Whether another translated file names `target` (an include pointed at the `.wsl.` sibling).
bool included_by_another(const Translation& t, std::size_t index) {
  const std::string name = base_name(t.files[index].target);
  for (std::size_t i = 0; i < t.files.size(); ++i)
    if (i != index && t.files[i].text.find(name) != std::string::npos) return true;
  return false;
}

// The diff's header for `source` names the file written: `+++ other`, no longer the user's `target`.
void retarget_diff(std::string& diff, const std::string& source, const std::string& target, const std::string& other) {
  const std::string header = "--- " + source + "\n+++ " + target + "\n";
  if (auto at = diff.find(header); at != std::string::npos)
    diff.replace(at, header.size(), "--- " + source + "\n+++ " + other + "\n");
}

}  // namespace

const char* to_string(WriteAction action) {
  switch (action) {
    case WriteAction::create:
      return "create";
    case WriteAction::keep:
      return "keep";
    case WriteAction::replace_ours:
      return "replace-ours";
    case WriteAction::refuse:
      return "refuse";
  }
  return "refuse";
}

std::string alternative_target(const std::string& target) {
  const auto at = target.rfind(".wsl");
  if (at == std::string::npos) return target + ".tfwsl";
  return target.substr(0, at) + ".tfwsl" + target.substr(at + 4);
}

WritePlan plan_requirement_writes(ProjectFiles& files, Translation& translation) {
  WritePlan out;
  for (std::size_t i = 0; i < translation.files.size(); ++i) {
    FileTranslation& f = translation.files[i];
    WriteAction action = action_at(files, f.target, f.source, f.text);
    if (action == WriteAction::refuse) {
      const std::string other = alternative_target(f.target);
      const WriteAction there = action_at(files, other, f.source, f.text);
      if (there != WriteAction::refuse && !included_by_another(translation, i)) {
        out.notes.push_back(
            fmt::format("{} exists and was not written by tfwsl (or was changed since): left as it is, "
                        "the translation of {} goes to {}",
                        f.target, f.source, other));
        retarget_diff(translation.diff, f.source, f.target, other);
        f.target = other;
        action = there;
      } else {
        out.problems.push_back(
            fmt::format("{} exists and was not written by tfwsl migrate (no tfwsl mark, or changed since): "
                        "migrate does not replace it; rename or move it{}, then run migrate again",
                        f.target, there == WriteAction::refuse ? " (and " + other + ")" : ""));
      }
    }
    out.writes.push_back({f.target, action});
  }
  return out;
}

}  // namespace tfwsl::migrate
