#pragma once
// Writing a wire struct through its field table: the part's file lists each member once with its
// key (`fields(part, visit)` calls visit(key, member)), and `written` turns the part into a JSON
// object from that table, so the writer never spells a key the reader does not (linux_facts,
// job_wire, provision_recap). `table` is a callable `table(part, visit)` that reaches the file's
// own `fields` overloads, for the part and for the parts nested in it (lists of toolkits, data paths).

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace tfwsl::agent_api::field_table {

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

// A list of parts (objects with a table of their own), not of strings or numbers.
template <class T>
struct is_part_list : std::false_type {};
template <class T>
struct is_part_list<std::vector<T>> : std::bool_constant<std::is_class_v<T> && !std::is_same_v<T, std::string>> {};

template <class Part, class Table>
nlohmann::json written(const Part& part, const Table& table);

// One member on the wire: an enum by its own to_string (found beside the enum), an empty optional
// as null, a list of parts as a list of objects, anything else as nlohmann writes it.
template <class T, class Table>
nlohmann::json wire(const T& value, const Table& table) {
  if constexpr (std::is_enum_v<T>) {
    return to_string(value);
  } else if constexpr (is_optional<T>::value) {
    return value ? wire(*value, table) : nlohmann::json(nullptr);
  } else if constexpr (is_part_list<T>::value) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& item : value) out.push_back(written(item, table));
    return out;
  } else {
    return nlohmann::json(value);
  }
}

template <class Part, class Table>
nlohmann::json written(const Part& part, const Table& table) {
  nlohmann::json out = nlohmann::json::object();
  table(part, [&out, &table](const char* key, const auto& member) { out[key] = wire(member, table); });
  return out;
}

}  // namespace tfwsl::agent_api::field_table
