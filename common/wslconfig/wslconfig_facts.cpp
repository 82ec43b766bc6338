#include "common/wslconfig/wslconfig_facts.hpp"

#include "common/parse/line_tools.hpp"
#include "common/units/size_parser.hpp"
#include "common/util/ascii.hpp"
#include "common/util/suggest.hpp"
#include "common/wslconfig/wslconfig_keys.hpp"

namespace tfwsl::wslconfig {

nlohmann::json facts_of(const Document& document) {
  nlohmann::json facts = nlohmann::json::object();
  nlohmann::json wsl2 = nlohmann::json::object();
  nlohmann::json experimental = nlohmann::json::object();
  for (const Line& line : document.lines()) {
    if (line.kind != LineKind::key_value) continue;
    if (line.section == "wsl2")
      wsl2[ascii_lower(line.key)] = parse::valid_utf8(line.value);  // later assignments win, as in wsl.exe
    if (line.section == "experimental") experimental[ascii_lower(line.key)] = parse::valid_utf8(line.value);
  }
  if (!wsl2.empty()) facts["wsl2"] = wsl2;
  if (!experimental.empty()) facts["experimental"] = experimental;
  if (wsl2.contains("memory")) {
    if (auto bytes = parse_wsl_size(wsl2["memory"].get<std::string>())) facts["memory_bytes"] = *bytes;
  }
  facts["encoding"] = to_string(document.encoding());
  return facts;
}

double looks_like_wslconfig(std::string_view text) {
  const Document document = Document::parse(text);
  bool known_header = false;
  bool near_header = false;
  std::size_t known_keys_seen = 0;
  std::size_t assignments = 0;
  for (const Line& line : document.lines()) {
    if (line.kind == LineKind::section) {
      if (line.section == "wsl2" || line.section == "experimental")
        known_header = true;
      else if (closest_match(line.section, known_sections()))
        near_header = true;
    }
    if (line.kind == LineKind::malformed) {
      // "[wsl2] memory=48GB" still shows what the file is; a template's field "WSL version: [WSL2]"
      // does not.
      const std::string content = ascii_lower(trim(line.content));
      if (content.starts_with("[wsl2]") || content.starts_with("[experimental]")) known_header = true;
    }
    if (line.kind == LineKind::key_value) {
      ++assignments;
      if (find_known_key("wsl2", line.key) || find_known_key("experimental", line.key)) ++known_keys_seen;
    }
  }
  if (known_header) return 0.9;
  if (near_header && assignments > 0) return 0.75;
  if (known_keys_seen >= 2) return 0.6;
  if (known_keys_seen == 1 && assignments == 1) return 0.4;
  return 0;
}

}  // namespace tfwsl::wslconfig
