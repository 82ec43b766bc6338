#include "common/wsl/drive_path.hpp"

#include "common/util/ascii.hpp"

namespace tfwsl::wsl {
namespace {

std::string_view without_long_prefix(std::string_view path) {
  if (path.substr(0, 4) == "\\\\?\\" || path.substr(0, 4) == "//?/") path.remove_prefix(4);
  return path;
}

}  // namespace

std::optional<char> drive_letter_of(std::string_view path) {
  path = without_long_prefix(path);
  if (path.size() < 3 || !ascii_is_alpha(path[0]) || path[1] != ':' || (path[2] != '\\' && path[2] != '/'))
    return std::nullopt;
  return ascii_lower(path[0]);
}

std::optional<std::string> drive_path_in_distro(std::string_view path, std::string_view root) {
  if (root.empty() || root.front() != '/') return std::nullopt;
  auto drive = drive_letter_of(path);
  if (!drive) return std::nullopt;
  path = without_long_prefix(path);
  std::string out(root);
  if (out.back() != '/') out += '/';
  out += *drive;
  for (std::size_t i = 2; i < path.size(); ++i) out += path[i] == '\\' ? '/' : path[i];
  return out;
}

std::optional<std::string> windows_path_of_drive_mount(std::string_view path, std::string_view root) {
  if (root.empty() || root.front() != '/') return std::nullopt;
  if (root.back() == '/') root.remove_suffix(1);  // "/mnt/" -> "/mnt", "/" -> ""
  if (path.substr(0, root.size()) != root || path.size() < root.size() + 2 || path[root.size()] != '/')
    return std::nullopt;
  const char letter = path[root.size() + 1];
  const std::string_view rest = path.substr(root.size() + 2);
  if (!ascii_is_alpha(letter) || (!rest.empty() && rest.front() != '/')) return std::nullopt;
  std::string out{ascii_upper(letter), ':', '\\'};
  for (char c : rest.empty() ? rest : rest.substr(1)) out += c == '/' ? '\\' : c;
  return out;
}

std::optional<std::string> automount_root_from_wslpath(std::string_view answer, char drive) {
  while (!answer.empty() && (answer.back() == '\n' || answer.back() == '\r' || answer.back() == ' '))
    answer.remove_suffix(1);
  if (!answer.empty() && answer.back() == '/') answer.remove_suffix(1);
  // What is left ends in "/<drive>": "/mnt/c" or "/c".
  if (answer.size() < 2 || answer.front() != '/' || ascii_lower(answer.back()) != ascii_lower(drive) ||
      answer[answer.size() - 2] != '/')
    return std::nullopt;
  if (answer.find('\n') != std::string_view::npos) return std::nullopt;
  return std::string(answer.substr(0, answer.size() - 1));
}

}  // namespace tfwsl::wsl
