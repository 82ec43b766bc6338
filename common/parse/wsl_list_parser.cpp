#include "common/parse/wsl_list_parser.hpp"

#include <algorithm>
#include <array>

#include "common/parse/line_tools.hpp"
#include "common/parse/wsl_message_catalog.hpp"
#include "common/util/ascii.hpp"
#include "common/util/text_lines.hpp"

namespace tfwsl::parse {
namespace {

// States ListDistributionsHelper prints (microsoft/WSL src/windows/common/WslClient.cpp); English in
// every locale.
constexpr std::array<std::string_view, 6> k_states{"Running",      "Stopped",    "Installing",
                                                   "Uninstalling", "Converting", "Exporting"};

// Distribution names: letters, digits, '.', '_', '-' (wsl.exe's own rule for --import names).
bool is_distro_name(std::string_view word) {
  if (word.empty() || word.size() > 64) return false;
  if (!ascii_is_alnum(word.front())) return false;
  return std::all_of(word.begin(), word.end(),
                     [](char c) { return ascii_is_alnum(c) || c == '.' || c == '_' || c == '-'; });
}

std::optional<std::string> known_state(std::string_view word) {
  for (std::string_view state : k_states)
    if (iequals(word, state)) return std::string(state);
  return std::nullopt;
}

bool is_verbose_header(const std::vector<std::string_view>& words) {
  return words.size() == 3 && words[0] == "NAME" && words[1] == "STATE" && words[2] == "VERSION";
}

// The catalogue's table header; its rows follow it.
bool is_online_table_header(const std::string& normalized) { return normalized.starts_with("name friendly name"); }

// The sentence wsl.exe prints above the catalogue, in any language.
bool is_online_sentence(const std::string& normalized) {
  return contains_any(normalized, wsl_message_catalog().online_list_sentences);
}

// "* Ubuntu Running 2", "  docker-desktop  Stopped  2", "*Ubuntu Running 2".
std::optional<WslDistro> parse_verbose_row(std::string_view line) {
  auto words = words_of(line);
  bool is_default = false;
  if (!words.empty() && words[0] == "*") {
    is_default = true;
    words.erase(words.begin());
  } else if (!words.empty() && words[0].size() > 1 && words[0].front() == '*') {
    is_default = true;
    words[0].remove_prefix(1);
  }
  if (words.size() != 3 || !is_distro_name(words[0])) return std::nullopt;
  const auto state = known_state(words[1]);
  if (!state || (words[2] != "1" && words[2] != "2")) return std::nullopt;
  WslDistro distro;
  distro.name = std::string(words[0]);
  distro.state = *state;
  distro.version = words[2] == "1" ? 1 : 2;
  distro.is_default = is_default;
  return distro;
}

// A line that introduces `wsl -l`: the localized header, or (for builds whose wording differs from
// today's) a short line naming Windows/Linux that ends with a colon.
bool is_plain_list_header(std::string_view line) {
  const std::string normalized = normalize_for_match(line);
  if (contains_any(normalized, wsl_message_catalog().list_headers) && normalized.ends_with(":")) return true;
  if (!normalized.ends_with(":") || normalized.size() > 90) return false;
  return contains(normalized, "linux") && contains(normalized, "windows") && !contains(normalized, "wsl.exe") &&
         !contains(normalized, "http");
}

// "Ubuntu-18.04 (Default)", "Ubuntu-18.04 (默认)", "Ubuntu".
std::optional<WslDistro> parse_plain_row(std::string_view line) {
  line = trim_with_nbsp(line);
  std::string_view name = line;
  bool is_default = false;
  const auto space = line.find_first_of(" \t(");
  if (space != std::string_view::npos) {
    name = line.substr(0, space);
    const std::string marker = normalize_for_match(trim_with_nbsp(line.substr(space)));
    const auto& markers = wsl_message_catalog().default_markers;
    const bool localized = std::find(markers.begin(), markers.end(), marker) != markers.end();
    // Any parenthesised word after a name is the default marker: names cannot hold spaces or
    // parentheses, and translations of "(Default)" changed between wsl.exe builds.
    const bool parenthesised = marker.starts_with("(") && marker.ends_with(")") && marker.size() <= 40;
    if (!localized && !parenthesised) return std::nullopt;
    is_default = true;
  }
  if (!is_distro_name(name)) return std::nullopt;
  WslDistro distro;
  distro.name = std::string(name);
  distro.is_default = is_default;
  return distro;
}

// parse_wsl_list's state across the lines. Each table or list is a block; the last block that
// holds rows is the current state (a paste often shows the output before and after a change), and
// a header-like line that gets no rows (a usage text's "Arguments for managing Windows Subsystem
// for Linux:") changes nothing.
class WslListReader {
 public:
  void read(std::string_view raw) {
    const std::string_view line = strip_line_wrapping(raw);
    const auto words = words_of(line);
    if (read_header(line, words)) return;
    if (m_mode == Mode::online) {
      read_online_row(line, words);
      return;
    }
    if (m_mode == Mode::plain && read_plain_row(line)) return;
    if (auto row = parse_verbose_row(line)) {
      // Rows also count without their header: a paste may start below it.
      if (m_mode != Mode::verbose) {
        close_block();
        m_mode = Mode::verbose;
      }
      m_block.push_back(std::move(*row));
      return;
    }
    if (m_mode == Mode::verbose && !line.empty()) close_block();
  }

  // The distributions, without the errors and the Windows version (parse_wsl_list reads those from
  // the whole text).
  WslListResult finish() {
    close_block();
    m_result.distros = !m_verbose_rows.empty() ? std::move(m_verbose_rows) : std::move(m_plain_rows);
    // The only distribution is always the default; a paste that lost the '*' column still says so.
    if (m_result.distros.size() == 1 && m_result.verbose_table) m_result.distros.front().is_default = true;
    return std::move(m_result);
  }

 private:
  enum class Mode { none, verbose, plain, online };

  // A line that starts a block (or, for the catalogue's sentence, only says one is shown).
  bool read_header(std::string_view line, const std::vector<std::string_view>& words) {
    const std::string normalized = normalize_for_match(line);
    if (is_verbose_header(words)) {
      close_block();
      m_mode = Mode::verbose;
      m_result.verbose_table = true;
      return true;
    }
    if (is_online_sentence(normalized)) {
      close_block();
      m_result.online_list = true;
      return true;
    }
    if (is_online_table_header(normalized)) {
      close_block();
      m_mode = Mode::online;
      m_result.online_list = true;
      return true;
    }
    if (is_plain_list_header(line)) {
      close_block();
      m_mode = Mode::plain;
      // Pasted in markdown emphasis ("_Distribuições ...:" ... "Ubuntu-20.04_"): the mark closes
      // after the last row, and is no part of its name.
      const std::string_view head = trim_with_nbsp(line);
      m_emphasis = !head.empty() && (head.front() == '_' || head.front() == '*') ? head.front() : '\0';
      return true;
    }
    return false;
  }

  // "Ubuntu-24.04    Ubuntu 24.04 LTS": the name, then the friendly name as written.
  void read_online_row(std::string_view line, const std::vector<std::string_view>& words) {
    if (words.size() >= 2 && is_distro_name(words[0]) && words[0] != "NAME") {
      const auto rest = line.substr(line.find(words[1], words[0].size()));
      m_result.online.push_back({std::string(words[0]), std::string(trim_with_nbsp(rest))});
    } else if (line.empty() && !m_result.online.empty()) {
      m_mode = Mode::none;
    }
  }

  // True when the line belongs to the plain list; any other line ends it (and may be a verbose row).
  bool read_plain_row(std::string_view line) {
    if (m_emphasis != '\0') {
      line = trim_with_nbsp(line);
      if (!line.empty() && line.back() == m_emphasis) line.remove_suffix(1);
    }
    if (line.empty()) {
      if (!m_block.empty()) close_block();
      return true;
    }
    if (auto row = parse_plain_row(line)) {
      m_block.push_back(std::move(*row));
      m_result.plain_list = true;
      return true;
    }
    close_block();
    return false;
  }

  void close_block() {
    if (m_mode == Mode::verbose && !m_block.empty()) m_verbose_rows = std::move(m_block);
    if (m_mode == Mode::plain && !m_block.empty()) m_plain_rows = std::move(m_block);
    m_block.clear();
    m_mode = Mode::none;
  }

  WslListResult m_result;
  Mode m_mode = Mode::none;
  char m_emphasis = '\0';  // the markdown mark around a pasted plain list, or none
  std::vector<WslDistro> m_block;
  std::vector<WslDistro> m_verbose_rows;
  std::vector<WslDistro> m_plain_rows;
};

}  // namespace

bool is_docker_desktop_distro(std::string_view name) {
  return iequals(name, "docker-desktop") || iequals(name, "docker-desktop-data");
}

WslListResult parse_wsl_list(std::string_view text) {
  WslListReader reader;
  for (std::string_view raw : lines_of(text)) reader.read(raw);
  WslListResult result = reader.finish();
  result.errors = detect_wsl_errors(text);
  result.windows_version = find_windows_version(text);
  return result;
}

bool is_wsl_quiet_list_command(std::string_view command) {
  const auto words = words_of(command);
  bool wsl = false, list = false, quiet = false;
  for (std::string_view w : words) {
    const std::string lower = normalize_for_match(w);
    if (lower == "wsl" || lower == "wsl.exe" || lower.ends_with("\\wsl.exe") || lower.ends_with("/wsl.exe"))
      wsl = true;
    else if (wsl && (lower == "-l" || lower == "--list"))
      list = true;
    else if (wsl && (lower == "-q" || lower == "--quiet"))
      quiet = true;
    else if (wsl && (lower == "-lq" || lower == "-ql"))
      list = quiet = true;
  }
  return wsl && list && quiet;
}

WslListResult parse_wsl_quiet_list(std::string_view text) {
  WslListResult result;
  result.errors = detect_wsl_errors(text);
  for (std::string_view raw : lines_of(text)) {
    const std::string_view line = trim_with_nbsp(strip_line_wrapping(raw));
    if (line.empty()) {
      if (result.distros.empty()) continue;
      break;
    }
    if (!is_distro_name(line)) break;
    WslDistro distro;
    distro.name = std::string(line);
    result.distros.push_back(std::move(distro));
  }
  result.plain_list = !result.distros.empty();
  return result;
}

nlohmann::json to_json(const WslListResult& result) {
  nlohmann::json facts = nlohmann::json::object();
  const bool shown = !result.distros.empty() || result.verbose_table || result.plain_list;
  if (shown) {
    nlohmann::json distros = nlohmann::json::array();
    nlohmann::json docker = nlohmann::json::array();
    for (const WslDistro& d : result.distros) {
      nlohmann::json item;
      item["name"] = d.name;
      item["state"] = d.state ? nlohmann::json(*d.state) : nlohmann::json(nullptr);
      item["version"] = d.version ? nlohmann::json(*d.version) : nlohmann::json(nullptr);
      item["default"] = d.is_default;
      distros.push_back(std::move(item));
      if (is_docker_desktop_distro(d.name)) docker.push_back(d.name);
    }
    facts["distros"] = std::move(distros);
    // Kept apart from the contract's distro objects, which compare element by element.
    facts["docker_desktop_distros"] = std::move(docker);
  }
  if (result.online_list) {
    facts["online_list"] = true;
    nlohmann::json online = nlohmann::json::array();
    for (const auto& o : result.online)
      online.push_back({{"name", o.name}, {"friendly_name", valid_utf8(o.friendly_name)}});
    facts["online_distros"] = std::move(online);
  }
  if (!result.windows_version.empty()) facts["windows_version"] = result.windows_version;
  if (result.errors.any()) facts["errors"] = to_json(result.errors);
  return facts;
}

}  // namespace tfwsl::parse
