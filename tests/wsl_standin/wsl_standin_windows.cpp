// A stand-in for wsl.exe (and nvidia-smi.exe), for the Wine scenario tests; never shipped.
//
// Per scenario (TFWSL_STANDIN_SCENARIO: a folder with scenario.txt) it replays recorded behaviour:
// the bytes wsl.exe wrote (UTF-16LE, CRLF) and its exit code (4294967295 for errors). Every
// invocation is appended to TFWSL_STANDIN_LOG, one line each (arguments joined by spaces, a newline
// inside an argument written as \n): the scenario runner reads it to prove a doctor run changed nothing. `--exec`
// commands are relayed to the Linux-side relay on 127.0.0.1:TFWSL_STANDIN_RELAY_PORT (relay_protocol.hpp), which runs
// them and streams stdin, stdout, stderr and the exit code back.
//
// scenario.txt lines: `<invocation> = <output file or -> <exit code> [<stderr file>]`; the invocation is
// the arguments joined by spaces ("-l -v", "--version"), or a prefix of them at a word boundary
// ("--terminate"), or "*" for anything else; nvidia-smi.exe invocations start with "nvidia-smi".
// `exec = relay` enables --exec; `exec = <file> <code>` replays instead.
//
// TFWSL_STANDIN_LINGER_MS=N (the exit soak's --linger-seconds; docs/building.md, "The exit page
// fault"): a relayed --exec of the agent (its Linux command line names tfwsl-agent) leaves a
// grandchild behind: a copy of this program, started with inherited handles just before the
// stand-in exits, that holds the stand-in's stdout and stderr (the caller's pipes) open for N ms
// more and then exits: the case of a process that inherited the child's pipes and outlives it.
// winsock2.h must come before windows.h, which would otherwise pull in the older winsock.h.
// clang-format off
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>
// clang-format on

#include <cstdio>
#include <cstdlib>
#include <cwchar>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/text/utf_convert.hpp"
#include "tests/wsl_standin/relay_protocol.hpp"
#include "tests/wsl_standin/standin_vm_windows.hpp"

namespace {

using tfwsl::wide_to_utf8;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

std::string read_all(const std::string& path) {
  std::ifstream in(std::filesystem::path(tfwsl::utf8_to_wide(path)), std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_handle(DWORD which, const std::string& bytes) {
  HANDLE h = GetStdHandle(which);
  std::size_t done = 0;
  while (done < bytes.size()) {
    DWORD n = 0;
    if (!WriteFile(h, bytes.data() + done, static_cast<DWORD>(bytes.size() - done), &n, nullptr) || n == 0) return;
    done += n;
  }
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r' || s.back() == '\t')) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return s.substr(i);
}

std::string json_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\', out += c;
    else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else
      out += c;
  }
  return out;
}

bool send_all(SOCKET s, const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    int n = send(s, bytes.data() + done, static_cast<int>(bytes.size() - done), 0);
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

bool recv_all(SOCKET s, char* p, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    int n = recv(s, p + done, static_cast<int>(size - done), 0);
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

struct StdinPump {
  SOCKET socket;
};

// The stdin pump and the console's Ctrl-C both send frames on the relay's socket: one at a time.
CRITICAL_SECTION g_send_lock;
SOCKET g_relay_socket = INVALID_SOCKET;

bool send_frame(SOCKET s, char type, const std::string& payload) {
  EnterCriticalSection(&g_send_lock);
  const bool sent = send_all(s, tfwsl::standin::encode_relay_frame(type, payload));
  LeaveCriticalSection(&g_send_lock);
  return sent;
}

// wsl.exe on a console takes Ctrl-C as the Linux side's (a terminal's SIGINT to its foreground job)
// and keeps running until that side ends: the stand-in passes it to the relay the same way.
BOOL WINAPI pass_ctrl_c(DWORD event) {
  if (event != CTRL_C_EVENT && event != CTRL_BREAK_EVENT) return FALSE;
  if (g_relay_socket != INVALID_SOCKET) send_frame(g_relay_socket, tfwsl::standin::k_frame_interrupt, "");
  return TRUE;
}

DWORD WINAPI pump_stdin(LPVOID param) {
  auto* pump = static_cast<StdinPump*>(param);
  HANDLE in = GetStdHandle(STD_INPUT_HANDLE);
  char buf[16384];
  for (;;) {
    DWORD n = 0;
    if (in == INVALID_HANDLE_VALUE || in == nullptr || !ReadFile(in, buf, sizeof buf, &n, nullptr) || n == 0) break;
    if (!send_frame(pump->socket, tfwsl::standin::k_frame_stdin, std::string(buf, n))) return 0;
  }
  send_frame(pump->socket, tfwsl::standin::k_frame_stdin, "");
  return 0;
}

// Relays one --exec command; returns its exit code.
// `tfwsl provision` (tests/windows/provision_session.py): with `install = fake` in scenario.txt,
// --install and --set-version change installed.txt beside it ("<name> <version>" lines), and
// `-l -v` lists those distros after the recorded table, as wsl.exe would after the change;
// `--exec id -un` answers default-user.txt when there is one.
std::vector<std::pair<std::string, std::string>> read_installed(const std::string& dir) {
  std::vector<std::pair<std::string, std::string>> out;
  std::ifstream in(std::filesystem::path(tfwsl::utf8_to_wide(dir + "\\installed.txt")));
  std::string name, version;
  while (in >> name >> version) out.emplace_back(name, version);
  return out;
}

void write_installed(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& list) {
  std::ofstream out(std::filesystem::path(tfwsl::utf8_to_wide(dir + "\\installed.txt")), std::ios::trunc);
  for (const auto& [name, version] : list) out << name << " " << version << "\n";
}

bool fake_install_enabled(const std::string& dir) {
  std::ifstream table(std::filesystem::path(tfwsl::utf8_to_wide(dir + "\\scenario.txt")));
  std::string line;
  while (std::getline(table, line))
    if (trim(line) == "install = fake") return true;
  return false;
}

std::string utf16le_bytes(const std::string& utf8) {
  std::string bytes;
  for (char16_t ch : tfwsl::utf8_to_utf16(utf8)) {
    bytes += static_cast<char>(ch & 0xFF);
    bytes += static_cast<char>(ch >> 8);
  }
  return bytes;
}

// The exit code when the call was --install or --set-version of a fake-install scenario.
int fake_install_call(const std::vector<std::string>& args, const std::string& dir) {
  auto list = read_installed(dir);
  if (args.size() >= 3 && args[0] == "--install" && (args[1] == "-d" || args[1] == "--distribution")) {
    for (const auto& [name, version] : list)
      if (name == args[2]) return 0;
    list.emplace_back(args[2], "1");  // a fresh install as WSL 1, so that --set-version has work to do
    write_installed(dir, list);
    write_handle(STD_OUTPUT_HANDLE, utf16le_bytes("Installing: " + args[2] + "\r\n"));
    return 0;
  }
  // The distro's default user, which WSL (not the distro's files) decides: default-user.txt.
  if (args.size() >= 3 && args[args.size() - 3] == "--exec" && args[args.size() - 2] == "id" && args.back() == "-un") {
    const std::string user = trim(read_all(dir + "\\default-user.txt"));
    if (!user.empty()) {
      write_handle(STD_OUTPUT_HANDLE, user + "\n");
      return 0;
    }
  }
  if (args.size() == 3 && args[0] == "--set-version") {
    for (auto& [name, version] : list)
      if (name == args[1]) version = args[2];
    write_installed(dir, list);
    return 0;
  }
  return -1;
}

// The installed distros as more rows of `wsl -l -v`. As WSL does, the first one installed becomes
// the default when the recorded table has none (its "* " row).
std::string fake_installed_rows(const std::string& dir, const std::string& recorded_utf16) {
  const std::string default_row = utf16le_bytes("* ");
  bool has_default = recorded_utf16.rfind(default_row, 0) == 0 ||
                     recorded_utf16.find(utf16le_bytes("\n") + default_row) != std::string::npos;
  std::string rows;
  for (const auto& [name, version] : read_installed(dir)) {
    rows += (has_default ? "  " : "* ") + name + "    Stopped    " + version + "\r\n";
    has_default = true;
  }
  return utf16le_bytes(rows);
}

// The lingering grandchild (TFWSL_STANDIN_LINGER_MS): this program again, as
// `<self> --standin-linger N`, with the stand-in's own stdout and stderr as its standard handles,
// inherited. It is started without waiting for it; the stand-in then exits.
constexpr wchar_t k_linger_flag[] = L"--standin-linger";

void leave_lingering_grandchild(unsigned long ms) {
  wchar_t self[MAX_PATH];
  DWORD len = GetModuleFileNameW(nullptr, self, MAX_PATH);
  if (len == 0 || len >= MAX_PATH) return;
  std::wstring line = L"\"" + std::wstring(self, len) + L"\" " + k_linger_flag + L" " + std::to_wstring(ms);
  STARTUPINFOW si{};
  si.cb = sizeof si;
  si.dwFlags = STARTF_USESTDHANDLES;
  si.hStdInput = nullptr;
  si.hStdOutput = GetStdHandle(STD_OUTPUT_HANDLE);
  si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
  for (HANDLE h : {si.hStdOutput, si.hStdError})
    if (h && h != INVALID_HANDLE_VALUE) SetHandleInformation(h, HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
  PROCESS_INFORMATION pi{};
  if (CreateProcessW(nullptr, line.data(), nullptr, nullptr, TRUE, CREATE_NO_WINDOW, nullptr, nullptr, &si, &pi)) {
    CloseHandle(pi.hThread);
    CloseHandle(pi.hProcess);
  }
}

int relay_exec(const std::vector<std::string>& args, const std::string& scenario_name) {
  std::string distro, user, cd;
  std::vector<std::string> linux_argv;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if ((a == "-d" || a == "--distribution") && i + 1 < args.size())
      distro = args[++i];
    else if ((a == "-u" || a == "--user") && i + 1 < args.size())
      user = args[++i];
    else if (a == "--cd" && i + 1 < args.size())
      cd = args[++i];
    else if (a == "--exec" || a == "-e") {
      linux_argv.assign(args.begin() + static_cast<long>(i) + 1, args.end());
      break;
    }
  }
  int port = std::atoi(env("TFWSL_STANDIN_RELAY_PORT").c_str());
  if (port <= 0) {
    write_handle(STD_ERROR_HANDLE, "wsl stand-in: TFWSL_STANDIN_RELAY_PORT is not set\n");
    return 1;
  }
  WSADATA wsa;
  WSAStartup(MAKEWORD(2, 2), &wsa);
  SOCKET s = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<u_short>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    write_handle(STD_ERROR_HANDLE, "wsl stand-in: cannot reach the relay on 127.0.0.1:" + std::to_string(port) + "\n");
    return 1;
  }
  std::string header = "{\"argv\":[";
  for (std::size_t i = 0; i < linux_argv.size(); ++i) header += (i ? ",\"" : "\"") + json_escape(linux_argv[i]) + "\"";
  header += "],\"distro\":\"" + json_escape(distro) + "\",\"user\":\"" + json_escape(user) + "\",\"cd\":\"" +
            json_escape(cd) + "\",\"scenario\":\"" + json_escape(scenario_name) + "\"}\n";
  if (!send_all(s, header)) return 1;
  InitializeCriticalSection(&g_send_lock);
  g_relay_socket = s;
  SetConsoleCtrlHandler(pass_ctrl_c, TRUE);
  static StdinPump pump{s};
  CreateThread(nullptr, 0, pump_stdin, &pump, 0, nullptr);
  auto lost = [&]() {
    write_handle(STD_ERROR_HANDLE, "wsl stand-in: the relay's connection broke before the exit code (WSA error " +
                                       std::to_string(WSAGetLastError()) + ")\n");
    return 1;
  };
  for (;;) {
    char head[5];
    if (!recv_all(s, head, 5)) return lost();
    std::uint32_t n = tfwsl::standin::decode_le32(head + 1);
    std::string payload(n, '\0');
    if (n && !recv_all(s, payload.data(), n)) return lost();
    if (head[0] == tfwsl::standin::k_frame_stdout)
      write_handle(STD_OUTPUT_HANDLE, payload);
    else if (head[0] == tfwsl::standin::k_frame_stderr)
      write_handle(STD_ERROR_HANDLE, payload);
    else if (head[0] == tfwsl::standin::k_frame_exit && n == 4) {
      const int code = static_cast<int>(tfwsl::standin::decode_le32(payload.data()));
      closesocket(s);  // the relay's connection ends here, not with the grandchild
      bool agent = false;
      for (const auto& a : linux_argv) agent = agent || a.find("tfwsl-agent") != std::string::npos;
      const unsigned long linger = std::strtoul(env("TFWSL_STANDIN_LINGER_MS").c_str(), nullptr, 10);
      if (agent && linger > 0) leave_lingering_grandchild(linger);
      return code;
    }
  }
}

}  // namespace

int wmain(int argc, wchar_t** argv) {
  // The lingering grandchild (leave_lingering_grandchild): it holds the inherited handles, logs
  // nothing and answers nothing.
  if (argc == 3 && std::wstring(argv[1]) == k_linger_flag) {
    Sleep(static_cast<DWORD>(std::wcstoul(argv[2], nullptr, 10)));
    ExitProcess(0);
  }
  std::string self = wide_to_utf8(argv[0]);
  std::size_t slash = self.find_last_of("\\/");
  std::string name = slash == std::string::npos ? self : self.substr(slash + 1);
  for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  bool as_nvidia_smi = name.rfind("nvidia-smi", 0) == 0;

  std::vector<std::string> args;
  std::string joined = as_nvidia_smi ? "nvidia-smi" : "";
  for (int i = 1; i < argc; ++i) {
    args.push_back(wide_to_utf8(argv[i]));
    joined += (joined.empty() ? "" : " ") + args.back();
  }
  std::string log = env("TFWSL_STANDIN_LOG");
  if (!log.empty()) {
    std::ofstream out(std::filesystem::path(tfwsl::utf8_to_wide(log)), std::ios::app | std::ios::binary);
    std::string one_line;
    for (char c : joined) one_line += c == '\n' ? std::string("\\n") : std::string(1, c);
    out << (as_nvidia_smi ? "nvidia-smi.exe " : "wsl.exe ") << one_line << "\n";
  }
  // The VM's part (--shutdown, --list --running, booting with the .wslconfig): standin_vm_windows.hpp.
  if (auto code = tfwsl::standin::answer_as_vm(args)) ExitProcess(static_cast<UINT>(*code));
  std::string dir = env("TFWSL_STANDIN_SCENARIO");
  std::ifstream table(std::filesystem::path(tfwsl::utf8_to_wide(dir + "\\scenario.txt")));
  if (dir.empty() || !table) {
    write_handle(STD_ERROR_HANDLE, "wsl stand-in: TFWSL_STANDIN_SCENARIO does not name a folder with scenario.txt\n");
    return 1;
  }
  const bool fake_install = !as_nvidia_smi && fake_install_enabled(dir);
  if (fake_install) {
    if (int code = fake_install_call(args, dir); code >= 0) return code;
  }
  bool is_exec = false;
  for (const auto& a : args) is_exec = is_exec || a == "--exec" || a == "-e";
  std::string best_key, best_value, fallback;
  std::string line;
  while (std::getline(table, line)) {
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    std::size_t eq = line.find(" = ");
    if (eq == std::string::npos) continue;
    std::string key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 3));
    if (key == "*" && !as_nvidia_smi) fallback = value;
    if (is_exec && !as_nvidia_smi) {
      if (key == "exec") best_key = key, best_value = value;
      continue;
    }
    bool match = joined == key || (joined.rfind(key + " ", 0) == 0);
    if (match && key.size() > best_key.size()) best_key = key, best_value = value;
  }
  if (best_key.empty()) best_value = fallback;
  if (best_value.empty()) {
    write_handle(STD_ERROR_HANDLE, "wsl stand-in: the scenario has no answer for: " + joined + "\n");
    return 1;
  }
  if (best_value == "relay") {
    std::string scenario_name = dir.substr(dir.find_last_of("\\/") + 1);
    return relay_exec(args, scenario_name);
  }
  std::istringstream fields(best_value);
  std::string out_file, err_file;
  unsigned long long code = 0;
  fields >> out_file >> code >> err_file;
  const std::string recorded = out_file != "-" ? read_all(dir + "\\" + out_file) : std::string();
  if (out_file != "-") write_handle(STD_OUTPUT_HANDLE, recorded);
  if (fake_install && joined == "-l -v") write_handle(STD_OUTPUT_HANDLE, fake_installed_rows(dir, recorded));
  if (!err_file.empty()) write_handle(STD_ERROR_HANDLE, read_all(dir + "\\" + err_file));
  ExitProcess(static_cast<UINT>(code));
}
