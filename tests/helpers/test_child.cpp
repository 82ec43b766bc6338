// A child process with scripted behaviour for the process-runner tests (never shipped):
//   test_child args            each argument after "args" as hex bytes, one per line (stdout)
//   test_child exit N          exits with N
//   test_child flood N         N bytes to stdout and N bytes to stderr, interleaved in 4 KiB writes
//   test_child sleep MS        sleeps, then prints "woke"
//   test_child cat             copies stdin to stdout
//   test_child env NAME        prints the variable's value, or "<unset>"
//   test_child cwd             prints the working directory
//   test_child quiet-exit MS   closes stdout and stderr, sleeps, then exits 7
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "common/text/utf_convert.hpp"

#if defined(_WIN32)
#include <fcntl.h>
#include <io.h>
#include <windows.h>
#endif

namespace {

void write_all(FILE* f, const std::string& s) { std::fwrite(s.data(), 1, s.size(), f); }

int run(const std::vector<std::string>& args) {
  if (args.size() < 2) return 64;
  const std::string& verb = args[1];
  if (verb == "args") {
    static const char* hex = "0123456789abcdef";
    for (std::size_t i = 2; i < args.size(); ++i) {
      std::string line;
      for (unsigned char c : args[i]) {
        line += hex[c >> 4];
        line += hex[c & 15];
      }
      write_all(stdout, line + "\n");
    }
    return 0;
  }
  if (verb == "exit" && args.size() > 2) return std::atoi(args[2].c_str());
  if (verb == "flood" && args.size() > 2) {
    long total = std::atol(args[2].c_str());
    std::string chunk_out(4096, 'o');
    std::string chunk_err(4096, 'e');
    for (long done = 0; done < total;) {
      long n = std::min<long>(4096, total - done);
      std::fwrite(chunk_out.data(), 1, n, stdout);
      std::fwrite(chunk_err.data(), 1, n, stderr);
      done += n;
    }
    return 0;
  }
  if (verb == "sleep" && args.size() > 2) {
    std::this_thread::sleep_for(std::chrono::milliseconds(std::atol(args[2].c_str())));
    write_all(stdout, "woke\n");
    return 0;
  }
  if (verb == "cat") {
    char buf[65536];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, stdin)) > 0) std::fwrite(buf, 1, n, stdout);
    return 0;
  }
  if (verb == "env" && args.size() > 2) {
#if defined(_WIN32)
    const wchar_t* v = _wgetenv(tfwsl::utf8_to_wide(args[2]).c_str());
    write_all(stdout, v ? tfwsl::wide_to_utf8(v) : std::string("<unset>"));
#else
    const char* v = std::getenv(args[2].c_str());
    write_all(stdout, v ? v : "<unset>");
#endif
    return 0;
  }
  if (verb == "quiet-exit" && args.size() > 2) {
    write_all(stdout, "closing\n");
    std::fflush(stdout);
    std::fclose(stdout);
    std::fclose(stderr);
    std::this_thread::sleep_for(std::chrono::milliseconds(std::atol(args[2].c_str())));
    return 7;
  }
  if (verb == "cwd") {
    write_all(stdout, tfwsl::wide_to_utf8(std::filesystem::current_path().wstring()));
    return 0;
  }
  return 64;
}

}  // namespace

#if defined(_WIN32)
int wmain(int argc, wchar_t** argv) {
  _setmode(_fileno(stdout), _O_BINARY);
  _setmode(_fileno(stdin), _O_BINARY);
  _setmode(_fileno(stderr), _O_BINARY);
  std::vector<std::string> args;
  for (int i = 0; i < argc; ++i) args.push_back(tfwsl::wide_to_utf8(argv[i]));
  return run(args);
}
#else
int main(int argc, char** argv) { return run(std::vector<std::string>(argv, argv + argc)); }
#endif
