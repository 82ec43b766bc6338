#include "common/wslconfig/wslconfig_effective.hpp"

#include "common/units/size_parser.hpp"
#include "common/util/ascii.hpp"
#include "common/util/byte_size_text.hpp"
#include "common/wslconfig/wslconfig_keys.hpp"

namespace tfwsl::wslconfig {
namespace {

constexpr std::uint64_t k_gib = 1ULL << 30;

std::string unquoted(const std::string& value) {
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') return value.substr(1, value.size() - 2);
  return value;
}

// Whether WSL takes the file's value (the lint's rules: sizes, booleans, whole numbers).
bool accepted(const KnownKey& key, const std::string& raw, EffectiveValue& out) {
  const std::string value = unquoted(raw);
  switch (key.kind) {
    case ValueKind::size: {
      auto bytes = parse_wsl_size(value);
      if (!bytes) return false;
      out.bytes = *bytes;
      return true;
    }
    case ValueKind::boolean:
      return iequals(value, "true") || iequals(value, "false");
    case ValueKind::number:
      if (value.empty() || value.size() > 18 || !ascii_all_digits(value)) return false;
      out.count = std::stoull(value);
      return true;
    default:
      return true;
  }
}

// The default of a key, worked out for this machine where it depends on it.
void fill_default(const KnownKey& key, const HostShape& host, std::optional<std::uint64_t> memory,
                  EffectiveValue& out) {
  out.source = ValueSource::default_value;
  out.value = std::string(key.default_value);
  switch (key.default_rule) {
    case DefaultRule::half_of_ram:
      if (!host.ram_bytes) break;
      out.bytes = *host.ram_bytes / 2;
      out.default_rule = "half of the " + format_gib(*host.ram_bytes) + " RAM";
      break;
    case DefaultRule::logical_processors:
      if (!host.logical_processors) break;
      out.count = *host.logical_processors;
      out.default_rule = "Windows' logical processors";
      break;
    case DefaultRule::quarter_of_memory_whole_gb:
      if (!memory) break;
      out.bytes = (*memory / 4 + k_gib - 1) / k_gib * k_gib;
      out.default_rule = "a quarter of the " + format_gib(*memory) + " memory, rounded up to the GB";
      break;
    case DefaultRule::fixed:
      if (key.kind == ValueKind::size) {
        if (auto bytes = parse_wsl_size(key.default_value)) out.bytes = *bytes;
      } else if (key.kind == ValueKind::number && !key.default_value.empty()) {
        out.count = std::stoull(std::string(key.default_value));
      }
      break;
    case DefaultRule::none:
      break;
  }
  if (out.bytes && key.default_rule != DefaultRule::fixed) out.value = format_wsl_size(*out.bytes);
  if (out.count && key.default_rule == DefaultRule::logical_processors) out.value = std::to_string(*out.count);
}

EffectiveValue effective_of(const KnownKey& key, const Document& document, const HostShape& host,
                            std::optional<std::uint64_t> memory) {
  EffectiveValue out;
  out.section = std::string(key.section);
  out.key = std::string(key.name);
  std::size_t line = document.line_of(key.section, key.name);
  // The keys that left [experimental] are still read there when [wsl2] does not set them.
  if (line == 0 && key.section == "wsl2" && find_known_key("experimental", key.name))
    line = document.line_of("experimental", key.name);
  if (line != 0) {
    const std::string& raw = document.lines()[line - 1].value;
    out.line = line;
    if (accepted(key, raw, out)) {
      out.source = ValueSource::file;
      out.value = unquoted(raw);
      return out;
    }
    out.ignored = raw;
    out.bytes.reset();
    out.count.reset();
  }
  fill_default(key, host, memory, out);
  return out;
}

}  // namespace

const char* to_string(ValueSource source) { return source == ValueSource::file ? "file" : "default"; }

std::vector<EffectiveValue> effective_values(const Document& document, const HostShape& host) {
  std::vector<EffectiveValue> values;
  std::optional<std::uint64_t> memory;
  for (const KnownKey& key : known_keys()) {
    if (key.default_rule == DefaultRule::none) continue;  // a compatibility copy of a [wsl2] key
    values.push_back(effective_of(key, document, host, memory));
    if (key.name == "memory") memory = values.back().bytes;  // swap's default follows it
  }
  return values;
}

const EffectiveValue* find_effective(const std::vector<EffectiveValue>& values, const std::string& key) {
  for (const EffectiveValue& v : values)
    if (iequals(v.key, key)) return &v;
  return nullptr;
}

}  // namespace tfwsl::wslconfig
