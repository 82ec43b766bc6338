#include "win/migrate/run_arguments.hpp"

#include <fmt/format.h>

#include "common/util/ascii.hpp"
#include "common/util/visible_text.hpp"

namespace tfwsl::migrate {
namespace {

bool is_drive_path(std::string_view w) {
  return w.size() >= 3 && ascii_is_alpha(w[0]) && w[1] == ':' && (w[2] == '\\' || w[2] == '/');
}

bool is_unc_path(std::string_view w) { return w.size() >= 2 && w[0] == '\\' && w[1] == '\\'; }

// Backslashes for both separators, no trailing one, lower case: the form two Windows paths are compared in.
std::string comparable(std::string_view w) {
  std::string out;
  for (char c : w) out += c == '/' ? '\\' : ascii_lower(c);
  while (out.size() > 3 && out.back() == '\\') out.pop_back();
  return out;
}

// What follows `root` in `path` with forward slashes ("" for the root itself); nothing when `path`
// is not `root` or beneath it.
std::optional<std::string> rest_under(std::string_view path, std::string_view root) {
  const std::string p = comparable(path), r = comparable(root);
  if (r.empty() || p.size() < r.size() || p.compare(0, r.size(), r) != 0) return std::nullopt;
  if (p.size() > r.size() && p[r.size()] != '\\' && r.back() != '\\') return std::nullopt;
  std::string rest(path.substr(std::min(path.size(), r.size())));
  for (char& c : rest)
    if (c == '\\') c = '/';
  while (!rest.empty() && rest.front() == '/') rest.erase(0, 1);
  return rest;
}

std::string joined(const std::string& base, const std::string& rest) {
  if (rest.empty()) return base;
  return base.back() == '/' ? base + rest : base + "/" + rest;
}

// A Linux path under the Linux root, as the same path under `linux_root` (natively the project's
// original is a /mnt/c/... folder: its files are the copy's).
std::optional<std::string> linux_rest_under(const std::string& path, const std::string& root) {
  if (root.empty() || root[0] != '/') return std::nullopt;
  if (path == root) return std::string();
  const std::string prefix = root.back() == '/' ? root : root + "/";
  if (path.rfind(prefix, 0) != 0) return std::nullopt;
  return path.substr(prefix.size());
}

Result<std::optional<std::string>> unc_path(std::string_view word, const PathPlace& place) {
  const std::string c = comparable(word);
  for (const char* host : {"\\\\wsl$\\", "\\\\wsl.localhost\\"}) {
    const std::string prefix = std::string(host) + ascii_lower(place.distro);
    if (place.distro.empty() || c.rfind(prefix, 0) != 0) continue;
    if (c.size() == prefix.size()) return std::optional<std::string>("/");
    if (c[prefix.size()] != '\\') continue;
    std::string rest(word.substr(prefix.size()));
    for (char& ch : rest)
      if (ch == '\\') ch = '/';
    return std::optional<std::string>(rest);
  }
  return make_error(ErrorCode::invalid_input,
                    fmt::format("{} is a network or another distro's path, which {} cannot reach: copy what it "
                                "names into the project or a dataset folder (tfwsl data push), then name that",
                                visible_text(std::string(word)), place.distro.empty() ? "the distro" : place.distro));
}

}  // namespace

Result<std::optional<std::string>> linux_path_of(std::string_view word, const PathPlace& place) {
  if (is_unc_path(word)) return unc_path(word, place);
  if (!is_drive_path(word)) return std::optional<std::string>();
  // The longest path-map key first: a dataset inside the project is the dataset's.
  const std::pair<const std::string, std::string>* best = nullptr;
  for (const auto& entry : place.path_map)
    if (rest_under(word, entry.first) && (!best || entry.first.size() > best->first.size())) best = &entry;
  if (best) return std::optional<std::string>(joined(best->second, *rest_under(word, best->first)));
  if (is_drive_path(place.windows_root))
    if (auto rest = rest_under(word, place.windows_root))
      return std::optional<std::string>(joined(place.linux_root, *rest));
  std::string rest(word.substr(3));
  for (char& c : rest)
    if (c == '\\') c = '/';
  const std::string root =
      place.drive_root.empty() || place.drive_root.back() == '/' ? place.drive_root : place.drive_root + "/";
  const std::string mounted = joined(root + std::string(1, ascii_lower(word[0])), rest);
  if (auto in_project = linux_rest_under(mounted, place.windows_root))
    return std::optional<std::string>(joined(place.linux_root, *in_project));
  return std::optional<std::string>(mounted);
}

Result<TranslatedArguments> translate_arguments(const std::vector<std::string>& args, const PathPlace& place) {
  TranslatedArguments out;
  for (const std::string& word : args) {
    // `--data=C:\x`: the value after the option's `=`.
    const auto eq = word.find('=');
    const bool option = word.size() > 1 && word[0] == '-' && eq != std::string::npos;
    const std::string head = option ? word.substr(0, eq + 1) : std::string();
    const std::string value = option ? word.substr(eq + 1) : word;
    TFWSL_TRY(linux, linux_path_of(value, place));
    if (!linux) {
      out.argv.push_back(word);
      continue;
    }
    out.argv.push_back(head + *linux);
    out.translated.push_back({word, head + *linux});
  }
  return out;
}

std::string copy_folder_for(const std::string& folder, const PathPlace& place) {
  std::optional<std::string> rest = is_drive_path(place.windows_root) ? rest_under(folder, place.windows_root)
                                                                      : linux_rest_under(folder, place.windows_root);
  if (!rest) rest = linux_rest_under(folder, place.linux_root);
  return joined(place.linux_root, rest.value_or(""));
}

}  // namespace tfwsl::migrate
