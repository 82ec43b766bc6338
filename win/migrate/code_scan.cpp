#include "win/migrate/code_scan.hpp"

#include <algorithm>

#include "common/parse/line_tools.hpp"
#include "common/util/ascii.hpp"
#include "common/util/text_lines.hpp"

namespace tfwsl::migrate {
namespace {

std::string_view extension_of(std::string_view path) {
  auto slash = path.find_last_of('/');
  auto dot = path.find_last_of('.');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return {};
  return path.substr(dot);
}

bool is_word_char(char c) { return ascii_is_alnum(c) || c == '_'; }

// "import keras", "from keras.layers import", "import keras as k": the module as a whole word.
bool imports_module(std::string_view line, std::string_view module) {
  std::string_view t = trim_with_nbsp(line);
  for (std::string_view lead : {"import ", "from "}) {
    if (!t.starts_with(lead)) continue;
    std::string_view rest = trim_with_nbsp(t.substr(lead.size()));
    if (rest.starts_with(module) && (rest.size() == module.size() || !is_word_char(rest[module.size()]))) return true;
  }
  return false;
}

// The path that starts at `start` (the drive letter): inside a quoted string up to its quote,
// otherwise up to a blank, quote, comma or bracket.
std::string path_from(std::string_view line, std::size_t start, char quote) {
  std::string out;
  for (std::size_t i = start; i < line.size(); ++i) {
    char c = line[i];
    if (quote != 0 ? c == quote : (c == ' ' || c == '\t' || c == '"' || c == '\'' || c == ',' || c == ')' || c == ']'))
      break;
    if (c == '\\' && i + 1 < line.size() && line[i + 1] == '\\') ++i;  // an escaped backslash
    out += c == '/' ? '\\' : c;
  }
  while (out.size() > 3 && (out.back() == '\\' || out.back() == ' ')) out.pop_back();
  return out;
}

}  // namespace

bool is_code_file(std::string_view relative_path) {
  auto ext = ascii_lower(extension_of(relative_path));
  return ext == ".py" || ext == ".ipynb";
}

bool is_config_file(std::string_view relative_path) {
  static constexpr std::string_view k_exts[] = {".json", ".yaml", ".yml", ".cfg", ".ini",
                                                ".toml", ".conf", ".env", ".txt", ".csv"};
  auto ext = ascii_lower(extension_of(relative_path));
  return std::find(std::begin(k_exts), std::end(k_exts), ext) != std::end(k_exts);
}

std::vector<std::string> windows_paths_in_line(std::string_view line) {
  std::vector<std::string> paths;
  for (std::size_t i = 0; i + 2 < line.size(); ++i) {
    if (!ascii_is_alpha(line[i]) || line[i + 1] != ':' || (line[i + 2] != '\\' && line[i + 2] != '/')) continue;
    if (i > 0 && (ascii_is_alnum(line[i - 1]) || line[i - 1] == '_')) continue;     // "https:/", "s3:/"
    if (line[i + 2] == '/' && i + 3 < line.size() && line[i + 3] == '/') continue;  // "x://" is a URL
    char quote = 0;
    if (i > 0 && (line[i - 1] == '"' || line[i - 1] == '\'')) quote = line[i - 1];
    std::string path = path_from(line, i, quote);
    if (path.size() >= 4) paths.push_back(path);  // "C:\\" alone names a drive, not data
    i += path.size();
  }
  return paths;
}

// A Python name is matched by its dotted components, never as a substring: "keras.preprocessing.image"
// is not in "keras.preprocessing.image_dataset_from_directory", "fit_generator(" not in
// "my_fit_generator(". A '.' before it is fine (tf.keras...), as is a name ending in "(" or "=".
bool names_api(std::string_view line, std::string_view name) {
  const auto identifier = [](char c) { return ascii_is_alnum(c) || c == '_'; };
  for (std::size_t at = line.find(name); at != std::string_view::npos; at = line.find(name, at + 1)) {
    const std::size_t end = at + name.size();
    if (identifier(name.front()) && at > 0 && identifier(line[at - 1])) continue;
    if (identifier(name.back()) && end < line.size() && identifier(line[end])) continue;
    return true;
  }
  return false;
}

void scan_code(std::string_view file, std::string_view text, const MigrateFacts& facts, ProjectScan& scan) {
  int number = 0;
  for (std::string_view line : lines_of(text)) {
    ++number;
    std::string_view t = trim_with_nbsp(line);
    if (t.starts_with("\"")) t = trim_with_nbsp(t.substr(1));  // a notebook's JSON source line
    if (imports_module(t, "tensorflow")) {
      scan.imports_tensorflow = true;
      const bool listed = !scan.tensorflow_modules.empty() && scan.tensorflow_modules.back() == file;
      if (!listed && file.ends_with(".py")) scan.tensorflow_modules.emplace_back(file);
    }
    if (imports_module(t, "keras")) scan.imports_keras = true;
    if (parse::contains(t, "tf.keras") || parse::contains(t, "tensorflow.keras")) scan.uses_tf_keras = true;
    if (t.starts_with("#")) continue;
    for (const auto& api : facts.keras2_only_apis) {
      if (names_api(t, api.text)) {
        scan.keras2_apis.push_back({std::string(file), number, api.what});
        break;
      }
    }
  }
}

void scan_paths(std::string_view file, std::string_view text, ProjectScan& scan) {
  int number = 0;
  for (std::string_view line : lines_of(text)) {
    ++number;
    if (line.size() > 8192) continue;  // minified data, not a config line
    for (auto& path : windows_paths_in_line(line))
      scan.windows_paths.push_back({std::move(path), std::string(file), number});
  }
}

}  // namespace tfwsl::migrate
