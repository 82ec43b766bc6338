#include "common/profile/profile_template.hpp"

#include <fmt/format.h>

#include <sstream>

#include "common/profile/profile_emitter.hpp"
#include "common/profile/profile_schema.hpp"

namespace tfwsl {
namespace {

// The row a line of emit_profile's block output starts: "name: x" or "  memory: 16GB" under "wsl:".
const ProfileKeyRow* row_of_line(const std::string& line, std::string& section) {
  const auto colon = line.find(':');
  if (colon == std::string::npos || line.empty() || line[0] == '-' || line.find_first_not_of(' ') == std::string::npos)
    return nullptr;
  const bool nested = line[0] == ' ';
  const std::string word = line.substr(line.find_first_not_of(' '), colon - line.find_first_not_of(' '));
  if (!nested) section = word;
  const std::string key = nested ? section + "." + word : word;
  return find_profile_key(key);
}

std::string annotate(const std::string& yaml) {
  std::istringstream lines(yaml);
  std::ostringstream out;
  std::string line, section;
  while (std::getline(lines, line)) {
    const ProfileKeyRow* row = row_of_line(line, section);
    out << line;
    if (row && !row->comment.empty()) out << "  # " << row->comment;
    out << "\n";
  }
  return out.str();
}

// The keys the profile leaves out, as YAML to uncomment: a section's leaves indented under it.
std::string unset_keys(const Profile& profile) {
  std::string out, section;
  for (const auto& row : profile_key_table()) {
    if (row.is_set(profile) || row.key == "extends") continue;
    if (row.section().empty()) {
      out += fmt::format("# {}: {}  # {}\n", row.key, row.example, row.comment);
      section.clear();
      continue;
    }
    if (row.section() != section) out += fmt::format("# {}:\n", row.section());
    section = std::string(row.section());
    out += fmt::format("#   {}: {}  # {}\n", row.leaf(), row.example, row.comment);
  }
  return out;
}

}  // namespace

std::string commented_profile(const Profile& profile, const std::string& intro) {
  std::string out;
  std::istringstream lines(intro);
  std::string line;
  while (std::getline(lines, line)) out += line.empty() ? "#\n" : "# " + line + "\n";
  out += annotate(emit_profile(profile));
  const std::string rest = unset_keys(profile);
  if (!rest.empty()) {
    out += "\n# Not set here; uncomment a line to set it:\n";
    out += "# extends: base.yaml  # another profile under this one, relative to this file, or builtin:NAME\n";
    out += rest;
  }
  return out;
}

}  // namespace tfwsl
