#include "common/parse/ldconfig_parser.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "common/parse/line_tools.hpp"
#include "common/util/ascii.hpp"
#include "common/util/text_lines.hpp"

namespace tfwsl::parse {
namespace {

constexpr std::string_view k_wsl_lib = "/usr/lib/wsl/lib";

// A shared library's file name as ls prints it in full: "lib", then letters, digits and "._+-",
// with ".so" in it. A name cut by the paste ("libdxcore....so") or a word of other bytes names no file.
bool is_lib_name(std::string_view word) {
  if (!word.starts_with("lib") || word.find(".so") == std::string_view::npos || has_cut_marker(word)) return false;
  return std::all_of(word.begin(), word.end(),
                     [](char c) { return ascii_is_alnum(c) || c == '.' || c == '_' || c == '+' || c == '-'; });
}

std::string_view strip_ticks(std::string_view word) {
  while (!word.empty() && (word.front() == '`' || word.front() == '\'' || word.front() == '"')) word.remove_prefix(1);
  while (!word.empty() && (word.back() == '`' || word.back() == '\'' || word.back() == '"' || word.back() == ','))
    word.remove_suffix(1);
  return word;
}

std::string_view base_name(std::string_view path) {
  auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool is_cache_line(std::string_view line) { return contains(line, ") =>") || contains(line, " (libc6"); }

// ldconfig prints each cache entry's path as the folder plus the entry's name, so a path that
// does not end in "/<name>" was cut by the paste ("=> /usr/lib/wsl/li...") and says nothing.
std::optional<LdconfigEntry> cache_entry(std::string_view line) {
  line = strip_ticks(line);
  const auto open = line.find(" (");
  const auto arrow = line.find(") => ");
  if (open == std::string_view::npos || arrow == std::string_view::npos || arrow < open) return std::nullopt;
  LdconfigEntry entry{std::string(trim_with_nbsp(line.substr(0, open))),
                      std::string(strip_ticks(trim_with_nbsp(line.substr(arrow + 5))))};
  if (entry.name.empty() || entry.path.size() <= entry.name.size() || !entry.path.ends_with("/" + entry.name))
    return std::nullopt;
  return entry;
}

}  // namespace

// A listing of the whole folder (not `ls .../libcuda*`): its header, ls -l's "total", or enough names.
bool is_whole_listing_marker(std::string_view t) {
  return (t.starts_with("Directory:") && icontains(t, "lxss\\lib")) || (t.starts_with("total ") && t.size() < 24);
}

LdconfigResult parse_ldconfig(std::string_view text) {
  LdconfigResult result;
  std::set<std::string> listed;
  bool whole_listing = false;
  for (std::string_view line : lines_of(text)) {
    if (line.size() > 16384) line = line.substr(0, 16384);
    std::string_view t = trim_with_nbsp(line);
    if (is_whole_listing_marker(t)) whole_listing = true;
    auto marker = t.find(" is not a symbolic link");
    if (marker != std::string_view::npos) {
      std::string_view before = t.substr(0, marker);
      auto space = before.rfind(' ');
      std::string path(strip_ticks(space == std::string_view::npos ? before : before.substr(space + 1)));
      if (path.empty() || has_cut_marker(path)) continue;  // "... is not a symbolic link" names no file
      result.not_symlink.push_back(path);
      if (contains(path, "libcuda.so")) {
        if (contains(path, k_wsl_lib))
          result.libcuda_in_wsl_lib = true;
        else
          result.libcuda_elsewhere = true;
      }
      continue;
    }
    // A cache line of `ldconfig -p`: "libcuda.so.1 (libc6,x86-64) => /usr/lib/wsl/lib/libcuda.so.1".
    if (is_cache_line(t)) {
      auto entry = cache_entry(t);
      if (!entry) continue;  // cut: neither a record nor an `ls` of names
      if (entry->name.starts_with("libcuda.so")) {
        if (contains(entry->path, k_wsl_lib))
          result.libcuda_in_wsl_lib = true;
        else
          result.libcuda_elsewhere = true;
      }
      result.cache.push_back(std::move(*entry));
      continue;
    }
    // `ls` output: bare library names, or long listings ending with a path.
    for (std::string_view word : words_of(t)) {
      word = strip_ticks(word);
      if (!is_lib_name(base_name(word))) continue;
      bool under_wsl = contains(word, k_wsl_lib) || word.find('/') == std::string_view::npos;
      if (!under_wsl) {
        if (base_name(word).starts_with("libcuda.so")) result.libcuda_elsewhere = true;
        continue;
      }
      std::string name(base_name(word));
      if (listed.insert(name).second) result.wsl_lib_files.push_back(name);
      // A bare name comes from `ls` of WSL's library folder, the only place these pastes list.
      if (name.starts_with("libcuda.so")) result.libcuda_in_wsl_lib = true;
    }
  }
  const bool filtered = contains(text, "/usr/lib/wsl/lib/lib") && contains(text, "*");
  result.whole_wsl_lib_listing = !filtered && (whole_listing || result.wsl_lib_files.size() >= 6);
  return result;
}

double looks_like_ldconfig(std::string_view text, const std::vector<std::string>& commands) {
  std::string_view head = text.substr(0, 1 << 20);
  double score = 0.0;
  if (contains(head, " is not a symbolic link")) score = std::max(score, 0.9);
  if (contains(head, "(libc6,")) score = std::max(score, 0.85);
  if (icontains(head, "ldconfig")) score = std::max(score, 0.7);
  if (contains(head, "libdxcore.so") || contains(head, "libd3d12.so")) score = std::max(score, 0.75);
  if (icontains(head, "module nvidia not found") || icontains(head, "modprobe")) score = std::max(score, 0.7);
  if (contains(head, "/usr/lib/wsl/lib")) score = std::max(score, 0.6);
  // PowerShell's `dir C:\Windows\System32\lxss\lib`: the same folder seen from Windows.
  if (icontains(head, "lxss\\lib")) score = std::max(score, 0.75);
  // Package listings that show a Linux NVIDIA driver (dpkg -l, apt list): the libcuda question too.
  if (icontains(head, "libnvidia-compute-") || icontains(head, "nvidia-utils-") || icontains(head, "nvidia-driver-")) {
    score = std::max(score, 0.6);
  }
  for (const auto& command : commands) {
    if (icontains(command, "ldconfig") || icontains(command, "lsmod") || icontains(command, "modprobe") ||
        contains(command, "/usr/lib/wsl")) {
      score = std::max(score, 0.7);
    }
  }
  return score;
}

nlohmann::json to_json(const LdconfigResult& result) {
  nlohmann::json facts = nlohmann::json::object();
  if (!result.not_symlink.empty()) facts["not_symlink"] = result.not_symlink;
  if (!result.cache.empty()) {
    nlohmann::json cache = nlohmann::json::array();
    for (const auto& entry : result.cache) cache.push_back({{"name", entry.name}, {"path", entry.path}});
    facts["cache"] = std::move(cache);
  }
  if (!result.wsl_lib_files.empty()) facts["wsl_lib_files"] = result.wsl_lib_files;
  facts["libcuda_in_wsl_lib"] = result.libcuda_in_wsl_lib;
  if (result.whole_wsl_lib_listing) facts["whole_wsl_lib_listing"] = true;
  if (result.libcuda_elsewhere) facts["libcuda_elsewhere"] = true;
  return facts;
}

}  // namespace tfwsl::parse
