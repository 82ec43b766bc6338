#include "win/migrate/local_project_files.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "common/text/utf_convert.hpp"

namespace tfwsl::migrate {
namespace {

// A tree's totals, bounded: a dataset candidate can be a whole drive; past the cap the counts say
// "at least".
constexpr std::uint64_t k_max_entries_counted = 2'000'000;

TreeStats stats_of(const std::filesystem::path& path) {
  TreeStats stats;
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec)) {
    stats.files = 1;
    stats.bytes = std::filesystem::file_size(path, ec);
    if (ec) stats.bytes = 0;
    return stats;
  }
  stats.is_directory = true;
  std::uint64_t seen = 0;
  auto options = std::filesystem::directory_options::skip_permission_denied;
  for (std::filesystem::recursive_directory_iterator it(path, options, ec), end; !ec && it != end; it.increment(ec)) {
    if (++seen > k_max_entries_counted) break;
    std::error_code entry_ec;
    if (!it->is_regular_file(entry_ec)) continue;
    ++stats.files;
    const auto size = it->file_size(entry_ec);
    if (!entry_ec) stats.bytes += size;
  }
  return stats;
}

}  // namespace

bool is_skipped_folder(std::string_view name) {
  return name == ".git" || name == ".venv" || name == "venv" || name == "env" || name == "__pycache__" ||
         name == "node_modules" || name == ".ipynb_checkpoints" || name == ".tox" || name == ".mypy_cache" ||
         name == "site-packages" || name == ".idea" || name == ".vscode" || name == ".tfwsl";
}

LocalProjectFiles::LocalProjectFiles(std::filesystem::path root, std::string drive_root)
    : m_root(std::move(root)), m_drive_root(std::move(drive_root)) {}

bool LocalProjectFiles::project_exists() {
  std::error_code ec;
  return std::filesystem::is_directory(m_root, ec);
}

Result<std::vector<ProjectFile>> LocalProjectFiles::list(int max_depth) {
  std::vector<ProjectFile> files;
  std::error_code ec;
  auto options = std::filesystem::directory_options::skip_permission_denied;
  std::filesystem::recursive_directory_iterator it(m_root, options, ec);
  if (ec) return make_error(ErrorCode::io, fmt::format("cannot list '{}': {}", path_to_utf8(m_root), ec.message()));
  for (std::filesystem::recursive_directory_iterator end; it != end; it.increment(ec)) {
    if (ec) break;
    std::error_code entry_ec;
    const std::string name = path_to_utf8(it->path().filename());
    if (it->is_directory(entry_ec)) {
      if (is_skipped_folder(name) || it.depth() >= max_depth) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file(entry_ec)) continue;
    const auto size = it->file_size(entry_ec);
    const std::uint64_t bytes = entry_ec ? 0 : size;
    std::string relative = path_to_utf8(std::filesystem::relative(it->path(), m_root, entry_ec));
    std::replace(relative.begin(), relative.end(), '\\', '/');
    files.push_back({std::move(relative), bytes});
  }
  return files;
}

Result<std::string> LocalProjectFiles::read(const std::string& path, std::size_t max_bytes) {
  const auto full = m_root / path_from_utf8(path);
  std::error_code ec;
  const auto size = std::filesystem::file_size(full, ec);
  if (ec) return make_error(ErrorCode::io, fmt::format("cannot read '{}': {}", path, ec.message()));
  if (size > max_bytes)
    return make_error(ErrorCode::invalid_input,
                      fmt::format("'{}' is {} bytes, more than {} this scan reads", path, size, max_bytes));
  std::ifstream in(full, std::ios::binary);
  if (!in) return make_error(ErrorCode::io, fmt::format("cannot open '{}'", path));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

bool LocalProjectFiles::file_exists(const std::string& path) {
  std::error_code ec;
  // An error other than "not there" counts as taken: nothing is written over what cannot be seen.
  return std::filesystem::symlink_status(m_root / path_from_utf8(path), ec).type() !=
         std::filesystem::file_type::not_found;
}

std::optional<std::string> LocalProjectFiles::copy_source(std::string_view windows_path) {
  auto here = windows_path_here(windows_path, m_drive_root);
  if (!here) return std::nullopt;
  return path_to_utf8(*here);
}

std::optional<TreeStats> LocalProjectFiles::windows_tree(std::string_view windows_path) {
  auto here = windows_path_here(windows_path, m_drive_root);
  std::error_code ec;
  if (!here || !std::filesystem::exists(*here, ec)) return std::nullopt;
  return stats_of(*here);
}

std::optional<std::set<char>> LocalProjectFiles::mounted_drives() {
  if (m_mounted) return m_mounted;
  return drives_mounted_here(m_drive_root);
}

}  // namespace tfwsl::migrate
