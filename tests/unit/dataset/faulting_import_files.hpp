#pragma once
// A fake of the engine's filesystem port (linux/dataset/import_files.hpp) for the unit tests: it
// makes the real calls, except those a test told it to fail, which return the errno given instead
// (and do nothing). It also records every descriptor it was asked to write, sync or rename into
// that is not beneath the target, and every deletion not beneath the source, so a test can assert
// that the import touched nothing else.

#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include "linux/dataset/import_files.hpp"

namespace tfwsl::test {

class FaultingImportFiles final : public dataset::ImportFiles {
 public:
  FaultingImportFiles(std::filesystem::path source, std::filesystem::path target);

  // Calls of `call` (the port method's name: "write_chunk", "fsync_file", "sync_filesystem",
  // "rename_into_place", "fsync_folder", "write_manifest", "sync_manifest" (a commit's records;
  // "sync_new_manifest" for a rewritten one), "unlink_source", "remove_source_folder", ...)
  // whose path contains path_part fail with `error`: the first `times` of them, or all (0).
  void fail(std::string call, int error, std::string path_part = "", int times = 0);
  void clear();
  int faults_injected() const;
  std::vector<std::string> touched_outside() const;

  int write_chunk(int fd, const char* data, std::size_t size, const std::string& path, bool large) override;
  ssize_t copy_range(int from, loff_t* from_offset, int to, loff_t* to_offset, std::size_t size,
                     const std::string& path) override;
  int fsync_file(int fd, const std::string& path) override;
  int sync_filesystem(int staging_fd) override;
  int rename_into_place(int staging_fd, const std::string& temp_name, int folder_fd, const std::string& leaf,
                        const std::string& path) override;
  int fsync_folder(int folder_fd, const std::string& folder) override;
  int write_manifest(int fd, const std::string& text) override;
  int sync_manifest(int fd, bool whole_file) override;
  int unlink_source(int folder_fd, const std::string& leaf, const std::string& path) override;
  int remove_source_folder(int parent_fd, const std::string& leaf, const std::string& path) override;

 private:
  struct Rule {
    std::string call;
    int error = 0;
    std::string path_part;
    int times = 0;
    int used = 0;
  };
  int injected(const char* call, const std::string& path);
  void check_beneath(int fd, const std::filesystem::path& root, const char* call);

  std::filesystem::path m_source, m_target;
  dataset::ImportFiles& m_real = dataset::posix_import_files();
  mutable std::mutex m_mutex;
  std::vector<Rule> m_rules;
  int m_injected = 0;
  std::vector<std::string> m_outside;
};

}  // namespace tfwsl::test
