#pragma once
// The value types a row can have, and the glue that gives a row typed access to its field of
// Profile. A type knows how to read a YAML node (with the messages every key of that type shares),
// write it back, show it as text and compare two values; ProfileKeyOps binds one type to one field
// so the loader, emitter, validator and merging can treat every row alike.

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/profile/profile.hpp"
#include "common/profile/profile_emitter.hpp"
#include "common/profile/profile_schema.hpp"
#include "common/profile/profile_value_reader.hpp"

namespace tfwsl {

// What one file (or override) says: the settings, and its own `extends:`, which is followed by the
// loader and never merged.
struct ProfileLayer {
  Profile profile;
  Setting<std::string> extends;
  // Keys this layer wrote with a value it refused (reported where it was read): validation must not
  // also call them missing.
  std::vector<std::string_view> refused_keys;
};

struct ProfileKeyOps {
  ProfileValueType type;
  ProfileMerge merge;
  void (*read)(const ProfileKeyRow& row, ProfileValueReader& reader, const YAML::Node& node, ProfileLayer& layer);
  bool (*is_set)(const Profile& profile);
  SourceLocation (*where)(const Profile& profile);
  void (*overlay)(Profile& base, const Profile& top);
  void (*emit)(const ProfileKeyRow& row, YAML::Emitter& out, const Profile& profile);  // the value only
  void (*flatten)(const ProfileKeyRow& row, const Profile& profile, std::vector<FlatSetting>& out);
  std::optional<std::string> (*value_text)(const Profile& profile);
  bool (*same_value)(const Profile& a, const Profile& b);
};

// ---- value types: read reports its own problems and returns nothing when the value is unusable ----

struct TextValue {
  using type = std::string;
  static constexpr ProfileValueType kind = ProfileValueType::text;
  static std::optional<type> read(ProfileValueReader& r, const ProfileKeyRow& row, const YAML::Node& node);
  static void emit(YAML::Emitter& out, const type& value, ProfileEmitStyle style);
  static std::string text(const type& value) { return value; }
  static bool same(const type& a, const type& b) { return a == b; }
};

struct VersionValue : TextValue {
  static constexpr ProfileValueType kind = ProfileValueType::version;
  static std::optional<type> read(ProfileValueReader& r, const ProfileKeyRow& row, const YAML::Node& node);
};

struct SizeValue {
  using type = std::uint64_t;
  static constexpr ProfileValueType kind = ProfileValueType::size;
  static std::optional<type> read(ProfileValueReader& r, const ProfileKeyRow& row, const YAML::Node& node);
  static void emit(YAML::Emitter& out, const type& value, ProfileEmitStyle style);
  static std::string text(const type& value);
  static bool same(const type& a, const type& b) { return a == b; }
};

struct ProcessorsValue {
  using type = int;
  static constexpr ProfileValueType kind = ProfileValueType::processors;
  static std::optional<type> read(ProfileValueReader& r, const ProfileKeyRow& row, const YAML::Node& node);
  static void emit(YAML::Emitter& out, const type& value, ProfileEmitStyle style);
  static std::string text(const type& value) { return std::to_string(value); }
  static bool same(const type& a, const type& b) { return a == b; }
};

struct RouteValue {
  using type = ProfileRoute;
  static constexpr ProfileValueType kind = ProfileValueType::route;
  static std::optional<type> read(ProfileValueReader& r, const ProfileKeyRow& row, const YAML::Node& node);
  static void emit(YAML::Emitter& out, const type& value, ProfileEmitStyle style);
  static std::string text(const type& value) { return to_string(value); }
  static bool same(const type& a, const type& b) { return a == b; }
};

struct ListValue {
  using type = std::vector<std::string>;
  static constexpr ProfileValueType kind = ProfileValueType::list;
  static std::optional<type> read(ProfileValueReader& r, const ProfileKeyRow& row, const YAML::Node& node);
  static void emit(YAML::Emitter& out, const type& value, ProfileEmitStyle style);
  static std::string text(const type& value);  // "[a, b]"
  static bool same(const type& a, const type& b) { return a == b; }
};

struct DatasetsValue {
  using type = std::vector<DatasetEntry>;
  static constexpr ProfileValueType kind = ProfileValueType::datasets;
  static std::optional<type> read(ProfileValueReader& r, const ProfileKeyRow& row, const YAML::Node& node);
  static void emit(YAML::Emitter& out, const type& value, ProfileEmitStyle style);
  static std::string text(const type& value);  // "[imagenet-mini=D:\data\imagenet-mini]"
  static bool same(const type& a, const type& b);
};

// ---- fields: where a row's value lives ----

template <auto Member>  // a Setting<T> Profile::*
struct ProfileField {
  static constexpr ProfileMerge merge = ProfileMerge::replace;
  static auto* in(Profile& p) { return &(p.*Member); }
  static const auto* in(const Profile& p) { return &(p.*Member); }
  static auto& in_layer(ProfileLayer& layer) { return layer.profile.*Member; }
};

// `extends:` lives in the layer, not in Profile: a merged profile has no extends.
struct LayerExtendsField {
  static constexpr ProfileMerge merge = ProfileMerge::not_merged;
  static Setting<std::string>* in(Profile&) { return nullptr; }
  static const Setting<std::string>* in(const Profile&) { return nullptr; }
  static Setting<std::string>& in_layer(ProfileLayer& layer) { return layer.extends; }
};

template <class Field, class Value>
struct SettingOps {
  using T = typename Value::type;

  static void read(const ProfileKeyRow& row, ProfileValueReader& r, const YAML::Node& node, ProfileLayer& layer) {
    auto value = Value::read(r, row, node);
    if (value) Field::in_layer(layer) = Setting<T>{std::move(*value), r.where(node)};
  }
  static bool is_set(const Profile& p) {
    const auto* s = Field::in(p);
    return s && s->has_value();
  }
  static SourceLocation where(const Profile& p) {
    const auto* s = Field::in(p);
    return s ? s->where : SourceLocation{};
  }
  static void overlay(Profile& base, const Profile& top) {
    if (is_set(top)) *Field::in(base) = *Field::in(top);
  }
  static void emit(const ProfileKeyRow& row, YAML::Emitter& out, const Profile& p) {
    Value::emit(out, **Field::in(p), row.emit);
  }
  static std::optional<std::string> value_text(const Profile& p) {
    if (!is_set(p)) return std::nullopt;
    return Value::text(**Field::in(p));
  }
  static void flatten(const ProfileKeyRow& row, const Profile& p, std::vector<FlatSetting>& out) {
    if (is_set(p)) out.push_back({std::string(row.key), Value::text(**Field::in(p)), where(p)});
  }
  static bool same_value(const Profile& a, const Profile& b) {
    if (is_set(a) != is_set(b)) return false;
    return !is_set(a) || Value::same(**Field::in(a), **Field::in(b));
  }
};

template <class Field, class Value>
inline constexpr ProfileKeyOps k_setting_ops{Value::kind,
                                             Field::merge,
                                             &SettingOps<Field, Value>::read,
                                             &SettingOps<Field, Value>::is_set,
                                             &SettingOps<Field, Value>::where,
                                             &SettingOps<Field, Value>::overlay,
                                             &SettingOps<Field, Value>::emit,
                                             &SettingOps<Field, Value>::flatten,
                                             &SettingOps<Field, Value>::value_text,
                                             &SettingOps<Field, Value>::same_value};

// ---- a map of free names to text (env): "env.NAME" on the command line, merged name by name ----

void read_named_values(const ProfileKeyRow& row, ProfileValueReader& r, const YAML::Node& node,
                       std::vector<EnvEntry>& out);
void overlay_named_values(std::vector<EnvEntry>& base, const std::vector<EnvEntry>& top);
void emit_named_values(YAML::Emitter& out, const std::vector<EnvEntry>& values);
void flatten_named_values(const ProfileKeyRow& row, const std::vector<EnvEntry>& values, std::vector<FlatSetting>& out);
std::string named_values_text(const std::vector<EnvEntry>& values);                      // "{A: x, B: y}"
bool same_named_values(const std::vector<EnvEntry>& a, const std::vector<EnvEntry>& b);  // order does not matter

template <auto Member>  // a std::vector<EnvEntry> Profile::*
struct NamedValuesOps {
  static void read(const ProfileKeyRow& row, ProfileValueReader& r, const YAML::Node& node, ProfileLayer& layer) {
    read_named_values(row, r, node, layer.profile.*Member);
  }
  static bool is_set(const Profile& p) { return !(p.*Member).empty(); }
  static SourceLocation where(const Profile& p) {
    return is_set(p) ? (p.*Member).front().value.where : SourceLocation{};
  }
  static void overlay(Profile& base, const Profile& top) { overlay_named_values(base.*Member, top.*Member); }
  static void emit(const ProfileKeyRow&, YAML::Emitter& out, const Profile& p) { emit_named_values(out, p.*Member); }
  static void flatten(const ProfileKeyRow& row, const Profile& p, std::vector<FlatSetting>& out) {
    flatten_named_values(row, p.*Member, out);
  }
  static std::optional<std::string> value_text(const Profile& p) {
    if (!is_set(p)) return std::nullopt;
    return named_values_text(p.*Member);
  }
  static bool same_value(const Profile& a, const Profile& b) { return same_named_values(a.*Member, b.*Member); }
};

template <auto Member>
inline constexpr ProfileKeyOps k_named_values_ops{
    ProfileValueType::env_map,           ProfileMerge::by_name,
    &NamedValuesOps<Member>::read,       &NamedValuesOps<Member>::is_set,
    &NamedValuesOps<Member>::where,      &NamedValuesOps<Member>::overlay,
    &NamedValuesOps<Member>::emit,       &NamedValuesOps<Member>::flatten,
    &NamedValuesOps<Member>::value_text, &NamedValuesOps<Member>::same_value};

}  // namespace tfwsl
