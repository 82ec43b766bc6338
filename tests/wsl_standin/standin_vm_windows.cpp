#include "tests/wsl_standin/standin_vm_windows.hpp"

#include <windows.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "common/text/utf_convert.hpp"

namespace tfwsl::standin {
namespace {

namespace fs = std::filesystem;
constexpr std::uint64_t k_vm_gib = 1ULL << 30;

std::string vm_env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

fs::path vm_state_path() {
  const fs::path log(utf8_to_wide(vm_env("TFWSL_STANDIN_LOG")));
  return log.parent_path() / "standin-vm.txt";
}

std::map<std::string, std::string> read_vm_state() {
  std::map<std::string, std::string> state;
  std::ifstream in(vm_state_path());
  std::string line;
  while (std::getline(in, line))
    if (auto eq = line.find('='); eq != std::string::npos) state[line.substr(0, eq)] = line.substr(eq + 1);
  return state;
}

void write_vm_state(const std::map<std::string, std::string>& state) {
  std::ofstream out(vm_state_path(), std::ios::trunc);
  for (const auto& [key, value] : state) out << key << "=" << value << "\n";
}

void write_out(const std::string& bytes) {
  DWORD n = 0;
  WriteFile(GetStdHandle(STD_OUTPUT_HANDLE), bytes.data(), static_cast<DWORD>(bytes.size()), &n, nullptr);
}

// wsl.exe's own messages arrive as UTF-16LE.
void write_utf16(const std::string& ascii) {
  std::string bytes;
  for (char c : ascii) bytes += c, bytes += '\0';
  write_out(bytes);
}

// WSL's size syntax: digits, then nothing, B, K/KB, M/MB, G/GB or T/TB (upper case).
std::optional<std::uint64_t> vm_size(std::string text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\r' || text.back() == '\t')) text.pop_back();
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0 || digits > 15) return std::nullopt;
  const std::uint64_t n = std::stoull(text.substr(0, digits));
  const std::string unit = text.substr(digits);
  static const std::map<std::string, int> shifts{{"", 0},    {"B", 0},  {"K", 10},  {"KB", 10}, {"M", 20},
                                                 {"MB", 20}, {"G", 30}, {"GB", 30}, {"T", 40},  {"TB", 40}};
  auto it = shifts.find(unit);
  if (it == shifts.end()) return std::nullopt;
  return n << it->second;
}

// [wsl2] key -> value, last one wins; empty when WSL would not read the file (missing, a BOM, UTF-16).
std::map<std::string, std::string> read_wsl2_section() {
  std::map<std::string, std::string> values;
  std::ifstream in(fs::path(utf8_to_wide(vm_env("TFWSL_WSLCONFIG"))), std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  const std::string bytes = s.str();
  if (bytes.rfind("\xEF\xBB\xBF", 0) == 0 || bytes.rfind("\xFF\xFE", 0) == 0 || bytes.find('\0') != std::string::npos)
    return values;
  std::istringstream lines(bytes);
  std::string line, section;
  while (std::getline(lines, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.rfind("[", 0) == 0) section = line;
    auto eq = line.find('=');
    if (section != "[wsl2]" || eq == std::string::npos) continue;
    std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    while (!key.empty() && key.back() == ' ') key.pop_back();
    while (!value.empty() && value.front() == ' ') value.erase(0, 1);
    for (auto& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    values[key] = value;
  }
  return values;
}

std::uint64_t host_ram() {
  if (auto forced = vm_size(vm_env("TFWSL_TEST_HOST_RAM"))) return *forced;
  MEMORYSTATUSEX mem{};
  mem.dwLength = sizeof mem;
  GlobalMemoryStatusEx(&mem);
  return mem.ullTotalPhys;
}

// Replaces "Name:   N kB" lines of the fake distro's /proc/meminfo.
void rewrite_meminfo(std::uint64_t mem_total_kb, std::uint64_t swap_kb) {
  const fs::path meminfo = fs::path(utf8_to_wide(vm_env("TFWSL_STANDIN_DISTRO"))) / "proc" / "meminfo";
  std::ifstream in(meminfo);
  std::string line, out;
  while (std::getline(in, line)) {
    const std::string name = line.substr(0, line.find(':'));
    const std::map<std::string, std::uint64_t> replaced{
        {"MemTotal", mem_total_kb}, {"SwapTotal", swap_kb}, {"SwapFree", swap_kb}};
    if (auto it = replaced.find(name); it != replaced.end()) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%-16s%8llu kB", (name + ":").c_str(),
                    static_cast<unsigned long long>(it->second));
      line = buf;
    }
    out += line + "\n";
  }
  in.close();
  std::ofstream(meminfo, std::ios::trunc | std::ios::binary) << out;
}

// The VM boots: the .wslconfig as WSL reads it decides its memory, swap and processors.
void boot_vm(std::map<std::string, std::string>& state) {
  const auto config = read_wsl2_section();
  auto setting = [&](const char* key) {
    auto it = config.find(key);
    return it == config.end() ? std::string() : it->second;
  };
  const std::uint64_t memory = vm_size(setting("memory")).value_or(host_ram() / 2);
  const std::uint64_t swap = vm_size(setting("swap")).value_or((memory / 4 + k_vm_gib - 1) / k_vm_gib * k_vm_gib);
  std::string processors = setting("processors");
  if (processors.empty() || processors.find_first_not_of("0123456789") != std::string::npos)
    processors = vm_env("TFWSL_TEST_HOST_PROCESSORS").empty()
                     ? std::to_string(GetActiveProcessorCount(ALL_PROCESSOR_GROUPS))
                     : vm_env("TFWSL_TEST_HOST_PROCESSORS");
  rewrite_meminfo(memory / 1024 * 97 / 100, swap / 1024);
  state["state"] = "running";
  state["processors"] = processors;
}

std::optional<int> answer_exec(const std::vector<std::string>& linux_argv, std::map<std::string, std::string>& state) {
  if (state["state"] == "stopped" || state["state"] == "stopping") {
    boot_vm(state);
    write_vm_state(state);
  }
  if (linux_argv.size() == 2 && linux_argv[0] == "cat" && linux_argv[1].rfind("/proc/", 0) == 0 &&
      !vm_env("TFWSL_STANDIN_DISTRO").empty()) {
    std::ifstream in(fs::path(utf8_to_wide(vm_env("TFWSL_STANDIN_DISTRO") + linux_argv[1])), std::ios::binary);
    if (!in) return 1;
    std::stringstream s;
    s << in.rdbuf();
    write_out(s.str());
    return 0;
  }
  if (linux_argv.size() == 1 && linux_argv[0] == "nproc" && !state["processors"].empty()) {
    write_out(state["processors"] + "\n");
    return 0;
  }
  return std::nullopt;
}

}  // namespace

std::optional<int> answer_as_vm(const std::vector<std::string>& args) {
  if (vm_env("TFWSL_STANDIN_LOG").empty()) return std::nullopt;
  auto state = read_vm_state();
  if (args.size() == 1 && args[0] == "--shutdown") {
    state["state"] = "stopping";
    state.erase("processors");
    write_vm_state(state);
    return 0;
  }
  const bool list_running = args.size() >= 2 && (args[0] == "--list" || args[0] == "-l") && args[1] == "--running";
  if (list_running && !state["state"].empty()) {
    if (state["state"] == "stopped") {
      write_utf16("There are no running distributions.\r\n");
      return -1;
    }
    if (state["state"] == "stopping") state["state"] = "stopped", write_vm_state(state);
    write_utf16("Ubuntu-22.04\r\n");
    return 0;
  }
  for (std::size_t i = 0; i < args.size(); ++i)
    if (args[i] == "--exec" || args[i] == "-e")
      return answer_exec(std::vector<std::string>(args.begin() + static_cast<long>(i) + 1, args.end()), state);
  return std::nullopt;
}

}  // namespace tfwsl::standin
