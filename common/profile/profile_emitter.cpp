#include "common/profile/profile_emitter.hpp"

#include <yaml-cpp/yaml.h>

#include "common/profile/profile_schema.hpp"
#include "common/profile/profile_value_types.hpp"

namespace tfwsl {
namespace {

bool emits(const ProfileKeyRow& row, const Profile& p) {
  return row.emit != ProfileEmitStyle::not_emitted && row.is_set(p);
}

void emit_entry(YAML::Emitter& out, std::string_view key, const ProfileKeyRow& row, const Profile& p) {
  out << YAML::Key << std::string(key) << YAML::Value;
  row.ops->emit(row, out, p);
}

// In table order; the rows of one section become one map, written only when one of them is set.
std::string emit_with(const Profile& p, std::string_view extends) {
  const auto table = profile_key_table();
  YAML::Emitter out;
  out << YAML::BeginMap;
  if (!extends.empty()) out << YAML::Key << "extends" << YAML::Value << std::string(extends);
  for (std::size_t i = 0; i < table.size();) {
    const ProfileKeyRow& first = table[i];
    if (first.section().empty()) {
      if (emits(first, p)) emit_entry(out, first.key, first, p);
      ++i;
      continue;
    }
    std::size_t end = i;
    bool any = false;
    for (; end < table.size() && table[end].section() == first.section(); ++end) any = any || emits(table[end], p);
    if (any) {
      out << YAML::Key << std::string(first.section()) << YAML::Value << YAML::BeginMap;
      for (std::size_t j = i; j < end; ++j) {
        if (emits(table[j], p)) emit_entry(out, table[j].leaf(), table[j], p);
      }
      out << YAML::EndMap;
    }
    i = end;
  }
  out << YAML::EndMap;
  std::string text = out.c_str();
  if (text == "{}") text.clear();
  if (!text.empty() && text.back() != '\n') text += '\n';
  return text;
}

}  // namespace

std::string emit_profile(const Profile& p) { return emit_with(p, {}); }

std::string emit_profile_extending(const Profile& p, std::string_view extends) { return emit_with(p, extends); }

std::vector<FlatSetting> flatten_profile(const Profile& p) {
  std::vector<FlatSetting> out;
  for (const auto& row : profile_key_table()) row.ops->flatten(row, p, out);
  return out;
}

}  // namespace tfwsl
