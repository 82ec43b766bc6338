// The real filesystem calls behind the engine's port (import_files.hpp).
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include "linux/dataset/import_files.hpp"
#include "linux/dataset/posix_files.hpp"

namespace tfwsl::dataset {
namespace {

int errno_unless(int rc) { return rc == 0 ? 0 : errno; }

class PosixImportFiles final : public ImportFiles {
 public:
  int write_chunk(int fd, const char* data, std::size_t size, const std::string&, bool) override {
    return write_all(fd, data, size);
  }
  ssize_t copy_range(int from, loff_t* from_offset, int to, loff_t* to_offset, std::size_t size,
                     const std::string&) override {
    ssize_t n = ::copy_file_range(from, from_offset, to, to_offset, size, 0);
    return n < 0 ? -errno : n;
  }
  int fsync_file(int fd, const std::string&) override { return errno_unless(::fsync(fd)); }
  int sync_filesystem(int staging_fd) override { return errno_unless(::syncfs(staging_fd)); }
  int rename_into_place(int staging_fd, const std::string& temp_name, int folder_fd, const std::string& leaf,
                        const std::string&) override {
    return errno_unless(::renameat(staging_fd, temp_name.c_str(), folder_fd, leaf.c_str()));
  }
  int fsync_folder(int folder_fd, const std::string&) override { return errno_unless(::fsync(folder_fd)); }
  int write_manifest(int fd, const std::string& text) override { return write_all(fd, text.data(), text.size()); }
  int sync_manifest(int fd, bool whole_file) override {
    return errno_unless(whole_file ? ::fsync(fd) : ::fdatasync(fd));
  }
  int unlink_source(int folder_fd, const std::string& leaf, const std::string&) override {
    return errno_unless(::unlinkat(folder_fd, leaf.c_str(), 0));
  }
  int remove_source_folder(int parent_fd, const std::string& leaf, const std::string&) override {
    return errno_unless(::unlinkat(parent_fd, leaf.c_str(), AT_REMOVEDIR));
  }
};

}  // namespace

ImportFiles& posix_import_files() {
  static PosixImportFiles files;
  return files;
}

}  // namespace tfwsl::dataset
