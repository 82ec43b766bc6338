#include "win/migrate/import_failure_hint.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string>

#include "common/util/ascii.hpp"

namespace tfwsl::migrate {
namespace {

struct RaisedError {
  std::string name;     // the class's last dotted part: "FileNotFoundError", "NotFoundError"
  std::string message;  // what follows "Name: "
};

bool is_identifier_char(char c) { return ascii_is_alnum(c) || c == '_' || c == '.'; }

// Python's last traceback line: "Name: message" or "Name" alone, with a dotted module before the
// class ("tensorflow.python.framework.errors_impl.NotFoundError: ..."); the class names an error
// (its name ends in Error, Exception or Exit, Python's own naming convention for them).
std::optional<RaisedError> raised_error(std::string_view line) {
  const auto colon = line.find(':');
  const std::string_view head = line.substr(0, colon);
  if (head.empty() || !std::all_of(head.begin(), head.end(), is_identifier_char)) return std::nullopt;
  std::string name(head.substr(head.rfind('.') == std::string_view::npos ? 0 : head.rfind('.') + 1));
  if (!name.ends_with("Error") && !name.ends_with("Exception") && !name.ends_with("Exit")) return std::nullopt;
  std::string message = colon == std::string_view::npos ? "" : std::string(line.substr(colon + 1));
  message.erase(0, message.find_first_not_of(' '));
  return RaisedError{std::move(name), std::move(message)};
}

bool is_file_error(const RaisedError& e) {
  constexpr std::array<std::string_view, 6> k_file_errors = {"FileNotFoundError", "OSError",           "IOError",
                                                             "PermissionError",   "IsADirectoryError", "NotFoundError"};
  return std::find(k_file_errors.begin(), k_file_errors.end(), e.name) != k_file_errors.end();
}

// "C:\data", "D:/x": a Windows path the code still names.
bool names_windows_path(std::string_view message) {
  for (std::size_t i = 0; i + 2 < message.size(); ++i)
    if (ascii_is_alpha(message[i]) && message[i + 1] == ':' && (message[i + 2] == '\\' || message[i + 2] == '/') &&
        (i == 0 || !ascii_is_alnum(message[i - 1])))
      return true;
  return false;
}

}  // namespace

std::optional<std::string> import_failure_hint(const std::vector<std::string>& output, std::string_view what) {
  std::optional<RaisedError> error;
  for (auto line = output.rbegin(); line != output.rend() && !error; ++line) error = raised_error(*line);
  if (!error) return std::nullopt;
  if (error->name == "ModuleNotFoundError" || error->name == "ImportError")
    return fmt::format(
        "{} imports a module the venv does not have: add its package to the requirements, then run "
        "migrate again",
        what);
  const std::string top_level = fmt::format(
      "loading {} runs its top-level code, and that code raised {}: move what should run only when it is "
      "started (loading data, training) into a function or under `if __name__ == \"__main__\":`",
      what, error->name);
  if (!is_file_error(*error)) return top_level;
  return top_level + (names_windows_path(error->message)
                          ? "; it opens a Windows path at load time: read it through tfwsl-paths.json (MIGRATION.md)"
                          : "; it opens a file at load time that is not there in WSL");
}

}  // namespace tfwsl::migrate
