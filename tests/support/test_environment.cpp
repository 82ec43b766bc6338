#include "tests/support/test_environment.hpp"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#if defined(_WIN32)
#include <windows.h>
#else
#include <unistd.h>
#endif

namespace tfwsl::test {

std::filesystem::path binary_dir() {
#if defined(_WIN32)
  wchar_t buffer[32768];
  DWORD n = GetModuleFileNameW(nullptr, buffer, 32768);
  return std::filesystem::path(std::wstring(buffer, n)).parent_path();
#else
  return std::filesystem::read_symlink("/proc/self/exe").parent_path();
#endif
}

std::filesystem::path helper_program(const std::string& name) {
#if defined(_WIN32)
  return binary_dir() / (name + ".exe");
#else
  return binary_dir() / name;
#endif
}

std::filesystem::path fixtures_dir() {
  std::filesystem::path fixtures = TFWSL_FIXTURES_DIR;
  if (const char* env = std::getenv("TFWSL_FIXTURES_DIR"); env && *env) fixtures = env;
  std::error_code ec;
  if (!std::filesystem::is_directory(fixtures, ec))
    throw std::runtime_error("the fixtures folder " + fixtures.string() +
                             " is absent: it is part of the repository (tests/fixtures); is the clone complete?");
  return fixtures;
}

void skip(const std::string& reason) {
  std::cout << "SKIP: " << reason << std::endl;
  std::exit(k_skip_exit_code);
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot write " + path.string());
  out << bytes;
}

TempDir::TempDir() {
  static std::atomic<unsigned> counter{0};
  auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
#if defined(_WIN32)
  auto pid = GetCurrentProcessId();
#else
  auto pid = getpid();
#endif
  m_path = std::filesystem::temp_directory_path() /
           ("tfwsl-test-" + std::to_string(pid) + "-" + std::to_string(stamp) + "-" + std::to_string(counter++));
  std::filesystem::create_directories(m_path);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(m_path, ec);
}

}  // namespace tfwsl::test
