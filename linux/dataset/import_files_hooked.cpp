// The test hook in front of the engine's port: each call's own method name as its step (the
// test agent counts them through its machine's import_step, linux/agent/agent_machine.hpp), then the call.
#include "linux/dataset/import_files.hpp"

namespace tfwsl::dataset {

int HookedImportFiles::write_chunk(int fd, const char* data, std::size_t size, const std::string& path, bool large) {
  if (int error = hook("write_chunk", path)) return error;
  return m_inner.write_chunk(fd, data, size, path, large);
}

ssize_t HookedImportFiles::copy_range(int from, loff_t* from_offset, int to, loff_t* to_offset, std::size_t size,
                                      const std::string& path) {
  if (int error = hook("copy_range", path)) return -error;
  return m_inner.copy_range(from, from_offset, to, to_offset, size, path);
}

int HookedImportFiles::fsync_file(int fd, const std::string& path) {
  if (int error = hook("fsync_file", path)) return error;
  return m_inner.fsync_file(fd, path);
}

int HookedImportFiles::sync_filesystem(int staging_fd) {
  if (int error = hook("sync_filesystem", "")) return error;
  return m_inner.sync_filesystem(staging_fd);
}

int HookedImportFiles::rename_into_place(int staging_fd, const std::string& temp_name, int folder_fd,
                                         const std::string& leaf, const std::string& path) {
  if (int error = hook("rename_into_place", path)) return error;
  return m_inner.rename_into_place(staging_fd, temp_name, folder_fd, leaf, path);
}

int HookedImportFiles::fsync_folder(int folder_fd, const std::string& folder) {
  if (int error = hook("fsync_folder", folder)) return error;
  return m_inner.fsync_folder(folder_fd, folder);
}

int HookedImportFiles::write_manifest(int fd, const std::string& text) {
  if (int error = hook("write_manifest", "")) return error;
  return m_inner.write_manifest(fd, text);
}

int HookedImportFiles::sync_manifest(int fd, bool whole_file) {
  if (int error = hook("sync_manifest", "")) return error;
  return m_inner.sync_manifest(fd, whole_file);
}

int HookedImportFiles::unlink_source(int folder_fd, const std::string& leaf, const std::string& path) {
  if (int error = hook("unlink_source", path)) return error;
  return m_inner.unlink_source(folder_fd, leaf, path);
}

int HookedImportFiles::remove_source_folder(int parent_fd, const std::string& leaf, const std::string& path) {
  if (int error = hook("remove_source_folder", path)) return error;
  return m_inner.remove_source_folder(parent_fd, leaf, path);
}

}  // namespace tfwsl::dataset
