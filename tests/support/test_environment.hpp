#pragma once
// Where tests find things: the folder of the running test binary (helpers are built next to it),
// the real-world fixtures, and fresh temporary folders that clean up after themselves.

#include <filesystem>
#include <optional>
#include <string>

namespace tfwsl::test {

std::filesystem::path binary_dir();

// A helper program built next to the tests ("tfwsl_test_child" -> ".../tfwsl_test_child[.exe]").
std::filesystem::path helper_program(const std::string& name);

// tests/fixtures, the real-world samples (part of the repository: throws when absent, so a test
// that needs them fails). TFWSL_FIXTURES_DIR in the environment overrides the configured path (the
// Wine runs use it).
std::filesystem::path fixtures_dir();

// The exit status CTest counts as "skipped" (SKIP_RETURN_CODE, set on every unit test).
inline constexpr int k_skip_exit_code = 77;

// Ends the test binary with k_skip_exit_code after printing "SKIP: <reason>", the line CI's summary
// reads (scripts/test-summary.py): a test that cannot run here reports skipped, never passed.
// Catch2 2.x has no SKIP(); this is honest because CTest runs each test case in a process of its
// own (catch_discover_tests). Run by hand, a whole binary stops at the first skip.
[[noreturn]] void skip(const std::string& reason);

// Reads a whole file as bytes.
std::string read_file(const std::filesystem::path& path);
void write_file(const std::filesystem::path& path, const std::string& bytes);

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return m_path; }

 private:
  std::filesystem::path m_path;
};

}  // namespace tfwsl::test
