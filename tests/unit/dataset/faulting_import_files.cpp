#include "tests/unit/dataset/faulting_import_files.hpp"

#include <unistd.h>

#include <climits>
#include <utility>

namespace tfwsl::test {
namespace {

bool is_beneath(const std::string& path, const std::filesystem::path& root) {
  std::string prefix = root.string();
  return path == prefix || path.rfind(prefix + "/", 0) == 0;
}

}  // namespace

FaultingImportFiles::FaultingImportFiles(std::filesystem::path source, std::filesystem::path target)
    : m_source(std::move(source)), m_target(std::move(target)) {}

void FaultingImportFiles::fail(std::string call, int error, std::string path_part, int times) {
  std::lock_guard lock(m_mutex);
  m_rules.push_back({std::move(call), error, std::move(path_part), times, 0});
}

void FaultingImportFiles::clear() {
  std::lock_guard lock(m_mutex);
  m_rules.clear();
}

int FaultingImportFiles::faults_injected() const {
  std::lock_guard lock(m_mutex);
  return m_injected;
}

std::vector<std::string> FaultingImportFiles::touched_outside() const {
  std::lock_guard lock(m_mutex);
  return m_outside;
}

int FaultingImportFiles::injected(const char* call, const std::string& path) {
  std::lock_guard lock(m_mutex);
  for (auto& rule : m_rules) {
    if (rule.call != call || path.find(rule.path_part) == std::string::npos) continue;
    if (rule.times != 0 && rule.used >= rule.times) continue;
    ++rule.used;
    ++m_injected;
    return rule.error;
  }
  return 0;
}

// Where the descriptor really is, from /proc: a path the engine built wrongly cannot hide.
void FaultingImportFiles::check_beneath(int fd, const std::filesystem::path& root, const char* call) {
  char where[PATH_MAX];
  std::string link = "/proc/self/fd/" + std::to_string(fd);
  ssize_t n = ::readlink(link.c_str(), where, sizeof where - 1);
  std::string path = n < 0 ? std::string("(unknown fd)") : std::string(where, static_cast<std::size_t>(n));
  if (is_beneath(path, root)) return;
  std::lock_guard lock(m_mutex);
  m_outside.push_back(std::string(call) + ": " + path);
}

int FaultingImportFiles::write_chunk(int fd, const char* data, std::size_t size, const std::string& path, bool large) {
  check_beneath(fd, m_target, "write_chunk");
  if (int error = injected("write_chunk", path)) return error;
  return m_real.write_chunk(fd, data, size, path, large);
}

ssize_t FaultingImportFiles::copy_range(int from, loff_t* from_offset, int to, loff_t* to_offset, std::size_t size,
                                        const std::string& path) {
  check_beneath(to, m_target, "copy_range");
  if (int error = injected("copy_range", path)) return -error;
  return m_real.copy_range(from, from_offset, to, to_offset, size, path);
}

int FaultingImportFiles::fsync_file(int fd, const std::string& path) {
  check_beneath(fd, m_target, "fsync_file");
  if (int error = injected("fsync_file", path)) return error;
  return m_real.fsync_file(fd, path);
}

int FaultingImportFiles::sync_filesystem(int staging_fd) {
  check_beneath(staging_fd, m_target, "sync_filesystem");
  if (int error = injected("sync_filesystem", "")) return error;
  return m_real.sync_filesystem(staging_fd);
}

int FaultingImportFiles::rename_into_place(int staging_fd, const std::string& temp_name, int folder_fd,
                                           const std::string& leaf, const std::string& path) {
  check_beneath(staging_fd, m_target, "rename_into_place (from)");
  check_beneath(folder_fd, m_target, "rename_into_place (to)");
  if (int error = injected("rename_into_place", path)) return error;
  return m_real.rename_into_place(staging_fd, temp_name, folder_fd, leaf, path);
}

int FaultingImportFiles::fsync_folder(int folder_fd, const std::string& folder) {
  check_beneath(folder_fd, m_target, "fsync_folder");
  if (int error = injected("fsync_folder", folder)) return error;
  return m_real.fsync_folder(folder_fd, folder);
}

int FaultingImportFiles::write_manifest(int fd, const std::string& text) {
  check_beneath(fd, m_target, "write_manifest");
  if (int error = injected("write_manifest", "")) return error;
  return m_real.write_manifest(fd, text);
}

int FaultingImportFiles::sync_manifest(int fd, bool whole_file) {
  check_beneath(fd, m_target, "sync_manifest");
  if (int error = injected(whole_file ? "sync_new_manifest" : "sync_manifest", "")) return error;
  return m_real.sync_manifest(fd, whole_file);
}

int FaultingImportFiles::unlink_source(int folder_fd, const std::string& leaf, const std::string& path) {
  check_beneath(folder_fd, m_source, "unlink_source");
  if (int error = injected("unlink_source", path)) return error;
  return m_real.unlink_source(folder_fd, leaf, path);
}

int FaultingImportFiles::remove_source_folder(int parent_fd, const std::string& leaf, const std::string& path) {
  check_beneath(parent_fd, m_source, "remove_source_folder");
  if (int error = injected("remove_source_folder", path)) return error;
  return m_real.remove_source_folder(parent_fd, leaf, path);
}

}  // namespace tfwsl::test
