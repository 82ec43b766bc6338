#include "common/profile/profile_value_types.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "common/units/size_parser.hpp"
#include "common/util/suggest.hpp"
#include "common/version/version.hpp"

namespace tfwsl {
namespace {

bool is_env_var_name(std::string_view s) {
  if (s.empty() || (s.front() >= '0' && s.front() <= '9')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

void emit_text(YAML::Emitter& out, const std::string& text, ProfileEmitStyle style) {
  // yaml-cpp quotes what needs quoting (":", "#", leading '*', ...); versions are quoted always.
  if (style == ProfileEmitStyle::quoted) out << YAML::DoubleQuoted;
  out << text;
}

constexpr std::string_view k_dataset_example = "{ name: imagenet-mini, source: 'D:\\data\\imagenet-mini' }";

// One { name, source } map of `datasets`; nothing when it has no name and source (reported).
// `clean` turns false on any other problem: the entry still counts for duplicate names.
std::optional<DatasetEntry> read_dataset(ProfileValueReader& r, const ProfileKeyRow& row, const YAML::Node& item,
                                         bool& clean) {
  static const std::vector<std::string> k_fields{"name", "source"};
  if (!item.IsMap()) {
    r.error(item, "each dataset must be a map with 'name' and 'source'",
            fmt::format("write e.g. {}", k_dataset_example));
    return std::nullopt;
  }
  DatasetEntry d;
  d.where = r.where(item);
  for (const auto& e : r.entries(item)) {
    if (e.key == "name" || e.key == "source") {
      auto text = r.text(e.value, fmt::format("{}.{}", row.key, e.key),
                         e.key == "name" ? "imagenet-mini" : "'D:\\data\\imagenet-mini'");
      if (text)
        (e.key == "name" ? d.name : d.source) = *text;
      else
        clean = false;
    } else {
      r.unknown_key(e.key_node, e.key, k_fields, std::string(row.key));
      clean = false;
    }
  }
  if (d.name.empty() || d.source.empty()) {
    r.error(item,
            fmt::format("dataset needs both 'name' and 'source'{}",
                        d.name.empty() ? "" : " ('" + d.name + "' has no source)"),
            fmt::format("write e.g. {}", k_dataset_example));
    return std::nullopt;
  }
  return d;
}

}  // namespace

const char* to_string(ProfileValueType type) {
  switch (type) {
    case ProfileValueType::text:
      return "text";
    case ProfileValueType::version:
      return "version";
    case ProfileValueType::size:
      return "size";
    case ProfileValueType::processors:
      return "processors";
    case ProfileValueType::route:
      return "route";
    case ProfileValueType::list:
      return "list";
    case ProfileValueType::env_map:
      return "map";
    case ProfileValueType::datasets:
      return "datasets";
  }
  return "?";
}

// ---- text, version ----

std::optional<std::string> TextValue::read(ProfileValueReader& r, const ProfileKeyRow& row, const YAML::Node& node) {
  auto text = r.text(node, row.key, row.example);
  if (!text || !r.passes_row_check(row, node, *text)) return std::nullopt;
  return text;
}

void TextValue::emit(YAML::Emitter& out, const std::string& value, ProfileEmitStyle style) {
  emit_text(out, value, style);
}

std::optional<std::string> VersionValue::read(ProfileValueReader& r, const ProfileKeyRow& row, const YAML::Node& node) {
  auto text = r.scalar(node, row.key, row.example);
  if (!text) return std::nullopt;
  auto v = Version::parse(*text);
  if (!v || v->release.size() < 2 || v->is_prerelease()) {
    r.error(node, fmt::format("'{}' must be a version such as {}, got '{}'", row.key, row.example, *text),
            fmt::format("write it in quotes: {}: \"{}\"", row.key, row.example));
    return std::nullopt;
  }
  if (!r.passes_row_check(row, node, *text)) return std::nullopt;
  return text;
}

// ---- size ----

std::optional<std::uint64_t> SizeValue::read(ProfileValueReader& r, const ProfileKeyRow& row, const YAML::Node& node) {
  auto text = r.scalar(node, row.key, row.example);
  if (!text) return std::nullopt;
  auto bytes = parse_wsl_size(*text);
  if (!bytes) {
    r.error(node, fmt::format("'{}': {}", row.key, bytes.error().message), "write a size such as 16GB or 512MB");
    return std::nullopt;
  }
  if (!r.passes_row_check(row, node, *text)) return std::nullopt;
  return *bytes;
}

void SizeValue::emit(YAML::Emitter& out, const std::uint64_t& value, ProfileEmitStyle style) {
  emit_text(out, format_wsl_size(value), style);
}

std::string SizeValue::text(const std::uint64_t& value) { return format_wsl_size(value); }

// ---- processors ----

std::optional<int> ProcessorsValue::read(ProfileValueReader& r, const ProfileKeyRow& row, const YAML::Node& node) {
  auto text = r.scalar(node, row.key, row.example);
  if (!text) return std::nullopt;
  int value = 0;
  const bool digits = !text->empty() && text->size() <= 4 &&
                      std::all_of(text->begin(), text->end(), [](char c) { return c >= '0' && c <= '9'; });
  if (digits) value = std::stoi(*text);
  if (!digits || value < 1 || value > 1024) {
    r.error(node, fmt::format("'{}' must be a whole number of processors from 1 to 1024, got '{}'", row.key, *text),
            fmt::format("write e.g. {}: {}", row.leaf(), row.example));
    return std::nullopt;
  }
  if (!r.passes_row_check(row, node, *text)) return std::nullopt;
  return value;
}

void ProcessorsValue::emit(YAML::Emitter& out, const int& value, ProfileEmitStyle) { out << value; }

// ---- route ----

std::optional<ProfileRoute> RouteValue::read(ProfileValueReader& r, const ProfileKeyRow& row, const YAML::Node& node) {
  auto text = r.scalar(node, row.key, row.example);
  if (!text) return std::nullopt;
  std::optional<ProfileRoute> route;
  for (ProfileRoute known : {ProfileRoute::wsl, ProfileRoute::native_windows, ProfileRoute::container}) {
    if (*text == to_string(known)) route = known;
  }
  if (!route) {
    auto hint = closest_match(*text, {to_string(ProfileRoute::wsl), to_string(ProfileRoute::native_windows),
                                      to_string(ProfileRoute::container)});
    r.error(
        node,
        fmt::format("{} '{}' is not known{}", row.key, *text, hint ? fmt::format(" (did you mean '{}'?)", *hint) : ""),
        fmt::format("write {}: wsl (container for NVIDIA's TensorFlow image, native-windows for TF <= 2.10 on "
                    "Windows itself)",
                    row.key));
    return std::nullopt;
  }
  if (!r.passes_row_check(row, node, *text)) return std::nullopt;
  return route;
}

void RouteValue::emit(YAML::Emitter& out, const ProfileRoute& value, ProfileEmitStyle style) {
  emit_text(out, to_string(value), style);
}

// ---- list ----

std::optional<std::vector<std::string>> ListValue::read(ProfileValueReader& r, const ProfileKeyRow& row,
                                                        const YAML::Node& node) {
  if (node.IsNull()) return std::vector<std::string>{};
  const std::string fix = fmt::format("write e.g. {}: {}", row.key, row.example);
  if (!node.IsSequence()) {
    r.error(node, fmt::format("'{}' must be a list", row.key), fix);
    return std::nullopt;
  }
  std::vector<std::string> items;
  bool ok = true;
  for (const auto& item : node) {
    if (!item.IsScalar() || item.Scalar().empty() || !is_readable_profile_text(item.Scalar())) {
      r.error(item, fmt::format("each item of '{}' must be a single non-empty value", row.key), fix);
      ok = false;
    } else if (!r.passes_row_check(row, item, item.Scalar())) {
      ok = false;
    } else {
      items.push_back(item.Scalar());
    }
  }
  if (!ok) return std::nullopt;
  return items;
}

void ListValue::emit(YAML::Emitter& out, const std::vector<std::string>& value, ProfileEmitStyle style) {
  out << YAML::Flow << YAML::BeginSeq;
  for (const auto& item : value) emit_text(out, item, style);
  out << YAML::EndSeq;
}

std::string ListValue::text(const std::vector<std::string>& value) {
  std::string out = "[";
  for (std::size_t i = 0; i < value.size(); ++i) out += (i ? ", " : "") + value[i];
  return out + "]";
}

// ---- datasets ----

std::optional<std::vector<DatasetEntry>> DatasetsValue::read(ProfileValueReader& r, const ProfileKeyRow& row,
                                                             const YAML::Node& node) {
  if (node.IsNull()) return std::vector<DatasetEntry>{};
  if (!node.IsSequence()) {
    r.error(node, fmt::format("'{}' must be a list", row.key), fmt::format("write e.g. {}: {}", row.key, row.example));
    return std::nullopt;
  }
  std::vector<DatasetEntry> list;
  std::set<std::string> names;
  bool ok = true;
  for (const auto& item : node) {
    bool clean = true;
    auto d = read_dataset(r, row, item, clean);
    if (!clean) ok = false;
    if (!d) {
      ok = false;
    } else if (!names.insert(d->name).second) {
      r.error(item, fmt::format("dataset '{}' is listed twice", d->name), "give each dataset its own name");
      ok = false;
    } else {
      list.push_back(std::move(*d));
    }
  }
  if (!ok) return std::nullopt;
  return list;
}

void DatasetsValue::emit(YAML::Emitter& out, const std::vector<DatasetEntry>& value, ProfileEmitStyle) {
  out << YAML::BeginSeq;
  for (const auto& d : value) {
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << d.name << YAML::Key << "source"
        << YAML::Value << YAML::SingleQuoted << d.source << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

std::string DatasetsValue::text(const std::vector<DatasetEntry>& value) {
  std::string out = "[";
  for (std::size_t i = 0; i < value.size(); ++i) out += (i ? ", " : "") + value[i].name + "=" + value[i].source;
  return out + "]";
}

bool DatasetsValue::same(const std::vector<DatasetEntry>& a, const std::vector<DatasetEntry>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const DatasetEntry& x, const DatasetEntry& y) {
    return x.name == y.name && x.source == y.source;
  });
}

// ---- named values (env) ----

void read_named_values(const ProfileKeyRow& row, ProfileValueReader& r, const YAML::Node& node,
                       std::vector<EnvEntry>& out) {
  if (node.IsNull()) return;
  if (!node.IsMap()) {
    r.error(node, fmt::format("'{}' must be a map of variable names to values", row.key),
            fmt::format("write e.g. {}: {}", row.key, row.example));
    return;
  }
  for (const auto& e : r.entries(node)) {
    if (!is_env_var_name(e.key)) {
      r.error(e.key_node, fmt::format("'{}' is not an environment variable name", e.key),
              "use letters, digits and '_', not starting with a digit");
      continue;
    }
    auto text = r.scalar(e.value, fmt::format("{}.{}", row.key, e.key), "\"true\"");
    if (!text || !r.passes_row_check(row, e.value, *text)) continue;
    overlay_named_values(out, {EnvEntry{e.key, Setting<std::string>{*text, r.where(e.value)}}});
  }
}

void overlay_named_values(std::vector<EnvEntry>& base, const std::vector<EnvEntry>& top) {
  for (const auto& e : top) {
    auto it = std::find_if(base.begin(), base.end(), [&](const EnvEntry& b) { return b.name == e.name; });
    if (it == base.end())
      base.push_back(e);
    else
      it->value = e.value;
  }
}

void emit_named_values(YAML::Emitter& out, const std::vector<EnvEntry>& values) {
  out << YAML::BeginMap;
  for (const auto& e : values) out << YAML::Key << e.name << YAML::Value << YAML::DoubleQuoted << *e.value;
  out << YAML::EndMap;
}

void flatten_named_values(const ProfileKeyRow& row, const std::vector<EnvEntry>& values,
                          std::vector<FlatSetting>& out) {
  for (const auto& e : values) out.push_back({fmt::format("{}.{}", row.key, e.name), *e.value, e.value.where});
}

std::string named_values_text(const std::vector<EnvEntry>& values) {
  std::string out = "{";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + values[i].name + ": " + *values[i].value;
  return out + "}";
}

bool same_named_values(const std::vector<EnvEntry>& a, const std::vector<EnvEntry>& b) {
  if (a.size() != b.size()) return false;
  return std::all_of(a.begin(), a.end(), [&](const EnvEntry& x) {
    return std::any_of(b.begin(), b.end(), [&](const EnvEntry& y) { return x.name == y.name && *x.value == *y.value; });
  });
}

}  // namespace tfwsl
