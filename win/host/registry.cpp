#include "win/host/registry.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "common/util/ascii.hpp"

namespace tfwsl::host {
namespace {

template <class Map>
auto find_value(const Map& map, const std::string& key, const std::string& value)
    -> std::optional<typename Map::mapped_type::mapped_type> {
  auto k = map.find(ascii_lower(key));
  if (k == map.end()) return std::nullopt;
  for (const auto& [name, data] : k->second)
    if (ascii_lower(name) == ascii_lower(value)) return data;
  return std::nullopt;
}

}  // namespace

void MapRegistry::set_string(const std::string& key, const std::string& value, std::string data) {
  m_strings[ascii_lower(key)][value] = std::move(data);
}
void MapRegistry::set_dword(const std::string& key, const std::string& value, std::uint32_t data) {
  m_dwords[ascii_lower(key)][value] = data;
}
std::optional<std::string> MapRegistry::read_string(const std::string& key, const std::string& value) const {
  return find_value(m_strings, key, value);
}
std::optional<std::uint32_t> MapRegistry::read_dword(const std::string& key, const std::string& value) const {
  return find_value(m_dwords, key, value);
}
std::vector<std::string> MapRegistry::subkeys(const std::string& key) const {
  std::set<std::string> names;
  const std::string prefix = ascii_lower(key) + "\\";
  auto collect = [&](const auto& map) {
    for (const auto& [k, values] : map) {
      if (k.rfind(prefix, 0) != 0) continue;
      std::string rest = k.substr(prefix.size());
      names.insert(rest.substr(0, rest.find('\\')));
    }
  };
  collect(m_strings);
  collect(m_dwords);
  return {names.begin(), names.end()};
}
bool MapRegistry::key_exists(const std::string& key) const {
  std::string k = ascii_lower(key);
  if (m_strings.count(k) || m_dwords.count(k)) return true;
  return !subkeys(key).empty();
}

}  // namespace tfwsl::host
